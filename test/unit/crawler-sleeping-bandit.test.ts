import { describe, expect, it } from "vitest";
import { Prng } from "../../lib/crawler/prng";
import { SleepingBandit } from "../../lib/crawler/sleeping-bandit";

describe("SleepingBandit", () => {
  it("scores mean + 2√2·sqrt(ln t / (n + 1e-6)) and 0 when asleep", () => {
    const b = new SleepingBandit();
    b.addLink(0, 100);
    b.recordReward(0, 1);
    b.recordReward(0, 2);
    expect(b.stats(0)).toEqual({ selections: 2, meanReward: 1.5, totalReward: 3, available: 1 });
    // ln 10 = 2.302585; / 2.000001 = 1.151292; sqrt = 1.072983; × 2.828427 = 3.034853; + 1.5
    expect(b.score(0, 10)).toBeCloseTo(4.5348535, 6);
    b.addLink(1, 101);
    // Unpulled: ln 10 / 1e-6 = 2302585; sqrt = 1517.43; × 2.828427 = 4291.93
    expect(b.score(1, 10)).toBeCloseTo(4291.932, 2);
    expect(b.score(0, 1)).toBe(1.5); // ln 1 = 0: no bonus
    expect(b.score(0, 0)).toBe(1.5);
    expect(b.score(2, 10)).toBe(0); // unknown action
    b.takeLink(0, Prng.fromSeed(1));
    expect(b.score(0, 10)).toBe(0); // asleep
  });

  it("chooses the highest score among awake actions, ties going to the oldest", () => {
    const b = new SleepingBandit();
    for (const id of [2, 0, 1]) b.addLink(id, id);
    expect(b.choose(5)).toBe(0); // all unpulled: equal scores
    b.recordReward(0, 0);
    expect(b.choose(5)).toBe(1);
    b.recordReward(1, 0);
    b.recordReward(2, 0);
    expect(b.choose(5)).toBe(0); // equal again
    b.recordReward(2, 10);
    expect(b.choose(5)).toBe(2);
  });

  it("lets actions without links sleep and wakes them with a new link", () => {
    const b = new SleepingBandit();
    const prng = Prng.fromSeed(3);
    expect(b.isExhausted()).toBe(true);
    expect(b.choose(10)).toBeNull();
    b.addLink(0, 7);
    b.addLink(3, 8);
    b.recordReward(0, 0);
    b.recordReward(3, 100); // best score, then asleep after its only link is taken
    expect(b.next(10, prng)).toEqual({ actionId: 3, linkId: 8 });
    expect(b.next(10, prng)).toEqual({ actionId: 0, linkId: 7 });
    expect(b.isExhausted()).toBe(true);
    expect(b.next(10, prng)).toBeNull();
    expect(b.takeLink(0, prng)).toBeNull();
    b.addLink(0, 9);
    expect(b.isExhausted()).toBe(false);
    expect(b.choose(10)).toBe(0);
  });

  it("counts a failed pull as a selection with reward 0", () => {
    const b = new SleepingBandit();
    b.addLink(0, 1);
    b.recordReward(0, 4);
    b.recordFailedPull(0);
    expect(b.stats(0)).toMatchObject({ selections: 2, meanReward: 2, totalReward: 4 });
    expect(b.score(0, 100)).toBeCloseTo(2 + 2 * Math.SQRT2 * Math.sqrt(Math.log(100) / (2 + 1e-6)), 12);
  });

  it("takes a uniformly random unvisited link, each exactly once", () => {
    const counts = new Array(5).fill(0);
    const prng = Prng.fromSeed(11);
    for (let r = 0; r < 5000; r++) {
      const b = new SleepingBandit();
      for (let l = 0; l < 5; l++) b.addLink(0, l);
      counts[b.takeLink(0, prng)!]++;
    }
    for (const c of counts) expect(Math.abs(c - 1000)).toBeLessThan(150);
    const b = new SleepingBandit();
    for (let l = 0; l < 50; l++) b.addLink(0, l);
    const taken = Array.from({ length: 50 }, () => b.takeLink(0, prng));
    expect([...taken].sort((x, y) => x! - y!)).toEqual(Array.from({ length: 50 }, (_, i) => i));
  });

  it("resumes from a JSON state with the same choices", () => {
    const a = new SleepingBandit();
    const prngA = Prng.fromSeed(5);
    for (let l = 0; l < 60; l++) a.addLink(l % 7, l);
    let t = 1;
    const pull = (b: SleepingBandit, prng: Prng) => {
      const next = b.next(++t, prng);
      if (next) b.recordReward(next.actionId, next.linkId % 3);
      return next;
    };
    for (let i = 0; i < 20; i++) pull(a, prngA);
    const b = SleepingBandit.fromState(JSON.parse(JSON.stringify(a.toState())));
    const prngB = Prng.fromState(prngA.toState());
    const tAt = t;
    const seqA = Array.from({ length: 45 }, () => pull(a, prngA));
    t = tAt;
    const seqB = Array.from({ length: 45 }, () => pull(b, prngB));
    expect(seqB).toEqual(seqA);
    expect(a.isExhausted() && b.isExhausted()).toBe(true);
  });


  it("scales the bonus by the mean reward per pull when asked, never below 0.001", () => {
    const b = new SleepingBandit({ rewardScaledBonus: true });
    b.addLink(0, 100);
    b.addLink(1, 101);
    expect(b.rewardScale()).toBe(1); // no pull yet
    b.recordReward(0, 1);
    b.recordReward(0, 2);
    b.recordFailedPull(1);
    // 3 reward over 3 pulls: scale 1, the unscaled score of the first test
    expect(b.score(0, 10)).toBeCloseTo(4.5348535, 6);
    for (let i = 0; i < 27; i++) b.recordReward(1, 0);
    // 3 reward over 30 pulls: scale 0.1. Bonus of action 0: 3.034853 × 0.1
    expect(b.rewardScale()).toBeCloseTo(0.1, 12);
    expect(b.score(0, 10)).toBeCloseTo(1.5 + 0.3034853, 6);
    // action 1, n = 28, mean 0: 2.828427 × sqrt(2.302585 / 28.000001) × 0.1 = 0.0811101
    expect(b.score(1, 10)).toBeCloseTo(0.0811101, 6);
    const sparse = new SleepingBandit({ rewardScaledBonus: true });
    sparse.addLink(0, 1);
    for (let i = 0; i < 5; i++) sparse.recordReward(0, 0);
    expect(sparse.rewardScale()).toBe(0.001);
    // the unscaled bonus 2.828427 × sqrt(2.302585 / 5.000001) = 1.919410, × 0.001
    expect(sparse.score(0, 10)).toBeCloseTo(0.00191941, 8);
    const restored = SleepingBandit.fromState(JSON.parse(JSON.stringify(b.toState())));
    expect(restored.rewardScaledBonus).toBe(true);
    expect(restored.score(0, 10)).toBe(b.score(0, 10));
    expect(restored.score(1, 10)).toBe(b.score(1, 10));
  });

  it("damps the bonus of a never-rewarded action by its share of fertile pulls, until its first reward", () => {
    const b = new SleepingBandit({ barrenDamping: true });
    for (const action of [0, 1, 2]) b.addLink(action, 100 + action);
    // action 0: 3 barren pulls; action 1: 3 pulls that each added a link; action 2: 2 fertile of 3
    for (let i = 0; i < 3; i++) b.recordReward(0, 0, false);
    for (let i = 0; i < 3; i++) b.recordReward(1, 0, true);
    b.recordReward(2, 0, true);
    b.recordReward(2, 0, false);
    b.recordReward(2, 0, true);
    // undamped bonus at t = 10, n = 3: 2.828427 × sqrt(2.302585 / 3.000001) = 2.477948
    expect(b.score(0, 10)).toBeCloseTo(2.477948 * (1 / 5), 5);
    expect(b.score(1, 10)).toBeCloseTo(2.477948 * (4 / 5), 5);
    expect(b.score(2, 10)).toBeCloseTo(2.477948 * (3 / 5), 5);
    expect(b.choose(10)).toBe(1);
    // a failed pull is barren: n = 4, fertile 3 → 2.828427 × sqrt(2.302585 / 4.000001) × 4/6
    b.recordFailedPull(1);
    expect(b.score(1, 10)).toBeCloseTo(2.145966 * (4 / 6), 5);
    // the first reward lifts the damping (and counts as fertile): mean 1/4, undamped bonus at n = 4
    b.recordReward(0, 1, false);
    expect(b.score(0, 10)).toBeCloseTo(0.25 + 2.145966, 5);
    // an unpulled action is not damped: the kit's 2.828427 × sqrt(2.302585 / 1e-6) = 4291.9
    b.addLink(3, 103);
    expect(b.score(3, 10)).toBeCloseTo(4291.9, 0);
    const restored = SleepingBandit.fromState(JSON.parse(JSON.stringify(b.toState())));
    expect(restored.barrenDamping).toBe(true);
    for (const action of [0, 1, 2, 3]) expect(restored.score(action, 10)).toBe(b.score(action, 10));
    // without the option, fertility changes nothing (the paper's AUER)
    const plain = new SleepingBandit();
    plain.addLink(0, 1);
    for (let i = 0; i < 3; i++) plain.recordReward(0, 0, false);
    expect(plain.score(0, 10)).toBeCloseTo(2.477948, 5);
    // a checkpoint written before the option existed restores without it
    const { barrenDamping: _absent, ...older } = plain.toState();
    expect(SleepingBandit.fromState({ ...older, actions: older.actions.map(({ fertilePulls: _f, ...a }) => a) }).barrenDamping).toBe(false);
  });

  it("takes the best ranked of k uniform draws, and with k = 1 exactly what takeLink takes", () => {
    const fill = () => {
      const b = new SleepingBandit();
      for (let id = 0; id < 50; id++) b.addLink(0, id);
      return b;
    };
    const one = fill();
    const plain = fill();
    const prngA = Prng.fromSeed(7);
    const prngB = Prng.fromSeed(7);
    for (let i = 0; i < 50; i++) expect(one.takeBestOf(0, prngA, 1, () => Math.random())).toBe(plain.takeLink(0, prngB));
    expect(one.isExhausted()).toBe(true);

    // Ranking by the link id itself: the best of k draws is the largest id drawn. Replaying the
    // draws with a copy of the PRNG over a copy of the array gives the expected choice.
    const b = fill();
    const prng = Prng.fromSeed(11);
    const links = Array.from({ length: 50 }, (_, id) => id);
    for (let round = 0; round < 40; round++) {
      const replay = Prng.fromState(prng.toState());
      let best = -1;
      let bestAt = -1;
      for (let draw = 0; draw < 8; draw++) {
        const at = replay.nextInt(links.length);
        if (links[at]! > best) [best, bestAt] = [links[at]!, at];
      }
      expect(b.takeBestOf(0, prng, 8, (id) => id)).toBe(best);
      links[bestAt] = links[links.length - 1]!;
      links.pop();
    }
    expect(b.stats(0).available).toBe(10);
  });

  it("adds each awake action's outlook to its AUER score, asking in ascending id", () => {
    const b = new SleepingBandit();
    for (const id of [3, 1, 0, 2]) b.addLink(id, 10 + id);
    b.recordReward(0, 2);
    b.recordReward(1, 1);
    b.recordReward(2, 0);
    b.recordReward(3, 0);
    b.takeLink(3, Prng.fromSeed(1)); // action 3 sleeps: never asked
    // AUER at t = 10, n = 1: bonus 2.828427 × sqrt(2.302585 / 1.000001) = 4.291932
    // scores 6.291932 / 5.291932 / 4.291932; outlooks 0 / +0.5 / +2.5 → action 2 (6.791932)
    const asked: number[] = [];
    const outlook = (id: number, links: readonly number[]) => {
      asked.push(id);
      expect(links).toEqual([10 + id]);
      return [0, 0.5, 2.5][id]!;
    };
    expect(b.choose(10)).toBe(0);
    expect(b.chooseWithOutlook(10, outlook)).toBe(2);
    expect(asked).toEqual([0, 1, 2]);
    // A negative outlook demotes: 6.291932 − 1.1 < 5.291932 + 0.
    expect(b.chooseWithOutlook(10, (id) => (id === 0 ? -1.1 : 0))).toBe(1);
    // Equal totals: lowest id.
    expect(b.chooseWithOutlook(10, (id) => (id === 0 ? -1 : 0))).toBe(0);
    expect(new SleepingBandit().chooseWithOutlook(10, () => 0)).toBeNull();
  });

  it("asks only the maxAsked best actions by AUER score for their outlook", () => {
    const b = new SleepingBandit();
    for (let id = 0; id < 6; id++) {
      b.addLink(id, id);
      b.recordReward(id, id % 3); // means 0 1 2 0 1 2, all n = 1
    }
    const asked: number[] = [];
    // Best 3 by AUER: means 2 (ids 2, 5) and 1 (ids 1, 4: tie → lower id 1).
    const choice = b.chooseWithOutlook(10, (id) => {
      asked.push(id);
      return id === 1 ? 1.5 : 0;
    }, 3);
    expect(asked).toEqual([1, 2, 5]);
    expect(choice).toBe(1); // 1 + 1.5 beats 2
    // Action 0's huge outlook is never asked with maxAsked 3.
    expect(b.chooseWithOutlook(10, (id) => (id === 0 ? 100 : 0), 3)).toBe(2);
    expect(b.chooseWithOutlook(10, (id) => (id === 0 ? 100 : 0), 6)).toBe(0);
  });
});
