import { describe, expect, it } from "vitest";
import { parseCrawlConfig } from "../../lib/crawl-config";
import { emptyCounters } from "../../lib/crawler/engine/create-engine";
import { forgetBandit, forgetSegments, startingState } from "../../lib/crawler/engine/learned-start";
import { Recrawl } from "../../lib/crawler/engine/recrawl";
import { REVISIT_PATIENCE_PAGES } from "../../lib/crawler/engine/recrawl-basis";
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

  it(`stops after ${REVISIT_PATIENCE_PAGES} revisits in a row brought nothing, and keeps that through a checkpoint`, () => {
    const table = new LinkTable();
    const recrawl = new Recrawl(basis);
    for (let i = 0; i < REVISIT_PATIENCE_PAGES + 5; i++) recrawl.defer(link(table, `http://a/${i}`, 1), false);
    for (let i = 0; i < REVISIT_PATIENCE_PAGES; i++) {
      expect(recrawl.nextDeferred()).not.toBeNull();
      recrawl.deferredPulled(i === 0); // the first one paid: the count starts again after it
    }
    recrawl.note("http://a/file.csv", "gone");
    const restored = new Recrawl(basis);
    restored.restore(JSON.parse(JSON.stringify(recrawl.toState())), (id) => table.get(id));
    expect(restored.outcomes.get("http://a/file.csv")).toBe("gone");
    expect(restored.deferredCount).toBe(5);
    expect(restored.nextDeferred()?.url).toBe(`http://a/${REVISIT_PATIENCE_PAGES}`);
    restored.deferredPulled(false);
    expect(restored.nextDeferred()).toBeNull();
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
