import { describe, expect, it } from "vitest";
import { MAX_URL_CHARS, PAGE_LIMITS } from "../../lib/crawler/defaults";
import { extractLinks, extractPageLinks } from "../../lib/crawler/links";
import { extractPageLinksAsync } from "../../lib/crawler/page-links-async";
import { badUtf8Page, deepPage, hugeClassPage, manyLinksPage } from "../../lib/sitesim/hostile/hostile-pages";

const PAGE = "https://www.example.org/stats/index.html";
const NO_LIMITS = { linksOverLimit: 0, urlsTooLong: 0, elementsTooDeep: 0, valuesCut: 0, scansCut: 0 };

describe("extractPageLinks: page limits", () => {
  it("reports nothing cut on an honest page", () => {
    const html = `<html><body><div class="nav" id="top"><ul><li><a href="/a">a</a><li><a href="/b.csv">b</a></ul></div></body></html>`;
    expect(extractPageLinks(html, PAGE)).toEqual({
      links: [
        { url: "https://www.example.org/a", tagPath: "/html/body/div.nav#top/ul/li/a", anchorText: "a", tag: "a" },
        { url: "https://www.example.org/b.csv", tagPath: "/html/body/div.nav#top/ul/li/a", anchorText: "b", tag: "a" },
      ],
      limits: NO_LIMITS,
    });
  });

  it(`tracks at most ${PAGE_LIMITS.maxElementDepth} open elements: a deeper link is found, its tag path stops at the limit`, () => {
    const depth = PAGE_LIMITS.maxElementDepth + 100;
    const html = `<body>${"<div>".repeat(depth)}<a href="/deep.csv">deep</a>${"</div>".repeat(depth)}<p><a href="/after">after</a></p>`;
    const { links, limits } = extractPageLinks(html, PAGE);
    const deep = links[0]!;
    expect(deep.url).toBe("https://www.example.org/deep.csv");
    // html and body are not on the stack: the limit's divs, then the link.
    expect(deep.tagPath).toBe(`/html/body${"/div".repeat(PAGE_LIMITS.maxElementDepth)}/a`.slice(0, PAGE_LIMITS.maxTagPathChars));
    expect(limits.elementsTooDeep).toBe(101); // 100 divs and the a
    // The untracked divs' end tags close tracked ones; the page's structure comes back at the end.
    expect(links[1]).toMatchObject({ url: "https://www.example.org/after", tagPath: "/html/body/p/a" });
  });

  // The time these pages take is measured by test/bench/link-extraction-bounds.ts; here, the
  // counts that show the work per tag is bounded whatever the page's size.
  it("parses 300 000 nested elements and 300 000 stray end tags with a stack that never grows past its limit (quadratic markup)", () => {
    const html = deepPage(300_000, "/files/deep.csv");
    const { links, limits } = extractPageLinks(html, PAGE);
    expect(links.map((link) => link.url)).toEqual(["https://www.example.org/files/deep.csv"]);
    expect(links[0]!.tagPath.length).toBeLessThanOrEqual(PAGE_LIMITS.maxTagPathChars);
    // Every element past the depth limit is counted instead of pushed: an end tag's search walks
    // at most maxElementDepth entries, not the 300 000 a whole-stack scan would.
    expect(limits.elementsTooDeep).toBe(300_000 - PAGE_LIMITS.maxElementDepth + 1);
    // Those bounded searches stay within the page's scan budget: none was cut.
    expect(limits.scansCut).toBe(0);
  });

  it("repeats of an end tag that closes nothing cost no scan of a deep stack", () => {
    const html = `<body><b><div>${"<span>".repeat(PAGE_LIMITS.maxElementDepth)}${"</b>".repeat(300_000)}<a href="/x">x</a>`;
    const { links, limits } = extractPageLinks(html, PAGE);
    // A scan per stray end tag would walk 300 000 × 512 entries and hit the page's scan bound; with
    // the cached "closes nothing" answer no search is ever cut.
    expect(limits.scansCut).toBe(0);
    // `</b>` stops at the div (a special element): the b stays open, the link stays inside the spans.
    expect(links[0]!.tagPath.startsWith("/html/body/b/div/span/span")).toBe(true);
  });

  it(`bounds the searches of a page alternating new elements and stray end tags at ${PAGE_LIMITS.maxStackScanSteps} steps`, () => {
    // Every `<x></x>` changes the stack, so each `</b>` searches again: 500 entries down to the div.
    const searches = 200_000;
    const html = `<body><b><div>${"<span>".repeat(500)}${"<x></x></b>".repeat(searches)}<a href="/x">x</a>`;
    const { links, limits } = extractPageLinks(html, PAGE);
    expect(links).toHaveLength(1);
    // Each whole search costs the stack's 502 entries (b, div, 500 spans): the searches that fit
    // in the budget run whole (the last one crosses it), every later one is cut to a short scan.
    // So the page's search work is the budget plus a constant per end tag: linear in its size.
    const whole = Math.floor(PAGE_LIMITS.maxStackScanSteps / 502) + 1;
    expect(limits.scansCut).toBe(searches - whole);
  });

  it(`reads the first ${PAGE_LIMITS.maxLinksPerPage} links of a page and counts the rest`, () => {
    const { links, limits } = extractPageLinks(manyLinksPage(25_000, "/first.csv"), PAGE);
    expect(links).toHaveLength(PAGE_LIMITS.maxLinksPerPage);
    expect(links[0]!.url).toBe("https://www.example.org/first.csv");
    expect(links.at(-1)!.url).toBe(`https://www.example.org/g/${PAGE_LIMITS.maxLinksPerPage - 1}.png`);
    expect(limits).toEqual({ ...NO_LIMITS, linksOverLimit: 5000 });
  });

  it(`drops URLs over ${MAX_URL_CHARS} characters and keeps those under`, () => {
    const ok = `/q?${"a".repeat(MAX_URL_CHARS - 100)}`;
    const tooLong = `/q?${"b".repeat(MAX_URL_CHARS + 1)}`;
    const html = `<body><a href="${tooLong}">l</a><a href="${ok}">o</a><iframe src="${tooLong}"></iframe><meta http-equiv="refresh" content="0; url=${tooLong}">`;
    const { links, limits } = extractPageLinks(html, PAGE);
    expect(links.map((link) => link.url)).toEqual([`https://www.example.org${ok}`]);
    expect(limits).toEqual({ ...NO_LIMITS, urlsTooLong: 3 });
    // A URL that only grows past the limit once resolved against a long base is dropped too.
    const base = `https://www.example.org/${"d".repeat(MAX_URL_CHARS - 30)}/`;
    expect(extractPageLinks(`<a href="page-with-a-long-name.html">p</a>`, base).limits.urlsTooLong).toBe(1);
  });

  it(`cuts an 8 MB class to ${PAGE_LIMITS.maxAttributeChars} characters and the tag path to ${PAGE_LIMITS.maxTagPathChars}`, () => {
    const { links, limits } = extractPageLinks(hugeClassPage(8 * 1024 * 1024, "/class.csv"), PAGE);
    expect(links).toHaveLength(1);
    expect(links[0]!.url).toBe("https://www.example.org/class.csv");
    expect(links[0]!.tagPath).toHaveLength(PAGE_LIMITS.maxTagPathChars);
    expect(links[0]!.tagPath.startsWith("/html/body/div.cccc")).toBe(true);
    expect(limits.valuesCut).toBeGreaterThanOrEqual(2); // the attribute, then the step
  });

  it("reads links out of invalid UTF-8 and NUL bytes", () => {
    const body = badUtf8Page("/files/bad-utf8.csv");
    const urls = extractLinks(body.toString("latin1"), PAGE, { utf8Bytes: true }).map((link) => link.url);
    expect(urls).toContain("https://www.example.org/files/bad-utf8.csv");
    expect(urls).toHaveLength(2); // and the href holding a NUL, percent-encoded by URL parsing
  });
});

describe("extractPageLinksAsync", () => {
  const pages: Record<string, string> = {
    honest: `<!doctype html><html class="x"><head><base href="/data/"><meta http-equiv="refresh" content="5; url=/next"></head>
      <body><ul class="files"><li><a href="a.csv?x=1&amp;y=2">A &amp; B</a><li><a href="b.csv">B</a></ul>
      <table><tr><td><a href="/t">t</a><td><area href="/area" alt="area"></table><iframe src="/frame" title="f"></iframe></body></html>`,
    deep: deepPage(5_000, "/deep.csv"),
    many: manyLinksPage(21_000, "/first.csv"),
    messy: `<div class="a"></span></p><section><a href="/1">1</div><a href="/2">2</a><svg><a href="/3"/></svg><li><a href="/4">4<li><a href="/5">5`,
  };

  it("gives the same links and counts as the one-call parse, whatever the slice size", async () => {
    for (const [name, html] of Object.entries(pages)) {
      const expected = extractPageLinks(html, PAGE);
      for (const slice of [1, 7, 1000, 1 << 20]) {
        expect(await extractPageLinksAsync(html, PAGE, {}, slice), `${name} / ${slice}`).toEqual(expected);
      }
    }
  });

  it("lets timers run while a pathological page is parsed", async () => {
    const html = deepPage(300_000, "/deep.csv") + manyLinksPage(50_000, "/first.csv");
    const oneCall = performance.now();
    extractPageLinks(html, PAGE);
    const oneCallMs = performance.now() - oneCall;
    // The longest stretch a 5 ms timer waited while this process computed (CPU time during the
    // wait): a loaded machine delays timers too, but then the process is not running.
    let maxHeldMs = 0;
    let last = performance.now();
    let lastCpu = process.cpuUsage();
    const timer = setInterval(() => {
      const now = performance.now();
      const cpu = process.cpuUsage(lastCpu);
      maxHeldMs = Math.max(maxHeldMs, Math.min(now - last, (cpu.user + cpu.system) / 1000));
      last = now;
      lastCpu = process.cpuUsage();
    }, 5);
    try {
      await extractPageLinksAsync(html, PAGE);
    } finally {
      clearInterval(timer);
    }
    expect(oneCallMs).toBeGreaterThan(100); // what one call holds the loop for (≈ 300 ms): the bound below means something
    expect(maxHeldMs).toBeLessThan(80); // ≈ 15 ms
  });
});
