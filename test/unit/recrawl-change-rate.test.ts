import { describe, expect, it } from "vitest";
import { changeProbability, estimateChangeRate } from "../../lib/crawler/engine/change-rate";

const DAY = 86_400_000;

describe("Cho and Garcia-Molina's change-rate estimator", () => {
  it("matches hand-computed values", () => {
    // n = 10, X = 3, I = 1 day: −ln(7.5 / 10.5) = 0.336472… changes a day.
    expect(estimateChangeRate(10, 3, DAY) * DAY).toBeCloseTo(0.3364722, 6);
    // n = 4, X = 4 (every visit found a change): −ln(0.5 / 4.5) = ln 9 = 2.197224…, finite.
    expect(estimateChangeRate(4, 4, DAY) * DAY).toBeCloseTo(2.1972246, 6);
    // n = 20, X = 1, I = 30 days: −ln(19.5 / 20.5) / 30 = 0.0016672… a day.
    expect(estimateChangeRate(20, 1, 30 * DAY) * DAY).toBeCloseTo(0.0016672, 6);
  });

  it("is 0 when no change was seen, and when nothing was observed", () => {
    expect(estimateChangeRate(12, 0, DAY)).toBe(0);
    expect(estimateChangeRate(0, 0, DAY)).toBe(0);
    expect(estimateChangeRate(5, 2, 0)).toBe(0);
  });

  it("exceeds the naive X / (n I) estimate, which misses changes between visits", () => {
    expect(estimateChangeRate(10, 5, DAY)).toBeGreaterThan(5 / (10 * DAY));
  });

  it("gives back, over the same interval, the share of visits that found a change (up to the 0.5 correction)", () => {
    const rate = estimateChangeRate(100, 20, DAY);
    // 1 − 80.5 / 100.5 = 0.199005
    expect(changeProbability(rate, DAY)).toBeCloseTo(1 - 80.5 / 100.5, 9);
    expect(changeProbability(rate, 2 * DAY)).toBeCloseTo(1 - (80.5 / 100.5) ** 2, 9);
    expect(changeProbability(0, DAY)).toBe(0);
  });
});
