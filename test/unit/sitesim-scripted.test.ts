import { describe, expect, it } from "vitest";
import {
  buildSite, DEFAULT_FORBIDDEN_URLS, describeSite, mimeOf, SCRIPTED_SHAPES, scriptedTruth, SIM_TARGET_MIME_TYPES,
  type ScriptedShape, type SimulatedSite,
} from "../../lib/sitesim";
import { servedPages } from "../helpers/sitesim-pages";

const SHAPES = Object.keys(SCRIPTED_SHAPES) as ScriptedShape[];
const HOST = "sim.test:8080";
const { linksFromHtml } = servedPages(HOST);
const get = (site: SimulatedSite, key: string) => site.respond("GET", key, { host: HOST });

/** Every `download_url` in a JSON document, at any depth. */
function downloadUrls(value: unknown, out: string[] = []): string[] {
  if (Array.isArray(value)) for (const v of value) downloadUrls(v, out);
  else if (value !== null && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) {
      if (k === "download_url" && typeof v === "string") out.push(v);
      else downloadUrls(v, out);
    }
  }
  return out;
}

/** The API URLs a shell's script asks for, walking `next` links (what the browser tests click and scroll through). */
function apiUrlsOf(site: SimulatedSite, key: string): string[] {
  const shape = site.spec.shape;
  const path = key.split("?")[0]!;
  const segment = (i: number) => path.split("/")[i]!;
  const page = new URLSearchParams(key.split("?")[1] ?? "").get("page") ?? "1";
  let first: string;
  if (shape === "scripted-listing") first = path.startsWith("/publication/") ? `/api/publication/${segment(2)}` : `/api/listing?section=${segment(1)}&page=${page}`;
  else if (shape === "load-more" || shape === "infinite-scroll") first = `/api/files?listing=${segment(1)}&offset=0&limit=10`;
  else if (shape === "hostile-scripted") first = `/api/hostile/${segment(2)}`;
  else first = path === "/spin" ? "/api/spin" : "/api/ping-page";
  const urls = [first];
  for (;;) {
    const body = JSON.parse(get(site, urls.at(-1)!).body.toString("utf8")) as { next?: string | null };
    if (shape === "scripted-listing" || !body.next) return urls;
    urls.push(body.next);
  }
}

describe.each(SHAPES)("%s", (shape) => {
  const site = buildSite({ shape, seed: 1, size: "tiny" });
  const truth = scriptedTruth(site);

  it("has a few dozen pages at most and 30–150 CSV, XLSX and PDF targets, none reachable from the HTML alone", () => {
    expect(truth.htmlPages[0]).toBe("/");
    expect(truth.htmlPages.length).toBeLessThan(100);
    expect(truth.targets.length).toBeGreaterThanOrEqual(30);
    expect(truth.targets.length).toBeLessThanOrEqual(150);
    expect(new Set(truth.targets).size).toBe(truth.targets.length);
    expect(truth.htmlTargets).toEqual([]);
    expect(truth.shells).toEqual(truth.htmlPages.slice(1));
    for (const path of truth.targets) {
      const res = get(site, path);
      expect(res.status, path).toBe(200);
      expect(SIM_TARGET_MIME_TYPES).toContain(mimeOf(res.headers["content-type"]!));
      expect(res.body.length).toBe(Number(res.headers["content-length"]));
    }
    expect(new Set(truth.targets.map((p) => p.split(".").at(-1)))).toEqual(new Set(["csv", "xlsx", "pdf"]));
    expect(truth.floor.targets).toBe(truth.targets.length);
    expect(truth.floor.toAll!).toBeLessThanOrEqual(truth.groundTruth.bfsRequestsToAll!);
    expect(describeSite(site)).toContain(`${shape} (seed 1`);
  });

  it("serves shells that hold no target URL and no link but home, with a script served as application/javascript", () => {
    for (const key of truth.shells) {
      const res = get(site, key);
      expect(res.status).toBe(200);
      const html = res.body.toString("utf8");
      expect(linksFromHtml(html, key)).toEqual(["/"]);
      for (const target of truth.targets) expect(html).not.toContain(target);
      const script = /<script src="([^"]+)"><\/script>/.exec(html)?.[1];
      expect(script, key).toMatch(/^\/static\/[a-z-]+\.js$/);
      const js = get(site, script!);
      expect(js.status).toBe(200);
      expect(js.headers["content-type"]).toBe("application/javascript; charset=utf-8");
      expect(js.body.toString("utf8")).not.toMatch(/\?\.|\?\?/); // ES2019: no optional chaining or nullish coalescing
    }
  });

  it("lists every target in the JSON its scripts fetch, and the rendered truth holds exactly those", () => {
    const listed = new Set<string>();
    for (const key of truth.shells) {
      for (const url of apiUrlsOf(site, key)) {
        const res = get(site, url);
        expect(res.status, url).toBe(200);
        expect(res.headers["content-type"]).toBe("application/json; charset=utf-8");
        for (const u of downloadUrls(JSON.parse(res.body.toString("utf8")))) listed.add(u);
      }
    }
    const rendered = new Set(truth.htmlPages.flatMap((key) => truth.renderedLinks(key)!).filter((k) => k.startsWith("/files/")));
    expect([...rendered].sort()).toEqual([...truth.targets].sort());
    // never-ending's spinning page lists files its script never gets to render.
    if (shape === "never-ending") expect(listed.size).toBeGreaterThan(truth.targets.length);
    else expect([...listed].sort()).toEqual([...truth.targets].sort());
  });

  it("is deterministic: the same spec gives the same bytes, another seed other targets", () => {
    const again = buildSite({ shape, seed: 1, size: "tiny" });
    for (const key of [...truth.htmlPages, ...truth.targets.slice(0, 10)]) expect(get(again, key).body.equals(get(site, key).body)).toBe(true);
    expect(scriptedTruth(again).targets).toEqual(truth.targets);
    expect(scriptedTruth(buildSite({ shape, seed: 2, size: "tiny" })).targets).not.toEqual(truth.targets);
  });

  it("answers 404 to unknown pages, API records and files", () => {
    for (const key of ["/nope/", "/api/nope", "/files/nope/1-0.csv", truth.targets[0]!.replace(/\.(csv|xlsx|pdf)$/, ".doc")]) {
      expect(get(site, key).status, key).toBe(404);
    }
  });
});

describe("scripted shapes", () => {
  it("scripted-listing paginates: every listing's pager links its other pages", () => {
    const truth = scriptedTruth(buildSite({ shape: "scripted-listing", seed: 3, size: "tiny" }));
    const paged = truth.shells.filter((key) => key.includes("?page="));
    expect(paged.length).toBeGreaterThan(0);
    for (const key of paged) expect(truth.renderedLinks(key)!.some((link) => link.includes("?page=") && link !== key)).toBe(true);
  });

  it("hostile-scripted puts the forbidden URLs in its script only, the defaults unless the spec names others", () => {
    const standard = buildSite({ shape: "hostile-scripted", seed: 1, size: "tiny" });
    const js = get(standard, "/static/hostile.js").body.toString("utf8");
    for (const url of DEFAULT_FORBIDDEN_URLS) expect(js).toContain(JSON.stringify(url));
    for (const how of ["fetch", "xhr", "img", "iframe", "websocket", "beacon"]) expect(js).toContain(`"${how}"`);
    expect(get(standard, "/static/hostile-worker.js").body.toString("utf8")).toContain("via=worker");
    expect(get(standard, "/hostile/1").body.toString("utf8")).not.toContain("169.254");
    const canary = buildSite({ shape: "hostile-scripted", seed: 1, size: "tiny", forbiddenUrls: ["http://127.0.0.1:9/canary"] });
    expect(get(canary, "/static/hostile.js").body.toString("utf8")).toContain("http://127.0.0.1:9/canary");
    expect(scriptedTruth(canary).targets).toEqual(scriptedTruth(standard).targets);
    expect(() => buildSite({ shape: "hostile-scripted", seed: 1, size: "tiny", forbiddenUrls: ["ftp://x/"] })).toThrow(/forbiddenUrls: "ftp:\/\/x\/" is not an http\(s\) URL/);
  });

  it("never-ending names its pages that never idle, and /spin's truth is the half it renders", () => {
    const site = buildSite({ shape: "never-ending", seed: 1, size: "tiny" });
    const truth = scriptedTruth(site);
    expect(truth.neverIdle).toEqual([{ path: "/spin", behaviour: "spins" }, { path: "/ping", behaviour: "polls" }]);
    const listed = downloadUrls(JSON.parse(get(site, "/api/spin").body.toString("utf8")));
    expect(truth.renderedLinks("/spin")!.slice(1)).toEqual(listed.slice(0, listed.length / 2));
  });

  it("rejects variants and non-integer seeds as the other shapes do", () => {
    expect(() => buildSite({ shape: "load-more", seed: 1, size: "tiny", variant: "x" })).toThrow(/has no variants/);
    expect(() => buildSite({ shape: "load-more", seed: 1.5, size: "tiny" })).toThrow(/integer/);
    expect(() => scriptedTruth(buildSite({ shape: "wiki", seed: 1, size: "tiny" }))).toThrow(/not script-built/);
  });
});
