/**
 * Application-aware crawling through the real engine and HTTP: a small CKAN-like portal on
 * 127.0.0.1 (generator tag, status_show, package_search paged by offset, HTML listing and dataset
 * pages linking the same files), crawled by SB with a recipe. The enumeration is an action the
 * bandit chooses; its files are downloaded without HEAD requests and carry their dataset; a
 * broken, forbidden or misleading API costs a few requests and the crawl goes on through HTML.
 */
import type http from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { parseRecipe } from "../../lib/recipes/load-recipes";
import { crawlApplications } from "../../lib/recipes/crawl-applications";
import { runTestCrawl, startTestSite, type TestSite } from "../helpers/crawl-fixtures";

const DATASETS = 30;
const FILES_PER_DATASET = 3;
const PAGE_SIZE = 10;

/** The shipped CKAN recipe's shape, with a page size small enough to page through 30 datasets. */
const recipeSource = {
    id: "mini-ckan",
    name: "Mini CKAN",
    sources: ["https://docs.ckan.org/en/2.10/api/index.html"],
    recognise: {
      generator: "^ckan(?: (?<version>[0-9][0-9a-z.]*))?",
      probe: { path: "api/3/action/status_show", expect: "result.ckan_version", version: "result.ckan_version" },
    },
    enumerations: [
      {
        id: "package-search",
        name: "package_search",
        path: "api/3/action/package_search",
        query: { q: "*:*" },
        paging: { kind: "offset", param: "start", sizeParam: "rows", size: PAGE_SIZE, total: "result.count" },
        records: "result.results[*]",
        record: { title: "title", page: "dataset/{name}" },
        files: "resources[*]",
        file: { url: "url", format: "format", modified: "last_modified" },
        changedSince: { param: "fq", value: "metadata_modified:[{since} TO *]" },
      },
    ],
    avoid: ["*/user/login*"],
};
const recipe = parseRecipe(recipeSource, "mini-ckan.json");

interface PortalOptions {
  /** What the API answers instead of its JSON. */
  apiStatus?: number;
  robots?: string;
  /** Resource URLs on another host. */
  offHost?: boolean;
  generator?: string;
  /** Datasets modified since the previous run (listed by a `metadata_modified` query), and one new dataset. */
  changed?: readonly number[];
}

function fileUrl(origin: string, i: number, k: number): string {
  return `${origin}/dataset/d${i}/resource/r${i}-${k}/download/f${i}-${k}.csv`;
}

async function startPortal(options: PortalOptions = {}): Promise<TestSite> {
  let origin = "";
  const site = await startTestSite((req: http.IncomingMessage, res: http.ServerResponse) => {
    const url = new URL(req.url ?? "/", origin);
    const send = (status: number, type: string, body: string) => {
      res.writeHead(status, { "content-type": type, "content-length": String(Buffer.byteLength(body)) });
      res.end(req.method === "HEAD" ? undefined : body);
    };
    const html = (body: string) =>
      send(200, "text/html; charset=utf-8", `<!doctype html><html><head><meta name="generator" content="${options.generator ?? "ckan 2.10.4"}"><title>Portal</title></head><body><nav><a href="/user/login">Log in</a></nav><main>${body}</main></body></html>`);
    const json = (body: unknown) => send(200, "application/json;charset=utf-8", JSON.stringify(body));
    if (url.pathname === "/robots.txt") return options.robots ? send(200, "text/plain", options.robots) : send(404, "text/plain", "");
    if (url.pathname === "/") return html(`<a href="/dataset/?page=1">Datasets</a>`);
    if (url.pathname === "/user/login") return html(`<form><input name="login"></form>`);
    if (url.pathname.startsWith("/api/") && options.apiStatus) return send(options.apiStatus, "application/json", `{"success": false, "error": {"message": "Internal Server Error"}}`);
    if (url.pathname === "/api/3/action/status_show") return json({ help: "", success: true, result: { ckan_version: "2.10.4", site_title: "Portal" } });
    if (url.pathname === "/api/3/action/package_search") {
      const start = Number(url.searchParams.get("start") ?? 0);
      const rows = Math.min(Number(url.searchParams.get("rows") ?? 10), 1000);
      const results = [];
      const since = /^metadata_modified:\[(.+) TO \*\]$/.exec(url.searchParams.get("fq") ?? "");
      const listed = since ? [...(options.changed ?? []), DATASETS] : Array.from({ length: DATASETS }, (_, i) => i);
      for (const i of listed.slice(start, start + rows)) {
        const files = Array.from({ length: FILES_PER_DATASET }, (_, k) => ({
          url: options.offHost ? `http://files.example.org/f${i}-${k}.csv` : fileUrl(origin, i, k),
          format: "CSV",
          name: `File ${k}`,
          last_modified: options.changed?.includes(i) ? "2026-11-01T10:00:00.000000" : "2020-01-01T10:00:00.000000",
        }));
        results.push({ name: `d${i}`, title: `Dataset ${i}`, resources: files });
      }
      return json({ help: "", success: true, result: { count: listed.length, results } });
    }
    const listing = /^\/dataset\/$/.test(url.pathname);
    if (listing) {
      const page = Number(url.searchParams.get("page") ?? 1);
      const items = [];
      for (let i = (page - 1) * PAGE_SIZE; i < Math.min(DATASETS, page * PAGE_SIZE); i++) items.push(`<li class="dataset-item"><a href="/dataset/d${i}">Dataset ${i}</a></li>`);
      const next = page * PAGE_SIZE < DATASETS ? `<a class="next" href="/dataset/?page=${page + 1}">Next</a>` : "";
      return html(`<ul class="dataset-list">${items.join("")}</ul>${next}`);
    }
    const dataset = /^\/dataset\/d(\d+)$/.exec(url.pathname);
    if (dataset) {
      const i = Number(dataset[1]);
      const links = Array.from({ length: FILES_PER_DATASET }, (_, k) => `<li class="resource-item"><a href="/dataset/d${i}/resource/r${i}-${k}/download/f${i}-${k}.csv">File ${k}</a></li>`);
      return html(`<h1>Dataset ${i}</h1><ul class="resource-list">${links.join("")}</ul>`);
    }
    if (/^\/dataset\/d\d+\/resource\/r[\d-]+\/download\/f[\d-]+\.csv$/.test(url.pathname)) return send(200, "text/csv", `a,b\n1,${url.pathname}\n`);
    send(404, "text/html", "<html><body>Not found</body></html>");
  });
  origin = site.origin;
  return site;
}

const TARGETS = DATASETS * FILES_PER_DATASET;
let site: TestSite | null = null;

afterEach(async () => {
  await site?.close();
  site = null;
});

function crawl(rootUrl: string, extra: { targetMimeTypes?: string[]; applications?: Record<string, unknown> } = {}) {
  return runTestCrawl(
    { rootUrl, seed: 3, budget: { requests: 400 }, targetMimeTypes: extra.targetMimeTypes ?? ["text/csv"], ...(extra.applications ? { applications: extra.applications } : {}) },
    { applications: crawlApplications([recipe], (extra.applications?.recipe as string | undefined) ?? "auto") },
  );
}

/** Counted requests when the n-th target was stored. */
function requestsToTargets(result: Awaited<ReturnType<typeof crawl>>, n: number): number {
  const target = result.sink.targets[n - 1];
  return target ? target.requestSeq : Infinity;
}

describe("application-aware crawling (SB with a recipe, real HTTP)", () => {
  it("recognises the portal, confirms it with one probe, and lists every file through the API as an action", async () => {
    site = await startPortal();
    const result = await crawl(site.rootUrl);
    expect(result.counters.targets).toBe(TARGETS);
    const recognised = result.sink.events.find((event) => event.kind === "application-recognised");
    expect(recognised?.message).toMatch(/^Recognised Mini CKAN 2\.10\.4 from generator tag "ckan 2\.10\.4" \(confirmed by its API\) — listing files through package_search/);
    // Three API pages, no HEAD for the listed files (typed from the declared format).
    const apiRows = result.counted.filter((row) => row.kind === "api");
    expect(apiRows.map((row) => new URL(row.url).pathname)).toEqual(["/api/3/action/status_show", ...Array(3).fill("/api/3/action/package_search")]);
    expect(result.counted.filter((row) => row.method === "HEAD" && row.url.includes("/download/"))).toEqual([]);
    // The API's pages: root, probe, 3 pages, 90 files, plus at most a few HTML pulls the bandit tries first.
    expect(requestsToTargets(result, TARGETS)).toBeLessThanOrEqual(1 + 1 + 3 + TARGETS + 8);
    expect(result.groups.some((group) => group.sampleTagPath === "/application:mini-ckan:package-search" && group.totalReward === TARGETS)).toBe(true);
    const finished = result.sink.events.find((event) => event.kind === "enumeration-finished");
    expect(finished?.message).toBe(`package_search listed ${TARGETS} files in 3 requests`);
    // The recipe's avoid list: the sign-in page is never requested.
    expect(site.saw("/user/login")).toBe(false);
  });

  it("gives each file the dataset it belongs to", async () => {
    site = await startPortal();
    const result = await crawl(site.rootUrl);
    const first = result.sink.targets.find((target) => target.url.endsWith("/f7-1.csv"));
    expect(first?.record).toEqual({ title: "Dataset 7", page: `${site.origin}/dataset/d7` });
  });

  it("never keeps an API answer as a target, even when JSON is a target type", async () => {
    site = await startPortal();
    const result = await crawl(site.rootUrl, { targetMimeTypes: ["text/csv", "application/json"] });
    expect(result.sink.targets.filter((target) => target.url.includes("/api/"))).toEqual([]);
    expect(result.counted.filter((row) => row.kind === "api").every((row) => !row.isTarget)).toBe(true);
    expect(result.counters.targets).toBe(TARGETS);
  });

  it("a broken API costs its probe: not confirmed, and the files come through the HTML", async () => {
    site = await startPortal({ apiStatus: 500 });
    const result = await crawl(site.rootUrl);
    const event = result.sink.events.find((row) => row.kind === "application-not-confirmed");
    expect(event?.message).toContain("answered 500");
    // The probe, with the retries the fetcher makes of a 5xx: nothing else under /api/.
    expect(site.paths("GET").filter((path) => path.startsWith("/api/")).every((path) => path === "/api/3/action/status_show")).toBe(true);
    expect(result.counters.targets).toBe(TARGETS);
  });

  it("sends nothing to an API robots.txt disallows", async () => {
    site = await startPortal({ robots: "User-agent: *\nDisallow: /api/\n" });
    const result = await crawl(site.rootUrl);
    expect(site.paths().filter((path) => path.startsWith("/api/"))).toEqual([]);
    expect(result.sink.events.find((row) => row.kind === "application-not-confirmed")?.message).toContain("disallowed by robots.txt");
    expect(result.counters.targets).toBe(TARGETS);
  });

  it("closes an enumeration that lists its files on another host, after one page", async () => {
    site = await startPortal({ offHost: true });
    const result = await crawl(site.rootUrl);
    const closed = result.sink.events.find((row) => row.kind === "enumeration-closed");
    expect(closed?.message).toMatch(/lists its 30 files on other hosts \(files\.example\.org\)/);
    expect(site.paths().filter((path) => path.startsWith("/api/3/action/package_search"))).toHaveLength(1);
    expect(result.counters.targets).toBe(TARGETS);
  });

  it("probes nothing on a site that shows no sign of the application", async () => {
    site = await startPortal({ generator: "Hugo 0.120" });
    const result = await crawl(site.rootUrl);
    expect(site.paths().filter((path) => path.startsWith("/api/"))).toEqual([]);
    expect(result.sink.events.filter((row) => row.kind.startsWith("application-"))).toEqual([]);
  });

  it("re-crawls by asking only for what changed since the previous run: changed files checked, new ones downloaded, the rest untouched", async () => {
    site = await startPortal({ changed: [0, 4] });
    const known = Array.from({ length: DATASETS }, (_, i) =>
      Array.from({ length: FILES_PER_DATASET }, (_, k) => ({ url: fileUrl(site!.origin, i, k), sha256: "0".repeat(64), bytes: 10, mime: "text/csv", etag: null, lastModified: null })),
    ).flat();
    const previousStartedAt = "2026-10-01T00:00:00.000Z";
    const result = await runTestCrawl(
      { rootUrl: site.rootUrl, seed: 3, budget: { requests: 400 }, targetMimeTypes: ["text/csv"] },
      { applications: crawlApplications([recipe]), recrawl: { previousCrawlId: 1, learned: null, known, checkKnownFiles: false, previousStartedAt } },
    );
    const search = result.counted.filter((row) => row.url.includes("package_search"));
    expect(search).toHaveLength(1);
    expect(new URL(search[0]!.url).searchParams.get("fq")).toBe(`metadata_modified:[${previousStartedAt} TO *]`);
    const fileGets = result.counted.filter((row) => row.url.includes("/download/")).map((row) => new URL(row.url).pathname.replace(/.*\//, ""));
    // Datasets 0 and 4 (listed as changed) checked, dataset 30 (new) downloaded; no other file asked for, though the HTML links them all.
    expect(fileGets.sort()).toEqual(["f0-0.csv", "f0-1.csv", "f0-2.csv", "f30-0.csv", "f30-1.csv", "f30-2.csv", "f4-0.csv", "f4-1.csv", "f4-2.csv"]);
    // The known files' bytes differ from the stored hashes here: they count as changed, and the new ones as targets.
    expect(result.counters.targets).toBe(9);
  });

  it("re-crawls an application that cannot filter by date by comparing each listed file's date with the previous run", async () => {
    site = await startPortal({ changed: [2] });
    const undated = parseRecipe({ ...JSON.parse(JSON.stringify(recipeSource)), enumerations: [{ ...recipeSource.enumerations[0], changedSince: undefined }] }, "undated.json");
    const known = Array.from({ length: DATASETS }, (_, i) =>
      Array.from({ length: FILES_PER_DATASET }, (_, k) => ({ url: fileUrl(site!.origin, i, k), sha256: "0".repeat(64), bytes: 10, mime: "text/csv", etag: null, lastModified: null })),
    ).flat();
    const result = await runTestCrawl(
      { rootUrl: site.rootUrl, seed: 3, budget: { requests: 400 }, targetMimeTypes: ["text/csv"] },
      { applications: crawlApplications([undated]), recrawl: { previousCrawlId: 1, learned: null, known, checkKnownFiles: false, previousStartedAt: "2026-10-01T00:00:00.000Z" } },
    );
    expect(result.counted.filter((row) => row.url.includes("package_search"))).toHaveLength(3);
    const fileGets = result.counted.filter((row) => row.url.includes("/download/")).map((row) => new URL(row.url).pathname.replace(/.*\//, ""));
    expect(fileGets.sort()).toEqual(["f2-0.csv", "f2-1.csv", "f2-2.csv"]);
  });

  it("uses the recipe the crawl names, without signs, and none when switched off", async () => {
    site = await startPortal({ generator: "Hugo 0.120" });
    const named = await crawl(site.rootUrl, { applications: { recipe: "mini-ckan" } });
    expect(named.sink.events.find((row) => row.kind === "application-recognised")?.message).toContain("from the crawl's settings");
    expect(named.counters.targets).toBe(TARGETS);
    await site.close();
    site = await startPortal();
    const off = await crawl(site.rootUrl, { applications: { use: false } });
    expect(site.paths().filter((path) => path.startsWith("/api/"))).toEqual([]);
    expect(off.counters.targets).toBe(TARGETS);
  });
});
