/**
 * `JSON.stringify` of a large plain document in pieces, so that the caller can give the event
 * loop away between them: a crawl's engine state (tens of megabytes of JSON for a large
 * frontier) in one call would hold every other crawl of the worker, its lease heartbeat and its
 * controls for that long.
 *
 * The pieces, concatenated, are exactly `JSON.stringify(value)`: plain objects are walked key by
 * key (`Object.keys` is the order JSON.stringify uses), plain arrays in runs of elements whose
 * `JSON.stringify` is that of the run with its brackets taken off, and everything else (strings,
 * numbers, objects with `toJSON`, class instances, anything deeper than {@link MAX_DEPTH}) is
 * left to `JSON.stringify` whole. A value JSON.stringify leaves out of an object (undefined, a
 * function, a symbol) is left out here too; in an array it is `null` in both.
 */

/** Objects and arrays nested deeper than this are one piece each (`JSON.stringify` of them). */
const MAX_DEPTH = 8;
/** Elements of an array stringified together at first; the run doubles or halves towards {@link RUN_TARGET_MS}. */
const FIRST_RUN = 64;
/** Work per run of array elements: small against the caller's yield interval. */
const RUN_TARGET_MS = 1;
const MAX_RUN = 65_536;

/** Receives the pieces in order; may return a promise (a turn of the event loop) to wait for. */
export type PieceSink = (piece: string) => Promise<void> | undefined;

/**
 * Writes `JSON.stringify(value)` to `sink` in pieces, awaiting what the sink returns.
 * Throws what JSON.stringify would throw (a cycle, a BigInt); `value` must not change meanwhile.
 */
export async function writeJsonInPieces(value: unknown, sink: PieceSink): Promise<void> {
  const text = await write(value, 0, sink, new Set());
  if (text === undefined) throw new TypeError("Nothing to encode: the value has no JSON form");
}

function isPlainObject(value: object): boolean {
  const proto = Object.getPrototypeOf(value) as unknown;
  return (proto === Object.prototype || proto === null) && typeof (value as { toJSON?: unknown }).toJSON !== "function";
}

function isPlainArray(value: object): value is unknown[] {
  return Array.isArray(value) && typeof (value as { toJSON?: unknown }).toJSON !== "function";
}

/**
 * Writes one value; returns undefined, writing nothing, where JSON.stringify gives undefined
 * (the caller then leaves the key out). `open` holds the objects being walked (cycles).
 */
async function write(value: unknown, depth: number, sink: PieceSink, open: Set<object>): Promise<true | undefined> {
  if (value === null || typeof value !== "object" || depth >= MAX_DEPTH || open.has(value)) return emit(JSON.stringify(value), sink);
  if (isPlainArray(value)) {
    open.add(value);
    await writeArray(value, depth, sink, open);
    open.delete(value);
    return true;
  }
  if (!isPlainObject(value)) return emit(JSON.stringify(value), sink);
  open.add(value);
  let first = true;
  await push("{", sink);
  for (const key of Object.keys(value)) {
    const item = (value as Record<string, unknown>)[key];
    // What JSON.stringify leaves out of an object; anything else is written (a toJSON decides for itself).
    if (item === undefined || typeof item === "function" || typeof item === "symbol") continue;
    if (item !== null && typeof item === "object" && !isPlainArray(item) && !isPlainObject(item)) {
      const text = JSON.stringify(item) as string | undefined;
      if (text === undefined) continue;
      await push(`${first ? "" : ","}${JSON.stringify(key)}:${text}`, sink);
    } else {
      await push(`${first ? "" : ","}${JSON.stringify(key)}:`, sink);
      await write(item, depth + 1, sink, open);
    }
    first = false;
  }
  await push("}", sink);
  open.delete(value);
  return true;
}

/**
 * An array: nested plain arrays and objects one by one (they may be large), runs of other
 * elements (numbers, strings, small records) through one JSON.stringify each, the run's length
 * following the time it takes.
 */
async function writeArray(array: unknown[], depth: number, sink: PieceSink, open: Set<object>): Promise<void> {
  await push("[", sink);
  // Each array its own run length: elements of one array are alike, of two arrays not.
  let run = FIRST_RUN;
  let index = 0;
  while (index < array.length) {
    if (index > 0) await push(",", sink);
    const item = array[index];
    if (depth + 1 < MAX_DEPTH && item !== null && typeof item === "object" && isContainer(item) && isLarge(item)) {
      await write(item, depth + 1, sink, open);
      index += 1;
      continue;
    }
    // A run of elements up to the next large container.
    let end = Math.min(array.length, index + run);
    for (let i = index + 1; i < end; i++) {
      const next = array[i];
      if (next !== null && typeof next === "object" && isContainer(next) && isLarge(next)) {
        end = i;
        break;
      }
    }
    const started = performance.now();
    const text = JSON.stringify(array.slice(index, end));
    const ms = performance.now() - started;
    run = ms > 2 * RUN_TARGET_MS ? Math.max(1, run >> 1) : ms < RUN_TARGET_MS / 2 ? Math.min(MAX_RUN, run * 2) : run;
    await push(text.slice(1, -1), sink);
    index = end;
  }
  await push("]", sink);
}

function isContainer(value: object): boolean {
  return isPlainArray(value) || isPlainObject(value);
}

/** Elements or keys past which a nested container is walked on its own rather than within a run. */
const LARGE_CONTAINER = 256;

/** A container worth walking on its own: many elements or keys (counting keys is cheap next to stringifying them). */
function isLarge(value: object): boolean {
  if (Array.isArray(value)) return value.length > LARGE_CONTAINER;
  let keys = 0;
  for (const key in value) {
    if (Object.prototype.hasOwnProperty.call(value, key) && ++keys > LARGE_CONTAINER) return true;
  }
  return false;
}

function emit(text: string | undefined, sink: PieceSink): Promise<true | undefined> | true | undefined {
  if (text === undefined) return undefined;
  const turn = sink(text);
  return turn ? turn.then(() => true as const) : true;
}

function push(piece: string, sink: PieceSink): Promise<void> | undefined {
  return sink(piece);
}
