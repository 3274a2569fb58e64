import { describe, expect, it } from "vitest";
import { parseCrawlConfig } from "../../lib/crawl-config";
import { LinkTable } from "../../lib/crawler/engine/link-table";
import { createStrategy } from "../../lib/crawler/engine/strategies/create-strategy";
import type { CrawlStrategy } from "../../lib/crawler/engine/strategies/strategy";
import { Prng } from "../../lib/crawler/prng";

interface BanditStateView {
  barrenDamping: boolean;
  actions: { selections: number; fertilePulls: number }[];
}

function sbStrategy(params: Record<string, unknown> = {}) {
  const config = parseCrawlConfig({ rootUrl: "https://archive.example.org/", strategy: "sb", params });
  const links = new LinkTable();
  const strategy = createStrategy(config, Prng.fromSeed(7), links);
  let n = 0;
  const file = (tagPath: string) => {
    const link = links.createLink({ url: `https://archive.example.org/p${n++}`, tagPath, anchorText: "", depth: 1, referrer: null, groupId: null });
    strategy.add(link);
    return link;
  };
  return { strategy, file };
}

function bandit(strategy: CrawlStrategy): BanditStateView {
  return (strategy.toState() as { bandit: BanditStateView }).bandit;
}

describe("SB strategy: fertile and barren pulls (dampBarrenExploration)", () => {
  it("counts a pull fertile when the pulled page filed a new link or gave a reward, barren otherwise", () => {
    const { strategy, file } = sbStrategy();
    const print = file("html/body/article/a.print-version");
    const pulled = strategy.next(2)!;
    expect(pulled.id).toBe(print.id);
    strategy.feedback(pulled, { reward: 0, wasHtml: true }); // a print version: nothing new on it
    const child = file("html/body/article/a.print-version");
    const second = strategy.next(3)!;
    expect(second.id).toBe(child.id);
    file("html/body/section.children/ul/li/a"); // the page filed a link before its feedback
    strategy.feedback(second, { reward: 0, wasHtml: true });
    const third = strategy.next(4)!;
    strategy.feedback(third, { reward: 2, wasHtml: true }); // targets, no new link
    const state = bandit(strategy);
    expect(state.barrenDamping).toBe(true);
    expect(state.actions[print.groupId!]).toMatchObject({ selections: 2, fertilePulls: 1 });
    expect(state.actions[third.groupId!]).toMatchObject({ selections: 1, fertilePulls: 1 });
  });

  it("leaves the paper's bandit undamped when the setting is off", () => {
    const { strategy } = sbStrategy({ dampBarrenExploration: false });
    expect(bandit(strategy).barrenDamping).toBe(false);
  });
});
