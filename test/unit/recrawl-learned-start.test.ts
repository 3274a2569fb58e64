import { describe, expect, it } from "vitest";
import { parseCrawlConfig } from "../../lib/crawl-config";
import { emptyCounters } from "../../lib/crawler/engine/create-engine";
import { forgetBandit, forgetSegments, startingState } from "../../lib/crawler/engine/learned-start";
import { Recrawl } from "../../lib/crawler/engine/recrawl";
import { revisitClassKey } from "../../lib/crawler/engine/change-history";
import { LinkTable } from "../../lib/crawler/engine/link-table";
import { SleepingBandit } from "../../lib/crawler/sleeping-bandit";
import { EvolvingCatalogue } from "../../lib/sitesim/evolving";

describe("forgetting the previous run", () => {
  it("halves the bandit's pulls and rewards, keeps each mean, drops the links", () => {
    const bandit = new SleepingBandit();
    bandit.addLink(0, 1);
    bandit.addLink(1, 2);
    for (let i = 0; i < 6; i++) bandit.recordReward(0, 3);
    for (let i = 0; i < 4; i++) bandit.recordReward(1, 0);
    const forgotten = forgetBandit(bandit.toState(), 0.5);
    expect(forgotten.actions.map((a) => [a.selections, a.meanReward, a.totalReward, a.links.length])).toEqual([
      [3, 3, 9, 0],
      [2, 0, 0, 0],
    ]);
    // A restored bandit with no links sleeps until the re-crawl files some.
    expect(SleepingBandit.fromState(forgotten).isExhausted()).toBe(true);
  });

  it("scales URL-segment counts to whole numbers, never more successes than pulls", () => {
    const forgotten = forgetSegments({ pulls: 9, successes: 9, buckets: [[4, 3, 3], [7, 1, 0]] }, 0.5);
    expect(forgotten).toEqual({ pulls: 5, successes: 5, buckets: [[4, 2, 2], [7, 1, 0]] });
  });

  it("starts from the revisit pages in their groups, the new seed's PRNG and no counters", () => {
    const config = parseCrawlConfig({ rootUrl: "http://127.0.0.1:9/", seed: 11 });
    const state = startingState(
      { engine: startingState(null, config, emptyCounters()), revisit: [{ url: "http://127.0.0.1:9/list", tagPath: "html/body/ul/li/a", depth: 1 }, { url: "http://127.0.0.1:9/", tagPath: "", depth: 0 }], seenBefore: [] },
      config,
      emptyCounters(),
    );
    expect(state.rootDone).toBe(false);
    expect(state.links.links.map((link) => link[1])).toEqual(["http://127.0.0.1:9/list"]); // the root is crawled first anyway
    expect(state.links.seen).toEqual(["http://127.0.0.1:9/list"]);
    expect(state.counters.requests).toBe(0);
    expect((state.strategyState as { waiting: number }).waiting).toBe(1);
  });
});

describe("a re-crawl's set-aside pages", () => {
  const basis = { previousCrawlId: 1, learned: { engine: null as never, revisit: [], seenBefore: ["http://a/x"] }, known: [], checkKnownFiles: false };
  const link = (table: LinkTable, url: string, depth: number) => table.createLink({ url, tagPath: "t", anchorText: "", depth, referrer: null, groupId: null });

  it("revisits those listed after a new page first, shallowest first, then in the order found", () => {
    const table = new LinkTable();
    const recrawl = new Recrawl(basis);
    expect(recrawl.seenByPreviousRuns("http://a/x")).toBe(true);
    recrawl.defer(link(table, "http://a/later-shallow", 1), false);
    recrawl.defer(link(table, "http://a/among-deep", 3), true);
    recrawl.defer(link(table, "http://a/among-1", 2), true);
    recrawl.defer(link(table, "http://a/among-2", 2), true);
    const order: string[] = [];
    for (let next = recrawl.nextDeferred(); next; next = recrawl.nextDeferred()) order.push(next.url);
    expect(order).toEqual(["http://a/among-1", "http://a/among-2", "http://a/among-deep", "http://a/later-shallow"]);
  });

  it("stops once no class of set-aside pages is expected to pay, and keeps its tally through a checkpoint", () => {
    const table = new LinkTable();
    // The first crawl found 0.5 targets a request: a revisit pays from 0.025 finds on.
    const history = { runs: 1, runStarts: [], firstRunYield: 0.5, classes: [] };
    const paying = { ...basis, learned: { ...basis.learned, changeHistory: history } };
    const recrawl = new Recrawl(paying);
    recrawl.siteMarksChanges(); // outlooks at their estimate (no optimism): the arithmetic below
    for (let i = 0; i < 30; i++) recrawl.defer(link(table, `http://a/${i}`, 1), false);
    // Never seen changed, no earlier fingerprint: the odds of a change shrink from even with each revisit.
    for (let i = 0; i < 5; i++) {
      const next = recrawl.nextDeferred();
      expect(next?.url).toBe(`http://a/${i}`);
      expect(recrawl.revisitedPage(next!, null, 0)).toBe(false);
    }
    recrawl.note("http://a/file.csv", "gone");
    const restored = new Recrawl(paying);
    restored.restore(JSON.parse(JSON.stringify(recrawl.toState())), (id) => table.get(id));
    expect(restored.outcomes.get("http://a/file.csv")).toBe("gone");
    expect(restored.deferredCount).toBe(25);
    expect(restored.tally.get(revisitClassKey("t", "http://a/0"))?.visits).toBe(5);
    const more: string[] = [];
    for (let next = restored.nextDeferred(); next; next = restored.nextDeferred()) {
      more.push(next.url);
      restored.revisitedPage(next, null, 0);
    }
    // After n unchanged revisits the odds are 0.5 / (n + 1), times 0.5 finds a change: under 0.025 once n reaches 10.
    expect(more).toEqual(["http://a/5", "http://a/6", "http://a/7", "http://a/8", "http://a/9"]);
  });

  it("on a site that does not mark its changes, gives a class up only when even its optimistic odds do not pay", () => {
    const table = new LinkTable();
    const recrawl = new Recrawl({ ...basis, learned: { ...basis.learned, changeHistory: { runs: 1, runStarts: [], firstRunYield: 0.5, classes: [] } } });
    for (let i = 0; i < 200; i++) recrawl.defer(link(table, `http://a/${i}`, 1), false);
    let revisits = 0;
    for (let next = recrawl.nextDeferred(); next; next = recrawl.nextDeferred()) {
      revisits += 1;
      recrawl.revisitedPage(next, { changed: revisits % 10 === 0, sinceRun: 1 }, revisits % 10 === 0 ? 1 : 0);
    }
    // One page in ten changed, each change one new file: 0.1 finds a revisit pays, every page is revisited.
    expect(revisits).toBe(200);
    const quiet = new Recrawl({ ...basis, learned: { ...basis.learned, changeHistory: { runs: 1, runStarts: [], firstRunYield: 0.5, classes: [] } } });
    for (let i = 0; i < 200; i++) quiet.defer(link(table, `http://b/${i}`, 1), false);
    revisits = 0;
    for (let next = quiet.nextDeferred(); next; next = quiet.nextDeferred()) {
      revisits += 1;
      quiet.revisitedPage(next, { changed: false, sinceRun: 1 }, 0);
    }
    // Never changed: given up, but only after more revisits than the point estimate needs (10).
    expect(revisits).toBeGreaterThan(20);
    expect(revisits).toBeLessThan(80);
  });
});

describe("the evolving catalogue", () => {
  it("version 2 adds, revises and removes files; its truth partitions both versions' files", () => {
    const catalogue = new EvolvingCatalogue({ items: 200, seed: 2 });
    const truth = catalogue.changes(1, 2);
    const v1 = catalogue.files(1);
    const v2 = catalogue.files(2);
    expect(truth.new.length).toBeGreaterThan(0);
    expect(truth.changed.length).toBeGreaterThan(0);
    expect(truth.gone.length).toBeGreaterThan(0);
    expect(truth.new.length + truth.changed.length + truth.unchanged.length).toBe(v2.size);
    expect(truth.changed.length + truth.unchanged.length + truth.gone.length).toBe(v1.size);
    // Every listing shifts: the first page of each section begins with publications of version 2.
    for (let section = 0; section < 3; section++) expect(catalogue.listing(2, section)[0]!.updatedIn).toBe(2);
    expect(new EvolvingCatalogue({ items: 200, seed: 2 }).changes(1, 2)).toEqual(truth);
  });
});
