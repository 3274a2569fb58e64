/**
 * A gzip member that stores its bytes without compressing them (RFC 1951 stored blocks, RFC 1952
 * framing), built here instead of by zlib at level 0: zlib copies every byte through its window
 * and its pending buffer, a large file goes through its thread pool in 16 KiB chunks; here the
 * bytes are only checksummed (zlib.crc32) and written as they are. For payloads already compressed
 * (zip, xlsx, pdf, a gzip-encoded body), which most of a crawl's archived bytes often are. Any
 * inflater reads the member, and it decodes to the same bytes as zlib's.
 */
import zlib from "node:zlib";

/** The gzip header: deflate, no flags, no time, no extra flags, OS unknown (255). */
const HEADER = Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xff]);
/** A stored block holds at most this many bytes. */
const MAX_BLOCK = 0xffff;
/** An empty final stored block: ends the deflate stream after the data blocks. */
const LAST_BLOCK = Buffer.from([0x01, 0x00, 0x00, 0xff, 0xff]);

/** Builds one member from the bytes handed to {@link add}, in order: header first, trailer at {@link end}. */
export class StoredGzipMember {
  private crc = 0;
  private size = 0;
  private started = false;

  /** The member's next bytes for `bytes` (the header before the first). */
  add(bytes: Uint8Array): Buffer[] {
    const out: Buffer[] = [];
    if (!this.started) {
      this.started = true;
      out.push(HEADER);
    }
    if (bytes.length === 0) return out;
    this.crc = zlib.crc32(bytes, this.crc);
    this.size = (this.size + bytes.length) % 2 ** 32;
    const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    for (let at = 0; at < view.length; at += MAX_BLOCK) {
      const block = view.subarray(at, Math.min(view.length, at + MAX_BLOCK));
      const head = Buffer.allocUnsafe(5);
      head[0] = 0x00; // not final, stored
      head.writeUInt16LE(block.length, 1);
      head.writeUInt16LE(~block.length & 0xffff, 3);
      out.push(head, block);
    }
    return out;
  }

  /** The member's last bytes: the final block and the trailer (CRC-32, size mod 2^32). */
  end(): Buffer[] {
    const out = this.started ? [] : this.add(new Uint8Array(0));
    const trailer = Buffer.allocUnsafe(8);
    trailer.writeUInt32LE(this.crc >>> 0, 0);
    trailer.writeUInt32LE(this.size, 4);
    out.push(LAST_BLOCK, trailer);
    return out;
  }
}

/** The whole member for `parts`, as one Buffer. */
export function storedGzipMember(parts: readonly Uint8Array[]): Buffer {
  const member = new StoredGzipMember();
  const out: Buffer[] = [];
  for (const part of parts) out.push(...member.add(part));
  out.push(...member.end());
  return Buffer.concat(out);
}
