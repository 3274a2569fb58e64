import { createHash } from "node:crypto";
import type { IncomingHttpHeaders } from "node:http";

/** A strong ETag of a body: the first 16 hex digits of its SHA-256, quoted. */
export function bodyEtag(body: Buffer): string {
  return `"${createHash("sha256").update(body).digest("hex").slice(0, 16)}"`;
}

/**
 * What a conditional request asks of a versioned resource, as an HTTP server judges it
 * (RFC 9110 §13.2.2): `conditional` when it sent If-None-Match or If-Modified-Since; `notModified`
 * when its If-None-Match lists the ETag, or, without If-None-Match, its If-Modified-Since is not
 * before Last-Modified.
 */
export function judgeConditional(headers: IncomingHttpHeaders, etag: string, lastModified: string | null): { conditional: boolean; notModified: boolean } {
  const ifNoneMatch = headers["if-none-match"];
  const ifModifiedSince = lastModified === null ? undefined : headers["if-modified-since"];
  if (ifNoneMatch !== undefined) return { conditional: true, notModified: ifNoneMatch.split(",").some((tag) => tag.trim() === etag) };
  if (ifModifiedSince !== undefined) return { conditional: true, notModified: Date.parse(ifModifiedSince) >= Date.parse(lastModified!) };
  return { conditional: false, notModified: false };
}
