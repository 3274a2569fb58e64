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

describe("SB strategy: fertile and barren pulls (barrenDamping)", () => {
  it("counts a pull fertile when it gave a reward or its page filed a link into a group that has paid", () => {
    const { strategy, file } = sbStrategy();
    const paying = file("html/body/article/section.dossiers/ul/li/a.dossier-link");
    const child = file("html/body/article/section.children/ul/li/a.child-link");
    const first = strategy.next(2)!;
    expect(first.id).toBe(paying.id); // both unpulled: the older group
    strategy.feedback(first, { reward: 2, wasHtml: true }); // targets, no new link: fertile
    const second = strategy.next(3)!;
    expect(second.id).toBe(child.id);
    const grandchild = file("html/body/article/section.children/ul/li/a.child-link");
    strategy.feedback(second, { reward: 0, wasHtml: true }); // a new link, but of a group that never paid: barren
    const third = strategy.next(4)!;
    expect(third.id).toBe(grandchild.id);
    file("html/body/article/section.dossiers/ul/li/a.dossier-link"); // a new link of the paying group
    strategy.feedback(third, { reward: 0, wasHtml: true });
    const state = bandit(strategy);
    expect(state.barrenDamping).toBe(true);
    expect(paying.groupId).not.toBe(child.groupId);
    expect(state.actions[paying.groupId!]).toMatchObject({ selections: 1, fertilePulls: 1 });
    expect(state.actions[child.groupId!]).toMatchObject({ selections: 2, fertilePulls: 1 });
  });

  it("leaves the paper's bandit undamped when the setting is off", () => {
    const { strategy } = sbStrategy({ barrenDamping: false });
    expect(bandit(strategy).barrenDamping).toBe(false);
  });
});
