import { describe, expect, it } from "vitest";
import { parseCrawlConfig } from "../../lib/crawl-config";
import { LinkTable } from "../../lib/crawler/engine/link-table";
import { createStrategy } from "../../lib/crawler/engine/strategies/create-strategy";
import { restoreStrategy } from "../../lib/crawler/engine/strategies/restore-strategy";
import { Prng } from "../../lib/crawler/prng";
import { SleepingBandit } from "../../lib/crawler/sleeping-bandit";

const SEE_ALSO = "html/body/div.layout/aside.see-also/a.see-also-link";
const DOSSIERS = "html/body/div.layout/article/section.dossiers/ul/li/a.dossier-link";

function sbStrategy(params: Record<string, unknown> = {}) {
  const config = parseCrawlConfig({ rootUrl: "https://archive.example.org/", strategy: "sb", params });
  const links = new LinkTable();
  const strategy = createStrategy(config, Prng.fromSeed(7), links);
  const file = (path: string, tagPath: string) => {
    const link = links.createLink({ url: `https://archive.example.org${path}`, tagPath, anchorText: "", depth: 1, referrer: null, groupId: null });
    strategy.add(link);
    return link;
  };
  return { config, links, strategy, file };
}

/** A crawl in which the dossier lists have paid (2 targets a pull) and "see also" boxes have not. */
function afterOnePullEach(params: Record<string, unknown> = {}) {
  const sb = sbStrategy({ regroupRediscoveredLinks: true, ...params });
  const dossier = sb.file("/d/1", DOSSIERS);
  const related = sb.file("/p/1", SEE_ALSO);
  const waiting = sb.file("/d/2", SEE_ALSO); // a dossier, first met in a "see also" box
  const first = sb.strategy.next(2)!;
  expect(first.id).toBe(dossier.id); // both groups unpulled: the older one
  sb.strategy.feedback(first, { reward: 2, wasHtml: true });
  const second = sb.strategy.next(3)!;
  expect([related.id, waiting.id]).toContain(second.id);
  sb.strategy.feedback(second, { reward: 0, wasHtml: true });
  const other = second.id === related.id ? waiting : related;
  return { ...sb, dossierGroup: dossier.groupId!, seeAlsoGroup: related.groupId!, other };
}

describe("SB strategy: a waiting link listed again under a better group (regroupRediscoveredLinks)", () => {
  it("moves to the group with the better mean reward, and is crawled from there", () => {
    const { strategy, other, dossierGroup, seeAlsoGroup } = afterOnePullEach();
    expect(dossierGroup).not.toBe(seeAlsoGroup);
    strategy.rediscover!(other.url, DOSSIERS);
    expect(other.groupId).toBe(dossierGroup);
    const groups = strategy.groups();
    expect(groups.find((g) => g.groupId === dossierGroup)?.available).toBe(1);
    expect(groups.find((g) => g.groupId === seeAlsoGroup)?.available).toBe(0);
    expect(strategy.size()).toBe(1);
    expect(strategy.next(4)?.id).toBe(other.id);
  });

  it("stays where it is when the new group is not better, its tag path was never filed, or the setting is off", () => {
    const worse = afterOnePullEach();
    const moved = worse.file("/d/3", DOSSIERS);
    worse.strategy.rediscover!(moved.url, SEE_ALSO); // mean 0 is not better than 2
    expect(moved.groupId).toBe(worse.dossierGroup);

    const unknown = afterOnePullEach();
    unknown.strategy.rediscover!(unknown.other.url, "html/body/footer/ul/li/a");
    expect(unknown.other.groupId).toBe(unknown.seeAlsoGroup);

    const off = afterOnePullEach({ regroupRediscoveredLinks: false });
    off.strategy.rediscover!(off.other.url, DOSSIERS);
    expect(off.other.groupId).toBe(off.seeAlsoGroup);
  });

  it("survives a checkpoint: the restored strategy holds the link in its new group", () => {
    const { config, links, strategy, other, dossierGroup } = afterOnePullEach();
    strategy.rediscover!(other.url, DOSSIERS);
    const restoredLinks = LinkTable.fromState(JSON.parse(JSON.stringify(links.toState())));
    const restored = restoreStrategy(config, Prng.fromSeed(7), restoredLinks, JSON.parse(JSON.stringify(strategy.toState())));
    expect(restoredLinks.live(other.url)?.groupId).toBe(dossierGroup);
    expect(restored.groups().find((g) => g.groupId === dossierGroup)?.available).toBe(1);
    expect(restored.next(4)?.id).toBe(other.id);
  });
});

describe("SleepingBandit.moveLink", () => {
  it("moves one waiting link, puts the emptied action to sleep and wakes the other", () => {
    const bandit = new SleepingBandit();
    bandit.addLink(0, 10);
    bandit.addLink(0, 11);
    bandit.addLink(1, 12);
    expect(bandit.moveLink(0, 2, 11)).toBe(true);
    expect([bandit.stats(0).available, bandit.stats(2).available]).toEqual([1, 1]);
    expect(bandit.moveLink(0, 2, 10)).toBe(true);
    expect(bandit.stats(0).available).toBe(0);
    expect(bandit.moveLink(0, 1, 10)).toBe(false); // no longer held there
    expect(bandit.score(0, 100)).toBe(0); // asleep
    expect(bandit.stats(2).available).toBe(2);
  });
});

describe("LinkTable.live", () => {
  it("finds a waiting link by URL until it is crawled, also after a restore", () => {
    const table = new LinkTable();
    table.markSeen("https://a.example/x");
    const link = table.createLink({ url: "https://a.example/x", tagPath: "html/body/a", anchorText: "", depth: 1, referrer: null, groupId: 3 });
    expect(table.live("https://a.example/x")).toBe(link);
    expect(LinkTable.fromState(table.toState()).live("https://a.example/x")?.id).toBe(link.id);
    table.release(link.id);
    expect(table.live("https://a.example/x")).toBeUndefined();
    expect(table.has("https://a.example/x")).toBe(true);
  });
});
