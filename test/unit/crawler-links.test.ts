import { describe, expect, it } from "vitest";
import { extractLinks, refreshUrl, type ExtractedLink } from "../../lib/crawler/links";

const PAGE = "https://www.example.org/stats/index.html";
const paths = (links: ExtractedLink[]): Record<string, string> => Object.fromEntries(links.map((l) => [l.url, l.tagPath]));

describe("extractLinks: tag paths", () => {
  it("writes tag + classes (single spaces, source order) + #id per step, from /html/body", () => {
    const html = `<!doctype html><html><head><title>t</title></head><body>
      <div class="container" id="main"><ul class=" menu "><li><a class="btn \n  primary" href="/x">X</a></li></ul></div></body></html>`;
    expect(extractLinks(html, PAGE)).toEqual([
      { url: "https://www.example.org/x", tagPath: "/html/body/div.container#main/ul.menu/li/a.btn primary", anchorText: "X", tag: "a" },
    ]);
  });

  it("keeps classes and ids of html and body, and lower-cases tag names only", () => {
    const html = `<HTML class="no-js"><BODY Class="Home page-42" ID="top"><DIV CLASS="Box"><A HREF="/u">u</A></DIV></BODY></HTML>`;
    expect(extractLinks(html, PAGE)[0]!.tagPath).toBe("/html.no-js/body.Home page-42#top/div.Box/a");
  });

  it("implies html and body when the page omits them, without opening the body for head content", () => {
    expect(extractLinks(`<a href="/a">a</a>`, PAGE)[0]!.tagPath).toBe("/html/body/a");
    const html = `<title>x</title><meta charset="utf-8"><link rel="stylesheet" href="/s.css"><script>var s = "<a href='/no'>";</script>
      <div><p><a href="/b">b</a></div>`;
    expect(extractLinks(html, PAGE)).toMatchObject([{ url: "https://www.example.org/b", tagPath: "/html/body/div/p/a" }]);
  });

  it("closes unclosed list items, paragraphs, anchors and table cells as HTML5 does", () => {
    const html = `<ul class="files"><li><a href="/1">1<li><a href="/2">2<li><a href="/3">3</ul>
      <p><a href="/4">four<div><a href="/5">five</a></div>
      <table><tr><td><a href="/6">6<td><a href="/7">7<tr><td><span><a href="/8">8</table>
      <dl><dt><a href="/9">9<dd><a href="/10">10</dl>`;
    expect(paths(extractLinks(html, PAGE))).toEqual({
      "https://www.example.org/1": "/html/body/ul.files/li/a",
      "https://www.example.org/2": "/html/body/ul.files/li/a",
      "https://www.example.org/3": "/html/body/ul.files/li/a",
      "https://www.example.org/4": "/html/body/p/a",
      "https://www.example.org/5": "/html/body/div/a",
      "https://www.example.org/6": "/html/body/table/tr/td/a",
      "https://www.example.org/7": "/html/body/table/tr/td/a",
      "https://www.example.org/8": "/html/body/table/tr/td/span/a",
      "https://www.example.org/9": "/html/body/dl/dt/a",
      "https://www.example.org/10": "/html/body/dl/dd/a",
    });
  });

  it("ignores stray end tags and closes through the matching element", () => {
    const html = `<div class="a"></span></p><section><a href="/1">1</div><a href="/2">2</a>`;
    expect(paths(extractLinks(html, PAGE))).toEqual({
      "https://www.example.org/1": "/html/body/div.a/section/a", // `</p>` alone is an empty <p>
      "https://www.example.org/2": "/html/body/a",
    });
  });

  it("treats <x/> as an open tag in HTML and as self-closed inside svg; void elements never open", () => {
    const html = `<div/><a href="/1">1</a><svg><rect/><a href="/2">2</a></svg><img src="x.png"><br><a href="/3">3</a>`;
    expect(paths(extractLinks(html, PAGE))).toEqual({
      "https://www.example.org/1": "/html/body/div/a",
      "https://www.example.org/2": "/html/body/div/svg/a",
      "https://www.example.org/3": "/html/body/div/a",
    });
  });

  it("puts frames of a frameset page under /html/frameset", () => {
    const html = `<html><head><title>f</title></head><frameset cols="50%,50%"><frame src="left.html"><frame src="right.html"></frameset></html>`;
    expect(extractLinks(html, PAGE)).toMatchObject([
      { url: "https://www.example.org/stats/left.html", tagPath: "/html/frameset/frame", tag: "frame" },
      { url: "https://www.example.org/stats/right.html", tagPath: "/html/frameset/frame", tag: "frame" },
    ]);
  });
});

describe("extractLinks: URLs", () => {
  it("orders all a, then area, frame, iframe, and keeps the first occurrence of a URL", () => {
    const html = `<iframe src="/i"></iframe><map><area href="/ar" alt=" Area  one "></map><a href="/a1">one</a>
      <div><a href="/a1#again">dup</a><a href="/i">later a</a></div>`;
    expect(extractLinks(html, PAGE)).toEqual([
      { url: "https://www.example.org/a1", tagPath: "/html/body/a", anchorText: "one", tag: "a" },
      { url: "https://www.example.org/i", tagPath: "/html/body/div/a", anchorText: "later a", tag: "a" },
      { url: "https://www.example.org/ar", tagPath: "/html/body/map/area", anchorText: "Area one", tag: "area" },
    ]);
  });

  it("honours the first <base href>, wherever the links are", () => {
    const html = `<a href="x.csv">x</a><head><base href="/data/v2/"><base href="https://other.org/"></head><a href="../y.csv">y</a>`;
    expect(extractLinks(html, PAGE).map((l) => l.url)).toEqual(["https://www.example.org/data/v2/x.csv", "https://www.example.org/data/y.csv"]);
  });

  it("reads a fragment-only href as the page itself, or its <base>, query kept and fragment dropped", () => {
    const page = "https://www.example.org/stats/index.html?lang=fr";
    expect(extractLinks(`<a href="#top">a</a><a href="  #x y ">b</a><a href="#">c</a><a href="?lang=en#t">d</a>`, page).map((l) => l.url)).toEqual([
      page,
      "https://www.example.org/stats/index.html?lang=en",
    ]);
    expect(extractLinks(`<base href="/data/v2/?p=1#b"><a href="#section">s</a>`, page).map((l) => l.url)).toEqual(["https://www.example.org/data/v2/?p=1"]);
  });

  it("drops javascript:, mailto:, tel:, data: and unparsable hrefs", () => {
    const html = `<a href="javascript:void(0)">j</a><a href=" MAILTO:a@b.org">m</a><a href="tel:+1">t</a><a href="data:text/plain,x">d</a>
      <a href="http://[oops">bad</a><a href="  /ok  ">ok</a><a>no href</a>`;
    expect(extractLinks(html, PAGE).map((l) => l.url)).toEqual(["https://www.example.org/ok"]);
  });

  it("decodes entities in attributes (HTML5 rules) and anchor texts, and bounds the text", () => {
    const long = "word ".repeat(60);
    const html = `<a href="/q?a=1&amp;b=2&#38;c=3">Stats &amp; data&nbsp;&eacute;t&eacute;</a><a href="/r?a=1&copy=2">${long}</a>`;
    const [q, r] = extractLinks(html, PAGE);
    expect(q).toMatchObject({ url: "https://www.example.org/q?a=1&b=2&c=3", anchorText: "Stats & data été" });
    expect(r!.url).toBe("https://www.example.org/r?a=1&copy=2");
    expect(r!.anchorText.length).toBeLessThanOrEqual(120);
    expect(r!.anchorText.startsWith("word word")).toBe(true);
  });

  it("follows the first <meta http-equiv=refresh> with a URL, after the other links, with a /html/head/meta tag path", () => {
    const redirectOnly = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="description" content="0; url=/not-a-refresh">
      <META HTTP-EQUIV="Refresh" CONTENT="0; URL='stable/index.html'"><meta http-equiv="refresh" content="0; url=/second"></head><body></body></html>`;
    expect(extractLinks(redirectOnly, PAGE)).toEqual([
      { url: "https://www.example.org/stats/stable/index.html", tagPath: "/html/head/meta", anchorText: "", tag: "meta" },
    ]);
    // Links of the body come first; a refresh that only reloads the page is no link; one in the body gets its body path.
    const both = `<a href="/x">x</a><meta http-equiv="refresh" content="30"><div><meta http-equiv="refresh" content="5;/y"></div>`;
    expect(extractLinks(both, PAGE)).toEqual([
      { url: "https://www.example.org/x", tagPath: "/html/body/a", anchorText: "x", tag: "a" },
      { url: "https://www.example.org/y", tagPath: "/html/body/div/meta", anchorText: "", tag: "meta" },
    ]);
  });

  it("takes the response's Refresh header as the page's refresh, before any <meta> one; a header that only reloads leaves the <meta>", () => {
    const html = `<head><meta http-equiv="refresh" content="0; url=/from-meta"></head><body><a href="/x">x</a></body>`;
    expect(extractLinks(html, PAGE, { refreshHeader: "0; url=next/page.php?id=3" }).map((l) => [l.url, l.tagPath])).toEqual([
      ["https://www.example.org/x", "/html/body/a"],
      ["https://www.example.org/stats/next/page.php?id=3", "/html/head/meta"],
    ]);
    expect(extractLinks(html, PAGE, { refreshHeader: "30" }).map((l) => l.url)).toEqual(["https://www.example.org/x", "https://www.example.org/from-meta"]);
    expect(extractLinks("", PAGE, { refreshHeader: "5;URL='/only'" })).toEqual([{ url: "https://www.example.org/only", tagPath: "/html/head/meta", anchorText: "", tag: "meta" }]);
  });

  it("strips session ids, so that links a server without cookies stamps anew on every page are seen once", () => {
    const html = `<a href="/t.do;jsessionid=AAA?id=1">1</a><a href="/t.do;jsessionid=BBB?id=1">1 again</a><a href="/t.do?id=2">2</a>`;
    expect(extractLinks(html, PAGE).map((l) => l.url)).toEqual(["https://www.example.org/t.do?id=1", "https://www.example.org/t.do?id=2"]);
  });

  it("reads the URL of a refresh's content as HTML does", () => {
    expect(refreshUrl("0; url=/next")).toBe("/next");
    expect(refreshUrl("0;URL=/next")).toBe("/next");
    expect(refreshUrl(" 2.5 , url = '/a b' ignored")).toBe("/a b");
    expect(refreshUrl('0; url="/q?x=1;y=2"')).toBe("/q?x=1;y=2");
    expect(refreshUrl("0; https://other.example/")).toBe("https://other.example/");
    expect(refreshUrl("300")).toBeNull();
    expect(refreshUrl("0; url=")).toBeNull();
    expect(refreshUrl("")).toBeNull();
  });

  it("never throws on malformed or random input", () => {
    const samples = [
      "", "<", "<<a href=\"/x\"\">", "<a href=\"/unterminated", "</html></body><a href=/z>z", "<!-- <a href=/c> -->", "<![CDATA[x]]><a href=/d>",
      "<a href=/e><a href=/f></a></a></a>", "<table><a href=/g></table>", "<svg><math><a href=/h>", "\u0000\uffff<a\u0000href=/i>",
    ];
    for (const html of samples) expect(() => extractLinks(html, PAGE)).not.toThrow();
    let s = 12345;
    const alphabet = `<>/="' abcdiv&#;ahref\n`;
    for (let n = 0; n < 300; n++) {
      let html = "";
      for (let i = 0; i < 200; i++) {
        s = (s * 1103515245 + 12345) & 0x7fffffff;
        html += alphabet[s % alphabet.length];
      }
      expect(() => extractLinks(html, PAGE)).not.toThrow();
    }
  });
});

describe("extractLinks: a UTF-8 page kept as its bytes (html-decoding.ts)", () => {
  /** The page as decodeHtmlPage hands over a UTF-8 body: one char per byte. */
  const asBytes = (html: string) => Buffer.from(html, "utf8").toString("latin1");

  it("finds the same links, tag paths and anchor texts as in the decoded text", () => {
    const html = `<html class="accueil é"><body id="corps—1"><nav class="menú principal"><a href="/données/2024?région=Île-de-France&amp;q=caf&eacute;">Données — 2024</a>
      <a href="/資料/統計.csv" title="x">資料&nbsp;統計 😀</a><área><a href="/a\u00a0b/à la/">à la carte\u00a0</a></área></nav>
      <TÊTE-X class="À"><a href="/x"> Über   uns </a></TÊTE-X><base href="/bäse/"><meta http-equiv="refresh" content="0; url=/nächste">
      <map><area href="/zone-é" alt="Zone é"></map><iframe src="/carte-é" title="Carte é"></iframe></body></html>`;
    const expected = extractLinks(html, PAGE);
    expect(expected.map((l) => l.anchorText)).toContain("Données — 2024");
    expect(expected[0]!.tagPath).toBe("/html.accueil é/body#corps—1/nav.menú principal/a");
    expect(extractLinks(asBytes(html), PAGE, { utf8Bytes: true })).toEqual(expected);
  });

  it("agrees with the decoded text on generated pages mixing markup, entities and 1- to 4-byte characters", () => {
    const pieces = ["<a href=\"/", "\">", "</a>", "<area href=/z alt=\"", "<iframe src=/f title=\"", "<div class=\"", "\">", "</div>", "<li>", "é", "à", "\u00a0", "—", "資", "😀", "&amp;", "&eacute;", " ", "x", "/", "?q=", "<p>", "<tÊte>", "</tÊte>", "'", "="];
    let s = 4242;
    const texts = new Set<string>();
    for (let n = 0; n < 400; n++) {
      let html = "<body>";
      for (let i = 0; i < 60; i++) {
        s = (s * 1103515245 + 12345) & 0x7fffffff;
        html += pieces[s % pieces.length];
      }
      const links = extractLinks(html, PAGE);
      expect(extractLinks(asBytes(html), PAGE, { utf8Bytes: true })).toEqual(links);
      for (const link of links) texts.add(link.anchorText + link.tagPath);
    }
    // The pages did put multi-byte characters in anchor texts and tag paths.
    expect([...texts].filter((text) => /[^\x00-\x7f]/.test(text)).length).toBeGreaterThan(100);
  });
});

/** A ~40 KB page shaped like a CMS one: menus, article list, data table, footer. */
function cmsPage(): string {
  const parts = [`<!DOCTYPE html><html lang="en" class="no-js"><head><meta charset="utf-8"><title>Statistics &amp; data</title>
<link rel="stylesheet" href="/static/site.css"><script>window.dataLayer=[];</script><style>.menu li{display:inline}</style></head>
<body class="page page-id-42"><header id="top" class="site-header"><div class="container"><a class="logo" href="/"><img src="/logo.png" alt=""></a>
<nav class="main-nav"><ul class="menu">`];
  for (let i = 0; i < 12; i++) {
    const sub = [0, 1, 2, 3].map((j) => `<li class="menu-item"><a href="/section-${i}/sub-${j}/">Sub ${j} &raquo;</a></li>`).join("");
    parts.push(`<li class="menu-item menu-item-${i}"><a href="/section-${i}/" class="nav-link">Section ${i}</a><ul class="sub-menu">${sub}</ul></li>`);
  }
  parts.push(`</ul></nav></div></header><main id="main"><div class="container"><div class="row">`);
  for (let i = 0; i < 40; i++) {
    parts.push(`<article class="post post-${i} type-post status-publish hentry"><h2 class="entry-title"><a href="/news/${i}.html">Quarterly release ${i} &ndash; housing</a></h2>
<div class="entry-summary"><p>Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua.
<a href="/files/data-${i}.csv">CSV</a> | <a href="/files/report-${i}.pdf">PDF</a></p></div></article>`);
  }
  parts.push(`<table class="data-table"><tr><th>Name</th><th>File</th></tr>`);
  for (let i = 0; i < 25; i++) parts.push(`<tr><td>Dataset ${i}</td><td><a href="download.php?id=${i}&amp;format=xlsx" class="btn">xlsx</a></td></tr>`);
  parts.push(`</table><section class="more">`);
  for (let i = 0; i < 80; i++) {
    parts.push(`<div class="teaser"><h3>Heading ${i}</h3><p>Some paragraph text with <strong>bold</strong> and <em>emphasis</em> &amp; entities &eacute; as a content management system page has.</p></div>`);
  }
  parts.push(`</section></div></div></main><footer><ul class="footer-links">`);
  for (let i = 0; i < 15; i++) parts.push(`<li><a href="/about/page-${i}">About ${i}</a>`);
  parts.push(`</ul><p><a href="mailto:info@example.org">mail</a></p></footer><script src="/app.js"></script></body></html>`);
  return parts.join("\n");
}

describe("extractLinks: entity decoding keeps no state between values", () => {
  it("a value that opened <style> or <title> does not break the next one (found by the fuzz target)", async () => {
    const { decode } = await import("../../lib/crawler/link-text");
    expect(decode("<title>&amp;", false)).toBe("&");
    expect(decode("a<b>&amp;", false)).toBe("a&");
    expect(extractLinks("<a href=/x><style>&amp;</style></a>", "http://example.org/")).toHaveLength(1);
    expect(extractLinks("<a href=/y>a<b>&amp;</b></a>", "http://example.org/").map((l) => l.anchorText)).toEqual(["a&"]);
  });
});
