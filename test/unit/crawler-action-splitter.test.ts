import { describe, expect, it } from "vitest";
import { ActionGrouper } from "../../lib/crawler/action-grouping";
import { ActionSplitter, SPLIT_SIGNIFICANCE } from "../../lib/crawler/action-splitter";
import { Prng } from "../../lib/crawler/prng";
import { poissonRatesPValue } from "../../lib/crawler/rate-difference-test";
import { SleepingBandit } from "../../lib/crawler/sleeping-bandit";
import { urlShape } from "../../lib/crawler/url-shape";

describe("urlShape", () => {
  it("keeps the first segments (two at most, the last only with a query, numbers as N) and the query keys", () => {
    expect(urlShape("http://s.test/press-releases?page=3")).toBe("/press-releases?page");
    expect(urlShape("http://s.test/statistics/list?page=3")).toBe("/statistics/list?page");
    expect(urlShape("http://s.test/en/news/2024/item")).toBe("/en/news");
    expect(urlShape("http://s.test/archive/2019/05/x")).toBe("/archive/N");
    expect(urlShape("http://s.test/about")).toBe("/");
    expect(urlShape("http://s.test/search?q=a&page=2&q=b")).toBe("/search?page&q");
  });
});

describe("poissonRatesPValue (conditional exact test)", () => {
  it("matches hand-computed binomial tails", () => {
    // 3 targets in 1 pull against 0 in 10: X ~ Bin(3, 1/11), P(X ≥ 3) = (1/11)³ = 7.513e-4; two-sided 1.5026e-3.
    expect(poissonRatesPValue(3, 1, 0, 10)).toBeCloseTo(2 / 1331, 12);
    // 0 in 10 pulls against 20 in 10: X ~ Bin(20, 1/2), P(X ≤ 0) = 2^-20; two-sided 2^-19.
    expect(poissonRatesPValue(0, 10, 20, 10)).toBeCloseTo(2 ** -19, 15);
    // 2 in 4 against 6 in 12: equal rates; X ~ Bin(8, 1/4), P(X ≥ 2) = 1 − (3/4)^8 − 8(1/4)(3/4)^7 = 0.632919; two-sided capped at 1.
    expect(poissonRatesPValue(2, 4, 6, 12)).toBe(1);
    // 5 in 5 against 1 in 20: X ~ Bin(6, 1/5), P(X ≥ 5) = 6(1/5)^5(4/5) + (1/5)^6 = 0.001600; two-sided 0.0032.
    expect(poissonRatesPValue(5, 5, 1, 20)).toBeCloseTo(2 * (6 * 0.2 ** 5 * 0.8 + 0.2 ** 6), 12);
    expect(poissonRatesPValue(0, 3, 0, 9)).toBe(1);
    expect(poissonRatesPValue(4, 0, 1, 9)).toBe(1);
  });
});

describe("ActionSplitter", () => {
  it("splits a shape off once its rate differs at the 0.001 level, not before", () => {
    const splitter = new ActionSplitter();
    expect(SPLIT_SIGNIFICANCE).toBe(0.001);
    for (let i = 0; i < 10; i++) expect(splitter.record(7, `http://s.test/news/list?page=${i}`, 0)).toBeNull();
    // 3 in 1 pull against 0 in 10: p = 2·(1/11)³ = 1.5e-3 ≥ 0.001, no split yet.
    expect(splitter.record(7, "http://s.test/reports/list?page=1", 3)).toBeNull();
    // 6 in 2 against 0 in 10: X ~ Bin(6, 1/6), p = 2·(1/6)⁶ = 4.3e-5: split.
    const candidate = splitter.record(7, "http://s.test/reports/list?page=2", 3);
    expect(candidate).toEqual({ parent: 7, shape: "/reports/list?page", pulls: 2, reward: 6 });
    splitter.noteSplit(candidate!, 12);
    expect(splitter.actionFor(7, "http://s.test/reports/list?page=9")).toBe(12);
    expect(splitter.actionFor(7, "http://s.test/news/list?page=99")).toBe(7);
    expect(splitter.actionFor(3, "http://s.test/reports/list?page=9")).toBe(3);
    const restored = ActionSplitter.fromState(JSON.parse(JSON.stringify(splitter.toState())));
    expect(restored.actionFor(7, "http://s.test/reports/list?page=3")).toBe(12);
    expect(restored.toState()).toEqual(splitter.toState());
  });

  it("never splits an action whose shapes pay alike", () => {
    const splitter = new ActionSplitter();
    const prng = Prng.fromSeed(5);
    for (let i = 0; i < 3000; i++) {
      const section = ["a", "b", "c"][prng.nextInt(3)]!;
      expect(splitter.record(1, `http://s.test/${section}/list?page=${i}`, prng.nextInt(3))).toBeNull();
    }
  });

  it("moves the shape's waiting links and its statistics to the new action", () => {
    const grouper = new ActionGrouper();
    const parent = grouper.assign("/html/body/nav.pager/a").actionId;
    const child = grouper.derive(parent, "⟨/reports?page⟩");
    expect(grouper.actionCount).toBe(2);
    expect(grouper.derivedFrom(child)).toBe(parent);
    expect(grouper.sampleTagPath(child)).toBe("/html/body/nav.pager/a ⟨/reports?page⟩");
    // A tag path is never assigned to a derived action.
    expect(grouper.assign("/html/body/nav.pager/a").actionId).toBe(parent);
    const restored = ActionGrouper.fromState(JSON.parse(JSON.stringify(grouper.toState())));
    expect(restored.derivedFrom(child)).toBe(parent);

    const bandit = new SleepingBandit();
    for (let id = 0; id < 6; id++) bandit.addLink(parent, id);
    for (let i = 0; i < 10; i++) bandit.recordReward(parent, 0);
    bandit.recordReward(parent, 3);
    bandit.recordReward(parent, 3);
    bandit.splitOff(parent, child, (link) => link % 2 === 0, 2, 6);
    expect(bandit.stats(parent)).toEqual({ selections: 10, meanReward: 0, totalReward: 0, available: 3 });
    expect(bandit.stats(child)).toEqual({ selections: 2, meanReward: 3, totalReward: 6, available: 3 });
    expect(bandit.choose(100)).toBe(child);
  });
});
