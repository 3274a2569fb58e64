import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { writeJsonInPieces } from "../../lib/crawler/engine/sliced-json";
import { largeState } from "../helpers/large-engine-state";

/** The pieces `writeJsonInPieces` gives, with no turn of the event loop between them. */
async function pieces(value: unknown): Promise<string[]> {
  const out: string[] = [];
  await writeJsonInPieces(value, (piece) => {
    out.push(piece);
    return undefined;
  });
  return out;
}

describe("writeJsonInPieces", () => {
  it("writes exactly JSON.stringify of any JSON value", async () => {
    await fc.assert(
      fc.asyncProperty(fc.jsonValue({ maxDepth: 12 }), async (value) => {
        expect((await pieces(value)).join("")).toBe(JSON.stringify(value));
      }),
      { seed: 20_251_129, numRuns: 300 },
    );
  });

  it("follows JSON.stringify where it skips, nulls or converts: undefined, functions, symbols, toJSON, Dates, Maps, null-prototype objects, holes, deep nesting", async () => {
    const bare = Object.assign(Object.create(null) as Record<string, unknown>, { a: 1, b: undefined });
    let deep: unknown = { leaf: [1, { x: undefined }] };
    for (let i = 0; i < 20; i++) deep = { [`level${i}`]: deep, list: Array.from({ length: 300 }, (_, k) => ({ k })) };
    const value = {
      skipped: undefined,
      fn: () => 1,
      sym: Symbol("s"),
      list: [undefined, () => 1, Symbol("t"), NaN, Infinity, -0, , 3],
      date: new Date(0),
      custom: { toJSON: () => ({ replaced: true }) },
      dropped: { toJSON: () => undefined },
      map: new Map([[1, 2]]),
      bare,
      bigList: Array.from({ length: 5_000 }, (_, i) => (i % 5 === 0 ? undefined : i % 5 === 1 ? { i, nested: Array.from({ length: 400 }, () => i) } : `s${i}`)),
      deep,
      "key \"quoted\" \u2028": "value \u0000",
    };
    expect((await pieces(value)).join("")).toBe(JSON.stringify(value));
  });

  it("throws as JSON.stringify does on a cycle and on a BigInt", async () => {
    const cycle: Record<string, unknown> = { a: [1, 2] };
    cycle.self = { back: cycle };
    await expect(pieces(cycle)).rejects.toThrow(TypeError);
    await expect(pieces({ n: 1n })).rejects.toThrow(TypeError);
  });

  it("cuts a large crawl state into many small pieces, none of them a large share of the whole", async () => {
    const value = largeState(60_000);
    const out = await pieces(value);
    const total = out.reduce((sum, piece) => sum + piece.length, 0);
    expect(out.join("")).toBe(JSON.stringify(value));
    expect(total).toBeGreaterThan(8_000_000);
    // A run of elements is sized to about a millisecond of JSON.stringify: far below the whole.
    expect(Math.max(...out.map((piece) => piece.length))).toBeLessThan(total / 10);
    expect(out.length).toBeGreaterThan(50);
  });
});
