import { describe, expect, it } from "vitest";
import { OUTLOOK_REFRESH_REQUESTS, OutlookCache } from "../../lib/crawler/outlook-cache";

/** What SB's outlook does with the cache: the kept rank while fresh, else a new draw, kept. */
function bestRankOf(cache: OutlookCache, actionId: number, requestsSoFar: number, draw: () => number): number {
  const kept = cache.fresh(actionId, requestsSoFar);
  if (kept !== undefined) return kept;
  const rank = draw();
  cache.keep(actionId, requestsSoFar, rank);
  return rank;
}

describe("OutlookCache", () => {
  it("keeps an action's drawn rank for OUTLOOK_REFRESH_REQUESTS requests, then draws again", () => {
    const cache = new OutlookCache();
    let draws = 0;
    const draw = () => ++draws;
    expect(bestRankOf(cache, 3, 100, draw)).toBe(1);
    expect(bestRankOf(cache, 3, 100 + OUTLOOK_REFRESH_REQUESTS - 1, draw)).toBe(1);
    expect(bestRankOf(cache, 3, 100 + OUTLOOK_REFRESH_REQUESTS, draw)).toBe(2);
    // Each action has its own age.
    expect(bestRankOf(cache, 4, 100 + OUTLOOK_REFRESH_REQUESTS, draw)).toBe(3);
    expect(draws).toBe(3);
  });

  it("draws the action just pulled again at its next ask, and only that one", () => {
    const cache = new OutlookCache();
    let draws = 0;
    const draw = () => ++draws;
    bestRankOf(cache, 1, 10, draw);
    bestRankOf(cache, 2, 10, draw);
    cache.forget(1);
    expect(bestRankOf(cache, 1, 11, draw)).toBe(3);
    expect(bestRankOf(cache, 2, 11, draw)).toBe(2);
    // Forgetting an action never drawn is harmless.
    cache.forget(9);
    expect(cache.toState().map(([id]) => id)).toEqual([1, 2]);
  });

  it("round-trips its state, −∞ included, so a resumed crawl reuses the same ranks", () => {
    const cache = new OutlookCache();
    bestRankOf(cache, 0, 10, () => -Infinity);
    bestRankOf(cache, 2, 12, () => 1.5);
    const restored = OutlookCache.fromState(JSON.parse(JSON.stringify(cache.toState())));
    const never = () => {
      throw new Error("drawn again");
    };
    expect(bestRankOf(restored, 0, 11, never)).toBe(-Infinity);
    expect(bestRankOf(restored, 2, 13, never)).toBe(1.5);
    expect(bestRankOf(restored, 1, 13, () => 7)).toBe(7);
  });

  it("reads an older checkpoint without the cache as one with nothing drawn, and refuses a damaged one", () => {
    expect(OutlookCache.fromState(undefined).toState()).toEqual([]);
    expect(() => OutlookCache.fromState([[-1, 0, 0]])).toThrow(/outlook cache/);
    expect(() => OutlookCache.fromState([[1, "x", 0]] as never)).toThrow(/outlook cache/);
  });
});
