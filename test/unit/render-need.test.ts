import { describe, expect, it } from "vitest";
import { scriptBuiltSigns } from "../../lib/crawler/render-need";
import {
  buildSite, NAMED_SHAPES, SCRIPTED_SHAPES, scriptedTruth, type ScriptedShape, type SimulatedSite, type SiteSpec,
} from "../../lib/sitesim";

const HOST = "sim.test:8080";
const html = (site: SimulatedSite, key: string) => site.respond("GET", key, { host: HOST }).body.toString("utf8");

/**
 * The pages of `spec` the reference BFS reads that the heuristic flags, with its reasons. The
 * simulator's pages have no scripts, which alone would keep them unflagged: each gets an
 * analytics script, as many real pages have, so the body's links and text must decide.
 */
function flaggedPages(spec: SiteSpec): string[] {
  const site = buildSite(spec);
  const flagged: string[] = [];
  for (const key of site.groundTruth().htmlPages) {
    const withScript = html(site, key).replace("</body>", `<script async src="/analytics.js"></script></body>`);
    expect(withScript, key).toContain("analytics.js");
    const need = scriptBuiltSigns(withScript);
    if (need.needed) flagged.push(`${spec.shape} ${spec.seed} ${key}: ${need.why}`);
  }
  return flagged;
}

describe("scriptBuiltSigns on the simulated sites", () => {
  it.each(Object.keys(SCRIPTED_SHAPES) as ScriptedShape[])("%s: every shell is flagged, the plain home page is not", (shape) => {
    const site = buildSite({ shape, seed: 1, size: "tiny" });
    const truth = scriptedTruth(site);
    expect(truth.shells.length).toBeGreaterThan(0);
    for (const key of truth.shells) {
      const need = scriptBuiltSigns(html(site, key));
      expect(need, key).toMatchObject({ needed: true });
    }
    expect(scriptBuiltSigns(html(site, "/")).needed).toBe(false);
  });

  it("says why in a short phrase", () => {
    const site = buildSite({ shape: "scripted-listing", seed: 1, size: "tiny" });
    expect(scriptBuiltSigns(html(site, scriptedTruth(site).shells[0]!)).why).toBe("an empty #app root and a <noscript> notice");
    const scroll = buildSite({ shape: "infinite-scroll", seed: 1, size: "tiny" });
    expect(scriptBuiltSigns(html(scroll, scriptedTruth(scroll).shells[0]!)).why).toBe("an empty #__next root and a __NEXT_DATA__ data island");
    const hostile = buildSite({ shape: "hostile-scripted", seed: 1, size: "tiny" });
    expect(scriptBuiltSigns(html(hostile, "/hostile/1")).why).toBe("an empty <app-root> root");
  });

  it("flags no page of the statistics-office demo or of the named shapes", () => {
    expect(flaggedPages({ shape: "statistics-office", seed: 1, size: "small" })).toEqual([]);
    for (const shape of NAMED_SHAPES) expect(flaggedPages({ shape, seed: 1, size: "tiny" })).toEqual([]);
  });

  it("flags no page of the family's seeds 1–30", () => {
    // Tiny sites: a seed draws its templates whatever the size, and the size only multiplies pages.
    for (let seed = 1; seed <= 30; seed++) expect(flaggedPages({ shape: "family", seed, size: "tiny" })).toEqual([]);
  }, 60_000);
});

const page = (head: string, body: string) => `<!DOCTYPE html><html><head><meta charset="utf-8"><title>T</title>${head}</head><body>${body}</body></html>`;
const manyLinks = (n: number) => Array.from({ length: n }, (_, i) => `<li><a href="/report/${i}">Report ${i}</a></li>`).join("");

describe("scriptBuiltSigns on hand-written pages", () => {
  it("flags a React application shell", () => {
    const shell = page(`<link rel="stylesheet" href="/static/css/main.css"><script defer src="/static/js/main.4f2a.js"></script>`,
      `<noscript>You need to enable JavaScript to run this app.</noscript><div id="root"></div>`);
    expect(scriptBuiltSigns(shell)).toEqual({ needed: true, why: "an empty #root root and a <noscript> notice" });
  });

  it("flags an Angular shell, an AngularJS page and a bare script page", () => {
    expect(scriptBuiltSigns(page(`<script src="main.js" type="module"></script>`, `<app-root></app-root>`)).needed).toBe(true);
    const angularJs = `<html ng-app="stats"><head><script src="angular.min.js"></script></head><body><div ng-view></div></body></html>`;
    expect(scriptBuiltSigns(angularJs)).toEqual({ needed: true, why: "an empty [ng-view] root and an ng-app attribute" });
    expect(scriptBuiltSigns(page(`<script src="/bundle.js"></script>`, `<div class="spinner">Loading…</div>`))).toEqual({ needed: true, why: "scripts and an almost empty body" });
  });

  it("does not flag a Next.js page that ships its links server-rendered with __NEXT_DATA__", () => {
    const next = page(`<script src="/_next/static/chunks/main.js" defer></script>`,
      `<div id="__next"><header><nav><a href="/">Home</a></nav></header><main><h1>Datasets</h1><ul>${manyLinks(12)}</ul></main></div>` +
      `<script id="__NEXT_DATA__" type="application/json">{"props":{"pageProps":{}},"page":"/datasets"}</script>`);
    expect(scriptBuiltSigns(next)).toEqual({ needed: false, why: "links in the page's body" });
  });

  it("does not flag a page with many scripts and many links, nor a page without scripts", () => {
    const scripts = Array.from({ length: 15 }, (_, i) => `<script src="/js/${i}.js"></script><script>window.dataLayer=window.dataLayer||[];</script>`).join("");
    expect(scriptBuiltSigns(page(scripts, `<div id="app"><ul>${manyLinks(40)}</ul></div>`))).toEqual({ needed: false, why: "links in the page's body" });
    expect(scriptBuiltSigns(page("", `<div id="app"></div><noscript>Enable JavaScript</noscript>`))).toEqual({ needed: false, why: "no scripts" });
  });

  it("does not flag an article that has a little client-side widget", () => {
    const article = page(`<script src="/comments.js"></script>`,
      `<article><h1>Census 2021</h1><p>${"The census counted every household in the country, region by region. ".repeat(8)}</p><p><a href="/census.csv">Download the table</a></p></article><div id="app"></div>`);
    expect(scriptBuiltSigns(article)).toEqual({ needed: false, why: "text in the page's body" });
  });

  it("does not count links in nav, header and footer, nor a JSON-LD block as a data island", () => {
    const nav = `<header><nav>${manyLinks(30)}</nav></header>`;
    expect(scriptBuiltSigns(page(`<script src="/app.js"></script>`, `${nav}<div id="app"></div><footer>${manyLinks(10)}</footer>`))).toEqual({ needed: true, why: "an empty #app root" });
    expect(scriptBuiltSigns(page(`<script src="/a.js"></script><script type="application/ld+json">{"@type":"Dataset"}</script>`,
      `<main><h1>Prices</h1><p>${"Consumer prices rose in the last quarter across most regions. ".repeat(3)}</p></main>`)).needed).toBe(false);
  });

  it("reads a 1 MB shell to its end and a 1 MB ordinary page only to its first links", () => {
    const bundle = `<script>${"var x = 1;\n".repeat(100_000)}</script>`;
    expect(scriptBuiltSigns(page(bundle, `<div id="app"></div>`)).needed).toBe(true);
    expect(scriptBuiltSigns(page("", `<ul>${manyLinks(30_000)}</ul><script src="/a.js"></script>`))).toEqual({ needed: false, why: "links in the page's body" });
  });
});
