import type http from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { page, pathOf, runTestCrawl, startRouteSite, type TestSite } from "../helpers/crawl-fixtures";

let site: TestSite | null = null;
afterEach(async () => {
  await site?.close();
  site = null;
});

const IMAGE_BYTES = 64 * 1024 * 1024;

/** An extension-less image, chunked, written as fast as the client reads it; records what got out. */
function endlessImage(report: { sent: number; closedEarly: boolean | null }) {
  return (req: http.IncomingMessage, res: http.ServerResponse) => {
    res.writeHead(200, { "content-type": "image/jpeg" });
    if (req.method === "HEAD") return void res.end();
    const chunk = Buffer.alloc(64 * 1024, 0xff);
    res.on("close", () => {
      report.closedEarly = !res.writableFinished;
    });
    const pump = () => {
      while (report.sent < IMAGE_BYTES && !res.destroyed) {
        report.sent += chunk.length;
        if (!res.write(chunk)) return void res.once("drain", pump);
      }
      if (!res.destroyed) res.end();
    };
    pump();
  };
}

describe("MIME blocklist", () => {
  it("aborts an image body as soon as its headers arrive, and still counts the request", async () => {
    const report = { sent: 0, closedEarly: null as boolean | null };
    site = await startRouteSite({
      // The HEAD bootstrap types a redirect as a page; the GET lands on the image.
      "/": page(["/latest-photo", "/ok"]),
      "/latest-photo": { status: 302, headers: { location: "/media/photo" } },
      "/media/photo": endlessImage(report),
      "/ok": page([]),
    });
    const crawl = await runTestCrawl({ rootUrl: site.rootUrl });

    expect(crawl.stopReason).toBe("site-exhausted");
    const rows = crawl.counted.filter((row) => pathOf(row.url) === "/media/photo");
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ method: "GET", status: 200, mime: "image/jpeg", outcome: "blocked-mime", isTarget: false });
    expect(rows[0]!.seq).toBeGreaterThan(0);
    // Only the headers are counted; the server saw its socket closed long before the end.
    expect(rows[0]!.bytes).toBeLessThan(1024);
    await expect.poll(() => report.closedEarly).toBe(true);
    console.log(`MIME abort: the server got ${(report.sent / 1024 / 1024).toFixed(1)} MiB of a ${IMAGE_BYTES / 1024 / 1024} MiB image out before the socket closed; ${rows[0]!.bytes} bytes counted`);
    expect(report.sent).toBeLessThan(IMAGE_BYTES / 4);
    expect(crawl.counters.nonTargetBytes + crawl.counters.targetBytes).toBeLessThan(64 * 1024);
    expect(site.saw("/ok")).toBe(true);
  });
});

describe("files served as application/octet-stream", () => {
  it("are typed by their Content-Disposition file name or URL: a spreadsheet is a data file, an image or a nameless blob is not a target (and a CSV attachment sent as text/html is a CSV)", async () => {
    const octet = (name: string | null) => ({
      type: "application/octet-stream",
      headers: name ? { "content-disposition": `attachment; filename="${name}"` } : ({} as Record<string, string>),
      body: Buffer.alloc(2048, 1),
    });
    site = await startRouteSite({
      "/": page(["/download.php?id=1", "/download.php?id=2", "/download.php?id=3", "/files/annex.csv", "/export.php?t=4"]),
      // An export script that forgot its Content-Type: PHP's default, text/html, on a CSV attachment.
      "/export.php?t=4": { type: "text/html; charset=utf-8", headers: { "content-disposition": `attachment; filename="table_4.csv"` }, body: "year,value\n2024,4\n" },
      "/download.php?id=1": octet("population-2024.xlsx"),
      "/download.php?id=2": octet("chart.png"),
      "/download.php?id=3": octet(null),
      "/files/annex.csv": octet(null),
    });
    // The "data files" list, which (unlike the paper's) leaves application/octet-stream out.
    const crawl = await runTestCrawl({ rootUrl: site.rootUrl, targetMimeTypes: ["text/csv", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"] });

    expect(crawl.stopReason).toBe("site-exhausted");
    expect(crawl.sink.targets.map((t) => pathOf(t.url)).sort()).toEqual(["/download.php?id=1", "/export.php?t=4", "/files/annex.csv"]);
    const gets = new Map(crawl.counted.filter((row) => row.method === "GET").map((row) => [pathOf(row.url), row]));
    expect(gets.get("/download.php?id=1")).toMatchObject({ mime: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", isTarget: true });
    expect(gets.get("/files/annex.csv")).toMatchObject({ mime: "text/csv", isTarget: true });
    // Typed by the bootstrap HEAD: neither a page nor a target, so never fetched.
    const requestsOf = (path: string) => crawl.counted.filter((row) => pathOf(row.url) === path).map((row) => [row.method, row.mime]);
    expect(requestsOf("/download.php?id=2")).toEqual([["HEAD", "image/png"]]);
    expect(requestsOf("/download.php?id=3")).toEqual([["HEAD", "application/octet-stream"]]);
  });
});

describe("URL blocklists", () => {
  const links = [
    "/a/PHOTO.JPG",
    "/b/clip.Mp4",
    "/c/img.jpg/view",
    "/page?file=x.jpg",
    "/skip/this",
    "/secret-123",
    "/secret-abc",
    "/r-skip",
    "/r-media",
    "/report.csv",
    "/DATA.CSV",
    "/keep",
  ];
  const routes = () =>
    startRouteSite({
      "/": page(links),
      "/a/PHOTO.JPG": { type: "image/jpeg", body: "jpg" },
      "/b/clip.Mp4": { type: "video/mp4", body: "mp4" },
      "/c/img.jpg/view": page([]),
      "/page?file=x.jpg": page([]),
      "/skip/this": page([]),
      "/skip/that": page([]),
      "/secret-123": page([]),
      "/secret-abc": page([]),
      "/r-skip": { status: 302, headers: { location: "/skip/that" } },
      "/r-media": { status: 302, headers: { location: "/m/pic.PNG" } },
      "/m/pic.PNG": { type: "image/png", body: "png" },
      "/report.csv": { type: "text/csv", body: "a\n1\n" },
      "/DATA.CSV": { type: "text/csv", body: "b\n2\n" },
      "/keep": page([]),
    });

  it("never requests a URL whose last segment has a blocked extension (any case) or that matches a glob or re: pattern", async () => {
    site = await routes();
    const crawl = await runTestCrawl({
      rootUrl: site.rootUrl,
      blocklist: { urlPatterns: [`${site.origin}/skip/*`, "re:secret-\\d+$"] },
    });

    expect(crawl.stopReason).toBe("site-exhausted");
    for (const path of ["/a/PHOTO.JPG", "/b/clip.Mp4", "/m/pic.PNG", "/skip/this", "/skip/that", "/secret-123"]) {
      expect(site.saw(path), path).toBe(false);
    }
    // Extensions only count on the last segment, and patterns only where they match.
    for (const path of ["/c/img.jpg/view", "/page?file=x.jpg", "/secret-abc", "/keep", "/r-skip", "/r-media", "/report.csv", "/DATA.CSV"]) {
      expect(site.saw(path), path).toBe(true);
    }
    // A redirect into a blocked URL ends there: one counted GET for the hop, none for the target.
    expect(crawl.counted.filter((row) => row.method === "GET" && pathOf(row.url) === "/r-skip")).toMatchObject([
      { outcome: "redirect", redirectTo: `${site.origin}/skip/that` },
    ]);
    expect(crawl.sink.targets.map((t) => pathOf(t.url)).sort()).toEqual(["/DATA.CSV", "/report.csv"]);
  });

  it("never requests a waiting link that a URL pattern added during the crawl matches", async () => {
    site = await startRouteSite({
      "/": page(["/a", "/skip/1", "/b", "/skip/2", "/skip/3"]),
      "/a": page(["/skip/4", "/c"]),
      "/b": page([]),
      "/c": page([]),
      "/skip/1": page([]),
      "/skip/2": page([]),
      "/skip/3": page([]),
      "/skip/4": page([]),
    });
    let patterns: readonly string[] = [];
    const crawl = await runTestCrawl(
      { rootUrl: site.rootUrl, strategy: "bfs" },
      {
        live: () => ({ delayMs: 0, urlPatterns: patterns }),
        // After /a (the second page GET), /skip/1, /skip/2, /skip/3 and /skip/4 wait in the queue.
        stopWhen: (counters) => {
          if (counters.getRequests === 2) patterns = [`${site!.origin}/skip/*`]; // a new list, as live settings are
          return false;
        },
      },
    );

    expect(crawl.stopReason).toBe("site-exhausted");
    expect(crawl.counted.filter((row) => row.method === "GET").map((row) => pathOf(row.url))).toEqual(["/", "/a", "/b", "/c"]);
    // Typed by HEAD while the classifier was untrained, before the pattern existed; never fetched.
    expect(site.paths("GET").filter((path) => path.startsWith("/skip/"))).toEqual([]);
  });

  it("uses the crawl's own extension list instead of the default one", async () => {
    site = await routes();
    const crawl = await runTestCrawl({ rootUrl: site.rootUrl, blocklist: { extensions: ["csv", ".Mp4"] } });

    for (const path of ["/report.csv", "/DATA.CSV", "/b/clip.Mp4"]) expect(site.saw(path), path).toBe(false);
    // .jpg is no longer blocked by extension: the URL is requested (and its image body aborted).
    expect(site.saw("/a/PHOTO.JPG")).toBe(true);
    expect(crawl.sink.targets).toEqual([]);
  });
});

describe("dead URL shapes", () => {
  /*
   * Three extension-less images /media/{1,2,3}/download make the shape /media/#/download dead;
   * /media/4/download (already queued) then answers a PDF: the shape must come back, so that
   * /media/5 and /media/6 (PDFs) are fetched.
   */
  it("a URL shape that answered a target is not skipped, even after three useless answers", async () => {
    const pdf = { type: "application/pdf", body: "%PDF-1.4 test" };
    const jpg = { type: "image/jpeg", body: "jpeg" };
    site = await startRouteSite({
      "/": page(["/media/1/download", "/media/2/download", "/media/3/download", "/media/4/download", "/list"]),
      "/media/1/download": jpg,
      "/media/2/download": jpg,
      "/media/3/download": jpg,
      "/media/4/download": pdf,
      "/list": page(["/media/5/download", "/media/6/download"]),
      "/media/5/download": pdf,
      "/media/6/download": pdf,
    });
    // A batch of 1 trains the classifier on the home page: links are typed without HEAD and fetched in order.
    const crawl = await runTestCrawl({ rootUrl: site.rootUrl, strategy: "bfs", params: { classifierBatchSize: 1 } });

    expect(crawl.sink.targets.map((t) => pathOf(t.url)).sort()).toEqual(["/media/4/download", "/media/5/download", "/media/6/download"]);
  });

  /*
   * A download endpoint serving PDFs and spreadsheets, with CSV as the only target type: the first
   * three answers (PDFs) kill /media/#/download. The list's 16 links are then set aside, except the
   * 4th, 8th and 16th to arrive (probes: /media/7, /media/11, /media/19); /media/11 answers a CSV,
   * so the shape revives and the 13 set-aside links come back, /media/5 among them. Dropping them
   * instead lost /media/5 for good.
   */
  it("sets a dead shape's links aside and brings them back when a probe answers a target", async () => {
    const pdf = { type: "application/pdf", body: "%PDF-1.4 test" };
    const csv = { type: "text/csv", body: "a,b\n1,2\n" };
    const media = Array.from({ length: 16 }, (_, i) => `/media/${4 + i}/download`);
    site = await startRouteSite({
      "/": page(["/media/1/download", "/media/2/download", "/media/3/download", "/list"]),
      "/list": page(media),
      ...Object.fromEntries(media.map((path) => [path, pdf])),
      "/media/1/download": pdf,
      "/media/2/download": pdf,
      "/media/3/download": pdf,
      "/media/5/download": csv,
      "/media/11/download": csv,
      "/media/19/download": csv,
    });
    const crawl = await runTestCrawl({ rootUrl: site.rootUrl, strategy: "bfs", targetMimeTypes: ["text/csv"], params: { classifierBatchSize: 1 } });

    expect(crawl.sink.targets.map((t) => pathOf(t.url)).sort()).toEqual(["/media/11/download", "/media/19/download", "/media/5/download"]);
    expect(crawl.sink.events.filter((event) => event.kind.startsWith("shape-")).map((event) => [event.kind, event.data])).toEqual([
      ["shape-skipped", { shape: "/media/#/download", mime: "application/pdf" }],
      ["shape-revived", { shape: "/media/#/download", links: 13 }],
    ]);
    // Set aside, then back: every link of the list was requested once.
    for (const path of media) expect(site.saw(path), path).toBe(true);
  });
});

describe("query variants", () => {
  /*
   * Six documents, each linking its PDF and its printable copy, which links the same PDF and
   * nothing else. BFS crawls the six documents first, then the copies: the first two add no link,
   * so `print=1` is learnt as redundant and the four copies still waiting are never requested.
   */
  const docs = [1, 2, 3, 4, 5, 6];
  const printableSite = (copyLinks: (n: number) => string[]) =>
    startRouteSite({
      "/": page(docs.map((n) => `/doc/${n}`)),
      ...Object.fromEntries(docs.map((n) => [`/doc/${n}`, page([`/doc/${n}/report.pdf`, `/doc/${n}?print=1`])])),
      ...Object.fromEntries(docs.map((n) => [`/doc/${n}?print=1`, page(copyLinks(n))])),
      ...Object.fromEntries(docs.map((n) => [`/doc/${n}/report.pdf`, { type: "application/pdf", body: `%PDF-1.4 ${n}` }])),
      ...Object.fromEntries(docs.map((n) => [`/doc/${n}/annex.pdf`, { type: "application/pdf", body: `%PDF-1.4 annex ${n}` }])),
    });
  const printed = (s: TestSite) => docs.filter((n) => s.saw(`/doc/${n}?print=1`));

  it("stops requesting printable copies once two of them showed nothing new, and says so", async () => {
    site = await printableSite((n) => [`/doc/${n}/report.pdf`]);
    const crawl = await runTestCrawl({ rootUrl: site.rootUrl, strategy: "bfs", params: { classifierBatchSize: 1 } });

    expect(printed(site)).toEqual([1, 2]);
    expect(crawl.sink.targets).toHaveLength(6);
    expect(crawl.sink.events.filter((event) => event.kind.startsWith("query-pair-")).map((event) => [event.kind, event.data])).toEqual([
      ["query-pair-skipped", { pair: "print=1" }],
    ]);
  });

  it("requests every copy when the setting is off, or when a copy lists a file its page does not", async () => {
    site = await printableSite((n) => [`/doc/${n}/report.pdf`]);
    await runTestCrawl({ rootUrl: site.rootUrl, strategy: "bfs", params: { classifierBatchSize: 1, skipRedundantQueryVariants: false } });
    expect(printed(site)).toEqual(docs);
    await site.close();

    site = await printableSite((n) => [`/doc/${n}/report.pdf`, `/doc/${n}/annex.pdf`]);
    const crawl = await runTestCrawl({ rootUrl: site.rootUrl, strategy: "bfs", params: { classifierBatchSize: 1 } });
    expect(printed(site)).toEqual(docs);
    expect(crawl.sink.targets).toHaveLength(12);
    expect(crawl.sink.events.filter((event) => event.kind.startsWith("query-pair-"))).toEqual([]);
  });
});
