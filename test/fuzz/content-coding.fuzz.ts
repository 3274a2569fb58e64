/**
 * Response bodies under Content-Encoding (lib/crawler/fetch/body.ts `readBody`): gzip, deflate
 * and br, stacked or unknown, whole, cut short or corrupted, in chunks of any size, under the size
 * cap in both overflow modes. `readBody` always resolves (a hostile body is a result, not a
 * rejection); a body encoded by node:zlib decodes to exactly its payload (or its first
 * `maxBodyBytes`), one cut short to a prefix of it; a gzip bomb is stopped by its ratio.
 */
import { Readable } from "node:stream";
import zlib from "node:zlib";
import fc from "fast-check";
import { readBody } from "../../lib/crawler/fetch/body";
import { fuzzTarget } from "./fuzz-kit";
import type { FuzzTarget } from "./fuzz-target";

const ENCODE: Record<string, (b: Buffer) => Buffer> = {
  gzip: (b) => zlib.gzipSync(b),
  "x-gzip": (b) => zlib.gzipSync(b),
  deflate: (b) => zlib.deflateSync(b),
  br: (b) => zlib.brotliCompressSync(b),
  identity: (b) => b,
};
const CODINGS = ["", "gzip", "x-gzip", "deflate", "br", "identity", "gzip, gzip", "deflate, br", "GZIP", " gzip ,identity", "gzip, br, deflate", "compress", "gzip;q=1"];

/** What the header says was applied, in order; null when Forage does not decode it (the body stays as sent). */
function applied(header: string): string[] | null {
  const codings = header.split(",").map((c) => c.trim().toLowerCase()).filter((c) => c && c !== "identity");
  return codings.every((c) => c in ENCODE) ? codings : null;
}

const payload = fc.oneof(
  fc.uint8Array({ maxLength: 3000 }).map((a) => Buffer.from(a)),
  fc.tuple(fc.string({ maxLength: 40 }), fc.integer({ min: 1, max: 200 })).map(([s, n]) => Buffer.from(s.repeat(n))),
);

const decoding = fuzzTarget({
  name: "Content-Encoding bodies: whole, cut, corrupted, chunked",
  ciRuns: 400,
  memoryBoundMiB: 96,
  property: () =>
    fc.asyncProperty(
      payload,
      fc.constantFrom(...CODINGS),
      fc.constantFrom("whole", "whole", "cut", "flipped", "random"),
      fc.integer({ min: 1, max: 4000 }),
      fc.constantFrom<"abort" | "truncate">("abort", "truncate"),
      fc.array(fc.integer({ min: 1, max: 700 }), { minLength: 1, maxLength: 5 }),
      fc.nat(),
      async (data, header, damage, maxBodyBytes, overflow, chunkSizes, where) => {
        const codings = applied(header);
        let wire: Buffer = codings === null || codings.length > 2 ? data : codings.reduce<Buffer>((bytes, c) => ENCODE[c]!(bytes), data);
        if (damage === "cut" && wire.length > 1) wire = wire.subarray(0, where % wire.length);
        if (damage === "flipped" && wire.length > 0) {
          wire = Buffer.from(wire);
          wire[where % wire.length]! ^= 0x5a;
        }
        if (damage === "random") wire = data;
        const chunks: Buffer[] = [];
        for (let at = 0, turn = 0; at < wire.length; turn++) {
          const size = chunkSizes[turn % chunkSizes.length]!;
          chunks.push(wire.subarray(at, at + size));
          at += size;
        }
        const result = await readBody(Readable.from(chunks), { contentEncoding: header, maxBodyBytes, overflow, sink: null });
        if (result.wireBytes > wire.length || result.bodyBytes > maxBodyBytes) throw new Error(`counts ${result.wireBytes}/${result.bodyBytes}`);
        if (result.body !== null && result.body.length > maxBodyBytes) throw new Error(`a body of ${result.body.length} bytes over ${maxBodyBytes}`);
        if (codings !== null && codings.length > 2) {
          if (result.error?.code === undefined) throw new Error(`${codings.length} codings decoded`);
          return;
        }
        // What a correct decoder gives: the payload (or, for an unknown coding, the bytes as sent).
        const expected = codings === null || codings.length === 0 ? wire : data;
        if (damage === "whole" || codings === null || codings.length === 0) {
          const fits = expected.length <= maxBodyBytes;
          if (fits && (result.body === null || !result.body.equals(expected))) throw new Error(`${header}: body differs (${result.body?.length} bytes, ${expected.length} sent, error ${result.error?.message})`);
          if (!fits && overflow === "abort" && !result.tooLarge) throw new Error(`${header}: ${expected.length} bytes over ${maxBodyBytes} not refused`);
          if (!fits && overflow === "truncate" && (!result.truncated || !result.body?.equals(expected.subarray(0, maxBodyBytes)))) throw new Error(`${header}: not cut at ${maxBodyBytes}`);
        } else if (damage === "cut" && result.body !== null && !expected.subarray(0, result.body.length).equals(result.body)) {
          throw new Error(`${header}: a body cut short decoded to something else than a prefix of its payload`);
        }
      },
    ),
});

/** Gzip, deflate and brotli bombs (one or two layers): stopped once past 1 MiB at the page ratio, memory bounded. */
const bombs = fuzzTarget({
  name: "Content-Encoding bombs",
  ciRuns: 3,
  memoryBoundMiB: 200,
  property: () =>
    fc.asyncProperty(fc.constantFrom("gzip", "deflate", "br", "gzip, gzip"), fc.integer({ min: 3, max: 8 }), async (header, mebibytes) => {
      const zeros = Buffer.alloc(mebibytes * 1024 * 1024);
      const wire = header.split(",").reduce<Buffer>((bytes, c) => ENCODE[c.trim()]!(bytes), zeros);
      const result = await readBody(Readable.from([wire]), { contentEncoding: header, maxBodyBytes: 64 * 1024 * 1024, overflow: "abort", sink: null });
      if (result.error?.code !== "decompression-bomb") throw new Error(`${header} bomb of ${mebibytes} MiB in ${wire.length} bytes: ${result.error?.code ?? "read whole"}`);
      if (result.bodyBytes > 2 * 1024 * 1024 + 256 * 1024) throw new Error(`decoded ${result.bodyBytes} bytes before stopping`);
    }),
});

export const fuzzTargets: FuzzTarget[] = [decoding, bombs];
