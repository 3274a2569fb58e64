import { describe, expect, it } from "vitest";
import { EarlyStopMonitor } from "../../lib/crawler/early-stop";

describe("EarlyStopMonitor", () => {
  it("computes slope and EMA per window of k requests, starting the EMA at the first slope", () => {
    const m = new EarlyStopMonitor();
    const targetsAt = (r: number) => (r <= 500 ? Math.floor(r / 25) : r <= 1000 ? 20 + Math.floor((r - 500) / 100) : 25);
    for (let r = 1; r <= 1500; r++) m.observe(r, targetsAt(r));
    const [w1, w2, w3] = m.windows;
    // s1 = 20/500 = 0.04, e1 = s1; s2 = 5/500 = 0.01, e2 = 0.9·0.04 + 0.1·0.01 = 0.037; s3 = 0, e3 = 0.0333
    expect(w1).toMatchObject({ requests: 500, targets: 20, slope: 0.04, ema: 0.04, patience: 0 });
    expect(w2!.slope).toBeCloseTo(0.01, 15);
    expect(w2!.ema).toBeCloseTo(0.037, 15);
    expect(w3!.slope).toBe(0);
    expect(w3!.ema).toBeCloseTo(0.0333, 15);
    expect(m.windows).toHaveLength(3);
    expect(m.shouldStop).toBe(false);
  });

  it("fires after exactly P consecutive low windows", () => {
    const m = new EarlyStopMonitor();
    for (let r = 1; r < 5000; r++) expect(m.observe(r, 3)).toBe(false); // 3 targets in window 1: e = 0.006 < τ
    expect(m.windows.map((w) => w.patience)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(m.observe(5000, 3)).toBe(true);
    expect(m.shouldStop).toBe(true);
    expect(m.windows.at(-1)!.patience).toBe(10);
    expect(m.observe(5500, 400)).toBe(true); // stays stopped, no more windows
    expect(m.windows).toHaveLength(10);
  });

  it("resets the patience when the EMA climbs back above τ", () => {
    const m = new EarlyStopMonitor({ patienceWindows: 3 });
    m.observe(500, 0);
    m.observe(1000, 0);
    expect(m.windows.at(-1)!.patience).toBe(2);
    m.observe(1500, 100); // s = 0.2, e = 0.02 ≥ 0.01
    expect(m.windows.at(-1)!).toMatchObject({ patience: 0 });
    expect(m.windows.at(-1)!.ema).toBeCloseTo(0.02, 15);
    expect(m.shouldStop).toBe(false);
  });

  it("closes every boundary passed when requests are reported in a jump", () => {
    const m = new EarlyStopMonitor();
    m.observe(1600, 10);
    expect(m.windows.map((w) => [w.requests, w.slope])).toEqual([[500, 0.02], [1000, 0], [1500, 0]]);
  });

  it("round-trips its state", () => {
    const m = new EarlyStopMonitor({ windowRequests: 100 });
    for (let r = 1; r <= 450; r++) m.observe(r, Math.floor(r / 30));
    const n = EarlyStopMonitor.fromState(JSON.parse(JSON.stringify(m.toState())), { windowRequests: 100 });
    for (let r = 451; r <= 2000; r++) expect(n.observe(r, 15)).toBe(m.observe(r, 15));
    expect(n.toState()).toEqual(m.toState());
  });

  it("validates its settings", () => {
    expect(() => new EarlyStopMonitor({ windowRequests: 0 })).toThrow(RangeError);
    expect(() => new EarlyStopMonitor({ beta: 1 })).toThrow(RangeError);
    expect(() => new EarlyStopMonitor({ patienceWindows: 0 })).toThrow(RangeError);
  });
});
