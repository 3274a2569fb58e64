import { describe, expect, it } from "vitest";
import { parseCrawlConfig } from "../../lib/crawl-config";
import { gammaPosterior, klUcbPoissonIndex, poissonKl, sampleGamma } from "../../lib/crawler/bandit-policies";
import { Prng } from "../../lib/crawler/prng";
import { SleepingBandit } from "../../lib/crawler/sleeping-bandit";

/** The KL-UCB index by bisection, the textbook way: the largest q ≥ mean with n·KL(mean, q) ≤ ln t. */
function klUcbByBisection(mean: number, n: number, t: number): number {
  const level = Math.log(t) / n;
  let lo = mean;
  let hi = mean + 1;
  while (poissonKl(mean, hi) <= level) hi *= 2;
  for (let i = 0; i < 200; i++) {
    const mid = (lo + hi) / 2;
    if (poissonKl(mean, mid) <= level) lo = mid;
    else hi = mid;
  }
  return lo;
}

describe("Poisson KL-UCB", () => {
  it("matches bisection and hand-computed values", () => {
    // mean 0: KL(0, q) = q, so q = ln t / n; ln e² / 4 = 0.5.
    expect(klUcbPoissonIndex(0, 4, 2)).toBeCloseTo(0.5, 12);
    // mean 1, n 10, t 100: q − 1 − ln q = 0.46051702 → q = 2.2883465 (2.2883465 − 1 − 0.8278236 = 0.4605229).
    expect(klUcbPoissonIndex(1, 10, Math.log(100))).toBeCloseTo(2.2883465, 6);
    for (const [mean, n, t] of [
      [1, 10, 100],
      [0.2, 50, 1000],
      [3, 2, 20],
      [0.01, 1000, 25_000],
      [7.5, 1, 3],
    ] as const) {
      expect(klUcbPoissonIndex(mean, n, Math.log(t))).toBeCloseTo(klUcbByBisection(mean, n, t), 9);
    }
    expect(klUcbPoissonIndex(0.2, 50, Math.log(1000))).toBeCloseTo(0.5349121, 6);
    expect(klUcbPoissonIndex(3, 2, Math.log(20))).toBeCloseTo(7.0693237, 6);
  });

  it("is +∞ for an action never pulled and the mean before any request", () => {
    expect(klUcbPoissonIndex(0, 0, 3)).toBe(Infinity);
    expect(klUcbPoissonIndex(2.5, 3, 0)).toBe(2.5);
  });

  it("chooses the highest index in the bandit (score() shows it)", () => {
    const b = new SleepingBandit({ policy: "kl-ucb" });
    b.addLink(0, 0);
    b.addLink(1, 1);
    for (let i = 0; i < 10; i++) b.recordReward(0, i % 2 === 0 ? 2 : 0); // mean 1, n 10
    b.recordReward(1, 3);
    b.recordReward(1, 3); // mean 3, n 2
    expect(b.score(0, 100)).toBeCloseTo(2.2883465, 6);
    expect(b.score(1, 20)).toBeCloseTo(7.0693237, 6);
    expect(b.choose(100)).toBe(1);
    // A low mean pulled little beats a higher mean pulled a lot once ln t has grown.
    const c = new SleepingBandit({ policy: "kl-ucb" });
    c.addLink(0, 0);
    c.addLink(1, 1);
    for (let i = 0; i < 1000; i++) c.recordReward(0, 1); // mean 1, n 1000
    c.recordReward(1, 0); // mean 0, n 1: index ln t
    expect(c.choose(2)).toBe(0); // ln 2 = 0.69 < 1.03
    expect(c.choose(100)).toBe(1); // ln 100 = 4.6
  });
});

describe("Thompson sampling (Gamma–Poisson)", () => {
  it("draws Gamma(shape, rate) with the right mean and variance from a seeded PRNG", () => {
    for (const [shape, rate] of [
      [3, 2],
      [0.5, 1],
      [41, 20],
    ] as const) {
      const prng = Prng.fromSeed(7);
      const n = 40_000;
      let sum = 0;
      let sumSq = 0;
      for (let i = 0; i < n; i++) {
        const x = sampleGamma(shape, rate, prng);
        expect(x).toBeGreaterThan(0);
        sum += x;
        sumSq += x * x;
      }
      const mean = sum / n;
      const variance = sumSq / n - mean * mean;
      // Mean shape / rate, variance shape / rate²; tolerances ≈ 4 standard errors.
      expect(Math.abs(mean - shape / rate)).toBeLessThan(4 * Math.sqrt(shape / rate ** 2 / n));
      expect(Math.abs(variance / (shape / rate ** 2) - 1)).toBeLessThan(0.05);
    }
  });

  it("updates the prior Gamma(1, 1) to Gamma(1 + S, 1 + n)", () => {
    expect(gammaPosterior(0, 0)).toEqual({ shape: 1, rate: 1 });
    expect(gammaPosterior(12, 30)).toEqual({ shape: 13, rate: 31 });
    const b = new SleepingBandit({ policy: "thompson" });
    b.addLink(0, 0);
    for (const r of [2, 0, 4]) b.recordReward(0, r);
    expect(b.score(0, 10)).toBeCloseTo(7 / 4, 12); // posterior mean shown
  });

  it("makes the same choices for the same seed, also after a state round trip", () => {
    const build = () => {
      const b = new SleepingBandit({ policy: "thompson" });
      for (let id = 0; id < 6; id++) for (let l = 0; l < 500; l++) b.addLink(id, id * 1000 + l);
      return b;
    };
    const run = (b: SleepingBandit, prng: Prng, steps: number) => {
      const picks: number[] = [];
      for (let i = 0; i < steps; i++) {
        const next = b.next(i + 2, prng)!;
        picks.push(next.actionId);
        b.recordReward(next.actionId, next.actionId === 4 ? 2 : next.actionId === 1 ? 1 : 0);
      }
      return picks;
    };
    const a = build();
    const pa = Prng.fromSeed(11);
    const first = run(a, pa, 60);
    const copy = SleepingBandit.fromState(JSON.parse(JSON.stringify(a.toState())));
    const pc = Prng.fromState(pa.toState());
    const b = build();
    const pb = Prng.fromSeed(11);
    expect(run(b, pb, 60)).toEqual(first);
    expect(run(copy, pc, 80)).toEqual(run(b, pb, 80));
    // It learns: the best action (mean 2) is drawn most in the later choices.
    const later = run(a, pa, 100);
    expect(later.filter((id) => id === 4).length).toBeGreaterThan(50);
  });

  it("needs the crawl's PRNG", () => {
    const b = new SleepingBandit({ policy: "thompson" });
    b.addLink(0, 0);
    expect(() => b.choose(5)).toThrow(/PRNG/);
  });
});

describe("params.policy", () => {
  it("defaults to auer and refuses an unknown policy naming the field", () => {
    expect(parseCrawlConfig({ rootUrl: "http://127.0.0.1:1/" }).params.policy).toBe("auer");
    expect(parseCrawlConfig({ rootUrl: "http://127.0.0.1:1/", params: { policy: "kl-ucb" } }).params.policy).toBe("kl-ucb");
    expect(() => parseCrawlConfig({ rootUrl: "http://127.0.0.1:1/", params: { policy: "ucb-v" } })).toThrow(/params\.policy must be one of auer, thompson, kl-ucb/);
  });
});
