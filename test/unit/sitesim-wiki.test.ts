import * as cheerio from "cheerio";
import { describe, expect, it } from "vitest";
import { buildSite, hasMediaExtension, mimeOf, SIM_TARGET_MIME_TYPES } from "../../lib/sitesim";
import { finiteUrls, servedPages } from "../helpers/sitesim-pages";

const HOST = "wiki.test";
const { html, linksFromHtml } = servedPages(HOST);

describe("wiki", () => {
  const site = buildSite({ shape: "wiki", seed: 1, size: "small" });
  const g = site.groundTruth();
  const targets = new Set(g.targets.map((t) => t.path));
  const allLinks = new Set(g.htmlPages.flatMap((p) => site.links(p)!));
  const articles = g.htmlPages.filter((p) => /^\/wiki\/[^:]+$/.test(p) && p !== "/wiki/Main_Page");

  it("/ answers 301 to the main page, which has the Vector skin structure", () => {
    const root = site.respond("GET", "/", { host: HOST });
    expect(root.status).toBe(301);
    expect(root.headers.location).toBe(`http://${HOST}/wiki/Main_Page`);
    expect(g.htmlPages[0]).toBe("/wiki/Main_Page");
    const $ = cheerio.load(html(site, "/wiki/Main_Page"));
    for (const sel of ["div#mw-page-base", "div#content.mw-body", "div#bodyContent", "div#mw-content-text > div.mw-parser-output", "div#mw-panel", "#p-navigation", "#p-tb", "#p-personal", "#p-views", "footer#footer"]) {
      expect($(sel).length, sel).toBe(1);
    }
    expect($("#p-views a").map((_, a) => $(a).text()).get()).toEqual(["Read", "View source", "View history"]);
    expect($("#footer-places a").map((_, a) => $(a).text()).get()).toEqual(["Privacy policy", "About StatWiki", "Disclaimers"]);
  });

  it("targets are uploads under /images/, 200 with a target MIME type, and a plausible share of the site", () => {
    expect(g.targets.length).toBeGreaterThan(50);
    for (const t of g.targets) {
      expect(t.path).toMatch(/^\/images\/(archive\/)?[0-9a-f]\/[0-9a-f]{2}\/[^/]+$/);
      expect(hasMediaExtension(t.path)).toBe(false);
      const res = site.respond("GET", t.path);
      expect(res.status).toBe(200);
      expect(SIM_TARGET_MIME_TYPES).toContain(mimeOf(res.headers["content-type"]!));
    }
    const share = g.targets.length / finiteUrls(site);
    expect(share).toBeGreaterThan(0.03);
    expect(share).toBeLessThan(0.15);
    // Old versions of re-uploaded files are targets too.
    expect(g.targets.some((t) => t.path.startsWith("/images/archive/") && /\/[0-9]{14}%21/.test(t.path))).toBe(true);
  });

  it("files are linked from articles ([[Media:]]) and from their description pages", () => {
    const fromArticles = new Set(articles.flatMap((p) => site.links(p)!.filter((l) => l.startsWith("/images/"))));
    const filePages = g.htmlPages.filter((p) => p.startsWith("/wiki/File:"));
    const fromFilePages = new Set(filePages.flatMap((p) => site.links(p)!.filter((l) => l.startsWith("/images/"))));
    expect([...fromArticles].filter((l) => targets.has(l)).length).toBeGreaterThan(10);
    expect(filePages.length).toBeGreaterThan(50);
    for (const t of targets) expect(fromArticles.has(t) || fromFilePages.has(t), t).toBe(true);
    // Articles also link description pages, and embed thumbnails (images, not links).
    expect(articles.some((p) => site.links(p)!.some((l) => l.startsWith("/wiki/File:")))).toBe(true);
    expect(html(site, filePages[0]!)).toContain("File history");
    // Thumbnails and image originals are media links: skipped, never requested.
    expect(g.mediaLinksSkipped).toBeGreaterThan(0);
    expect([...allLinks].some((l) => l.startsWith("/images/thumb/"))).toBe(true);
  });

  it("deleted files keep a description page; their addresses are 404", () => {
    const deleted = g.htmlPages.filter((p) => p.startsWith("/wiki/File:") && html(site, p).includes("No file by this name exists"));
    const stale = [...allLinks].filter((l) => l.startsWith("/images/") && !l.startsWith("/images/thumb/") && !hasMediaExtension(l) && !targets.has(l));
    expect(deleted.length + stale.length).toBeGreaterThan(0);
    for (const l of stale) expect(site.respond("GET", l).status).toBe(404);
  });

  it("revision views answer: history, old revisions, diffs, view source, page information, printable", () => {
    const page = articles.find((p) => g.htmlPages.some((h) => h.includes(`diff=prev&oldid=`) && h.startsWith(`/index.php?title=${p.slice(6)}&`)))!;
    expect(page).toBeDefined();
    const title = page.slice(6);
    const history = `/index.php?title=${title}&action=history`;
    expect(g.htmlPages).toContain(history);
    const oldids = site.links(history)!.filter((l) => /&oldid=[0-9]+$/.test(l) && !l.includes("diff="));
    expect(oldids.length).toBeGreaterThan(1);
    for (const key of [history, `/index.php?title=${title}&action=edit`, `/index.php?title=${title}&action=info`, `/index.php?title=${title}&printable=yes`, ...oldids]) {
      expect(site.respond("GET", key).status, key).toBe(200);
      expect(g.htmlPages).toContain(key);
    }
    expect(html(site, history)).toContain(`<meta name="robots" content="noindex,nofollow"/>`);
    expect(site.respond("GET", `/index.php?title=${title}&oldid=1`).status).toBe(404);
    expect(site.respond("GET", `/index.php?title=${title}&action=edit&section=99`).status).toBe(404);
    expect(site.respond("GET", `/index.php?title=${title}&offset=&limit=500&action=history`).status).toBe(200);
    expect(site.respond("GET", `/index.php?title=${title}&action=raw`).headers["content-type"]).toBe("text/x-wiki; charset=utf-8");
    // index.php?title=X alone is normalised to the article path.
    expect(site.respond("GET", `/index.php?title=${title}`).headers.location).toBe(page);
    // Most of a wiki is revision views.
    expect(g.htmlPages.filter((p) => p.startsWith("/index.php?")).length / g.htmlPages.length).toBeGreaterThan(0.5);
  });

  it("red links answer 302 to the missing page, which is a 404", () => {
    const red = [...allLinks].filter((l) => l.endsWith("&action=edit&redlink=1"));
    expect(red.length).toBeGreaterThan(20);
    for (const key of red.slice(0, 30)) {
      const res = site.respond("GET", key);
      expect(res.status).toBe(302);
      expect(res.headers.location).toMatch(/^\/wiki\//);
      const missing = site.respond("GET", res.headers.location!);
      expect(missing.status).toBe(404);
      expect(missing.body.toString()).toContain("There is currently no text in this page");
    }
    expect(g.redirects).toBeGreaterThanOrEqual(red.length);
    expect(g.notFound).toBeGreaterThanOrEqual(red.length);
  });

  it("redirect pages answer 200 with the target's content and a 'Redirected from' line", () => {
    const redirected = g.htmlPages.filter((p) => p.startsWith("/wiki/") && html(site, p).includes(`class="mw-redirectedfrom"`));
    expect(redirected.length).toBeGreaterThan(0);
    for (const p of redirected) {
      const $ = cheerio.load(html(site, p));
      const canonical = $("link[rel=canonical]").attr("href")!;
      expect(canonical).not.toBe(p);
      expect($("#mw-content-text").html()).toBe(cheerio.load(html(site, canonical))("#mw-content-text").html());
      expect(site.respond("GET", `/index.php?title=${p.slice(6)}&redirect=no`).status).toBe(200);
    }
  });

  it("categories list members 200 to a page, with pagefrom / pageuntil links", () => {
    // Categories outgrow one page on wikis of ≈ 20 000 URLs (the uploads category first).
    const medium = buildSite({ shape: "wiki", seed: 1, size: 20_000 });
    const gm = medium.groundTruth();
    const paged = gm.htmlPages.filter((p) => p.startsWith("/index.php?title=Category:") && /&(page|file)from=/.test(p));
    expect(paged.length).toBeGreaterThan(0);
    const key = paged[0]!;
    const $ = cheerio.load(medium.respond("GET", key).body.toString());
    const members = $("#mw-pages .mw-category li, #mw-category-media li.gallerybox").length;
    expect(members).toBeGreaterThan(0);
    expect(members).toBeLessThanOrEqual(200);
    expect(medium.links(key)!.some((l) => /&(page|file)until=/.test(l))).toBe(true);
    const first = gm.htmlPages.find((p) => p.startsWith("/wiki/Category:") && medium.links(p)!.some((l) => /&(page|file)from=/.test(l)))!;
    const $first = cheerio.load(medium.respond("GET", first).body.toString());
    expect($first("#mw-pages .mw-category li").length + $first("#mw-category-media li.gallerybox").length).toBeGreaterThanOrEqual(200);
  });

  it("robots.txt keeps crawlers out of special pages only; special pages still answer", () => {
    expect(site.robotsTxt).toContain("Disallow: /wiki/Special:\n");
    expect(site.robotsTxt).toContain("Disallow: /index.php?title=Special:\n");
    expect(site.robotsTxt).not.toMatch(/Disallow: \/index\.php\n/);
    expect(g.disallowedLinks).toBeGreaterThan(10);
    expect(g.htmlPages.some((p) => p.includes("Special:"))).toBe(false);
    for (const key of ["/wiki/Special:RecentChanges", "/index.php?title=Special:RecentChanges&days=7&limit=100", "/wiki/Special:AllPages", "/wiki/Special:ListFiles",
      "/wiki/Special:Upload", "/index.php?title=Special:UserLogin&returnto=Main+Page", "/wiki/Special:WhatLinksHere/Main_Page", "/wiki/Special:SpecialPages",
      "/index.php?search=population&title=Special%3ASearch&fulltext=1"]) {
      expect(site.respond("GET", key).status, key).toBe(200);
    }
    expect(site.respond("GET", "/wiki/Special:NoSuchPage").status).toBe(404);
    // Special:Random: a fixed article per seed, the same on every request.
    const random = site.respond("GET", "/wiki/Special:Random");
    expect(random.status).toBe(302);
    expect(site.respond("GET", "/wiki/Special:Random").headers.location).toBe(random.headers.location);
    expect(articles).toContain(random.headers.location);
  });

  it("other hosts: interlanguage and external links are not followed", () => {
    const $ = cheerio.load(html(site, articles.find((p) => html(site, p).includes("interlanguage-link-target")) ?? articles[0]!));
    expect($("a.external").length).toBeGreaterThan(0);
    expect(g.externalLinks).toBeGreaterThan(5);
  });

  it("the links ground truth walks are those a crawler extracts from the HTML", () => {
    const step = Math.max(1, Math.floor(g.htmlPages.length / 80));
    for (let k = 0; k < g.htmlPages.length; k += step) {
      const key = g.htmlPages[k]!;
      expect(linksFromHtml(html(site, key), key), key).toEqual(site.links(key));
    }
  });

  it("the same seed gives the same bytes; another seed another wiki", () => {
    const again = buildSite({ shape: "wiki", seed: 1, size: "small" });
    for (const key of [...g.htmlPages.slice(0, 20), ...g.targets.slice(0, 10).map((t) => t.path)]) {
      expect(again.respond("GET", key, { host: HOST }).body.equals(site.respond("GET", key, { host: HOST }).body)).toBe(true);
    }
    const other = buildSite({ shape: "wiki", seed: 2, size: "small" });
    expect(other.groundTruth().targets.map((t) => t.path)).not.toEqual(g.targets.map((t) => t.path));
  });

  it.each(["tiny", "small", "medium"] as const)("%s: finite, sized, with targets", (size) => {
    const s = buildSite({ shape: "wiki", seed: 3, size });
    const gs = s.groundTruth();
    const nominal = { tiny: 300, small: 2_000, medium: 10_000 }[size];
    expect(finiteUrls(s)).toBeGreaterThan(nominal * 0.7);
    expect(finiteUrls(s)).toBeLessThan(nominal * 1.5);
    expect(gs.bfsStop).toBe("exhausted");
    expect(gs.targets.length).toBeGreaterThan(size === "tiny" ? 5 : 40);
  });

  it("builds a large site and its ground truth quickly", () => {
    const t0 = performance.now();
    const large = buildSite({ shape: "wiki", seed: 3, size: "large" });
    expect(performance.now() - t0).toBeLessThan(2_000);
    const gl = large.groundTruth();
    // ≈ 2.5 s on an idle machine; generous here because tests share two cores.
    expect(performance.now() - t0).toBeLessThan(10_000);
    expect(finiteUrls(large)).toBeGreaterThan(30_000);
    expect(finiteUrls(large)).toBeLessThan(50_000);
    expect(gl.targets.length).toBeGreaterThan(1_500);
    expect(gl.bfsStop).toBe("exhausted");
  });
});
