import { describe, expect, it } from "vitest";
import { parseCrawlConfig } from "../../lib/crawl-config";
import { effectiveConfig, SB_PAPER_PARAMS } from "../../lib/crawler/engine/paper-faithful";
import { isFailedPull, pullReward } from "../../lib/crawler/engine/reward";
import { createBandit } from "../../lib/crawler/engine/strategies/create-strategy";

const ROOT = "http://127.0.0.1:1/";

/** Every Forage addition switched on explicitly, as a user could store it. */
const ALL_ADDITIONS_ON = {
  linkRankSamples: 32,
  rewardScaledExploration: true,
  barrenDamping: true,
  regroupRediscoveredLinks: true,
  urlOutlookWeight: 3,
  skipDeadUrlShapes: true,
  skipRedundantQueryVariants: true,
  rewardPulledTargets: true,
  labelRedirectedLinks: true,
  followRedirectsOffSite: true,
  stableTagPathClasses: true,
  splitActionsByUrlShape: true,
  useSitemaps: true,
  groupIndex: "exact",
  policy: "thompson",
  longTermCreditDiscount: 0.5,
} as const;

describe("sb-paper", () => {
  it("is a strategy of the crawl settings", () => {
    expect(parseCrawlConfig({ rootUrl: ROOT, strategy: "sb-paper" }).strategy).toBe("sb-paper");
  });

  it("runs with every addition off, whatever the stored settings say; sb keeps its settings", () => {
    const paper = effectiveConfig(parseCrawlConfig({ rootUrl: ROOT, strategy: "sb-paper", params: ALL_ADDITIONS_ON }));
    expect(paper.params).toMatchObject({
      linkRankSamples: 1,
      rewardScaledExploration: false,
      barrenDamping: false,
      regroupRediscoveredLinks: false,
      urlOutlookWeight: 0,
      skipDeadUrlShapes: false,
      skipRedundantQueryVariants: false,
      rewardPulledTargets: false,
      labelRedirectedLinks: false,
      followRedirectsOffSite: false,
      stableTagPathClasses: false,
      splitActionsByUrlShape: false,
      useSitemaps: false,
      groupIndex: "hnsw",
      policy: "auer",
      longTermCreditDiscount: 0,
    });
    // The paper's numbers are not additions: they stay the crawl's own.
    expect(paper.params.banditAlpha).toBeCloseTo(2 * Math.SQRT2, 12);
    expect(paper.params.similarityThreshold).toBe(0.75);
    // Every key of the list is an addition the engine or SB strategy reads, and sb keeps it on.
    const sb = effectiveConfig(parseCrawlConfig({ rootUrl: ROOT, strategy: "sb", params: ALL_ADDITIONS_ON }));
    for (const key of Object.keys(SB_PAPER_PARAMS) as (keyof typeof SB_PAPER_PARAMS)[]) expect(sb.params[key]).not.toEqual(paper.params[key]);
  });

  it("scores actions with the raw AUER formula mean + 2√2·sqrt(ln t / (n + 1e-6)), t = counted requests", () => {
    const bandit = createBandit(effectiveConfig(parseCrawlConfig({ rootUrl: ROOT, strategy: "sb-paper", params: ALL_ADDITIONS_ON })));
    bandit.addLink(0, 10);
    bandit.addLink(1, 11);
    bandit.addLink(2, 12);
    bandit.recordReward(0, 3);
    bandit.recordReward(0, 0); // action 0: n = 2, mean 1.5
    for (let i = 0; i < 4; i++) bandit.recordReward(1, 0); // action 1: n = 4, mean 0, never paid (no damping)
    // Action 0 at t = 10: ln 10 = 2.3025851; / 2.000001 = 1.1512920; sqrt = 1.0729828; × 2.8284271 = 3.0348532.
    expect(bandit.score(0, 10)).toBeCloseTo(1.5 + 3.0348532, 6);
    // Action 1 at t = 100: ln 100 = 4.6051702; / 4.000001 = 1.1512923; sqrt = 1.0729829; × 2.8284271 = 3.0348534.
    expect(bandit.score(1, 100)).toBeCloseTo(3.0348534, 6);
    // Unpulled action 2 at t = 10: sqrt(2.3025851 / 1e-6) = 1517.4271; × 2.8284271 = 4291.932.
    expect(bandit.score(2, 10)).toBeCloseTo(4291.932, 2);
    expect(bandit.choose(10)).toBe(2);
    // sb with rewardScaledExploration (bonus scaled by the mean reward per pull, 3 / 2 here) scores differently.
    const sb = createBandit(effectiveConfig(parseCrawlConfig({ rootUrl: ROOT, strategy: "sb", params: { rewardScaledExploration: true } })));
    sb.addLink(0, 10);
    sb.recordReward(0, 3);
    sb.recordReward(0, 0);
    expect(sb.score(0, 10)).toBeCloseTo(1.5 + 1.5 * 3.0348532, 5);
  });
});

describe("reward rules", () => {
  it("rewards a page with its new targets plus a re-crawl's changed known files", () => {
    expect(pullReward({ kind: "page", newTargets: 3, changedKnownFiles: 1 }, { rewardPulledTargets: false })).toEqual({ reward: 4, wasHtml: true });
    expect(isFailedPull({ reward: 0, wasHtml: true })).toBe(false); // a page without targets is a pull with reward 0, not a failed one
  });

  it("counts a page link that was a kept target 1 with rewardPulledTargets, else a failed pull", () => {
    expect(pullReward({ kind: "target", stored: true }, { rewardPulledTargets: true })).toEqual({ reward: 1, wasHtml: false });
    expect(pullReward({ kind: "target", stored: false }, { rewardPulledTargets: true })).toEqual({ reward: 0, wasHtml: false });
    const paper = pullReward({ kind: "target", stored: true }, { rewardPulledTargets: false });
    expect(paper).toEqual({ reward: 0, wasHtml: false });
    expect(isFailedPull(paper)).toBe(true);
    expect(isFailedPull(pullReward({ kind: "nothing" }, { rewardPulledTargets: true }))).toBe(true);
  });
});
