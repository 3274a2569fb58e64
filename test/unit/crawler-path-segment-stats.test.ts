import { describe, expect, it } from "vitest";
import { BUCKETS, PathSegmentStats, pathSegmentBuckets, pathSegmentTokens, PRIOR_PULLS, SPARSE_LIMIT, tokenBucket } from "../../lib/crawler/path-segment-stats";
import { Prng } from "../../lib/crawler/prng";

describe("PathSegmentStats", () => {
  it("cuts a URL into positioned segments (digits → #), its depth and its query keys", () => {
    expect(pathSegmentTokens("http://h:8/proceedings/vol-12/x?print=1&a=2&flag")).toEqual(["0:proceedings", "1:vol-#", "2:x", "d:3", "q:print", "q:a", "q:flag"]);
    expect(pathSegmentTokens("https://h/")).toEqual(["d:0"]);
    expect(pathSegmentTokens("https://h")).toEqual(["d:0"]);
    expect(pathSegmentTokens("https://h/a//b/")).toEqual(["0:a", "1:b", "d:2"]);
    expect(pathSegmentTokens("http://h/1/2/3/4/5/6/7/8")).toEqual(["0:#", "1:#", "2:#", "3:#", "4:#", "5:#", "d:8"]);
  });

  it("hashes a URL's tokens without building them: the same buckets, in the same order", () => {
    const fixed = [
      "http://h:8/proceedings/vol-12/x?print=1&a=2&flag", "https://h/", "https://h", "https://h/a//b/",
      "http://h/1/2/3/4/5/6/7/8", "https://h/a12b345c/?=x&&k=&=&z", "https://h/p?", "https://h/p?a=1&", "https://h/x?q=a/b/c",
      "https://h/été/ü-12?ß=1", "https://h/a?b=c?d", "https://h/0/00/a0b/9z9/",
    ];
    const rng = Prng.fromSeed(7);
    const alphabet = "ab1/9?&=-_.%é0";
    const random = Array.from({ length: 2000 }, () => {
      let path = "";
      for (let i = rng.nextInt(40); i > 0; i--) path += alphabet[rng.nextInt(alphabet.length)];
      return `https://h.example/${path}`;
    });
    for (const url of [...fixed, ...random]) {
      const out: number[] = [];
      pathSegmentBuckets(url, out);
      expect(out, url).toEqual(pathSegmentTokens(url).map(tokenBucket));
    }
    expect(tokenBucket("0:proceedings")).toBeLessThan(BUCKETS);
  });

  it("scores Σ log(shrunk token rate / overall rate), unseen tokens 0", () => {
    const stats = new PathSegmentStats();
    expect(stats.logRatio("http://h/a/b")).toBe(0);
    // 4 pulls: /a/x (success), /a/y (success), /b/x, /b/y. Overall rate (2 + 1) / (4 + 2) = 0.5.
    stats.add("http://h/a/x", true);
    stats.add("http://h/a/y", true);
    stats.add("http://h/b/x", false);
    stats.add("http://h/b/y", false);
    const overall = 0.5;
    const rate = (successes: number, pulls: number) => (successes + PRIOR_PULLS * overall) / (pulls + PRIOR_PULLS);
    // /a/x: 0:a 2 of 2 → (2 + 1) / 4 = 0.75; 1:x 1 of 2 → 0.5; d:2 2 of 4 → (2 + 1) / 6 = 0.5
    expect(rate(2, 2)).toBe(0.75);
    expect(stats.logRatio("http://h/a/x")).toBeCloseTo(Math.log(0.75 / 0.5), 12);
    // /b/z: 0:b 0 of 2 → 1/4; 1:z unseen; d:2 → 0.5
    expect(stats.logRatio("http://h/b/z")).toBeCloseTo(Math.log(0.25 / 0.5), 12);
    // /c: unseen segment, d:1 unseen → 0
    expect(stats.logRatio("http://h/c")).toBe(0);
    expect(stats.logRatio("http://h/a/new")).toBeGreaterThan(stats.logRatio("http://h/b/new"));
  });

  it("restores its counts from a JSON state", () => {
    const stats = new PathSegmentStats();
    for (let i = 0; i < 30; i++) stats.add(`http://h/${i % 3 === 0 ? "reports" : "news"}/item-${i}?p=${i}`, i % 3 === 0);
    const restored = PathSegmentStats.fromState(JSON.parse(JSON.stringify(stats.toState())));
    for (const url of ["http://h/reports/item-99", "http://h/news/x", "http://h/other?p=1"]) expect(restored.logRatio(url)).toBe(stats.logRatio(url));
    expect(() => PathSegmentStats.fromState({ pulls: 1, successes: 0, buckets: [[-1, 1, 0]] })).toThrow(TypeError);
  });

  it("keeps a site's few tokens sparse and goes dense past SPARSE_LIMIT buckets, with the same rates and state as plain counters", () => {
    // The reference: every bucket's counts in a map, the rates computed as the class comment says.
    const reference = new Map<number, [pulls: number, successes: number]>();
    let pulls = 0;
    let successes = 0;
    const referenceAdd = (url: string, success: boolean) => {
      pulls++;
      if (success) successes++;
      const buckets: number[] = [];
      pathSegmentBuckets(url, buckets);
      for (const bucket of buckets) {
        const counts = reference.get(bucket) ?? [0, 0];
        counts[0]++;
        if (success) counts[1]++;
        reference.set(bucket, counts);
      }
    };
    const referenceRatio = (url: string) => {
      const overall = (successes + 1) / (pulls + 2);
      const buckets: number[] = [];
      pathSegmentBuckets(url, buckets);
      let sum = 0;
      for (const bucket of buckets) {
        const counts = reference.get(bucket);
        if (!counts) continue;
        sum += Math.log((counts[1] + PRIOR_PULLS * overall) / (counts[0] + PRIOR_PULLS) / overall);
      }
      return sum;
    };
    const referenceState = () => ({ pulls, successes, buckets: [...reference].map(([b, [p, s]]) => [b, p, s]).sort((a, b) => a[0]! - b[0]!) });
    // Segments of letters only (digits all read as #): every URL brings a token of its own.
    const word = (n: number) => {
      let text = "";
      for (let k = n + 1; k > 0; k = Math.floor(k / 26)) text += String.fromCharCode(97 + (k % 26));
      return text;
    };
    const stats = new PathSegmentStats();
    const probes = ["http://h/a/b", "http://h/reports/x?p=1", `http://h/${word(5)}`, `http://h/${word(40_000)}`, "http://h/"];
    for (let i = 0; i < 200; i++) {
      const url = `http://h/${i % 4 === 0 ? "reports" : word(i)}/item-${i}?p=${i}`;
      stats.add(url, i % 4 === 0);
      referenceAdd(url, i % 4 === 0);
    }
    expect(stats.dense).toBe(false);
    for (const url of probes) expect(stats.logRatio(url)).toBe(referenceRatio(url));
    expect(stats.toState()).toEqual(referenceState());
    const restoredSparse = PathSegmentStats.fromState(JSON.parse(JSON.stringify(stats.toState())));
    expect(restoredSparse.dense).toBe(false);
    for (const url of probes) expect(restoredSparse.logRatio(url)).toBe(stats.logRatio(url));
    for (let i = 200; reference.size <= SPARSE_LIMIT + 10; i++) {
      const url = `http://h/${word(i)}/${i % 7 === 0 ? "data" : "page"}`;
      stats.add(url, i % 7 === 0);
      referenceAdd(url, i % 7 === 0);
    }
    expect(stats.dense).toBe(true);
    for (const url of probes) expect(stats.logRatio(url)).toBe(referenceRatio(url));
    expect(stats.toState()).toEqual(referenceState());
    const restoredDense = PathSegmentStats.fromState(stats.toState());
    expect(restoredDense.dense).toBe(true);
    expect(restoredDense.toState()).toEqual(stats.toState());
  });
});
