import { describe, expect, it } from "vitest";
import { knuthHash, TagPathProjector, tagPathNgrams, type SparseVector } from "../../lib/crawler/tag-path-projection";

const A = 766245317;

/** The kit's projection, dense and naive: full frequency vector, then bucket means over all V positions. */
class ReferenceProjector {
  readonly vocabulary = new Map<string, number>();
  project(tagPath: string): Float64Array {
    const grams = tagPathNgrams(tagPath, 2);
    for (const g of grams) if (!this.vocabulary.has(g)) this.vocabulary.set(g, this.vocabulary.size);
    const tf = new Float64Array(this.vocabulary.size);
    for (const g of grams) tf[this.vocabulary.get(g)!]! += 1 / grams.length;
    const sums = new Float64Array(4096);
    const counts = new Float64Array(4096);
    for (let x = 0; x < tf.length; x++) {
      const b = Number(((BigInt(x) * BigInt(A)) % 32768n) / 8n);
      sums[b]! += tf[x]!;
      counts[b]!++;
    }
    return sums.map((s, b) => (counts[b]! > 0 ? s / counts[b]! : 0));
  }
}

function dense(v: SparseVector): Float64Array {
  const out = new Float64Array(4096);
  v.indices.forEach((b, i) => (out[b] = v.values[i]!));
  return out;
}

describe("knuthHash", () => {
  it("equals floor(((x·a) mod 2^15) / 2^3) computed with BigInt, for small and huge x", () => {
    const xs = [...Array.from({ length: 40_000 }, (_, i) => i), 2 ** 31 - 1, 2 ** 32 + 7, 2 ** 40 + 12_345, 2 ** 52 + 3, Number.MAX_SAFE_INTEGER];
    for (const x of xs) {
      const reference = Number(((BigInt(x) * BigInt(A)) % 32768n) / 8n);
      if (knuthHash(x, A, 15, 12) !== reference) expect.fail(`h(${x}) = ${knuthHash(x, A, 15, 12)}, BigInt gives ${reference}`);
    }
    expect([0, 1, 2, 3].map((x) => knuthHash(x, A, 15, 12))).toEqual([0, 3896, 3697, 3497]);
  });

  it("spreads every run of 2^15 indices 8 per bucket (a is odd)", () => {
    const counts = new Uint32Array(4096);
    for (let x = 5000; x < 5000 + 32768; x++) counts[knuthHash(x, A, 15, 12)]!++;
    expect(counts.every((c) => c === 8)).toBe(true);
  });
});

describe("TagPathProjector", () => {
  it("tokenizes a path into 2-grams with [SOS] and [EOS]", () => {
    expect(tagPathNgrams("/html/body/a.btn primary")).toEqual(["[SOS]/", "/html", "html/body", "body/a.btn primary", "a.btn primary/[EOS]"]);
  });

  it("projects a 2-step path: 4 n-grams, each 1/4 in its own bucket", () => {
    const p = new TagPathProjector();
    const v = p.project("/html/body");
    // indices 0..3 → buckets 0, 3896, 3697, 3497
    expect(Array.from(v.indices)).toEqual([0, 3497, 3697, 3896]);
    expect(Array.from(v.values)).toEqual([0.25, 0.25, 0.25, 0.25]);
    expect(p.vocabularySize).toBe(4);
    const dense = p.toDense(v);
    expect(dense).toHaveLength(4096);
    expect(dense[3896]).toBe(0.25);
    expect(dense.reduce((a, b) => a + b, 0)).toBe(1);
  });

  it("counts a repeated n-gram twice over the path length", () => {
    const v = new TagPathProjector().project("/div/div/div"); // [SOS]/, /div, div/div ×2, div/[EOS]
    expect(Array.from(v.values).sort()).toEqual([0.2, 0.2, 0.2, 0.4]);
  });

  it("averages a bucket over every vocabulary position hashed there, zeros included", () => {
    // Index 3021 is the first to share a bucket (3896) with an earlier one (index 1).
    expect(knuthHash(3021, A, 15, 12)).toBe(knuthHash(1, A, 15, 12));
    const p = new TagPathProjector();
    p.project("/x0"); // [SOS]/ = 0, /x0 = 1, x0/[EOS] = 2
    for (let i = 0; p.vocabularySize < 3021; i++) p.project(`/x0/f${i}`); // two new n-grams each
    expect(p.vocabularySize).toBe(3021);
    const v = p.project("/y"); // [SOS]/ (0), /y → 3021, y/[EOS] → 3022
    const at = (b: number) => v.values[Array.from(v.indices).indexOf(b)];
    expect(at(3896)).toBeCloseTo(1 / 3 / 2, 15); // /y's 1/3, averaged with index 1's zero
    expect(at(knuthHash(3022, A, 15, 12))).toBeCloseTo(1 / 3, 15);
  });

  it("matches the kit's dense computation on a growing vocabulary", () => {
    const p = new TagPathProjector();
    const ref = new ReferenceProjector();
    let s = 7;
    const pick = (n: number) => ((s = (s * 1103515245 + 12345) & 0x7fffffff), s % n);
    const steps = ["div.a", "div.b#x", "ul.menu", "li", "a", "span", "p", "section.c d", "table", "td"];
    for (let n = 0; n < 60; n++) {
      let path = "/html/body";
      const depth = 1 + pick(8);
      for (let d = 0; d < depth; d++) path += "/" + steps[pick(steps.length)] + (pick(4) === 0 ? `.k${n}` : "");
      const got = dense(p.project(path));
      const want = ref.project(path);
      for (let b = 0; b < 4096; b++) if (Math.abs(got[b]! - want[b]!) > 1e-15) expect.fail(`path ${n} bucket ${b}: ${got[b]} vs ${want[b]}`);
    }
    expect(p.vocabularySize).toBe(ref.vocabulary.size);
  });

  it("round-trips its state and re-projects old paths bit for bit", () => {
    const p = new TagPathProjector();
    const first = p.project("/html/body/div/a");
    const size = p.vocabularySize;
    p.project("/html/body/ul/li/a");
    const q = TagPathProjector.fromState(JSON.parse(JSON.stringify(p.toState())));
    expect(q.vocabularySize).toBe(p.vocabularySize);
    expect(q.project("/html/body/nav/a")).toEqual(p.project("/html/body/nav/a"));
    const [again] = q.reproject([{ tagPath: "/html/body/div/a", vocabularySize: size }]);
    expect(again).toEqual(first);
    expect(() => q.reproject([{ tagPath: "/never/seen", vocabularySize: 3 }])).toThrow(RangeError);
  });

  it("validates its settings", () => {
    expect(() => new TagPathProjector({ hashWordBits: 30 })).toThrow(RangeError);
    expect(() => new TagPathProjector({ hashOutputBits: 16, hashWordBits: 15 })).toThrow(RangeError);
    expect(new TagPathProjector({ hashOutputBits: 8 }).dimensions).toBe(256);
  });
});
