/**
 * The SHA-256 of a fetched body, when the fetch already knows it: a web archive hashes every
 * payload as it arrives (its `WARC-Payload-Digest`), and a page sent without content coding is its
 * payload. The page store asks here before hashing the body a second time. Keyed by the body's
 * Buffer, held weakly: a body the engine drops takes its entry with it.
 */
import { createHash } from "node:crypto";

const known = new WeakMap<Buffer, string>();

/** Notes the hex SHA-256 of `body` (the caller vouches for it: computed over exactly these bytes). */
export function noteBodySha256(body: Buffer, sha256Hex: string): void {
  known.set(body, sha256Hex);
}

/** The hex SHA-256 noted for `body` by its fetch; undefined when none was. */
export function notedBodySha256(body: Buffer): string | undefined {
  return known.get(body);
}

/** The hex SHA-256 of `body`: the one noted by the fetch, else computed. */
export function bodySha256(body: Buffer): string {
  return known.get(body) ?? createHash("sha256").update(body).digest("hex");
}
