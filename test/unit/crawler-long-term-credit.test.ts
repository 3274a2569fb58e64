import { describe, expect, it } from "vitest";
import { CrawlConfigError, parseCrawlConfig } from "../../lib/crawl-config";
import { LinkLineage, creditDepthOf } from "../../lib/crawler/engine/link-lineage";
import { LinkTable } from "../../lib/crawler/engine/link-table";
import { effectiveConfig } from "../../lib/crawler/engine/paper-faithful";
import { createStrategy } from "../../lib/crawler/engine/strategies/create-strategy";
import type { CrawlStrategy } from "../../lib/crawler/engine/strategies/strategy";
import type { FrontierLink } from "../../lib/crawler/engine/types";
import { Prng } from "../../lib/crawler/prng";
import { SleepingBandit } from "../../lib/crawler/sleeping-bandit";

const ROOT = "https://office.example.org/";

interface ArmView {
  selections: number;
  totalReward: number;
  meanReward: number;
}

function armsOf(strategy: CrawlStrategy): ArmView[] {
  return (strategy.toState() as { bandit: { actions: ArmView[] } }).bandit.actions;
}

/** An SB strategy as the engine builds it, with the engine's lineage rule for filing a page's links. */
function sbCrawl(params: Record<string, unknown>, options: { withLineage?: boolean; seed?: number } = {}) {
  const config = effectiveConfig(parseCrawlConfig({ rootUrl: ROOT, strategy: "sb", params }));
  const links = new LinkTable();
  const strategy = createStrategy(config, Prng.fromSeed(options.seed ?? 7), links);
  const lineage = new LinkLineage(options.withLineage === false ? 0 : config.params.longTermCreditDepth);
  /** Files a link found on `page` (null: the root page, pulled by no action). */
  const file = (url: string, tagPath: string, page: FrontierLink | null): FrontierLink => {
    const below = page ? lineage.below(page) : undefined;
    const link = links.createLink({ url, tagPath, anchorText: "", depth: (page?.depth ?? 0) + 1, referrer: page?.url ?? ROOT, groupId: null, ...(below ? { lineage: below } : {}) });
    strategy.add(link);
    return link;
  };
  return { strategy, file, links };
}

const LISTING = "html/body/main/nav.sections/a";
const PAGER = "html/body/main/nav.pager/a";
const DETAIL = "html/body/main/ul.items/li/a";

/** Grandparent action A pulls a listing, parent action B a page, C the page that yields 4 targets. */
function threeLevelChain(params: Record<string, unknown>) {
  const { strategy, file } = sbCrawl(params);
  file(`${ROOT}list`, LISTING, null);
  const listing = strategy.next(2)!;
  file(`${ROOT}list?page=2`, PAGER, listing);
  strategy.feedback(listing, { reward: 0, wasHtml: true });
  const page = strategy.next(3)!;
  file(`${ROOT}item/1`, DETAIL, page);
  strategy.feedback(page, { reward: 0, wasHtml: true });
  const detail = strategy.next(4)!;
  strategy.feedback(detail, { reward: 4, wasHtml: true });
  const arms = armsOf(strategy);
  return { a: arms[listing.groupId!]!, b: arms[page.groupId!]!, c: arms[detail.groupId!]!, groups: [listing.groupId, page.groupId, detail.groupId], detail };
}

describe("long-term credit: hand-computed rewards", () => {
  it("a page's 4 targets give C 4, B γ·4 and A γ²·4, without extra pulls (γ = 0.5)", () => {
    const { a, b, c, groups, detail } = threeLevelChain({ longTermCreditDiscount: 0.5 });
    expect(new Set(groups).size).toBe(3);
    expect(detail.lineage).toEqual([groups[1], groups[0]]);
    expect(c).toMatchObject({ selections: 1, totalReward: 4, meanReward: 4 });
    expect(b).toMatchObject({ selections: 1, totalReward: 2, meanReward: 2 });
    expect(a).toMatchObject({ selections: 1, totalReward: 1, meanReward: 1 });
  });

  it("γ = 0.3: B gets 1.2, A 0.36", () => {
    const { a, b, c } = threeLevelChain({ longTermCreditDiscount: 0.3 });
    expect(c.totalReward).toBe(4);
    expect(b.totalReward).toBeCloseTo(1.2, 12);
    expect(a.totalReward).toBeCloseTo(0.36, 12);
  });

  it("a depth of one ancestor credits B only", () => {
    const { a, b } = threeLevelChain({ longTermCreditDiscount: 0.5, longTermCreditDepth: 1 });
    expect(b.totalReward).toBe(2);
    expect(a.totalReward).toBe(0);
  });

  it("γ = 0 is the paper's immediate reward: only C is paid", () => {
    const { a, b, c } = threeLevelChain({ longTermCreditDiscount: 0 });
    expect([a.totalReward, b.totalReward, c.totalReward]).toEqual([0, 0, 4]);
  });

  it("sb-paper never gives long-term credit, whatever the stored settings say", () => {
    const config = effectiveConfig(parseCrawlConfig({ rootUrl: ROOT, strategy: "sb-paper", params: { longTermCreditDiscount: 0.6 } }));
    expect(config.params.longTermCreditDiscount).toBe(0);
    expect(creditDepthOf(config)).toBe(0);
    expect(creditDepthOf(parseCrawlConfig({ rootUrl: ROOT, strategy: "sb", params: { longTermCreditDiscount: 0.6 } }))).toBe(2);
    expect(creditDepthOf(parseCrawlConfig({ rootUrl: ROOT, strategy: "bfs", params: { longTermCreditDiscount: 0.6 } }))).toBe(0);
  });
});

describe("SleepingBandit.creditReward", () => {
  it("adds to the reward sum and the mean without counting a pull", () => {
    const bandit = new SleepingBandit({ rewardScaledBonus: true });
    bandit.addLink(0, 1);
    bandit.recordReward(0, 1);
    bandit.recordReward(0, 0);
    bandit.creditReward(0, 0.5);
    expect(bandit.stats(0)).toMatchObject({ selections: 2, totalReward: 1.5, meanReward: 0.75 });
    expect(bandit.rewardScale()).toBe(0.75);
    // AUER's bonus depends on n only: 2√2·√(ln 10)·0.75/√2 on top of the mean.
    expect(bandit.score(0, 10)).toBeCloseTo(0.75 + 2 * Math.SQRT2 * Math.sqrt(Math.log(10)) * 0.75 / Math.sqrt(2 + 1e-6), 9);
  });

  it("lifts the barren damping of an action that leads to targets", () => {
    const damped = new SleepingBandit({ barrenDamping: true });
    const credited = new SleepingBandit({ barrenDamping: true });
    for (const bandit of [damped, credited]) {
      bandit.addLink(0, 1);
      for (let i = 0; i < 6; i++) bandit.recordReward(0, 0);
    }
    credited.creditReward(0, 0.25);
    expect(credited.hasPaid(0)).toBe(true);
    // Damped: (0 + 1)/(6 + 2) of the weight; credited: the mean 0.25/6 plus the whole weight.
    expect(damped.score(0, 100)).toBeCloseTo((2 * Math.SQRT2 * Math.sqrt(Math.log(100))) / Math.sqrt(6 + 1e-6) / 8, 9);
    expect(credited.score(0, 100)).toBeCloseTo(0.25 / 6 + (2 * Math.SQRT2 * Math.sqrt(Math.log(100))) / Math.sqrt(6 + 1e-6), 9);
  });

  it("survives a checkpoint: the restored bandit has the credited sums", () => {
    const bandit = new SleepingBandit({ rewardScaledBonus: true });
    bandit.addLink(0, 1);
    bandit.recordReward(0, 2);
    bandit.creditReward(0, 0.3);
    const restored = SleepingBandit.fromState(JSON.parse(JSON.stringify(bandit.toState())));
    expect(restored.stats(0)).toEqual(bandit.stats(0));
    expect(restored.rewardScale()).toBe(bandit.rewardScale());
  });

  it("refuses a negative or non-finite credit", () => {
    const bandit = new SleepingBandit();
    expect(() => bandit.creditReward(0, -1)).toThrow(/Invalid credit -1/);
    expect(() => bandit.creditReward(0, Number.NaN)).toThrow(/Invalid credit/);
  });
});

/**
 * A synthetic site crawled through the strategy alone: page `u` lists 3 links, each with one of a
 * few tag paths drawn from a hash of its URL; a page's reward is drawn the same way (deeper pages of
 * one template pay more). The strategy's choices are the URLs it pulls, in order.
 */
function syntheticChoices(params: Record<string, unknown>, options: { withLineage?: boolean } = {}): string[] {
  const { strategy, file } = sbCrawl(params, { ...options, seed: 11 });
  const hash = (text: string) => {
    let h = 2166136261;
    for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619) >>> 0;
    return h;
  };
  const templates = [LISTING, PAGER, DETAIL, "html/body/footer/a", "html/body/aside.related/a"];
  for (let i = 0; i < 3; i++) file(`${ROOT}s${i}`, templates[i]!, null);
  const order: string[] = [];
  for (let t = 2; t < 400; t++) {
    const link = strategy.next(t);
    if (!link) break;
    order.push(link.url);
    if (link.depth < 7) for (let i = 0; i < 3; i++) file(`${link.url}/${i}`, templates[hash(`${link.url}/${i}`) % templates.length]!, link);
    const reward = link.tagPath === DETAIL && link.depth >= 3 ? hash(link.url) % 4 : 0;
    strategy.feedback(link, { reward, wasHtml: true });
  }
  return order;
}

describe("γ = 0 makes the same choices as SB without lineages", () => {
  it("the same pulls, in the same order; γ = 0.5 does differ", () => {
    const withoutLineage = syntheticChoices({ longTermCreditDiscount: 0 }, { withLineage: false });
    const zero = syntheticChoices({ longTermCreditDiscount: 0, longTermCreditDepth: 2 }, { withLineage: true });
    expect(withoutLineage.length).toBeGreaterThan(300);
    expect(zero).toEqual(withoutLineage);
    // The comparison can fail: a discount above 0, same lineages, changes what the bandit picks.
    expect(syntheticChoices({ longTermCreditDiscount: 0.5 })).not.toEqual(withoutLineage);
  });
});

describe("lineages", () => {
  const page = (groupId: number | null, lineage?: number[]): FrontierLink => ({ id: 1, url: `${ROOT}p`, tagPath: DETAIL, anchorText: "", depth: 2, referrer: ROOT, groupId, ...(lineage ? { lineage } : {}) });

  it("nearest action first, cut at the depth; none below the root or at depth 0", () => {
    expect(new LinkLineage(2).below(page(5, [3, 1]))).toEqual([5, 3]);
    expect(new LinkLineage(3).below(page(5, [3]))).toEqual([5, 3]);
    expect(new LinkLineage(2).below(page(null))).toBeUndefined();
    expect(new LinkLineage(0).below(page(5, [3]))).toBeUndefined();
  });

  it("links of one page share one array", () => {
    const lineage = new LinkLineage(2);
    const p = page(4);
    expect(lineage.below(p)).toBe(lineage.below(p));
  });

  it("the link table's checkpoint keeps them; older rows without one still load; a bad one is refused", () => {
    const table = new LinkTable();
    table.createLink({ url: `${ROOT}a`, tagPath: DETAIL, anchorText: "", depth: 1, referrer: ROOT, groupId: 0 });
    table.createLink({ url: `${ROOT}b`, tagPath: DETAIL, anchorText: "", depth: 2, referrer: `${ROOT}a`, groupId: 1, lineage: [0] });
    const state = JSON.parse(JSON.stringify(table.toState()));
    expect(state.links[0]).toHaveLength(7);
    const restored = LinkTable.fromState(state);
    expect(restored.get(0)!.lineage).toBeUndefined();
    expect(restored.get(1)!.lineage).toEqual([0]);
    state.links[1][7] = ["x"];
    expect(() => LinkTable.fromState(state)).toThrow(/lineage of link 1/);
  });
});

describe("the setting", () => {
  const fieldsOf = (params: Record<string, unknown>) => {
    try {
      parseCrawlConfig({ rootUrl: ROOT, params });
    } catch (error) {
      if (error instanceof CrawlConfigError) return error.fields;
      throw error;
    }
    return null;
  };

  it("defaults to 0 (the paper) with a depth of 2", () => {
    const { params } = parseCrawlConfig({ rootUrl: ROOT });
    expect(params.longTermCreditDiscount).toBe(0);
    expect(params.longTermCreditDepth).toBe(2);
  });

  it("refuses a discount outside [0, 1) and a depth that is not a whole number from 1 to 8, naming the field", () => {
    expect(fieldsOf({ longTermCreditDiscount: 1 })).toEqual({ "params.longTermCreditDiscount": expect.stringMatching(/must be below 1/) });
    expect(fieldsOf({ longTermCreditDiscount: -0.1 })).toEqual({ "params.longTermCreditDiscount": expect.stringMatching(/must be at least 0/) });
    expect(fieldsOf({ longTermCreditDiscount: "half" })).toHaveProperty(["params.longTermCreditDiscount"]);
    expect(fieldsOf({ longTermCreditDepth: 1.5 })).toEqual({ "params.longTermCreditDepth": expect.stringMatching(/whole number/) });
    expect(fieldsOf({ longTermCreditDepth: 9 })).toEqual({ "params.longTermCreditDepth": expect.stringMatching(/at most 8/) });
    expect(fieldsOf({ longTermCreditDiscount: 0.5, longTermCreditDepth: 3 })).toBeNull();
  });
});
