import { describe, expect, it } from "vitest";
import { crawlInputFromArgs } from "../../lib/cli/commands/crawl";
import { parseCrawlConfig } from "../../lib/crawl-config";

describe("forage crawl --strategy sb-paper --policy …", () => {
  it("passes the strategy and the policy to the crawl settings", () => {
    const { input } = crawlInputFromArgs(["http://127.0.0.1:1/", "--strategy", "sb-paper", "--policy", "thompson"]);
    const config = parseCrawlConfig(input);
    expect(config.strategy).toBe("sb-paper");
    expect(config.params.policy).toBe("thompson");
    expect(parseCrawlConfig(crawlInputFromArgs(["http://127.0.0.1:1/"]).input).params.policy).toBe("auer");
  });

  it("refuses an unknown policy, naming the choices", () => {
    const { input } = crawlInputFromArgs(["http://127.0.0.1:1/", "--policy", "greedy"]);
    expect(() => parseCrawlConfig(input)).toThrow(/params\.policy must be one of auer, thompson, kl-ucb/);
  });
});

describe("forage crawl --render …", () => {
  it("passes the rendering mode to the crawl settings; auto when not given", () => {
    expect(parseCrawlConfig(crawlInputFromArgs(["http://127.0.0.1:1/", "--render", "always"]).input).render).toBe("always");
    expect(parseCrawlConfig(crawlInputFromArgs(["http://127.0.0.1:1/", "--render", "off"]).input).render).toBe("off");
    expect(parseCrawlConfig(crawlInputFromArgs(["http://127.0.0.1:1/"]).input).render).toBe("auto");
  });

  it("refuses an unknown mode, naming the choices", () => {
    const { input } = crawlInputFromArgs(["http://127.0.0.1:1/", "--render", "sometimes"]);
    expect(() => parseCrawlConfig(input)).toThrow(/render must be one of off, auto, always/);
  });

  it("keeps a crawl stored before rendering existed reading HTML only", async () => {
    const { upgradeStoredCrawlConfig } = await import("../../lib/crawl-config");
    const stored = { rootUrl: "http://127.0.0.1:1/", params: {} };
    expect(parseCrawlConfig(upgradeStoredCrawlConfig(stored)).render).toBe("off");
    expect(parseCrawlConfig(upgradeStoredCrawlConfig({ ...stored, render: "always" })).render).toBe("always");
  });
});
