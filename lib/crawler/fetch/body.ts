/**
 * Reading a response body: count wire bytes, decode gzip / deflate / br, enforce the
 * decoded size limit, and deliver to a buffer or to the caller's Writable. Limits apply to
 * the *decoded* size because a 10 KiB gzip bomb can inflate to gigabytes.
 */
import { type Readable, Transform, Writable } from "node:stream";
import { finished, pipeline } from "node:stream/promises";
import zlib from "node:zlib";
import { DecodeError, DecompressionBombError, type FetchError, SinkError, TooManyCodingsError, toFetchError } from "./errors";

/**
 * Content codings decoded one after the other at most. `gzip, gzip` is legal and seen in the wild
 * (a proxy compressing a compressed page); a third layer has no honest use and multiplies a bomb.
 */
export const MAX_CONTENT_CODINGS = 2;
/** A buffered body (a page) decoded to over this many times its compressed size is a bomb (honest HTML: 3–20×). */
export const MAX_DECOMPRESSION_RATIO = 100;
/**
 * The same for a streamed body (a target file): sparse CSVs and logs can reach 100–200×, and a
 * file goes to disk, not memory (maxTargetBytes and the disk quota bound it). A gzip bomb runs at
 * ≈ 1 030×, brotli and stacked codings far beyond.
 */
export const MAX_FILE_DECOMPRESSION_RATIO = 500;
/** The ratio is only judged past this decoded size: a tiny page of spaces may inflate 1000×. */
export const DECOMPRESSION_RATIO_FLOOR_BYTES = 1024 * 1024;

export interface ReadBodyOptions {
  /** The Content-Encoding header ("" or absent = identity). */
  contentEncoding: string | undefined;
  maxBodyBytes: number;
  /** "truncate" only applies in buffer mode (sink null). */
  overflow: "abort" | "truncate";
  /** null: buffer the body; otherwise decode into this Writable (ended on success). */
  sink: Writable | null;
  signal?: AbortSignal;
  /** Decoded bytes allowed per compressed byte once past {@link DECOMPRESSION_RATIO_FLOOR_BYTES}. @default MAX_DECOMPRESSION_RATIO, MAX_FILE_DECOMPRESSION_RATIO with a sink */
  maxDecompressionRatio?: number;
  /** Sees every chunk as received, before decoding (the web archive keeps those bytes). */
  onWireChunk?: (chunk: Buffer) => void;
}

export interface ReadBodyResult {
  body: Buffer | null;
  wireBytes: number;
  bodyBytes: number;
  truncated: boolean;
  tooLarge: boolean;
  error?: FetchError;
}

class BodyOverflow extends Error {}

/** Chunked gzip / br from real servers is often cut short: flush what we have, like browsers. */
const ZLIB_LENIENT = { flush: zlib.constants.Z_SYNC_FLUSH, finishFlush: zlib.constants.Z_SYNC_FLUSH };
const BROTLI_LENIENT = {
  flush: zlib.constants.BROTLI_OPERATION_FLUSH,
  finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH,
};

/**
 * Decoders for a Content-Encoding list, in decoding order (the header lists them in the
 * order they were applied). Unknown codings return null: the body is then kept as sent.
 */
export function createDecoders(contentEncoding: string | undefined): zlib.Gunzip[] | null {
  const codings = contentCodings(contentEncoding);
  const decoders: zlib.Gunzip[] = [];
  for (const coding of codings.reverse()) {
    if (coding === "gzip" || coding === "x-gzip") decoders.push(zlib.createGunzip(ZLIB_LENIENT));
    else if (coding === "deflate") decoders.push(zlib.createInflate(ZLIB_LENIENT));
    else if (coding === "br") decoders.push(zlib.createBrotliDecompress(BROTLI_LENIENT) as unknown as zlib.Gunzip);
    else return null;
  }
  return decoders;
}

/** The codings of a Content-Encoding header, in the order they were applied (`identity` dropped). */
export function contentCodings(contentEncoding: string | undefined): string[] {
  return (contentEncoding ?? "")
    .split(",")
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c && c !== "identity");
}

export async function readBody(source: Readable, o: ReadBodyOptions): Promise<ReadBodyResult> {
  const stats = { wire: 0, decoded: 0 };
  const chunks: Buffer[] = [];
  const codings = contentCodings(o.contentEncoding);
  if (codings.length > MAX_CONTENT_CODINGS) {
    source.on("error", noop);
    source.destroy();
    const message = `${codings.length} content codings (${codings.join(", ")}): at most ${MAX_CONTENT_CODINGS} are decoded`;
    return { body: null, wireBytes: 0, bodyBytes: 0, truncated: false, tooLarge: false, error: new TooManyCodingsError(message) };
  }
  const decoders = createDecoders(o.contentEncoding) ?? [];
  if (decoders.length === 0) return o.sink === null ? readPlainBody(source, o) : readPlainBodyInto(source, o.sink, o);
  const maxRatio = o.maxDecompressionRatio ?? (o.sink ? MAX_FILE_DECOMPRESSION_RATIO : MAX_DECOMPRESSION_RATIO);
  const truncate = o.overflow === "truncate" && o.sink === null;
  // pipeline() re-emits the root error on every stage, so the *first* error event says
  // where the failure started: a corrupt gzip is not a network error and not retried.
  let first: { origin: "source" | "decoder" | "sink"; err: unknown } | null = null;
  const track = (origin: "source" | "decoder" | "sink") => (err: unknown) => void (first ??= { origin, err });
  source.on("error", track("source")); // also keeps undici's RequestAbortedError from going unhandled
  for (const d of decoders) d.on("error", track("decoder"));
  o.sink?.on("error", track("sink"));

  // Streams only, no async-generator stages: when the deadline or the caller aborts mid-body,
  // pipeline() left generator stages' promises rejected with nobody to handle them.
  const countWire = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      stats.wire += chunk.length;
      o.onWireChunk?.(chunk);
      done(null, chunk);
    },
  });
  // The limit that stopped the body, if any: with two decoder stages pipeline() may reject with a
  // middle stage's AbortError instead of this error.
  let limitHit: BodyOverflow | DecompressionBombError | null = null;
  /** Counts a decoded chunk; the limit it breaks, if any (in truncate mode its first bytes are kept). */
  const overLimit = (chunk: Buffer): BodyOverflow | DecompressionBombError | null => {
    const room = o.maxBodyBytes - stats.decoded;
    if (chunk.length > room) {
      if (truncate && room > 0) {
        stats.decoded += room;
        chunks.push(chunk.subarray(0, room));
      }
      return (limitHit = new BodyOverflow());
    }
    stats.decoded += chunk.length;
    // Judged against the bytes the first decoder has consumed (zlib's bytesWritten), not those
    // received: the wire reads ahead of the decoder by up to ~100 KB of buffers, which would let a
    // bomb reach 10 MB before its ratio showed.
    const consumed = decoders[0]?.bytesWritten ?? stats.wire;
    if (decoders.length > 0 && stats.decoded > DECOMPRESSION_RATIO_FLOOR_BYTES && stats.decoded > maxRatio * consumed) {
      const message = `decompression bomb: ${consumed} compressed bytes decoded to over ${stats.decoded} (${o.contentEncoding}), more than ${maxRatio}×`;
      return (limitHit = new DecompressionBombError(message));
    }
    return null;
  };
  // Buffer mode: the last stage limits and collects. Sink mode: a limiting stage before the sink.
  const last: Writable =
    o.sink === null
      ? new Writable({
          write(chunk: Buffer, _encoding, done) {
            const error = overLimit(chunk);
            if (error === null) chunks.push(chunk);
            done(error);
          },
        })
      : o.sink;
  const limit =
    o.sink === null
      ? []
      : [
          new Transform({
            transform(chunk: Buffer, _encoding, done) {
              const error = overLimit(chunk);
              done(error, error === null ? chunk : undefined);
            },
          }),
        ];

  const result = (extra: Partial<ReadBodyResult>): ReadBodyResult => ({
    body: null,
    wireBytes: stats.wire,
    bodyBytes: stats.decoded,
    truncated: false,
    tooLarge: false,
    ...extra,
  });

  try {
    // pipeline's overloads cannot type a variable number of decoder stages.
    const run = pipeline as unknown as (...stages: unknown[]) => Promise<void>;
    await run(source, countWire, ...decoders, ...limit, last, { signal: o.signal });
    return result({ body: o.sink ? null : Buffer.concat(chunks) });
  } catch (thrown) {
    const err = limitHit ?? thrown;
    if (err instanceof DecompressionBombError) return result({ error: err });
    if (err instanceof BodyOverflow) {
      return truncate ? result({ body: Buffer.concat(chunks), truncated: true }) : result({ tooLarge: true });
    }
    const root = first as { origin: string; err: unknown } | null;
    if (root?.origin === "decoder" && !o.signal?.aborted) {
      const message = `Cannot decode ${o.contentEncoding} body: ${errorMessage(root.err)}`;
      return result({ error: new DecodeError(message, { cause: root.err }) });
    }
    if (root?.origin === "sink" && !o.signal?.aborted) {
      return result({ error: new SinkError(`Sink failed: ${errorMessage(root.err)}`, { cause: root.err }) });
    }
    return result({ error: toFetchError(err, o.signal) });
  } finally {
    for (const d of decoders) d.destroy();
  }
}

/**
 * The common case, a page sent without content coding into a buffer, read by iterating the
 * source: no stream stages, no pipeline (whose AbortController builds an AbortError with a stack
 * for every body it finishes). Same results as the pipeline: the limit, truncation, wire chunks,
 * an abort of `signal` (undici's request has it too) reported as the abort.
 */
async function readPlainBody(source: Readable, o: ReadBodyOptions): Promise<ReadBodyResult> {
  const chunks: Buffer[] = [];
  let wire = 0;
  let decoded = 0;
  const result = (extra: Partial<ReadBodyResult>): ReadBodyResult => ({ body: null, wireBytes: wire, bodyBytes: decoded, truncated: false, tooLarge: false, ...extra });
  source.on("error", noop); // the iterator reports it; keeps a late one from going unhandled
  const onAbort = (): void => void source.destroy(o.signal?.reason instanceof Error ? o.signal.reason : new Error("aborted"));
  if (o.signal?.aborted) onAbort();
  else o.signal?.addEventListener("abort", onAbort, { once: true });
  try {
    // Leaving the loop early (a limit) destroys the source, as the pipeline did.
    for await (const chunk of source as AsyncIterable<Buffer>) {
      wire += chunk.length;
      o.onWireChunk?.(chunk);
      const room = o.maxBodyBytes - decoded;
      if (chunk.length > room) {
        if (o.overflow !== "truncate") return result({ tooLarge: true });
        if (room > 0) {
          decoded += room;
          chunks.push(chunk.subarray(0, room));
        }
        return result({ body: Buffer.concat(chunks), truncated: true });
      }
      decoded += chunk.length;
      chunks.push(chunk);
    }
    if (o.signal?.aborted) return result({ error: toFetchError(o.signal.reason, o.signal) });
    return result({ body: Buffer.concat(chunks) });
  } catch (error) {
    return result({ error: toFetchError(error, o.signal) });
  } finally {
    o.signal?.removeEventListener("abort", onAbort);
  }
}

/**
 * A file sent without content coding, into the caller's sink: {@link readPlainBody}'s loop with
 * the sink's backpressure, no pipeline. pipeline() ends every run by aborting its own
 * AbortController, which builds an AbortError with a stack: the largest single cost of a
 * downloaded file. Same results as the pipeline: the limit (the sink destroyed), a failing sink
 * (`SinkError`, the body dropped), the source's errors and the caller's abort (the sink destroyed).
 */
async function readPlainBodyInto(source: Readable, sink: Writable, o: ReadBodyOptions): Promise<ReadBodyResult> {
  let wire = 0;
  let decoded = 0;
  const result = (extra: Partial<ReadBodyResult>): ReadBodyResult => ({ body: null, wireBytes: wire, bodyBytes: decoded, truncated: false, tooLarge: false, ...extra });
  let sinkFailure: { error: unknown } | null = null;
  const onSinkError = (error: unknown): void => {
    sinkFailure ??= { error };
    source.destroy();
  };
  sink.on("error", onSinkError);
  source.on("error", noop); // the iterator reports it; keeps a late one from going unhandled
  const onAbort = (): void => void source.destroy(o.signal?.reason instanceof Error ? o.signal.reason : new Error("aborted"));
  if (o.signal?.aborted) onAbort();
  else o.signal?.addEventListener("abort", onAbort, { once: true });
  // The sink destroyed with the failure, as pipeline() does: its owner discards what it holds.
  const fail = (error: FetchError | null, extra: Partial<ReadBodyResult> = {}): ReadBodyResult => {
    if (!sink.destroyed) sink.destroy(error ?? new BodyOverflow());
    return result(error ? { error, ...extra } : extra);
  };
  const sinkError = (failure: { error: unknown }): FetchError => new SinkError(`Sink failed: ${errorMessage(failure.error)}`, { cause: failure.error });
  try {
    try {
      for await (const chunk of source as AsyncIterable<Buffer>) {
        wire += chunk.length;
        o.onWireChunk?.(chunk);
        if (chunk.length > o.maxBodyBytes - decoded) return fail(null, { tooLarge: true });
        decoded += chunk.length;
        if (!sink.write(chunk)) await drained(sink);
        if (sinkFailure) break;
      }
    } catch (error) {
      if (sinkFailure && !o.signal?.aborted) return fail(sinkError(sinkFailure));
      return fail(toFetchError(error, o.signal));
    }
    if (o.signal?.aborted) return fail(toFetchError(o.signal.reason, o.signal));
    if (sinkFailure) return fail(sinkError(sinkFailure));
    sink.end();
    try {
      await finished(sink);
    } catch (error) {
      return fail(sinkError(sinkFailure ?? { error }));
    }
    return result({});
  } finally {
    o.signal?.removeEventListener("abort", onAbort);
  }
}

/** Resolves when `sink` wants more (or has closed); a sink failing meanwhile is left to its error listener. */
function drained(sink: Writable): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      sink.off("drain", done);
      sink.off("error", done);
      sink.off("close", done);
      resolve();
    };
    sink.on("drain", done);
    sink.on("error", done);
    sink.on("close", done);
  });
}

/**
 * Gives up a body we don't want. Small announced bodies (redirects, error pages) are
 * drained so the keep-alive connection survives; anything else is aborted, which closes
 * the connection: one reconnect is cheaper than downloading a big file for nothing.
 */
export async function discardBody(
  source: Readable,
  contentLength: number | null,
  drainUpTo = 64 * 1024,
  onWireChunk?: (chunk: Buffer) => void,
): Promise<number> {
  return (await drainOrDrop(source, contentLength, drainUpTo, onWireChunk)).wireBytes;
}

/** {@link discardBody}, also telling whether the body was read to its end (`complete`). */
export async function drainOrDrop(
  source: Readable,
  contentLength: number | null,
  drainUpTo = 64 * 1024,
  onWireChunk?: (chunk: Buffer) => void,
): Promise<{ wireBytes: number; complete: boolean }> {
  source.on("error", noop);
  if (contentLength === null || contentLength > drainUpTo) {
    source.destroy();
    return { wireBytes: 0, complete: contentLength === 0 };
  }
  let wire = 0;
  try {
    for await (const chunk of source) {
      wire += (chunk as Buffer).length;
      onWireChunk?.(chunk as Buffer);
    }
  } catch {
    // a failed drain only costs the connection
    return { wireBytes: wire, complete: false };
  }
  return { wireBytes: wire, complete: true };
}

function errorMessage(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

function noop(): void {}
