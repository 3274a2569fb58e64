import { describe, expect, it } from "vitest";
import { Prng } from "../../lib/crawler/prng";
import { logLossDerivative, UrlClassifier, urlBigrams } from "../../lib/crawler/url-classifier";

const AB = (97 - 32) * 95 + (98 - 32); // bigram "ab" = 6241
const BA = (98 - 32) * 95 + (97 - 32); // bigram "ba" = 6335

describe("urlBigrams", () => {
  it("counts printable-ASCII bigrams of the lower-cased URL, sorted", () => {
    expect(urlBigrams("ABab")).toEqual({ indices: Int32Array.from([AB, BA]), counts: Float64Array.from([2, 1]) });
    // A bigram with a non-printable or non-ASCII character is dropped; its neighbours do not pair up.
    expect(urlBigrams("a\u00e9b").indices).toHaveLength(0);
    expect(urlBigrams("a\tb").indices).toHaveLength(0);
    expect(urlBigrams("").indices).toHaveLength(0);
    expect(urlBigrams(" ~").indices).toEqual(Int32Array.from([94]));
  });
});

describe("UrlClassifier", () => {
  it("derives sklearn's t0 = 1000 for α = 1e-4", () => {
    expect(new UrlClassifier({ prng: Prng.fromSeed(1) }).t0).toBeCloseTo(1000, 9);
    expect(logLossDerivative(0, 1)).toBe(-0.5);
    expect(logLossDerivative(20, 1)).toBeCloseTo(-Math.exp(-20), 20);
    expect(logLossDerivative(-20, 1)).toBe(-1);
  });

  it("takes sklearn's SGD step: w = 5 and b = 0.05 after one target sample", () => {
    const c = new UrlClassifier({ prng: Prng.fromSeed(1), batchSize: 1 });
    expect(c.isTrained()).toBe(false);
    c.addLabel("ab", "target");
    // eta = 1/(1e-4·(1000 + 1 − 1)) = 10; p = 0; dloss = −1/(e⁰ + 1) = −0.5; update = 5;
    // wscale = 1 − 10·1e-4 = 0.999; w = 1·5/0.999, then ×0.999 at the end: 5; b = 5·0.01.
    let state = c.toState();
    expect(state.weights[AB]).toBeCloseTo(5, 12);
    expect(state.weights.filter((w) => w !== 0)).toHaveLength(1);
    expect(state.intercept).toBeCloseTo(0.05, 15);
    expect(state.t).toBe(2);
    expect(c.isTrained()).toBe(true);
    expect(c.decision("ab")).toBeCloseTo(5.05, 12);

    c.addLabel("ab", "html");
    // t = 2: eta = 1/(1e-4·1001); p = 5.05; dloss(5.05, −1) = 1/(e^−5.05 + 1); s = 1 − eta·1e-4;
    // w = (5 + update/s)·s = 5s + update; b = 0.05 + 0.01·update.
    const eta = 1 / (1e-4 * 1001);
    const update = -eta * (1 / (Math.exp(-5.05) + 1));
    const s = 1 - eta * 1e-4;
    state = c.toState();
    expect(state.weights[AB]).toBeCloseTo(5 * s + update, 10);
    expect(state.intercept).toBeCloseTo(0.05 + 0.01 * update, 12);
  });

  it("updates the intercept with the full step when interceptDecay is 1 (dense sklearn input)", () => {
    const c = new UrlClassifier({ prng: Prng.fromSeed(1), batchSize: 1, interceptDecay: 1 });
    c.addLabel("ab", "target");
    expect(c.toState().intercept).toBeCloseTo(5, 12);
  });

  it("buffers labels and trains one epoch per batch of 10", () => {
    const c = new UrlClassifier({ prng: Prng.fromSeed(1) });
    for (let i = 0; i < 9; i++) c.addLabel(`https://a.org/p/${i}`, "html");
    expect(c.isTrained()).toBe(false);
    expect(c.pendingLabels).toBe(9);
    expect(c.predict("https://a.org/x.csv")).toBe("html"); // untrained: html
    expect(c.probability("https://a.org/x.csv")).toBe(0.5);
    c.addLabel("https://a.org/f/x.csv", "target");
    expect(c.isTrained()).toBe(true);
    expect(c.pendingLabels).toBe(0);
    expect(c.toState().t).toBe(11);
  });

  it("learns to tell data files from pages after a few batches", () => {
    const c = new UrlClassifier({ prng: Prng.fromSeed(42) });
    const target = (i: number) => `https://stats.example.org/files/${["data", "table", "series"][i % 3]}-${i}.${["csv", "xlsx", "zip"][i % 3]}`;
    const page = (i: number) => `https://stats.example.org/${["page", "news", "topics"][i % 3]}/${["population", "economy", "housing"][(i >> 1) % 3]}-${i}`;
    for (let i = 0; i < 40; i++) {
      c.addLabel(page(i), "html");
      c.addLabel(i % 2 ? target(i) : page(1000 + i), i % 2 ? "target" : "html");
    }
    expect(c.toState().epochs).toBe(8);
    for (let i = 500; i < 530; i++) {
      expect(c.predict(target(i)), target(i)).toBe("target");
      expect(c.predict(page(i)), page(i)).toBe("html");
    }
    expect(c.probability(target(777))).toBeGreaterThan(0.5);
  });

  it("resumes from a JSON state with the same weights after more training", () => {
    const prng = Prng.fromSeed(9);
    const a = new UrlClassifier({ prng });
    const url = (i: number) => `https://a.org/${i % 2 ? "f" : "p"}/${i}${i % 2 ? ".csv" : ""}`;
    for (let i = 0; i < 25; i++) a.addLabel(url(i), i % 2 ? "target" : "html");
    const prngB = Prng.fromState(prng.toState());
    const b = UrlClassifier.fromState(JSON.parse(JSON.stringify(a.toState())), { prng: prngB });
    for (let i = 25; i < 60; i++) {
      a.addLabel(url(i), i % 2 ? "target" : "html");
      b.addLabel(url(i), i % 2 ? "target" : "html");
    }
    expect(b.toState()).toEqual(a.toState());
    expect(() => UrlClassifier.fromState({ ...a.toState(), weights: [1, 2] }, { prng })).toThrow(TypeError);
  });

  it("predicts and trains in microseconds", () => {
    const c = new UrlClassifier({ prng: Prng.fromSeed(1) });
    const urls = Array.from({ length: 2000 }, (_, i) => `https://www.example.org/statistics/section-${i % 40}/files/dataset-${i}.csv?lang=en`);
    let start = performance.now();
    for (const [i, u] of urls.entries()) c.addLabel(u, i % 3 ? "html" : "target");
    const train = ((performance.now() - start) / urls.length) * 1000;
    start = performance.now();
    let targets = 0;
    for (let r = 0; r < 5; r++) for (const u of urls) if (c.predict(u) === "target") targets++;
    const predict = ((performance.now() - start) / (5 * urls.length)) * 1000;
    console.log(`UrlClassifier: train ${train.toFixed(2)} µs/URL (incl. epochs), predict ${predict.toFixed(2)} µs/URL (${targets} targets)`);
    expect(predict).toBeLessThan(200);
  });
});
