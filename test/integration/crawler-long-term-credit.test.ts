import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pathOf, runTestCrawl, startRouteSite, type Route, type TestSite } from "../helpers/crawl-fixtures";

/**
 * Files three steps below a pagination group that links no file itself. The archive is a chain of
 * listing pages (`nav.pager a`, next page only); each lists one hub (`ul.hubs a`), each hub three
 * records (`ul.records a`), each record two CSV files. The pagination group's pulls bring no
 * target, nor do the hubs': with the paper's immediate reward the pager is an action that never
 * paid, explored no more than the news section's barren groups (its own pager, its stories, their
 * "related" boxes, tags and bylines, the tag and author pages' lists), which hold hundreds of links. With long-term credit the pager earns γ²× the
 * files two pages below its pages, so it keeps being pulled and the archive is walked first.
 */
const LISTINGS = 30;
const RECORDS_PER_HUB = 3;
const FILES_PER_RECORD = 2;
const NEWS_PAGES = 100;
const NEWS_ITEMS_PER_PAGE = 5;
const TAGS = 120;
const AUTHORS = 60;
const FILES = LISTINGS * RECORDS_PER_HUB * FILES_PER_RECORD;

const html = (body: string) => `<!DOCTYPE html><html><body><header><a href="/">home</a></header>${body}</body></html>`;

function routes(): Record<string, Route> {
  const out: Record<string, Route> = {};
  out["/"] = html(`<div class="sections"><a href="/browse?page=1">archive</a> <a href="/news?page=1">news</a></div>`);
  for (let n = 1; n <= LISTINGS; n++) {
    const next = n < LISTINGS ? `<nav class="pager"><a href="/browse?page=${n + 1}">next</a></nav>` : "";
    out[`/browse?page=${n}`] = html(`<ul class="hubs"><li><a href="/hub/${n}">volume ${n}</a></li></ul>${next}`);
    const records = Array.from({ length: RECORDS_PER_HUB }, (_, i) => `<li><a href="/record/${n}-${i}">record</a></li>`).join("");
    out[`/hub/${n}`] = html(`<ul class="records">${records}</ul>`);
    for (let i = 0; i < RECORDS_PER_HUB; i++) {
      const files = Array.from({ length: FILES_PER_RECORD }, (_, f) => `<a class="download" href="/data/${n}-${i}-${f}.csv">csv</a>`).join(" ");
      out[`/record/${n}-${i}`] = html(`<div class="files">${files}</div>`);
      for (let f = 0; f < FILES_PER_RECORD; f++) out[`/data/${n}-${i}-${f}.csv`] = { type: "text/csv", body: `volume,${n}\nrecord,${i}\nfile,${f}\n` };
    }
  }
  for (let p = 1; p <= NEWS_PAGES; p++) {
    const pager = [p + 1, p + 2, p + 3].filter((n) => n <= NEWS_PAGES).map((n) => `<a href="/news?page=${n}">${n}</a>`).join(" ");
    const items = Array.from({ length: NEWS_ITEMS_PER_PAGE }, (_, i) => `<li><a href="/story/${p}-${i}">story</a></li>`).join("");
    out[`/news?page=${p}`] = html(`<ul class="stories">${items}</ul><div class="news-pages">${pager}</div>`);
    for (let i = 0; i < NEWS_ITEMS_PER_PAGE; i++) {
      const related = [1, 2].map((d) => `<a href="/story/${((p + d * 7) % NEWS_PAGES) + 1}-${(i + d) % NEWS_ITEMS_PER_PAGE}">more</a>`).join(" ");
      const tags = [0, 1].map((d) => `<a href="/tag/${(p * 3 + i + d * 11) % TAGS}">tag</a>`).join(" ");
      const author = `<a href="/author/${(p + i) % AUTHORS}">author</a>`;
      out[`/story/${p}-${i}`] = html(`<article><p>text</p><p class="byline">${author}</p></article><div class="tags">${tags}</div><aside class="related">${related}</aside>`);
    }
  }
  // Tag and author pages: more barren groups, each listing stories under tag paths of their own.
  for (let t = 0; t < TAGS; t++) {
    const stories = [1, 2, 3].map((d) => `<li><a href="/story/${((t * 5 + d * 13) % NEWS_PAGES) + 1}-${d % NEWS_ITEMS_PER_PAGE}">story</a></li>`).join("");
    out[`/tag/${t}`] = html(`<ol class="tagged">${stories}</ol>`);
  }
  for (let a = 0; a < AUTHORS; a++) {
    const stories = [1, 2, 3].map((d) => `<li><a href="/story/${((a * 7 + d * 17) % NEWS_PAGES) + 1}-${(d + 2) % NEWS_ITEMS_PER_PAGE}">story</a></li>`).join("");
    out[`/author/${a}`] = html(`<section class="bio"><ul class="by-author">${stories}</ul></section>`);
  }
  return out;
}

/** Pages and files of the site: a budget that lets either crawl finish. */
const PAGES = 1 + LISTINGS * (2 + RECORDS_PER_HUB) + NEWS_PAGES * (1 + NEWS_ITEMS_PER_PAGE) + TAGS + AUTHORS;

let site: TestSite;
beforeAll(async () => {
  site = await startRouteSite(routes());
});
afterAll(async () => {
  await site.close();
});

function requestsTo90(sequence: readonly string[]): number {
  let files = 0;
  for (const [i, line] of sequence.entries()) {
    if (line.startsWith("GET ") && pathOf(line.slice(4)).startsWith("/data/")) files += 1;
    if (files >= Math.ceil(0.9 * FILES)) return i + 1;
  }
  return Number.POSITIVE_INFINITY;
}

async function crawl(longTermCreditDiscount: number, seed: number) {
  // Stopped once 90 % of the files are in: the rest of the crawl says nothing about the comparison.
  const result = await runTestCrawl(
    { rootUrl: site.rootUrl, seed, params: { longTermCreditDiscount }, budget: { requests: PAGES + FILES } },
    { stopWhen: (counters) => counters.targets >= Math.ceil(0.9 * FILES) },
  );
  const pager = result.groups.find((group) => group.sampleTagPath.includes("nav.pager"));
  return { to90: requestsTo90(result.sequence), pager };
}

describe("long-term credit: a pagination group three steps above the files", () => {
  it("with γ = 0.5 the pager is credited and the files are reached in clearly fewer requests than with γ = 0", async () => {
    const seeds = [1, 2, 3];
    const immediate = [];
    const credited = [];
    for (const seed of seeds) {
      immediate.push(await crawl(0, seed));
      credited.push(await crawl(0.5, seed));
    }
    for (const run of credited) {
      // The pager's own pulls bring no file: whatever it earned is credit from the records below.
      expect(run.pager!.totalReward).toBeGreaterThan(0);
      expect(Number.isFinite(run.to90)).toBe(true);
    }
    for (const run of immediate) expect(run.pager?.totalReward ?? 0).toBe(0);
    const mean = (runs: { to90: number }[]) => runs.reduce((sum, run) => sum + run.to90, 0) / runs.length;
    // "Clearly fewer": at most three quarters of the requests, on average over the seeds, and fewer on every seed.
    expect(mean(credited)).toBeLessThan(0.75 * mean(immediate));
    for (const [i, run] of credited.entries()) expect(run.to90).toBeLessThan(immediate[i]!.to90);
  }, 300_000);
});
