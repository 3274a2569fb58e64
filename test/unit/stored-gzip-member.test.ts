import zlib from "node:zlib";
import { describe, expect, it } from "vitest";
import { StoredGzipMember, storedGzipMember } from "../../lib/archive/stored-gzip-member";

/** Bytes that do not compress, as a zip or an xlsx (a linear congruential sequence, fixed seed). */
function noise(length: number, seed = 7): Buffer {
  const bytes = Buffer.alloc(length);
  let x = seed;
  for (let i = 0; i < length; i++) bytes[i] = (x = (x * 1103515245 + 12345) >>> 0) >>> 24;
  return bytes;
}

describe("stored gzip members", () => {
  it.each([0, 1, 65_535, 65_536, 200_001])("decodes to the %i bytes it stores, with zlib's gunzip and CRC check", (length) => {
    const bytes = noise(length);
    const member = storedGzipMember([bytes]);
    expect(zlib.gunzipSync(member).equals(bytes)).toBe(true);
    expect(member.length).toBeLessThan(length + 30 + 5 * Math.ceil(length / 65_535));
  });

  it("takes its bytes in parts of any size, and a corrupted byte fails the CRC", () => {
    const parts = [Buffer.from("WARC/1.1\r\n"), noise(70_000, 3), Buffer.alloc(0), noise(10, 4), Buffer.from("\r\n\r\n")];
    const member = new StoredGzipMember();
    const out = Buffer.concat([...parts.flatMap((part) => member.add(part)), ...member.end()]);
    expect(zlib.gunzipSync(out).equals(Buffer.concat(parts))).toBe(true);
    // Members follow each other in a WARC file: two read back as their concatenation.
    expect(zlib.gunzipSync(Buffer.concat([out, storedGzipMember([Buffer.from("next")])])).toString("latin1").endsWith("\r\n\r\nnext")).toBe(true);
    const corrupt = Buffer.from(out);
    corrupt[40] = corrupt[40]! ^ 0xff;
    expect(() => zlib.gunzipSync(corrupt)).toThrow();
  });
});
