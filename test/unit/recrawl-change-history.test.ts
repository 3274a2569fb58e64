import { describe, expect, it } from "vitest";
import { ChangeTally, EVIDENCE_SUFFIX, MAX_CHANGE_CLASSES, mergeChangeHistory, revisitClassKey } from "../../lib/crawler/engine/change-history";
import { LinkTable } from "../../lib/crawler/engine/link-table";
import { PageFingerprints, pageFingerprint } from "../../lib/crawler/engine/page-fingerprints";
import { PageValidators } from "../../lib/crawler/engine/page-validators";
import { Recrawl } from "../../lib/crawler/engine/recrawl";
import type { RecrawlBasis } from "../../lib/crawler/engine/recrawl-basis";
import { RevisitOutlooks, wilsonUpperBound } from "../../lib/crawler/engine/revisit-outlook";

const LIST = "html/body/main/ol.results/li/a";
const MENU = "html/body/header/nav/ul/li/a";

describe("revisit classes", () => {
  it("are the link's tag path and the page's URL shape", () => {
    expect(revisitClassKey(LIST, "http://s/publication/12")).toBe(revisitClassKey(LIST, "http://s/publication/340"));
    expect(revisitClassKey(LIST, "http://s/publication/12")).not.toBe(revisitClassKey(MENU, "http://s/publication/12"));
    expect(revisitClassKey(LIST, "http://s/publication/12")).not.toBe(revisitClassKey(LIST, "http://s/news/12"));
    expect(revisitClassKey(LIST, "http://s/section/a?page=2")).toBe(`/section/a?page ${LIST}`);
  });
});

describe("page fingerprints", () => {
  const links = (...urls: string[]) => urls.map((url) => ({ url, anchorText: url.split("/").pop()! }));

  it("ignore the links' order and repeats, and see a file added, removed, or an entry's text changed", () => {
    const page = links("http://s/f/1.csv", "http://s/f/2.pdf");
    expect(pageFingerprint(page)).toBe(pageFingerprint([...page].reverse().concat(page)));
    expect(pageFingerprint(page)).not.toBe(pageFingerprint(links("http://s/f/1.csv", "http://s/f/2.pdf", "http://s/f/3.xlsx")));
    expect(pageFingerprint(page)).not.toBe(pageFingerprint(links("http://s/f/1.csv")));
    expect(pageFingerprint([{ url: "http://s/p/1", anchorText: "Publication 1 · updated 1 Jan" }])).not.toBe(pageFingerprint([{ url: "http://s/p/1", anchorText: "Publication 1 · updated 1 Feb" }]));
  });

  it("compare a page with the last earlier run that crawled it, and carry over runs", () => {
    const first = new PageFingerprints(null, 1);
    expect(first.note("http://s/p/1", links("http://s/f/1.csv"))).toBeNull();
    expect(first.note("http://s/p/2", links("http://s/f/2.csv"))).toBeNull();
    expect(first.note("http://s/p/1", links("http://s/f/1.csv", "http://s/f/9.csv"))).toBeNull(); // the same run: no comparison
    const second = new PageFingerprints(first.toState(), 2);
    expect(second.note("http://s/p/1", links("http://s/f/1.csv", "http://s/f/9.csv"))).toEqual({ changed: false, sinceRun: 1 });
    expect(second.note("http://s/p/2", links("http://s/f/2.csv", "http://s/f/3.csv"))).toEqual({ changed: true, sinceRun: 1 });
    expect(second.note("http://s/p/3", links())).toBeNull();
    // Page 1 not crawled by run 3: run 4 compares it with run 2's fingerprint.
    const fourth = new PageFingerprints(new PageFingerprints(second.toState(), 3).toState(), 4);
    expect(fourth.note("http://s/p/1", links("http://s/f/1.csv"))).toEqual({ changed: true, sinceRun: 2 });
  });

  it("keep at most their limit of pages", () => {
    const bounded = new PageFingerprints(null, 1, 2);
    for (let i = 0; i < 5; i++) bounded.note(`http://s/p/${i}`, links());
    expect(bounded.size).toBe(2);
    expect(bounded.toState().length).toBe(6);
  });
});

describe("page validators", () => {
  it("give a page's conditional headers, forget a page that stopped sending them, and keep their limit", () => {
    const validators = new PageValidators(null, 2);
    validators.note("http://s/a", { etag: '"x"', "last-modified": "Sun, 01 Feb 2026 00:00:00 GMT" });
    validators.note("http://s/b", {});
    validators.note("http://s/c", { etag: '"c"' });
    validators.note("http://s/d", { etag: '"d"' });
    const restored = new PageValidators(JSON.parse(JSON.stringify(validators.toState())));
    expect(restored.conditionalHeaders("http://s/a")).toEqual({ "if-none-match": '"x"', "if-modified-since": "Sun, 01 Feb 2026 00:00:00 GMT" });
    expect(restored.conditionalHeaders("http://s/b")).toBeNull();
    expect(restored.conditionalHeaders("http://s/d")).toBeNull(); // past the limit of 2
    restored.note("http://s/a", {});
    expect(restored.conditionalHeaders("http://s/a")).toBeNull();
  });
});

describe("the change history", () => {
  it("adds each run's tally to the runs' before, keeps the first run's yield, and bounds its classes", () => {
    const run2 = new ChangeTally(2);
    run2.observe("a", { changed: true, sinceRun: 1 }, 2, 1000);
    run2.observe("a", { changed: false, sinceRun: 1 }, 0, 1000);
    run2.observe("b", null, 0, 1000); // no earlier fingerprint, nothing found: unchanged
    run2.observe("b", null, 1, 1000); // no earlier fingerprint, something new: changed
    const first = mergeChangeHistory(null, [], { number: 1, startedAtMs: 100, yieldPerRequest: 0.6 });
    const second = mergeChangeHistory(first, run2.toState(), { number: 2, startedAtMs: 1100, yieldPerRequest: 0.1 });
    expect(second.runs).toBe(2);
    expect(second.firstRunYield).toBe(0.6);
    expect(second.runStarts).toEqual([[1, 100], [2, 1100]]);
    expect(second.classes).toEqual([
      { key: "a", visits: 2, changes: 1, finds: 2, intervalMs: 2000, lastChangedRun: 2 },
      { key: "b", visits: 2, changes: 1, finds: 1, intervalMs: 2000, lastChangedRun: 2 },
    ]);
    const run3 = new ChangeTally(3);
    run3.observe("a", { changed: false, sinceRun: 2 }, 0, 500);
    const third = mergeChangeHistory(second, run3.toState(), { number: 3, startedAtMs: 1600, yieldPerRequest: 0.1 });
    expect(third.classes[0]).toEqual({ key: "a", visits: 3, changes: 1, finds: 2, intervalMs: 2500, lastChangedRun: 2 });
    const many = new ChangeTally(2);
    for (let i = 0; i < MAX_CHANGE_CLASSES + 10; i++) many.observe(`k${i}`, null, 0, 1);
    expect(mergeChangeHistory(third, many.toState(), { number: 4, startedAtMs: null, yieldPerRequest: 0 }).classes.length).toBe(MAX_CHANGE_CLASSES);
  });

  it("leaves revisits made on evidence out of the prior of classes not met yet", () => {
    const tally = new ChangeTally(2);
    tally.observe(`x${EVIDENCE_SUFFIX}`, { changed: true, sinceRun: 1 }, 1, 1, false);
    expect([tally.visits, tally.changes]).toEqual([0, 0]);
    tally.observe("y", { changed: false, sinceRun: 1 }, 0, 1);
    expect([tally.visits, tally.changes]).toEqual([1, 0]);
  });
});

describe("revisit outlooks", () => {
  const DAY = 86_400_000;
  const history = (classes: { key: string; visits: number; changes: number; finds: number; lastChangedRun?: number }[]) => ({
    runs: 2,
    runStarts: [[1, 0], [2, 30 * DAY]] as [number, number][],
    firstRunYield: 0.6,
    classes: classes.map((record) => ({ lastChangedRun: 0, ...record, intervalMs: record.visits * 30 * DAY })),
  });

  it("turn the history into the odds of a change since the previous run, times the finds per change", () => {
    const tally = new ChangeTally(3);
    const outlooks = new RevisitOutlooks(history([{ key: "pubs", visits: 100, changes: 20, finds: 30 }]), tally, 60 * DAY, 0);
    outlooks.siteMarksChanges = true;
    const outlook = outlooks.outlook("pubs");
    // Same interval as the history's: 1 − 80.5 / 100.5; 30.5 finds over 21 changes (a prior change worth half a file).
    expect(outlook.changeProbability).toBeCloseTo(1 - 80.5 / 100.5, 9);
    expect(outlook.findsPerChange).toBeCloseTo(30.5 / 21, 9);
    expect(outlook.value).toBeCloseTo(outlook.changeProbability * outlook.findsPerChange, 9);
    expect(outlooks.payLine).toBeCloseTo(0.03, 9);
    // Twice the interval: the odds of at least one change grow.
    const later = new RevisitOutlooks(history([{ key: "pubs", visits: 100, changes: 20, finds: 30 }]), tally, 90 * DAY, 0);
    later.siteMarksChanges = true;
    expect(later.outlook("pubs").changeProbability).toBeCloseTo(1 - (80.5 / 100.5) ** 2, 9);
  });

  it("are optimistic (Wilson's upper bound) unless the site marks its changes", () => {
    expect(wilsonUpperBound(0, 10)).toBeCloseTo(0.2129, 3);
    expect(wilsonUpperBound(0.5, 100)).toBeGreaterThan(0.5);
    const outlooks = new RevisitOutlooks(history([{ key: "news", visits: 30, changes: 0, finds: 0 }]), new ChangeTally(3), 60 * DAY, 0);
    expect(outlooks.outlook("news").changeProbability).toBe(0);
    expect(outlooks.outlook("news").value).toBeGreaterThan(0);
    outlooks.siteMarksChanges = true;
    expect(outlooks.outlook("news").value).toBe(0);
  });

  it("owe a check to a class that changed in the previous run until a few of its pages are revisited", () => {
    const tally = new ChangeTally(3);
    const outlooks = new RevisitOutlooks(history([{ key: "a", visits: 5, changes: 1, finds: 0, lastChangedRun: 2 }, { key: "b", visits: 5, changes: 1, finds: 0, lastChangedRun: 1 }]), tally, 60 * DAY, 0);
    expect(outlooks.owesCheck("a")).toBe(true);
    expect(outlooks.owesCheck("b")).toBe(false);
    tally.observe("a", { changed: false, sinceRun: 2 }, 0, 1);
    tally.observe("a", { changed: false, sinceRun: 2 }, 0, 1);
    expect(outlooks.owesCheck("a")).toBe(false);
  });
});

describe("the order of revisits", () => {
  const DAY = 86_400_000;
  const table = new LinkTable();
  const link = (url: string, tagPath: string) => table.createLink({ url, tagPath, anchorText: "", depth: 2, referrer: null, groupId: null });
  const basisWith = (classes: { key: string; visits: number; changes: number; finds: number; lastChangedRun: number }[]): RecrawlBasis => ({
    previousCrawlId: 1,
    known: [],
    checkKnownFiles: false,
    learned: {
      engine: null as never,
      revisit: [],
      seenBefore: ["http://s/changed-per-sitemap"],
      changeHistory: { runs: 2, runStarts: [[1, 0], [2, 30 * DAY]], firstRunYield: 0.5, classes: classes.map((record) => ({ ...record, intervalMs: record.visits * 30 * DAY })) },
    },
  });

  it("takes pages with evidence first, then the class expected to find most, and stops where none pays", () => {
    const pubs = revisitClassKey(LIST, "http://s/publication/1");
    const news = revisitClassKey(LIST, "http://s/news/1");
    const recrawl = new Recrawl(basisWith([
      { key: pubs, visits: 200, changes: 20, finds: 20, lastChangedRun: 2 },
      { key: news, visits: 30, changes: 0, finds: 0, lastChangedRun: 0 },
    ]), 60 * DAY);
    recrawl.siteMarksChanges();
    for (let i = 1; i <= 3; i++) recrawl.defer(link(`http://s/news/${i}`, LIST), false);
    for (let i = 1; i <= 3; i++) recrawl.defer(link(`http://s/publication/${i}`, LIST), false);
    recrawl.defer(link("http://s/changed-per-sitemap", MENU), false);
    recrawl.changedBySite("http://s/changed-per-sitemap");
    recrawl.defer(link("http://s/publication/9", LIST), true);
    const order: string[] = [];
    for (let next = recrawl.nextDeferred(); next; next = recrawl.nextDeferred()) {
      order.push(next.url);
      recrawl.revisitedPage(next, { changed: false, sinceRun: 2 }, 0);
    }
    // Publications change one time in ten and pay (≈ 0.1 finds a revisit > 0.025); news never changed.
    // Evidence first (same depth: classes in the order met), the sitemap's date among it.
    expect(order).toEqual(["http://s/publication/9", "http://s/changed-per-sitemap", "http://s/publication/1", "http://s/publication/2", "http://s/publication/3"]);
    expect(recrawl.deferredCount).toBe(3);
  });
});
