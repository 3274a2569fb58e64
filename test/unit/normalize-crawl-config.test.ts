import { describe, expect, it } from "vitest";
import { normalizeConfig } from "../../components/hooks/normalize-crawl";
import { parseCrawlConfig } from "../../lib/crawler/crawl-config";

const crawl = { rootUrl: "https://shown.example.org/", seed: 9 };

describe("the cockpit's reading of a crawl's settings", () => {
  it("shows an older crawl with today's names and the values it ran with", () => {
    const { barrenDamping: _b, linkRankSamples: _l, ...params } = parseCrawlConfig({ rootUrl: crawl.rootUrl, seed: 9, params: { hnswEf: 40 } }).params;
    const config = normalizeConfig({ rootUrl: crawl.rootUrl, params: { ...params, dampBarrenExploration: true, discoveryCredit: 1 } }, crawl);
    expect(config.params).toMatchObject({ barrenDamping: true, linkRankSamples: 1, hnswEf: 40 });
    expect(config.params).not.toHaveProperty("discoveryCredit");
    expect(config.archive.keepWarc).toBe(false);
    expect(config.render).toBe("off");
  });

  it("shows today's defaults for what a document lacks or gets wrong, as the worker runs it", () => {
    expect(normalizeConfig(null, crawl)).toEqual(parseCrawlConfig({ rootUrl: crawl.rootUrl, seed: 9 }));
    const config = normalizeConfig({ rootUrl: crawl.rootUrl, render: "sometimes", budget: { requests: -1 } }, crawl);
    expect(config.render).toBe("auto");
    expect(config.budget.requests).toBe(1000);
  });
});
