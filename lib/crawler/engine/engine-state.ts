import zlib from "node:zlib";
import { createYieldPoint } from "../yield-point";
import { writeJsonInPieces } from "./sliced-json";
import type { Strategy } from "../crawl-config";
import type { CookieJarState } from "../fetch/cookie-jar";
import type { EarlyStopState } from "../early-stop";
import type { PrngState } from "../prng";
import type { UrlClassifierState } from "../url-classifier";
import type { DeadShapeFilterState } from "./dead-shape-filter";
import type { LinkTableState } from "./link-table";
import type { ListingEntriesState } from "./listing-entries";
import type { PageFingerprintsState } from "./page-fingerprints";
import type { PageValidatorsState } from "./page-validators";
import type { QueryVariantFilterState } from "./query-variant-filter";
import type { RecrawlState } from "./recrawl";
import type { ApplicationActionsState } from "./application-actions";
import type { CrawlCounters } from "./types";

/** Format of {@link EngineState}; a checkpoint of another version is not resumed. */
export const ENGINE_STATE_VERSION = 1;

/**
 * Everything a crawl engine learned, as plain JSON, taken between two pages (never while a page
 * is being crawled: a page's links are filed one by one and its targets downloaded after).
 * Restoring it (`createCrawlEngine({ restore })`) continues the crawl with the same choices:
 * same PRNG state, same frontier and link ids, same groups, bandit arms, classifier weights and
 * pending labels, early-stopping windows, dead URL shapes, redundant query pairs and cookies.
 * robots.txt is fetched again.
 */
export interface EngineState {
  readonly version: typeof ENGINE_STATE_VERSION;
  /** Sanity checks against the crawl's settings. */
  readonly strategy: Strategy;
  readonly seed: number;
  readonly rootDone: boolean;
  readonly counters: CrawlCounters;
  readonly prng: PrngState;
  readonly links: LinkTableState;
  /** The strategy's `toState()`. */
  readonly strategyState: unknown;
  readonly classifier: UrlClassifierState;
  readonly earlyStop: EarlyStopState | null;
  readonly deadShapes: DeadShapeFilterState | null;
  /** Absent in checkpoints taken before query variants were learnt: the resumed crawl learns afresh. */
  readonly queryVariants?: QueryVariantFilterState | null;
  /** Absent in checkpoints taken before cookies were kept: the resumed crawl starts with none. */
  readonly cookies?: CookieJarState;
  /** Target bytes stored (the disk quota's count); absent in older checkpoints: counted afresh. */
  readonly storedTargetBytes?: number;
  /** The text of each link's entry in each list, for the next run to see what changed; absent in older states. */
  readonly listingEntries?: ListingEntriesState;
  /** What each page crawled by the runs so far linked to (page-fingerprints.ts), for the next run to see what changed; absent in older states. */
  readonly pageFingerprints?: PageFingerprintsState;
  /** The ETag / Last-Modified of the pages that sent one, for a re-crawl's conditional revisits; absent in older states. */
  readonly pageValidators?: PageValidatorsState;
  /** The run's number among its crawl definition's runs (1: a first crawl); absent in older states (1). */
  readonly run?: number;
  /** A re-crawl's progress on the known files and its set-aside pages; absent for a first crawl. */
  readonly recrawl?: RecrawlState;
  /** The applications recognised and their enumerations' progress; absent when none (or in older states). */
  readonly applications?: ApplicationActionsState;
}

export class EngineStateError extends Error {
  override name = "EngineStateError";
}

/**
 * gzip level 1 of the JSON text: already several times smaller (URLs and tag paths repeat).
 * The fastest level: a checkpoint is written every few seconds, so its CPU matters more than
 * its size.
 */
export function encodeState(value: unknown): Buffer {
  return zlib.gzipSync(Buffer.from(JSON.stringify(value), "utf8"), { level: 1 });
}

/** Work between two turns of the event loop while a state is encoded in slices. */
export const ENCODE_YIELD_AFTER_MS = 10;
/** Characters of JSON handed to the compressor at a time. */
const COMPRESS_CHUNK_CHARS = 256 * 1024;

export interface EncodedState {
  /** The same bytes as `encodeState(value)`. */
  readonly data: Buffer;
  /**
   * The encoding's own time: its slices on this thread plus the wait for the compressor's last
   * bytes (the compressor runs on libuv's pool, meanwhile mostly). Turns given to the rest of the
   * event loop are not counted: a busy worker does not make its checkpoints look dear.
   */
  readonly workMs: number;
}

/**
 * `encodeState` without holding the event loop: the JSON is written in pieces (sliced-json.ts),
 * the event loop gets a turn every {@link ENCODE_YIELD_AFTER_MS} of work, and gzip runs on
 * libuv's thread pool as the text comes. A worker's other crawls, its heartbeat and its controls
 * go on meanwhile; `value` must not change until the promise settles (the engine waits for it
 * between two pages). Same bytes as `encodeState`, read by `decodeState`.
 */
export async function encodeStateInSlices(value: unknown, yieldAfterMs: number = ENCODE_YIELD_AFTER_MS): Promise<EncodedState> {
  const gzip = zlib.createGzip({ level: 1 });
  const out: Buffer[] = [];
  gzip.on("data", (chunk: Buffer) => out.push(chunk));
  const done = new Promise<void>((resolve, reject) => {
    gzip.once("end", resolve);
    gzip.once("error", reject);
  });
  const pause = createYieldPoint(yieldAfterMs);
  let workMs = 0;
  let resumedAt = performance.now();
  let pending: string[] = [];
  let pendingChars = 0;
  const hand = () => {
    gzip.write(Buffer.from(pending.join(""), "utf8"));
    pending = [];
    pendingChars = 0;
  };
  try {
    await writeJsonInPieces(value, (piece) => {
      pending.push(piece);
      pendingChars += piece.length;
      if (pendingChars >= COMPRESS_CHUNK_CHARS) hand();
      const turn = pause();
      if (!turn) return undefined;
      workMs += performance.now() - resumedAt;
      return turn.then(() => {
        resumedAt = performance.now();
      });
    });
    if (pendingChars > 0) hand();
    gzip.end();
    workMs += performance.now() - resumedAt;
    const waitFrom = performance.now();
    await done;
    workMs += performance.now() - waitFrom;
  } catch (error) {
    gzip.destroy();
    throw error;
  }
  return { data: Buffer.concat(out), workMs };
}

export function decodeState(data: Uint8Array): unknown {
  return JSON.parse(zlib.gunzipSync(data).toString("utf8"));
}

/** `decodeState` with the gunzip on libuv's thread pool (JSON.parse stays one step on this thread). */
export async function decodeStateAsync(data: Uint8Array): Promise<unknown> {
  const text = await new Promise<Buffer>((resolve, reject) => zlib.gunzip(data, (error, result) => (error ? reject(error) : resolve(result))));
  return JSON.parse(text.toString("utf8"));
}

/** Checks a decoded state against the crawl it is meant to resume. */
export function checkEngineState(value: unknown, expected: { strategy: Strategy; seed: number }): EngineState {
  const state = value as EngineState | null;
  if (!state || typeof state !== "object") throw new EngineStateError("Invalid engine state: not an object");
  if (state.version !== ENGINE_STATE_VERSION) throw new EngineStateError(`Engine state version ${String(state.version)} is not ${ENGINE_STATE_VERSION}`);
  if (state.strategy !== expected.strategy || state.seed !== expected.seed) {
    throw new EngineStateError(`Engine state of a ${state.strategy} crawl with seed ${state.seed} cannot resume a ${expected.strategy} crawl with seed ${expected.seed}`);
  }
  if (!state.links || !Array.isArray(state.links.seen) || !state.counters || !state.prng) throw new EngineStateError("Invalid engine state: missing parts");
  return state;
}
