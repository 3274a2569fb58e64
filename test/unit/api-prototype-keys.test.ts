/**
 * Keys named like Object.prototype's (`constructor`, `__proto__`, `toString`) in API input are
 * unknown keys like any other: refused with a 400 naming them, never a 400 naming nothing, never
 * silently accepted, never a 500. Found by test/fuzz/api-bodies.fuzz.ts.
 */
import { describe, expect, it } from "vitest";
import { InvalidRequestError } from "../../lib/errors";
import { parseQuery } from "../../lib/api/query";
import { listCrawlsQuery, noQuery } from "../../lib/api/query-schemas";
import { CrawlConfigError, parseCrawlConfig } from "../../lib/crawl-config";
import { parseUpdateHarvest } from "../../lib/harvest/harvest-input";
import { updateLiveSettings } from "../../lib/store/commands/update-live-settings";
import type { Db } from "../../lib/store/prisma-client";

/** The fields of the 400 as [field, message] pairs (an object literal cannot hold an own `__proto__` key). */
function fieldsOf(run: () => unknown): [string, string][] | undefined {
  try {
    run();
  } catch (error) {
    if (error instanceof InvalidRequestError || error instanceof CrawlConfigError) return Object.entries(error.fields ?? {});
    throw error;
  }
  return undefined;
}

describe("prototype-named keys in API input", () => {
  it("query strings: refused as unknown parameters, not as repeated ones nor ignored", () => {
    expect(fieldsOf(() => parseQuery(new Request("http://h/x?constructor=1"), listCrawlsQuery))).toEqual([["constructor", "is not a known parameter"]]);
    expect(fieldsOf(() => parseQuery(new Request("http://h/x?__proto__=1"), noQuery))).toEqual([["__proto__", "is not a known parameter"]]);
    expect(fieldsOf(() => parseQuery(new Request("http://h/x?limit=1&limit=2"), listCrawlsQuery))).toEqual([["limit", "is given more than once"]]);
  });

  it("JSON bodies: the 400 names the key", () => {
    expect(fieldsOf(() => parseUpdateHarvest(JSON.parse('{"constructor": 1}'), []))).toEqual([["constructor", "is not a known field"]]);
    expect(fieldsOf(() => parseUpdateHarvest(JSON.parse('{"__proto__": 1}'), []))).toEqual([["__proto__", "is not a known field"]]);
    expect(fieldsOf(() => parseCrawlConfig(JSON.parse('{"rootUrl": "http://a.example/", "__proto__": 1}')))).toEqual([["__proto__", "is not a known setting"]]);
  });

  it("live settings: a 400, not a TypeError (500)", async () => {
    const db = new Proxy({} as Db, {
      get() {
        throw new Error("no database access expected");
      },
    });
    for (const body of ['{"constructor": {"a": 1}}', '{"__proto__": {"a": 1}}', '{"toString": {}}']) {
      await expect(updateLiveSettings(db, 1, JSON.parse(body))).rejects.toBeInstanceOf(InvalidRequestError);
    }
  });
});
