/**
 * API input (lib/api/, lib/crawler/crawl-config.ts, lib/harvest/harvest-input.ts): JSON bodies read while
 * they stream with the 1 MiB cap, the crawl creation body, harvest bodies, live-settings patches
 * and query strings. Each either gives its value or throws the project's typed error (ApiRequestError,
 * DomainError or CrawlConfigError) that the one error mapper turns into a 4xx naming at least one field, never
 * a 500; a body past the cap is refused whatever its Content-Length claims; valid crawl settings
 * survive being stored as JSON and read back.
 */
import fc from "fast-check";
import { MAX_JSON_BODY_BYTES, readJsonBody } from "../../lib/api/body";
import { ApiRequestError } from "../../lib/api/errors";
import { DomainError, InvalidRequestError } from "../../lib/errors";
import { MAX_ROW_ID, parseQuery } from "../../lib/api/query";
import * as querySchemas from "../../lib/api/query-schemas";
import { toErrorResponse } from "../../lib/api/responses";
import { CrawlConfigError, parseCrawlConfig, readStoredCrawlConfig } from "../../lib/crawl-config";
import { parseCreateHarvest, parseUpdateHarvest } from "../../lib/harvest/harvest-input";
import { createCrawl } from "../../lib/store/commands/create-crawl";
import { updateLiveSettings } from "../../lib/store/commands/update-live-settings";
import type { Db } from "../../lib/store/prisma-client";
import { anyText, tokensOf } from "./arbitraries";
import { fuzzTarget } from "./fuzz-kit";
import type { FuzzTarget } from "./fuzz-target";

/** Thrown by the stand-in database: the input passed validation and the command went on to store it. */
class ReachedDatabase extends Error {}
const database = new Proxy({} as Db, {
  get() {
    throw new ReachedDatabase("validated");
  },
});

/** A typed error as the API answers it: a 4xx with a message, and for a 400 invalid_request at least one named field. */
function checkAnswered(error: unknown, what: string): void {
  if (!(error instanceof ApiRequestError || error instanceof DomainError || error instanceof CrawlConfigError)) {
    throw new Error(`${what}: undocumented exception ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`, { cause: error });
  }
  const response = toErrorResponse(error);
  if (response.status < 400 || response.status >= 500) throw new Error(`${what}: answered ${response.status}`);
  const fields = (error as { fields?: Record<string, string> }).fields;
  if ((error instanceof CrawlConfigError || error instanceof InvalidRequestError) && (!fields || Object.keys(fields).length === 0)) {
    throw new Error(`${what}: a 400 naming no field: ${error.message}`);
  }
}

// ---- JSON bodies ----

const CONTENT_TYPES = ["application/json", "Application/JSON; charset=utf-8", " application/json ", "application/json-seq", "text/plain", "application/x-www-form-urlencoded", "", null];

const body = fc.oneof(
  { weight: 4, arbitrary: fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v) ?? "") },
  { weight: 2, arbitrary: anyText(200) },
  { weight: 1, arbitrary: fc.constantFrom("", "   ", "{", "[1,", "\ufeff{}", "nul", '"\\ud800"', "1e400", "[".repeat(5000) + "]".repeat(5000)) },
  // Around the cap: a JSON string of MAX ± a few bytes, multi-byte characters crossing it.
  { weight: 1, arbitrary: fc.tuple(fc.integer({ min: -3, max: 3 }), fc.constantFrom("a", "é")).map(([delta, char]) => `"${char.repeat(Math.floor((MAX_JSON_BODY_BYTES + delta - 2) / Buffer.byteLength(char)))}"`) },
);

function streamOf(bytes: Buffer, chunkSizes: number[]): ReadableStream<Uint8Array> {
  let at = 0;
  let turn = 0;
  return new ReadableStream({
    pull(controller) {
      if (at >= bytes.length) return controller.close();
      const size = Math.max(1, chunkSizes[turn++ % chunkSizes.length]! * (bytes.length > 65_536 ? 4096 : 1));
      controller.enqueue(new Uint8Array(bytes.subarray(at, at + size)));
      at += size;
    },
  });
}

/**
 * Whether two parsed JSON values are equal; null when too deep to tell: V8's JSON.parse reads a
 * 1 MiB body nested 500,000 deep, but its JSON.stringify (recursive) overflows the stack near 5,000.
 */
function sameJson(a: unknown, b: unknown): boolean | null {
  try {
    return JSON.stringify(a) === JSON.stringify(b);
  } catch (error) {
    if (error instanceof RangeError) return null;
    throw error;
  }
}

const jsonBodies = fuzzTarget({
  name: "JSON bodies streamed under the 1 MiB cap",
  ciRuns: 150,
  memoryBoundMiB: 160,
  property: () =>
    fc.asyncProperty(body, fc.constantFrom(...CONTENT_TYPES), fc.constantFrom("none", "true", "small", "huge", "garbage"), fc.array(fc.integer({ min: 1, max: 64 }), { minLength: 1, maxLength: 4 }), async (text, contentType, length, chunks) => {
      const bytes = Buffer.from(text, "utf8");
      const headers = new Headers();
      if (contentType !== null) headers.set("content-type", contentType);
      const declared = { none: null, true: String(bytes.length), small: "1", huge: String(MAX_JSON_BODY_BYTES + 1), garbage: "12abc" }[length];
      if (declared !== null) headers.set("content-length", declared);
      const request = new Request("http://forage.test/api/crawls", { method: "POST", headers, body: streamOf(bytes, chunks), duplex: "half" } as RequestInit);
      let value: unknown;
      try {
        value = await readJsonBody(request);
      } catch (error) {
        checkAnswered(error, `body of ${bytes.length} bytes`);
        const status = toErrorResponse(error).status;
        const typeOk = contentType !== null && /^application\/json\s*(;|$)/i.test(contentType.trim());
        const expected = !typeOk ? 415 : length === "huge" || bytes.length > MAX_JSON_BODY_BYTES ? 413 : 400;
        if (status !== expected) throw new Error(`status ${status}, expected ${expected} (${bytes.length} bytes, ${contentType}, length ${declared})`);
        return;
      }
      if (bytes.length > MAX_JSON_BODY_BYTES) throw new Error(`a body of ${bytes.length} bytes was read whole`);
      if (sameJson(value, JSON.parse(text)) === false) throw new Error("the value differs from JSON.parse");
    }),
});

// ---- crawl settings, harvests, live settings ----

/** Keys a hostile client sends: the schema's, typos, and Object.prototype's names. */
const PROTOTYPE_KEYS = ["__proto__", "constructor", "toString", "hasOwnProperty", "valueOf"];
const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }),
  fc.constantFrom(0, -1, 1.5, 2 ** 31, Number.MAX_SAFE_INTEGER, 1e308, -0, "", " ", "0", "true", [], {}, null, true),
  anyText(30),
  tokensOf(["re:", "(a+)+$", "*", "http://", "https://a.example/", "[", "\\", "(?<=", "{1,99999}", ".*", "/", "ftp://", "javascript:"], 8),
);
function objectOf(keys: readonly string[], value: fc.Arbitrary<unknown>): fc.Arbitrary<Record<string, unknown>> {
  return fc.array(fc.tuple(fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...keys) }, { weight: 1, arbitrary: fc.constantFrom(...PROTOTYPE_KEYS, "budjet", "") }), value), { maxLength: 6 }).map((entries) => Object.fromEntries(entries));
}

const sectionOf = (keys: string[]) => fc.oneof({ weight: 4, arbitrary: objectOf(keys, hostileValue) }, { weight: 1, arbitrary: hostileValue });
const crawlSettings = fc.record(
  {
    rootUrl: fc.oneof(fc.webUrl(), fc.constantFrom("http://a.example/", "https://user:pw@a.example/", "ftp://a.example/", "http:///x", "http://[::1]:99999/"), anyText(20)),
    name: hostileValue,
    targetMimeTypes: fc.oneof(fc.array(fc.constantFrom("text/csv", "TEXT/CSV ", "image/", "*/*", "a/b;c"), { maxLength: 3 }), hostileValue),
    budget: sectionOf(["requests", "bytes", "seconds"]),
    blocklist: sectionOf(["urlPatterns", "extensions", "mimeTypes"]),
    politeness: sectionOf(["delayMs", "obeyRobots", "maxConcurrentPerHost", "maxCrawlDelayMs", "userAgent"]),
    strategy: fc.oneof(fc.constantFrom("sb", "bfs", "SB", "nope"), hostileValue),
    params: sectionOf(["similarityThreshold", "banditAlpha", "maxSeenUrls", "useSitemaps", "linkRankSamples"]),
    archive: sectionOf(["keepWarc", "warcFileBytes"]),
    seed: hostileValue,
    allowPrivateNetwork: fc.boolean(),
    after: fc.oneof(fc.constant(null), hostileValue),
    checkKnownFiles: hostileValue,
    ...Object.fromEntries(PROTOTYPE_KEYS.map((key) => [key, hostileValue])),
  },
  { requiredKeys: ["rootUrl"] },
);

/** As it arrives: JSON text parsed, so `__proto__` is an own key as in a real request. */
const asReceived = (value: unknown): unknown => JSON.parse(JSON.stringify(value) ?? "null");

const crawlCreation = fuzzTarget({
  name: "crawl creation body (crawl-config schema)",
  ciRuns: 250,
  memoryBoundMiB: 128,
  property: () =>
    fc.asyncProperty(fc.oneof({ weight: 9, arbitrary: crawlSettings }, { weight: 1, arbitrary: hostileValue }), async (settings) => {
      const input = asReceived(settings);
      try {
        await createCrawl(database, input, {});
      } catch (error) {
        if (!(error instanceof ReachedDatabase)) return checkAnswered(error, "crawl settings");
        // Valid: stored as JSON and read back by the worker, the settings are the same.
        const config = parseCrawlConfig(input, () => 7);
        const stored = JSON.stringify(config);
        const read = readStoredCrawlConfig(stored);
        if (!read.ok || JSON.stringify(read.config) !== stored) throw new Error(`settings changed through storage:\n${stored}\n${JSON.stringify(read.ok ? read.config : read.fields)}`);
      }
    }),
});

const harvestBody = fc.record(
  {
    fromCrawlId: hostileValue,
    config: fc.oneof(crawlSettings, hostileValue),
    name: hostileValue,
    cron: fc.oneof(fc.constantFrom("0 6 * * 1", "*/15 * * * *", "0 0 31 2 *", "0 0 6 * * 1", "@daily", null), hostileValue),
    timeZone: fc.oneof(fc.constantFrom("UTC", "Europe/Paris", "Mars/Base", " utc "), hostileValue),
    webhookUrl: fc.oneof(fc.constantFrom("https://hooks.example/x", "http://127.0.0.1/", "http://[::ffff:169.254.169.254]/", "http://u:p@h.example/", "file:///etc/passwd", null), hostileValue),
    paused: hostileValue,
    runNow: hostileValue,
    checkKnownFiles: hostileValue,
    ...Object.fromEntries(PROTOTYPE_KEYS.map((key) => [key, hostileValue])),
  },
  { requiredKeys: [] },
);

const harvests = fuzzTarget({
  name: "harvest bodies (create, update)",
  ciRuns: 250,
  memoryBoundMiB: 128,
  property: () =>
    // Async so that the kit can yield to the event loop (checkAnswered builds undici Responses).
    fc.asyncProperty(harvestBody, fc.boolean(), fc.constantFrom([], ["10.0.0.0/8"], ["127.0.0.0/8", "::1/128"]), async (value, create, privateNetworks) => {
      const input = asReceived(value);
      try {
        const parsed = create ? parseCreateHarvest(input, privateNetworks) : parseUpdateHarvest(input, privateNetworks);
        if (typeof parsed !== "object" || parsed === null) throw new Error("no value");
      } catch (error) {
        checkAnswered(error, create ? "harvest" : "harvest change");
      }
    }),
});

const liveSettings = fuzzTarget({
  name: "live settings patches",
  ciRuns: 250,
  memoryBoundMiB: 64,
  property: () =>
    fc.asyncProperty(
      fc.oneof(
        fc.record({ blocklist: sectionOf(["urlPatterns", "extensions"]), politeness: sectionOf(["delayMs", "userAgent"]), ...Object.fromEntries([...PROTOTYPE_KEYS, "budget", "allowPrivateNetwork"].map((key) => [key, fc.oneof(hostileValue, objectOf(["a", "urlPatterns"], hostileValue))])) }, { requiredKeys: [] }),
        hostileValue,
      ),
      async (patch) => {
        try {
          await updateLiveSettings(database, 1, asReceived(patch));
        } catch (error) {
          if (!(error instanceof ReachedDatabase)) checkAnswered(error, "live settings");
        }
      },
    ),
});

// ---- query strings ----

/** Endpoint schemas by name (names only are generated, so a failure report prints a name, not a zod object). */
const SCHEMAS = new Map(Object.entries(querySchemas).filter(([, value]) => typeof (value as { safeParse?: unknown }).safeParse === "function") as [string, Parameters<typeof parseQuery>[1]][]);
const QUERY_KEYS = ["limit", "offset", "cursor", "after", "maxPoints", "sort", "mime", "outcome", "change", "changes", ...PROTOTYPE_KEYS, "limt", ""];
const QUERY_VALUES = ["0", "1", "-1", "100", "1000", "1001", "9007199254740993", "99999999999999999", "1e3", "0x10", " 5", "", "new,changed", "meanReward", "text/csv", "%00", "%zz", "é", "1.5", "-0"];

const queries = fuzzTarget({
  name: "query strings of every endpoint schema",
  ciRuns: 800,
  memoryBoundMiB: 64,
  property: () =>
    fc.asyncProperty(
      fc.constantFrom(...SCHEMAS.keys()),
      fc.array(fc.tuple(fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...QUERY_KEYS) }, { weight: 1, arbitrary: anyText(6) }), fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...QUERY_VALUES) }, { weight: 1, arbitrary: anyText(12) })), { maxLength: 4 }),
      async (name, pairs) => {
        const schema = SCHEMAS.get(name)!;
        const search = pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join("&");
        let parsed: Record<string, unknown>;
        try {
          // parseQuery reads `request.url` only: a holder is enough.
          parsed = parseQuery({ url: `http://forage.test/api/x?${search}` } as Request, schema) as Record<string, unknown>;
        } catch (error) {
          return checkAnswered(error, `${name} ?${search}`);
        }
        const given = new Set(pairs.map(([k]) => k));
        for (const key of Object.keys(parsed)) if (!given.has(key) && parsed[key] === undefined) delete parsed[key];
        for (const [key] of pairs) if (!Object.hasOwn(parsed, key)) throw new Error(`${name}: ?${search} accepted with ${JSON.stringify(key)} unread`);
        for (const value of Object.values(parsed)) {
          // Numbers address 32-bit Int columns (row ids, counters) or are small limits.
          if (typeof value === "number" && !(Number.isSafeInteger(value) && Math.abs(value) <= MAX_ROW_ID)) throw new Error(`${name}: ?${search} gave ${value}, outside a 32-bit Int`);
        }
      },
    ),
});

export const fuzzTargets: FuzzTarget[] = [jsonBodies, crawlCreation, harvests, liveSettings, queries];
