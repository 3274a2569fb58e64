import { describe, expect, it } from "vitest";
import { parseCrawlConfig } from "../../lib/crawler/crawl-config";
import { readStoredCrawlConfig, upgradeStoredCrawlConfig, withCurrentParamNames } from "../../lib/crawler/stored-crawl-config";

const ROOT_URL = "https://stored.example.org/";

/** A crawl stored today, as insert-crawl writes it. */
function storedToday(params: Record<string, unknown> = {}): Record<string, unknown> & { params: Record<string, unknown> } {
  return JSON.parse(JSON.stringify(parseCrawlConfig({ rootUrl: ROOT_URL, seed: 5, params }))) as Record<string, unknown> & { params: Record<string, unknown> };
}

function read(document: unknown) {
  const result = readStoredCrawlConfig(JSON.stringify(document));
  if (!result.ok) throw new Error(`refused: ${JSON.stringify(result.fields)}`);
  return result.config;
}

describe("reading a stored crawl's settings", () => {
  it("reads a crawl stored today as it was stored", () => {
    const stored = storedToday({ banditAlpha: 1.5, barrenDamping: false });
    expect(JSON.parse(JSON.stringify(read(stored)))).toEqual(stored);
  });

  it("reads a setting stored under its former name under today's", () => {
    const { barrenDamping: _today, ...params } = storedToday().params;
    const config = read({ ...storedToday(), params: { ...params, dampBarrenExploration: false } });
    expect(config.params.barrenDamping).toBe(false);
    expect(config.params).not.toHaveProperty("dampBarrenExploration");
  });

  it("keeps today's name when a document has both", () => {
    const stored = storedToday({ barrenDamping: true });
    expect(read({ ...stored, params: { ...stored.params, dampBarrenExploration: false } }).params.barrenDamping).toBe(true);
  });

  it("drops a retired setting instead of refusing the crawl", () => {
    const stored = storedToday({ urlOutlookWeight: 1 });
    const config = read({ ...stored, params: { ...stored.params, discoveryCredit: 0.3 } });
    expect(config.params).not.toHaveProperty("discoveryCredit");
    expect(config.params.urlOutlookWeight).toBe(1);
  });

  it("gives a setting added after the crawl was stored the value the crawl ran with", () => {
    const { linkRankSamples: _l, useSitemaps: _u, barrenDamping: _b, ...older } = storedToday().params;
    const { archive: _a, render: _r, ...document } = storedToday();
    const config = read({ ...document, params: { ...older, dampBarrenExploration: true } });
    expect(config.params).toMatchObject({ linkRankSamples: 1, useSitemaps: false, barrenDamping: true });
    expect(config.archive.keepWarc).toBe(false);
    expect(config.render).toBe("off");
  });

  it("reads a bare { rootUrl } with today's defaults", () => {
    const config = read({ rootUrl: ROOT_URL });
    expect(config.params.linkRankSamples).toBe(32);
    expect(config.render).toBe("auto");
  });

  it("says what is wrong with a document it cannot run", () => {
    expect(readStoredCrawlConfig("{ not json")).toEqual({ ok: false, notJson: true, fields: { "(settings)": "are not valid JSON" } });
    const stored = storedToday();
    expect(readStoredCrawlConfig(JSON.stringify({ ...stored, params: { ...stored.params, hnswM: 1 } }))).toEqual({
      ok: false,
      notJson: false,
      fields: { "params.hnswM": "must be at least 2" },
    });
  });

  it("renames and strips in a harvest definition without filling older crawls' values", () => {
    expect(withCurrentParamNames({ rootUrl: ROOT_URL, params: { dampBarrenExploration: false, discoveryCredit: 1, hnswM: 8 } })).toEqual({
      rootUrl: ROOT_URL,
      params: { barrenDamping: false, hnswM: 8 },
    });
    expect(withCurrentParamNames({ rootUrl: ROOT_URL })).toEqual({ rootUrl: ROOT_URL });
    expect(upgradeStoredCrawlConfig(null)).toBeNull();
  });
});
