import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CrawlConfigError, parseCrawlConfig } from "../../lib/crawler/crawl-config";
import { SB_PAPER_PARAMS } from "../../lib/crawler/engine/paper-faithful";
import { algorithmParamsSchema } from "../../lib/crawler/params-schema";
import { withRenderedSettingsTable } from "../../lib/crawler/settings-doc";
import { ALGORITHM_DEFAULTS, RETIRED_SETTINGS, SETTING_ROWS, SETTINGS_TABLE } from "../../lib/crawler/settings-table";

const ROOT = path.resolve(import.meta.dirname, "../..");
const ROOT_URL = "https://table.example.org/";

function fieldsOf(params: Record<string, unknown>): Record<string, string> {
  try {
    parseCrawlConfig({ rootUrl: ROOT_URL, params });
  } catch (error) {
    if (error instanceof CrawlConfigError) return error.fields;
    throw error;
  }
  return {};
}

describe("the settings table", () => {
  it("is the schema's defaults, key for key", () => {
    expect(algorithmParamsSchema.parse({})).toEqual(ALGORITHM_DEFAULTS);
    expect(Object.keys(ALGORITHM_DEFAULTS)).toEqual(Object.keys(SETTINGS_TABLE));
  });

  it("keeps the defaults crawls have always run with", () => {
    expect(ALGORITHM_DEFAULTS).toMatchObject({
      similarityThreshold: 0.75, groupIndex: "exact", hnswM: 16, hnswEfConstruction: 200, hnswEf: 10, policy: "auer",
      classifierBatchSize: 10, sgdAlpha: 1e-4, linkRankSamples: 32, rewardScaledExploration: false, barrenDamping: true,
      regroupRediscoveredLinks: false, urlOutlookWeight: 3, longTermCreditDiscount: 0, longTermCreditDepth: 2, skipDeadUrlShapes: true,
      skipRedundantQueryVariants: true, rewardPulledTargets: true, labelRedirectedLinks: true, followRedirectsOffSite: true,
      useSitemaps: true, splitActionsByUrlShape: true, stableTagPathClasses: true, earlyStop: true, earlyStopWindowRequests: 500,
      earlyStopBeta: 0.9, earlyStopTargetsPerRequest: 0.01, earlyStopPatienceWindows: 10, trapExtraLengthChars: 350, trapRepeatCount: 3,
      maxRedirects: 10, maxTargetBytes: 100 * 2 ** 20, maxHtmlBytes: 10 * 2 ** 20, requestDeadlineMs: 120_000, diskQuotaBytes: 50 * 2 ** 30,
      maxSeenUrls: 5_000_000, tpOffExplorationRequests: 3000, focusedWarmupRequests: 100,
    });
    expect(ALGORITHM_DEFAULTS.banditAlpha).toBeCloseTo(2 * Math.SQRT2, 12);
  });

  it("gives sb-paper exactly the paper's values of the rows it pins", () => {
    expect(SB_PAPER_PARAMS).toEqual({
      linkRankSamples: 1, rewardScaledExploration: false, barrenDamping: false, useSitemaps: false, splitActionsByUrlShape: false,
      regroupRediscoveredLinks: false, longTermCreditDiscount: 0, urlOutlookWeight: 0, skipDeadUrlShapes: false,
      skipRedundantQueryVariants: false, rewardPulledTargets: false, labelRedirectedLinks: false, stableTagPathClasses: false,
      followRedirectsOffSite: false, groupIndex: "hnsw", policy: "auer",
    });
  });

  it("accepts every row's default, paper value and older crawls' value, and refuses just outside its range", () => {
    for (const row of SETTING_ROWS) {
      for (const value of [row.default, row.paperValue, row.valueBeforeItExisted].filter((v) => v !== undefined)) {
        expect({ key: row.key, fields: fieldsOf({ [row.key]: value }) }).toEqual({ key: row.key, fields: {} });
      }
      if (row.kind === "number") {
        const below = row.minExclusive ? row.min : row.min - 1;
        const above = row.maxExclusive ? row.max : row.max + (row.integer ? 1 : row.max * 1e-9 + 1e-9);
        expect(fieldsOf({ [row.key]: below })).toHaveProperty([`params.${row.key}`]);
        expect(fieldsOf({ [row.key]: above })).toHaveProperty([`params.${row.key}`]);
        if (row.integer) expect(fieldsOf({ [row.key]: row.min + 0.5 })).toEqual({ [`params.${row.key}`]: "must be a whole number" });
      }
      if (row.kind === "choice") expect(fieldsOf({ [row.key]: "neither" })).toEqual({ [`params.${row.key}`]: `must be one of ${row.choices.join(", ")}` });
      if (row.kind === "boolean") expect(fieldsOf({ [row.key]: "yes" })).toHaveProperty([`params.${row.key}`]);
    }
  });

  it("names the range in its refusals", () => {
    expect(fieldsOf({ hnswM: 129, similarityThreshold: 0, earlyStopBeta: 1 })).toEqual({
      "params.hnswM": "must be at most 128",
      "params.similarityThreshold": "must be above 0",
      "params.earlyStopBeta": "must be below 1",
    });
  });

  it("has only settings something in the crawler reads", () => {
    const derived = new Set(["settings-table.ts", "params-schema.ts", "settings-doc.ts", "crawl-config.ts", "stored-crawl-config.ts", "paper-faithful.ts"]);
    const sources = fs
      .readdirSync(path.join(ROOT, "lib/crawler"), { recursive: true, encoding: "utf8" })
      .filter((name) => name.endsWith(".ts") && !derived.has(path.basename(name)))
      .map((name) => fs.readFileSync(path.join(ROOT, "lib/crawler", name), "utf8").replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, ""))
      .join("\n");
    const unread = SETTING_ROWS.map((row) => row.key).filter((key) => !new RegExp(`\\b${key}\\b`).test(sources));
    expect(unread).toEqual([]);
  });

  it("refuses a setting's former name, saying its new one, and a retired setting, saying why", () => {
    expect(fieldsOf({ dampBarrenExploration: false })).toEqual({ "params.dampBarrenExploration": "is now called params.barrenDamping" });
    expect(fieldsOf({ discoveryCredit: 0.5 })).toEqual({ "params.discoveryCredit": RETIRED_SETTINGS.discoveryCredit });
    expect(fieldsOf({ barrenDampin: true })).toEqual({ "params.barrenDampin": "is not a known setting" });
  });

  it("is docs/SETTINGS.md's table (node scripts/settings-doc.mjs rewrites it)", () => {
    const page = fs.readFileSync(path.join(ROOT, "docs/SETTINGS.md"), "utf8");
    expect(withRenderedSettingsTable(page)).toBe(page);
    for (const row of SETTING_ROWS) expect(page).toContain(`| \`${row.key}\``);
  });
});
