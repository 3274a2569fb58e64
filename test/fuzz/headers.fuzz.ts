/**
 * HTTP response headers the fetcher reads (lib/crawler/fetch/, html-decoding.ts): Content-Type
 * and its charset, Content-Disposition file names (RFC 6266 / RFC 8187), the effective MIME type,
 * and Retry-After (RFC 9110 §10.2.3). Headers written by a generator are read back as written;
 * hostile values give a result, never an exception.
 */
import fc from "fast-check";
import { charsetParameter } from "../../lib/crawler/html-decoding";
import { dispositionFilename, effectiveMime } from "../../lib/crawler/fetch/effective-mime";
import { parseMime } from "../../lib/crawler/fetch/http-fetcher";
import { DEFAULT_RETRY_POLICY, parseRetryAfterMs, retryDelayMs } from "../../lib/crawler/fetch/retry";
import type { FetchResult } from "../../lib/crawler/fetch/types";
import { anyText, tokensOf } from "./arbitraries";
import { fuzzTarget } from "./fuzz-kit";
import type { FuzzTarget } from "./fuzz-target";

const token = fc.string({ unit: fc.constantFrom(..."abcXYZ019-_.+!#$&^"), minLength: 1, maxLength: 8 });
const CHARSETS = ["utf-8", "UTF-8", "iso-8859-1", "windows-1252", "Shift_JIS", "gb2312", "x-mac-cyrillic", "koi8-r"];

/** A parameter other than charset, token or quoted (a quoted one may hold `;`, `,` and spaces). */
const otherParameter = fc.tuple(fc.constantFrom("boundary", "format", "q", "level"), fc.oneof(token, token.map((t) => `"${t}; x, y"`))).map(([n, v]) => `${n}=${v}`);

const contentType = fuzzTarget({
  name: "Content-Type, charset and Content-Disposition written and read back",
  ciRuns: 1200,
  memoryBoundMiB: 64,
  property: () =>
    fc.property(
      fc.tuple(token, token),
      fc.option(fc.tuple(fc.constantFrom(...CHARSETS), fc.constantFrom("charset=", "Charset = ", "CHARSET=\"", "charset=\"")), { nil: null }),
      fc.array(otherParameter, { maxLength: 2 }),
      fc.array(otherParameter, { maxLength: 2 }),
      fc.constantFrom(";", " ; ", ";\t"),
      (type, charset, before, after, separator) => {
        const mime = `${type[0]}/${type[1]}`;
        const charsetParameterText = charset === null ? [] : [`${charset[1]}${charset[0]}${charset[1].endsWith('"') ? '"' : ""}`];
        const header = [mime, ...before, ...charsetParameterText, ...after].join(separator);
        if (parseMime(header) !== mime.toLowerCase()) throw new Error(`parseMime(${header}) = ${parseMime(header)}`);
        if (charsetParameter(header) !== (charset?.[0] ?? undefined)) throw new Error(`charsetParameter(${header}) = ${charsetParameter(header)}`);
      },
    ),
});

/** File names with what quoting must escape (`"`, `\`), separators, non-ASCII, and dots for extensions. */
const fileName = fc
  .string({ unit: fc.constantFrom(..."ab09 -_.;,=\"\\'()é統😀%"), minLength: 1, maxLength: 16 })
  .filter((name) => name.trim() === name && name !== "");

const disposition = fuzzTarget({
  name: "Content-Disposition file names (RFC 6266, RFC 8187) written and read back",
  ciRuns: 1200,
  memoryBoundMiB: 64,
  property: () =>
    fc.property(fileName, fc.constantFrom("quoted", "extended", "both", "token"), fc.constantFrom("attachment", "inline", "Attachment"), fc.option(fileName, { nil: undefined }), (name, form, kind, fallback) => {
      const quoted = `filename="${name.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
      const extended = `filename*=UTF-8''${encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)}`;
      const isToken = /^[A-Za-z0-9!#$&+.^_`|~-]+$/.test(name);
      let header: string;
      if (form === "quoted") header = `${kind}; ${quoted}`;
      else if (form === "extended") header = `${kind}; ${extended}`;
      else if (form === "both") header = `${kind}; filename="${(fallback ?? "x").replace(/[\\"]/g, (c) => `\\${c}`)}"; ${extended}`;
      else header = `${kind}; filename=${isToken ? name : `"${name.replace(/[\\"]/g, (c) => `\\${c}`)}"`}`;
      const read = dispositionFilename(header);
      if (read !== name) throw new Error(`${header} → ${JSON.stringify(read)}, written ${JSON.stringify(name)}`);
      const mime = effectiveMime("application/octet-stream", "http://e.example/download.php?id=1", header);
      if (typeof mime !== "string" || mime === "") throw new Error(`effectiveMime ${mime}`);
    }),
});

const HEADER_PIECES = ["attachment", ";", "filename", "filename*", "=", '"', "\\", "'", "UTF-8", "''", "%", "%E9", "%C3%A9", "%ZZ", ".csv", ".xlsx", "x", " ", "text/html", "charset", "application/octet-stream"];

const hostile = fuzzTarget({
  name: "hostile Content-Type, Content-Disposition and Retry-After values",
  ciRuns: 1200,
  memoryBoundMiB: 64,
  property: () =>
    fc.property(
      fc.oneof(anyText(80), tokensOf(HEADER_PIECES, 16)),
      fc.oneof(anyText(40), fc.constantFrom("", "text/plain", "text/html", "application/octet-stream")),
      fc.oneof(anyText(40), fc.webUrl()),
      (value, declared, url) => {
        parseMime(value);
        charsetParameter(value);
        dispositionFilename(value);
        const mime = effectiveMime(declared, url, value);
        if (mime !== declared && !/^[a-z]+\/[a-z0-9.+-]+$/.test(mime)) throw new Error(`effectiveMime gave ${mime}`);
        const retryAfter = parseRetryAfterMs(value, 1_700_000_000_000);
        if (retryAfter !== null && !(Number.isSafeInteger(retryAfter) && retryAfter >= 0)) throw new Error(`Retry-After ${JSON.stringify(value)} → ${retryAfter}`);
      },
    ),
});

const NOW = Date.UTC(2026, 10, 28, 9, 0, 0);

/** Retry-After as RFC 9110 writes it: delta-seconds, or an IMF-fixdate (or the obsolete RFC 850 form). */
const retryAfter = fuzzTarget({
  name: "Retry-After written and read back",
  ciRuns: 1200,
  memoryBoundMiB: 64,
  property: () =>
    fc.property(
      fc.oneof(
        fc.bigInt({ min: 0n, max: 10n ** 30n }).map((s) => ({ text: s.toString(), seconds: s })),
        fc.integer({ min: -86_400 * 400, max: 86_400 * 400 }).map((offset) => ({ text: new Date(NOW + offset * 1000).toUTCString(), seconds: BigInt(Math.max(0, offset)) })),
      ),
      fc.constantFrom("", " ", "\t"),
      ({ text, seconds }, pad) => {
        const ms = parseRetryAfterMs(`${pad}${text}${pad}`, NOW);
        const expected = seconds * 1000n;
        // Delta-seconds past what a number holds exactly are "a very long time": any safe value at least 2^53 - 1 ms… or the cap.
        const exact = expected <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(expected) : Number.MAX_SAFE_INTEGER;
        if (ms !== exact) throw new Error(`Retry-After ${JSON.stringify(text)} → ${ms} ms, expected ${exact}`);
        const delay = retryDelayMs({ headers: { "retry-after": text } } as unknown as FetchResult, 1);
        if (!(delay >= 0 && delay <= DEFAULT_RETRY_POLICY.maxRetryAfterMs)) throw new Error(`retry delay ${delay}`);
      },
    ),
});

export const fuzzTargets: FuzzTarget[] = [contentType, disposition, hostile, retryAfter];
