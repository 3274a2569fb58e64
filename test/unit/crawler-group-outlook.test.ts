import { describe, expect, it } from "vitest";
import { groupOutlook, MAX_OUTLOOK_LOG_RATIO } from "../../lib/crawler/group-outlook";

describe("groupOutlook", () => {
  it("is weight × reward scale × (e^r − 1): 0 for an average-looking link", () => {
    expect(groupOutlook(0, 3, 0.02)).toBe(0);
    // e^1 − 1 = 1.718282; × 3 × 0.02 = 0.1030969
    expect(groupOutlook(1, 3, 0.02)).toBeCloseTo(0.1030969, 7);
    // e^−2 − 1 = −0.8646647; × 3 × 0.5 = −1.296997
    expect(groupOutlook(-2, 3, 0.5)).toBeCloseTo(-1.296997, 6);
  });

  it("caps the log-ratio at 5 and floors at −weight × scale when nothing ranks", () => {
    expect(MAX_OUTLOOK_LOG_RATIO).toBe(5);
    // e^5 − 1 = 147.413159
    expect(groupOutlook(40, 1, 1)).toBeCloseTo(147.413159, 5);
    expect(groupOutlook(-Infinity, 3, 0.02)).toBeCloseTo(-0.06, 12);
    expect(groupOutlook(2, 0, 0.02)).toBe(0);
  });
});
