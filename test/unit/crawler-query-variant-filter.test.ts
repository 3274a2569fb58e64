import { describe, expect, it } from "vitest";
import { MAX_PENDING, QueryVariantFilter } from "../../lib/crawler/engine/query-variant-filter";

const site = "https://a.org";
/** The links of a document page: its body, a site menu, and its printable copy. */
function docLinks(n: number): string[] {
  return [`${site}/reports/${n}/file.pdf`, `${site}/reports/${n + 1}`, `${site}/`, `${site}/about`, `${site}/reports/${n}?print=1`];
}
/** The printable copy: the body's links only. */
const printLinks = (n: number): string[] => [`${site}/reports/${n}/file.pdf`, `${site}/reports/${n + 1}`];

const notePage = (filter: QueryVariantFilter, url: string, links: string[]) => filter.notePage(url, url, links);

/** Crawls page n, then its printable copy; returns the pairs that copy made redundant. */
function crawlPageAndPrint(filter: QueryVariantFilter, n: number, print = printLinks(n)): string[] {
  expect(notePage(filter, `${site}/reports/${n}`, docLinks(n))).toEqual([]);
  return notePage(filter, `${site}/reports/${n}?print=1`, print);
}

describe("query variants", () => {
  it("learns a pair after two variants that add no link to their page, then skips it where the page without it is known", () => {
    const filter = new QueryVariantFilter();
    const known = new Set([`${site}/reports/7`]);
    const isKnown = (url: string) => known.has(url);
    expect(crawlPageAndPrint(filter, 1)).toEqual([]);
    expect(filter.isRedundant(`${site}/reports/7?print=1`, isKnown)).toBe(false); // one confirmation
    expect(crawlPageAndPrint(filter, 2)).toEqual(["print=1"]);
    expect(filter.redundantPairs).toEqual(["print=1"]);
    expect(filter.isRedundant(`${site}/reports/7?print=1`, isKnown)).toBe(true);
    // The page without the pair is unknown: the variant is the only way there, so it is crawled.
    expect(filter.isRedundant(`${site}/reports/8?print=1`, isKnown)).toBe(false);
    // Only the redundant pair is dropped: other pairs stay, in their order.
    known.add(`${site}/reports/7?lang=fr`);
    expect(filter.isRedundant(`${site}/reports/7?lang=fr&print=1`, isKnown)).toBe(true);
    expect(filter.isRedundant(`${site}/reports/7?print=2`, isKnown)).toBe(false);
    expect(filter.isRedundant(`${site}/reports/7`, isKnown)).toBe(false);
    // Judged: page 3 no longer keeps its links for its printable copy.
    notePage(filter, `${site}/reports/3`, docLinks(3));
    expect(filter.toState()).toEqual({ pairs: [["print=1", [`${site}/reports/1`, `${site}/reports/2`], false]], pending: [] });
  });

  it("marks a pair as changing its page for good when a variant shows a link its page lacks", () => {
    const filter = new QueryVariantFilter();
    // Page 1's printable copy lists an annex its page does not show: 1 new link of 3.
    expect(crawlPageAndPrint(filter, 1, [...printLinks(1), `${site}/reports/1/annex.xlsx`])).toEqual([]);
    expect(crawlPageAndPrint(filter, 2)).toEqual([]);
    expect(crawlPageAndPrint(filter, 3)).toEqual([]);
    expect(filter.isRedundant(`${site}/reports/9?print=1`, () => true)).toBe(false);
    expect(filter.toState().pairs).toEqual([["print=1", [], true]]);
  });

  it("tolerates one new link in fifty, and judges only variants of the page that links them", () => {
    const filter = new QueryVariantFilter();
    const menu = Array.from({ length: 49 }, (_, i) => `${site}/topic/${i}`);
    notePage(filter, `${site}/list`, [...menu, `${site}/list?sort=asc`]);
    // 50 links, one of them (the link back to descending order) not on the page: adds nothing.
    expect(notePage(filter, `${site}/list?sort=asc`, [...menu, `${site}/list?sort=desc`])).toEqual([]);
    expect(filter.toState().pairs).toEqual([["sort=asc", [`${site}/list`], false]]);
    // 50 links, two of them new: changes the page.
    notePage(filter, `${site}/other`, [...menu, `${site}/other?sort=asc`]);
    expect(notePage(filter, `${site}/other?sort=asc`, [...menu.slice(0, 48), `${site}/a`, `${site}/b`])).toEqual([]);
    expect(filter.isRedundant(`${site}/list?sort=asc`, () => true)).toBe(false);
    // A link to another path with a query is not a variant of the page: nothing is kept for it.
    notePage(filter, `${site}/x`, [`${site}/y?print=1`]);
    expect(filter.toState()).toEqual({ pairs: [["sort=asc", [`${site}/list`], true]], pending: [] });
    // A variant must keep the page's own pairs: /list?page=2&sort=asc is a variant of /list?page=2.
    notePage(filter, `${site}/list?page=2`, [`${site}/list?sort=desc`, `${site}/list?page=2&view=grid`]);
    expect(filter.toState().pending.map(([url, , , pairs]) => [url, pairs])).toEqual([[`${site}/list?page=2&view=grid`, ["view=grid"]]]);
  });

  it("counts confirmations from pages of different paths only", () => {
    const filter = new QueryVariantFilter();
    // Two listings of one path (its first page and its second) whose filtered variants add nothing.
    notePage(filter, `${site}/datasets`, [`${site}/d/1`, `${site}/datasets?tag=a`]);
    expect(notePage(filter, `${site}/datasets?tag=a`, [`${site}/d/1`])).toEqual([]);
    notePage(filter, `${site}/datasets?page=2`, [`${site}/d/2`, `${site}/datasets?page=2&tag=a`]);
    expect(notePage(filter, `${site}/datasets?page=2&tag=a`, [`${site}/d/2`])).toEqual([]);
    expect(filter.toState().pairs).toEqual([["tag=a", [`${site}/datasets`], false]]);
    // A page of another path confirms it.
    notePage(filter, `${site}/org/x`, [`${site}/d/3`, `${site}/org/x?tag=a`]);
    expect(notePage(filter, `${site}/org/x?tag=a`, [`${site}/d/3`])).toEqual(["tag=a"]);
  });

  it("compares a variant reached through a redirect by the link that was pulled", () => {
    const filter = new QueryVariantFilter();
    for (const n of [1, 2]) {
      notePage(filter, `${site}/reports/${n}`, docLinks(n));
      filter.notePage(`${site}/reports/${n}?print=1`, `${site}/print/reports/${n}`, printLinks(n));
    }
    expect(filter.redundantPairs).toEqual(["print=1"]);
  });

  it("keeps verdicts and waiting variants through a checkpoint", () => {
    const filter = new QueryVariantFilter();
    crawlPageAndPrint(filter, 1);
    notePage(filter, `${site}/reports/2`, docLinks(2));
    const restored = QueryVariantFilter.fromState(JSON.parse(JSON.stringify(filter.toState())));
    expect(restored.toState()).toEqual(filter.toState());
    expect(restored.notePage(`${site}/reports/2?print=1`, `${site}/reports/2?print=1`, printLinks(2))).toEqual(["print=1"]);
    expect(restored.isRedundant(`${site}/reports/2?print=1`, () => true)).toBe(true);
    expect(() => QueryVariantFilter.fromState({ pairs: [] } as never)).toThrow(TypeError);
  });

  it("keeps at most a thousand variants waiting, forgetting the oldest first", () => {
    const filter = new QueryVariantFilter();
    for (let n = 0; n <= MAX_PENDING; n++) notePage(filter, `${site}/p/${n}`, [`${site}/p/${n}?v=${n}`]);
    expect(filter.toState().pending).toHaveLength(MAX_PENDING);
    // The first waiting variant was forgotten: crawling it judges nothing.
    notePage(filter, `${site}/p/0?v=0`, []);
    notePage(filter, `${site}/p/1?v=1`, []);
    expect(filter.toState().pairs).toEqual([["v=1", [`${site}/p/1`], false]]);
  });
});
