import { describe, expect, it } from "vitest";
import { Prng } from "../../lib/crawler/prng";

describe("Prng", () => {
  it("gives the same sequence for the same seed and different ones for neighbouring seeds", () => {
    const a = Prng.fromSeed(42);
    const b = Prng.fromSeed(42);
    const c = Prng.fromSeed(43);
    const sa = Array.from({ length: 8 }, () => a.nextUint32());
    expect(Array.from({ length: 8 }, () => b.nextUint32())).toEqual(sa);
    expect(Array.from({ length: 8 }, () => c.nextUint32())).not.toEqual(sa);
  });

  it("resumes exactly from a JSON round-trip of its state", () => {
    const a = Prng.fromSeed(7);
    for (let i = 0; i < 100; i++) a.next();
    const b = Prng.fromState(JSON.parse(JSON.stringify(a.toState())));
    for (let i = 0; i < 50; i++) {
      expect(b.next()).toBe(a.next());
      expect(b.nextInt(1000)).toBe(a.nextInt(1000));
    }
  });

  it("rejects malformed states", () => {
    expect(() => Prng.fromState({ a: 1, b: 2, c: 3, d: -1 })).toThrow(TypeError);
    expect(() => Prng.fromState({ a: 1, b: 2, c: 3 } as never)).toThrow(TypeError);
  });

  it("draws floats in [0, 1) and unbiased integers in [0, n)", () => {
    const p = Prng.fromSeed(1);
    const counts = new Array(6).fill(0);
    const N = 60_000;
    let min = 1;
    let max = 0;
    for (let i = 0; i < N; i++) {
      const x = p.next();
      min = Math.min(min, x);
      max = Math.max(max, x);
      counts[p.nextInt(6)]++;
    }
    expect(min).toBeGreaterThanOrEqual(0);
    expect(max).toBeLessThan(1);
    // 6 buckets of 10,000: a 5σ band is ±456.
    for (const c of counts) expect(Math.abs(c - N / 6)).toBeLessThan(456);
    expect(p.nextInt(1)).toBe(0);
    expect(() => p.nextInt(0)).toThrow(RangeError);
    expect(() => p.nextInt(2.5)).toThrow(RangeError);
  });

  it("shuffles uniformly enough and in place", () => {
    const p = Prng.fromSeed(3);
    const firsts = [0, 0, 0];
    for (let i = 0; i < 3000; i++) {
      const first = p.shuffle([0, 1, 2])[0]!;
      firsts[first] = firsts[first]! + 1;
    }
    for (const c of firsts) expect(c).toBeGreaterThan(850);
    const arr = [1, 2, 3, 4, 5];
    expect(p.shuffle(arr)).toBe(arr);
    expect([...arr].sort()).toEqual([1, 2, 3, 4, 5]);
  });
});
