import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { page, pathOf, runTestCrawl, sendRoute, startRouteSite, startTestSite, type Route, type TestCrawlResult, type TestSite } from "../helpers/crawl-fixtures";

const MAX_REDIRECTS = 3;
const CSV = "year,value\n2024,1\n";
/** A pre-signed store URL as S3 or MinIO sign it: far longer than the root URL + 350 characters. */
const PRESIGNED =
  "/store/archive.zip?response-content-disposition=attachment%3B%20filename%3D%22archive.zip%22&X-Amz-Algorithm=AWS4-HMAC-SHA256" +
  "&X-Amz-Credential=forage%2F20240520%2Fus-east-1%2Fs3%2Faws4_request&X-Amz-Date=20240520T120000Z&X-Amz-Expires=300" +
  `&X-Amz-Security-Token=${"Fw".repeat(60)}&X-Amz-SignedHeaders=host&X-Amz-Signature=${"3f84f64b".repeat(8)}`;

let site: TestSite;
let elsewhere: TestSite;
let crawl: TestCrawlResult;

/** The chain /chain?n=k → /chain?n=k+1 never ends: only maxRedirects stops it. */
const chain: Route = (req, res) => {
  const n = Number(new URL(req.url ?? "/", "http://x").searchParams.get("n"));
  res.writeHead(302, { location: `/chain?n=${n + 1}`, "content-length": "0" }).end();
};

beforeAll(async () => {
  elsewhere = await startRouteSite({ "/x": page(["/y"]), "/y": page([]) });
  site = await startRouteSite({
    "/": page(["/moved", "/new", "/dup", "/download", "/away", "/ping", "/chain?n=0", "/archive/main.zip", `${PRESIGNED}&linked=1`]),
    "/moved": { status: 301, headers: { location: "/moved-target" } },
    "/moved-target": page(["/from-moved"]),
    "/from-moved": page([]),
    "/new": page([]),
    "/dup": { status: 302, headers: { location: "/new" } },
    "/download": { status: 302, headers: { location: "/files/data.csv" } },
    "/files/data.csv": { type: "text/csv", body: CSV },
    "/archive/main.zip": { status: 302, headers: { location: PRESIGNED } },
    [PRESIGNED]: { type: "application/zip", body: "PK\u0003\u0004" },
    [`${PRESIGNED}&linked=1`]: { type: "application/zip", body: "PK\u0003\u0004" },
    "/away": { status: 302, headers: { location: `${elsewhere.origin}/x` } },
    "/ping": { status: 302, headers: { location: "/pong" } },
    "/pong": { status: 302, headers: { location: "/ping" } },
    "/chain?n=0": chain,
    "/chain?n=1": chain,
    "/chain?n=2": chain,
    "/chain?n=3": chain,
    "/chain?n=4": chain,
    "/chain?n=5": chain,
  });
  crawl = await runTestCrawl({ rootUrl: site.rootUrl, params: { maxRedirects: MAX_REDIRECTS } });
});

afterAll(async () => {
  await site.close();
  await elsewhere.close();
});

const gets = () => site.paths("GET");
const getRow = (path: string) => crawl.counted.filter((row) => row.method === "GET" && pathOf(row.url) === path);

describe("crawl engine and redirects", () => {
  it("follows a redirect itself, one counted GET per hop, the hop row recording its Location", () => {
    expect(crawl.stopReason).toBe("site-exhausted");
    expect(gets()).toEqual(expect.arrayContaining(["/moved", "/moved-target", "/from-moved"]));
    const [hop] = getRow("/moved");
    const [landing] = getRow("/moved-target");
    expect(hop).toMatchObject({ status: 301, outcome: "redirect", redirectTo: `${site.origin}/moved-target`, kind: "page" });
    expect(landing).toMatchObject({ status: 200, outcome: "ok", redirectTo: null });
    expect(landing!.seq).toBe(hop!.seq + 1);
    // The landing URL inherits the link's tag path and group.
    expect(landing!.tagPath).toBe(hop!.tagPath);
    expect(landing!.tagPath).toBe("/html/body/ul.links/li/a");
    expect(landing!.groupId).toBe(hop!.groupId);
  });

  it("stores a target reached through a redirect under its final URL", () => {
    expect(getRow("/download")).toMatchObject([{ outcome: "redirect", redirectTo: `${site.origin}/files/data.csv` }]);
    expect(getRow("/files/data.csv")).toMatchObject([{ outcome: "ok", isTarget: true, mime: "text/csv" }]);
    const csv = crawl.sink.targets.filter((target) => target.mime === "text/csv");
    expect(csv).toMatchObject([{ url: `${site.origin}/files/data.csv`, mime: "text/csv", bytes: CSV.length }]);
  });

  it("follows a redirect to a pre-signed download URL that the trap length rule would refuse as a link", () => {
    expect(site.origin.length + PRESIGNED.length).toBeGreaterThan(site.rootUrl.length + 350);
    expect(getRow("/archive/main.zip")).toMatchObject([{ outcome: "redirect", redirectTo: `${site.origin}${PRESIGNED}` }]);
    expect(getRow(PRESIGNED)).toMatchObject([{ outcome: "ok", isTarget: true, mime: "application/zip" }]);
    // The same kind of URL as a link on a page is still a trap.
    expect(site.saw(`${PRESIGNED}&linked=1`)).toBe(false);
  });

  it("fetches an out-of-site redirect target once, to see whether it is a file, and crawls no page there", () => {
    expect(getRow("/away")).toMatchObject([{ outcome: "redirect", redirectTo: `${elsewhere.origin}/x` }]);
    expect(elsewhere.paths("GET").filter((path) => path !== "/robots.txt")).toEqual(["/x"]);
    const landing = crawl.counted.filter((row) => row.url === `${elsewhere.origin}/x`);
    expect(landing).toMatchObject([{ method: "GET", status: 200, isTarget: false, kind: "page" }]);
  });

  it("does not fetch an already-seen redirect target again, which also ends a redirect loop", () => {
    expect(gets().filter((path) => path === "/new")).toHaveLength(1);
    expect(getRow("/dup")).toMatchObject([{ outcome: "redirect", redirectTo: `${site.origin}/new` }]);
    // /ping → /pong → /ping: /ping is seen, the loop ends after two GETs.
    expect(gets().filter((path) => path === "/ping" || path === "/pong")).toEqual(["/ping", "/pong"]);
    expect(getRow("/pong")).toMatchObject([{ outcome: "redirect", redirectTo: `${site.origin}/ping` }]);
  });

  it(`stops an endless redirect chain after maxRedirects (${MAX_REDIRECTS}) hops`, () => {
    const chainGets = gets().filter((path) => path.startsWith("/chain"));
    expect(chainGets).toEqual(["/chain?n=0", "/chain?n=1", "/chain?n=2", "/chain?n=3"]);
    expect(site.saw("/chain?n=4")).toBe(false);
    const rows = crawl.counted.filter((row) => row.method === "GET" && row.url.includes("/chain"));
    expect(rows.map((row) => row.outcome)).toEqual(["redirect", "redirect", "redirect", "redirect"]);
    expect(rows.map((row) => row.seq)).toEqual([0, 1, 2, 3].map((i) => rows[0]!.seq + i));
  });

  it("counts every hop: counted rows are numbered 1..n, one per request the site received (robots.txt excepted)", () => {
    expect(crawl.counted.map((row) => row.seq)).toEqual(crawl.counted.map((_, i) => i + 1));
    expect(crawl.counters.requests).toBe(crawl.counted.length);
    const received = site.log.filter((r) => r.path !== "/robots.txt");
    const onSite = crawl.counted.filter((row) => row.url.startsWith(`${site.origin}/`));
    expect(received.map((r) => `${r.method} ${r.path}`)).toEqual(onSite.map((row) => `${row.method} ${pathOf(row.url)}`));
    expect(crawl.counted.length - onSite.length).toBe(elsewhere.log.filter((r) => r.path !== "/robots.txt").length);
    expect(crawl.counters.headRequests + crawl.counters.getRequests).toBe(crawl.counters.requests);
  });
});

describe("a redirecting root URL", () => {
  it("is followed, and the landing page's links are crawled relative to it", async () => {
    const root = await startRouteSite({
      "/": { status: 301, headers: { location: "/en/home" } },
      "/en/home": page(["about", "/en/data.json"]),
      "/en/about": page([]),
      "/en/data.json": { type: "application/json", body: "{}" },
    });
    try {
      const result = await runTestCrawl({ rootUrl: root.rootUrl });
      expect(result.stopReason).toBe("site-exhausted");
      expect(root.paths("GET")).toEqual(expect.arrayContaining(["/", "/en/home", "/en/about", "/en/data.json"]));
      expect(result.sink.targets.map((t) => pathOf(t.url))).toEqual(["/en/data.json"]);
      expect(result.counted.slice(0, 2).map((row) => [row.method, pathOf(row.url), row.outcome])).toEqual([
        ["GET", "/", "redirect"],
        ["GET", "/en/home", "ok"],
      ]);
    } finally {
      await root.close();
    }
  });
});

describe("a root URL that only refreshes to another page (<meta http-equiv=refresh>)", () => {
  it("is followed like a link, and the crawl goes on from the page it names", async () => {
    const root = await startRouteSite({
      // What GitHub Pages documentation serves at its root: no HTTP redirect, an HTML refresh.
      "/": `<!doctype html><html><head><meta charset="utf-8"><meta http-equiv="refresh" content="0; url=en/stable/"><title>Redirecting</title></head><body></body></html>`,
      "/en/stable/": page(["api.html", "_downloads/sample.csv"]),
      "/en/stable/api.html": page([]),
      "/en/stable/_downloads/sample.csv": { type: "text/csv", body: CSV },
    });
    try {
      const result = await runTestCrawl({ rootUrl: root.rootUrl });
      expect(result.stopReason).toBe("site-exhausted");
      expect(root.paths("GET")).toEqual(expect.arrayContaining(["/", "/en/stable/", "/en/stable/api.html", "/en/stable/_downloads/sample.csv"]));
      expect(result.sink.targets.map((t) => pathOf(t.url))).toEqual(["/en/stable/_downloads/sample.csv"]);
    } finally {
      await root.close();
    }
  });
});

describe("a page whose Refresh header names another page", () => {
  it("follows the header like a <meta> refresh (an empty 200 page with `Refresh: 0; url=…`, as PHP scripts send)", async () => {
    const root = await startRouteSite({
      "/": { body: "", headers: { refresh: "0; url=/portal/index.php" } },
      "/portal/index.php": page(["tables.csv"]),
      "/portal/tables.csv": { type: "text/csv", body: CSV },
    });
    try {
      const result = await runTestCrawl({ rootUrl: root.rootUrl });
      expect(root.paths("GET")).toEqual(expect.arrayContaining(["/", "/portal/index.php", "/portal/tables.csv"]));
      expect(result.sink.targets.map((t) => pathOf(t.url))).toEqual(["/portal/tables.csv"]);
      expect(result.sink.requests.find((r) => pathOf(r.url) === "/portal/index.php")?.tagPath).toBe("/html/head/meta");
    } finally {
      await root.close();
    }
  });
});

describe("downloads stored on another host", () => {
  it("follows a data-file link that redirects to a storage host and keeps the file; what answers there as a page is not crawled", async () => {
    const storage = await startRouteSite({
      [`/bucket/labour.csv?X-Amz-Signature=${"ab".repeat(32)}`]: { type: "text/csv", body: CSV },
      "/sso/login": page(["/sso/forgot"]),
      "/sso/forgot": page([]),
    });
    // Six files of earlier releases, served here, and six pages teach the URL classifier what a
    // download looks like (the HEAD bootstrap types a redirect as a page); then a news page lists
    // two downloads of newer releases, which redirect away.
    const files = [1, 2, 3, 4, 5, 6].map((i) => `/releases/download/v0.${i}/labour.csv`);
    const pages = [1, 2, 3, 4, 5, 6].map((i) => `/topics/t${i}`);
    const routes: Record<string, Route> = {
      "/": page([...files, ...pages, "/news/latest"]),
      "/news/latest": page(["/releases/download/v0.7/labour.csv", "/releases/download/v0.8/labour.csv"]),
      "/releases/download/v0.7/labour.csv": { status: 302, headers: { location: `${storage.origin}/bucket/labour.csv?X-Amz-Signature=${"ab".repeat(32)}` } },
      "/releases/download/v0.8/labour.csv": { status: 302, headers: { location: `${storage.origin}/sso/login` } },
    };
    for (const file of files) routes[file] = { type: "text/csv", body: CSV };
    for (const topic of pages) routes[topic] = page([]);
    const site = await startRouteSite(routes);
    try {
      const result = await runTestCrawl({ rootUrl: site.rootUrl, strategy: "bfs" });
      const download = result.sink.requests.find((r) => r.url.startsWith(`${storage.origin}/bucket/`));
      expect(download).toMatchObject({ method: "GET", status: 200, isTarget: true, tagPath: "/html/body/ul.links/li/a" });
      expect(result.sink.targets.map((t) => t.url)).toContain(`${storage.origin}/bucket/labour.csv?X-Amz-Signature=${"ab".repeat(32)}`);
      // The login page on the other host was fetched (a link typed as a data file led there) but not crawled.
      expect(storage.paths("GET").filter((path) => path !== "/robots.txt")).toEqual([`/bucket/labour.csv?X-Amz-Signature=${"ab".repeat(32)}`, "/sso/login"]);
    } finally {
      await site.close();
      await storage.close();
    }
  });
  it("follows an extension-less download link typed as a page (the HEAD bootstrap types a redirect so) to the storage host, and reads no page there", async () => {
    const signed = `/bucket/prices.csv?X-Amz-Signature=${"cd".repeat(32)}`;
    const storage = await startRouteSite({
      [signed]: { type: "text/csv", body: CSV },
      "/partner/home": page(["/partner/more"]),
      "/partner/more": page([]),
    });
    const site = await startRouteSite({
      "/": page(["/dataset/42/download", "/go/partner", "/about"]),
      "/dataset/42/download": { status: 302, headers: { location: `${storage.origin}${signed}` } },
      "/go/partner": { status: 302, headers: { location: `${storage.origin}/partner/home` } },
      "/about": page([]),
    });
    try {
      const result = await runTestCrawl({ rootUrl: site.rootUrl, strategy: "bfs" });
      // Both redirecting links were typed as pages by their HEAD.
      const heads = result.sink.requests.filter((r) => r.method === "HEAD").map((r) => [pathOf(r.url), r.status]);
      expect(heads).toEqual(expect.arrayContaining([["/dataset/42/download", 302], ["/go/partner", 302]]));
      expect(result.sink.targets.map((t) => t.url)).toEqual([`${storage.origin}${signed}`]);
      // The partner page answered, as HTML, but its links were never followed.
      expect(storage.paths("GET").filter((path) => path !== "/robots.txt").sort()).toEqual([signed, "/partner/home"].sort());
      expect(result.sink.requests.find((r) => r.url === `${storage.origin}/partner/home`)).toMatchObject({ status: 200, isTarget: false });
    } finally {
      await site.close();
      await storage.close();
    }
  });
});

describe("links that all redirect to pages on another host", () => {
  it("sets their URL shape aside after three, as it does for links that answer useless files", async () => {
    const social = await startRouteSite(Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`/intent?a=${i + 1}`, page([])])));
    const routes: Record<string, Route> = { "/": page(Array.from({ length: 12 }, (_, i) => `/articles/a${i + 1}`)) };
    for (let i = 1; i <= 12; i++) {
      routes[`/articles/a${i}`] = page([`/share/${i}/social`]);
      routes[`/share/${i}/social`] = { status: 302, headers: { location: `${social.origin}/intent?a=${i}` } };
    }
    const site = await startRouteSite(routes);
    try {
      // Depth first, each article's share link is pulled before the next article lists its own.
      const result = await runTestCrawl({ rootUrl: site.rootUrl, strategy: "dfs" });
      const shares = site.paths("GET").filter((path) => path.startsWith("/share/"));
      // Three answers, then the 4th and 8th of the nine links that came after as probes.
      expect(shares).toEqual(["/share/12/social", "/share/11/social", "/share/10/social", "/share/6/social", "/share/2/social"]);
      expect(social.paths("GET").filter((path) => path !== "/robots.txt")).toHaveLength(5);
      const skipped = result.sink.events.find((event) => event.kind === "shape-skipped");
      expect(skipped?.message).toContain("/share/#/social: they answered pages on another host");
      expect(site.paths("GET").filter((path) => path.startsWith("/articles/"))).toHaveLength(12);
    } finally {
      await site.close();
      await social.close();
    }
  });
});

describe("a site that needs its cookies back", () => {
  it("keeps the cookies it sets and sends them on later requests, so its redirects lead somewhere and its files are served", async () => {
    const cookieOf = (req: { headers: Record<string, string | string[] | undefined> }) => String(req.headers.cookie ?? "");
    const sent: Array<[string, string]> = [];
    const root = await startTestSite((req, res) => {
      const path = req.url ?? "/";
      if (path !== "/robots.txt") sent.push([`${req.method} ${path}`, cookieOf(req)]);
      const hasSession = /(^|; )sess=42(;|$)/.test(cookieOf(req));
      if (path === "/set-cookie") return void res.writeHead(302, { location: "/home", "set-cookie": ["sess=42; Path=/; HttpOnly", "theme=dark; Path=/; Max-Age=3600"], "content-length": "0" }).end();
      if (!hasSession) return void res.writeHead(path === "/" || path === "/home" ? 302 : 403, { location: "/set-cookie", "content-length": "0" }).end();
      if (path === "/" || path === "/home") return sendRoute(page(["/home", "/reports", "/files/table.csv"]), req, res);
      if (path === "/reports") return sendRoute(page([]), req, res);
      if (path === "/files/table.csv") return sendRoute({ type: "text/csv", body: CSV }, req, res);
      sendRoute({ status: 404, body: "" }, req, res);
    });
    try {
      const result = await runTestCrawl({ rootUrl: root.rootUrl });
      expect(result.sink.targets.map((t) => pathOf(t.url))).toEqual(["/files/table.csv"]);
      expect(sent.slice(0, 3)).toEqual([["GET /", ""], ["GET /set-cookie", ""], ["GET /home", "sess=42; theme=dark"]]);
      // Every request after the cookie was set carried it back.
      expect(sent.slice(2).every(([, cookie]) => cookie === "sess=42; theme=dark")).toBe(true);
      expect(sent.map(([request]) => request)).toEqual(expect.arrayContaining(["GET /reports", "GET /files/table.csv"]));
    } finally {
      await root.close();
    }
  });

  it("goes back once to a URL of the redirect chain when the redirect set a cookie (a cookie check), and not twice", async () => {
    let loops = 0;
    const root = await startTestSite((req, res) => {
      const path = req.url ?? "/";
      const cookie = String(req.headers.cookie ?? "");
      if (path === "/" && cookie !== "checked=1") return void res.writeHead(302, { location: "/", "set-cookie": "checked=1; Path=/", "content-length": "0" }).end();
      if (path === "/") return sendRoute(page(["/files/table.csv", "/loop"]), req, res);
      // Sets a cookie and sends the client back to itself forever.
      if (path === "/loop") return void res.writeHead(302, { location: "/loop", "set-cookie": `n=${++loops}; Path=/loop`, "content-length": "0" }).end();
      if (path === "/files/table.csv" && cookie === "checked=1") return sendRoute({ type: "text/csv", body: CSV }, req, res);
      sendRoute({ status: 403, body: "" }, req, res);
    });
    try {
      const result = await runTestCrawl({ rootUrl: root.rootUrl });
      expect(result.sink.targets.map((t) => pathOf(t.url))).toEqual(["/files/table.csv"]);
      expect(root.paths("GET").filter((p) => p === "/")).toHaveLength(2);
      expect(root.paths("GET").filter((p) => p === "/loop")).toHaveLength(2);
    } finally {
      await root.close();
    }
  });
});
