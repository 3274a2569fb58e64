import type { ActionGrouper } from "../../action-grouping";
import type { Prng } from "../../prng";
import type { SleepingBandit } from "../../sleeping-bandit";
import type { LinkTable } from "../link-table";
import type { FrontierLink, GroupRow } from "../types";
import { groupOutlook, OUTLOOK_SAMPLES } from "../../group-outlook";
import { isApplicationTagPath } from "../application-actions";
import { LinkScorer, linkFeatures } from "../../link-scorer";
import { LinkRankFeatures, SCORER_LOGIT_CAP, SCORER_WEIGHT } from "../../link-rank";
import { PathSegmentStats } from "../../path-segment-stats";
import { isFailedPull } from "../reward";
import { ActionSplitter } from "../../action-splitter";
import { poissonUpperBound } from "../revisit-outlook";
import { OutlookCache } from "../../outlook-cache";
import { groupRows } from "./group-rows";
import type { CrawlStrategy, PullResult } from "./strategy";

/** The crawl settings SB reads (crawl-config.ts has their meaning). */
export interface SbOptions {
  readonly linkRankSamples: number;
  readonly urlOutlookWeight: number;
  readonly regroupRediscoveredLinks: boolean;
  readonly splitActionsByUrlShape: boolean;
  /** γ of long-term credit; 0 = the paper's immediate reward. */
  readonly longTermCreditDiscount: number;
}

/**
 * SB-CLASSIFIER's choice of the next page: links are grouped by tag-path similarity
 * (ActionGrouper), an AUER sleeping bandit picks the group, and an unvisited link of that group
 * is crawled. Also SB-ORACLE, which differs only in link typing.
 *
 * Which link of the group: the paper takes one uniformly at random (`linkRankSamples` = 1).
 * Forage's default draws `linkRankSamples` links uniformly and crawls the one whose URL looks
 * most like the pages that gave targets in this crawl: the {@link PathSegmentStats} log-ratio
 * of its path segments plus {@link SCORER_WEIGHT} × the {@link LinkScorer}'s log-odds (URL and
 * anchor 2-grams, depth) capped at ±{@link SCORER_LOGIT_CAP} (link-rank.ts says why). The bandit
 * still decides *what kind* of link to follow; the ranking only picks among links of that kind,
 * where a tag path cannot tell a redirect-to-file from a duplicate listing page, or the section of
 * a documentation tree that holds the dossiers from the others.
 * Measured with `npm run bench` (docs/BENCHMARKS.md). Drawing a sample instead of sorting keeps
 * each choice O(samples) and random among equals.
 *
 * Which group: the paper's AUER score. Forage's default adds each group's URL outlook
 * (`urlOutlookWeight`, group-outlook.ts): what the same URL statistics think of the best of a few
 * of its links, so that groups whose pulls so far gave nothing are still told apart by where
 * their links lead. 0 = the bandit alone.
 *
 * Long-term credit (`longTermCreditDiscount` γ, Forage's addition; 0 = the paper): the paper
 * rewards a pull with the new targets of the page it fetched, so a listing or pagination group
 * whose pages link only to detail pages (which link the files) earns nothing and is starved, though
 * every file behind it came through it. Each link remembers the actions that pulled its page and
 * that page's parent (`FrontierLink.lineage`, link-lineage.ts); when its page yields r > 0, its own
 * action gets r as before and the k-th ancestor action γᵏ·r, added to its reward sum without a
 * pull (`SleepingBandit.creditReward` says why). The URL-shape splitter and the link ranking keep
 * learning from immediate rewards: they judge the links themselves, not where they lead.
 */
export class SbStrategy implements CrawlStrategy {
  private waiting: number;
  /**
   * Links filed since the last `next()` into groups that have paid (mean reward > 0): the pulled
   * page's promising new links, which make its pull fertile (sleeping-bandit.ts, `barrenDamping`).
   */
  private filedSinceNext = 0;
  /** The request count of the choice being made, for the outlook cache's ages. */
  private requestsSoFar = 0;
  /** What ranking a link needs, kept when it is filed (link-rank.ts). */
  private readonly rankFeatures: LinkRankFeatures;
  /** Whether SB ranks links at all (else nothing is kept for them). */
  private readonly ranks: boolean;

  /**
   * `waiting`: links already filed in `bandit` (a grouper, bandit, scorer and segment statistics
   * restored from a checkpoint).
   */
  constructor(
    private readonly grouper: ActionGrouper,
    private readonly bandit: SleepingBandit,
    private readonly prng: Prng,
    private readonly links: LinkTable,
    private readonly options: SbOptions,
    private readonly scorer = new LinkScorer(),
    private readonly segments = new PathSegmentStats(),
    waiting = 0,
    private readonly splitter = new ActionSplitter(),
    private readonly outlooks = new OutlookCache(),
  ) {
    this.waiting = waiting;
    this.rankFeatures = new LinkRankFeatures(segments, scorer);
    this.ranks = options.linkRankSamples > 1 || options.urlOutlookWeight > 0;
  }

  add(link: FrontierLink): void {
    const actionId = this.grouper.assign(link.tagPath).actionId;
    link.groupId = this.options.splitActionsByUrlShape ? this.splitter.actionFor(actionId, link.url) : actionId;
    this.bandit.addLink(link.groupId, link.id);
    if (this.ranks) this.rankFeatures.file(link.id, link.url);
    this.waiting += 1;
    if (this.bandit.barrenDamping && this.bandit.hasPaid(link.groupId)) this.filedSinceNext += 1;
  }

  /**
   * The page just crawled lists a waiting link again, under another tag path: the link moves to
   * that tag path's group when the group has a better mean reward. Without this a link keeps the
   * group it was first seen in: on the deep archive a dossier first met in a "see also" box (a
   * random pick among ~1 000) waited there for hundreds of requests after its parent's dossier list
   * (a group paying 1.5 targets a pull) had shown it. A tag path never filed has no group yet and
   * changes nothing; a URL already crawled (no longer waiting) too. Two map lookups: the link
   * table's waiting URLs and the grouper's memo.
   */
  rediscover(url: string, tagPath: string): void {
    if (!this.options.regroupRediscoveredLinks) return;
    const link = this.links.live(url);
    if (!link || link.groupId === null || link.tagPath === tagPath) return;
    const tagPathGroup = this.grouper.groupOf(tagPath);
    if (tagPathGroup === undefined) return;
    // The action the link would have joined under that tag path (a split-off one, by its URL).
    const groupId = this.options.splitActionsByUrlShape ? this.splitter.actionFor(tagPathGroup, url) : tagPathGroup;
    if (groupId === link.groupId) return;
    if (this.bandit.meanReward(groupId) <= this.bandit.meanReward(link.groupId)) return;
    if (this.bandit.moveLink(link.groupId, groupId, link.id)) link.groupId = groupId;
  }

  /** The paper's Algorithm 3, first two steps: choose an action, then a link of it. */
  next(requestsSoFar: number): FrontierLink | null {
    const actionId = this.chooseAction(requestsSoFar);
    if (actionId === null) return null;
    const linkId = this.chooseLink(actionId);
    // The chosen action's outlook is drawn afresh at its next choice: a lucky draw must not hold the bandit on it.
    this.outlooks.forget(actionId);
    this.waiting -= 1;
    this.filedSinceNext = 0;
    return this.links.get(linkId) ?? null;
  }

  /** The awake action with the best bandit score (plus its URL outlook when `urlOutlookWeight` > 0); null when all sleep. */
  private chooseAction(requestsSoFar: number): number | null {
    return this.options.urlOutlookWeight > 0 && this.scorer.trained
      ? this.bandit.chooseWithOutlook((this.requestsSoFar = requestsSoFar), this.outlookOf, undefined, this.prng)
      : this.bandit.choose(requestsSoFar, this.prng);
  }

  /** A uniformly random unvisited link of the action, or the best-ranked of `linkRankSamples` drawn; removed from it. */
  private chooseLink(actionId: number): number {
    const samples = this.scorer.trained ? this.options.linkRankSamples : 1;
    return this.bandit.takeBestOfRanked(actionId, this.prng, samples, this.rankLinks)!;
  }

  /** Ranks drawn links together (link-rank.ts `rankAll`: their scattered reads overlap); a link no longer in the table ranks −∞. */
  private readonly rankLinks = (linkIds: readonly number[], count: number, ranks: number[]): void => {
    const drawn = this.drawnLinks;
    for (let i = 0; i < count; i++) drawn[i] = this.links.get(linkIds[i]!);
    this.rankFeatures.rankAll(linkIds, drawn, count, ranks);
  };
  private readonly drawnLinks: (FrontierLink | undefined)[] = [];
  private readonly outlookIds: number[] = [];
  private readonly outlookRanks: number[] = [];

  /** The action's URL outlook from the best of {@link OUTLOOK_SAMPLES} of its links, drawn again every few requests (outlook-cache.ts). */
  private readonly outlookOf = (actionId: number, links: readonly number[]): number => {
    let best = this.outlooks.fresh(actionId, this.requestsSoFar);
    if (best === undefined) {
      // An application's enumeration is judged by its pulls alone: the URL statistics learn pages, not API calls.
      if (isApplicationTagPath(this.links.get(links[0]!)?.tagPath ?? "")) return 0;
      const ids = this.outlookIds;
      const ranks = this.outlookRanks;
      for (let draw = 0; draw < OUTLOOK_SAMPLES; draw++) ids[draw] = links[this.prng.nextInt(links.length)]!;
      this.rankLinks(ids, OUTLOOK_SAMPLES, ranks);
      best = -Infinity;
      for (let draw = 0; draw < OUTLOOK_SAMPLES; draw++) best = Math.max(best, ranks[draw]!);
      this.outlooks.keep(actionId, this.requestsSoFar, best);
    }
    return groupOutlook(best, this.options.urlOutlookWeight, this.bandit.rewardScale());
  };


  feedback(link: FrontierLink, result: PullResult): void {
    if ((this.options.linkRankSamples > 1 || this.options.urlOutlookWeight > 0) && !isApplicationTagPath(link.tagPath)) {
      this.scorer.addLabel(linkFeatures(link.url, link.anchorText, link.depth), result.reward > 0);
      this.segments.add(link.url, result.reward > 0);
    }
    if (link.groupId === null) return;
    if (isFailedPull(result)) this.bandit.recordFailedPull(link.groupId);
    else this.bandit.recordReward(link.groupId, result.reward, this.filedSinceNext > 0);
    if (result.reward > 0 && link.lineage && this.options.longTermCreditDiscount > 0) this.creditAncestors(link.lineage, result.reward);
    if (this.options.splitActionsByUrlShape && this.grouper.derivedFrom(link.groupId) === undefined) this.splitIfShapesDiffer(link, result.reward);
  }

  /** γᵏ·reward to the k-th action of the lineage (k = 1: the action that pulled the link's page). */
  private creditAncestors(lineage: readonly number[], reward: number): void {
    let credit = reward;
    for (const actionId of lineage) {
      credit *= this.options.longTermCreditDiscount;
      this.bandit.creditReward(actionId, credit);
    }
  }

  /** Counts the pull for its URL shape and splits the shape off its action when it pays differently (action-splitter.ts). */
  private splitIfShapesDiffer(link: FrontierLink, reward: number): void {
    const candidate = this.splitter.record(link.groupId!, link.url, reward);
    if (!candidate) return;
    // Only a shape with links still waiting is worth an action; else the test fires again at its next pull.
    const hasShape = (linkId: number) => ActionSplitter.hasShape(this.links.get(linkId)?.url ?? "", candidate.shape);
    if (!this.bandit.hasLink(candidate.parent, hasShape)) return;
    const child = this.splitter.childOf(candidate.parent, candidate.shape) ?? this.grouper.derive(candidate.parent, `⟨${candidate.shape}⟩`);
    const belongs = (linkId: number): boolean => {
      const waiting = this.links.get(linkId);
      if (!waiting || !ActionSplitter.hasShape(waiting.url, candidate.shape)) return false;
      waiting.groupId = child;
      return true;
    };
    this.bandit.splitOff(candidate.parent, child, belongs, candidate.pulls, candidate.reward);
    this.splitter.noteSplit(candidate, child);
  }

  size(): number {
    return this.waiting;
  }

  /**
   * The best reward per pull an action with links waiting may bring, at the upper end of its
   * confidence interval (revisit-outlook.ts `poissonUpperBound`, as optimistic as a re-crawl's
   * outlook of a class of known pages): an action not pulled yet is unbounded, a kind of link never
   * tried is tried before any revisit. O(actions); asked only by re-crawls with pages set aside.
   */
  expectedReward(): number | null {
    let best: number | null = null;
    for (let id = 0; id < this.grouper.actionCount; id++) {
      const { selections, meanReward, available } = this.bandit.stats(id);
      if (available === 0) continue;
      const value = poissonUpperBound(meanReward, selections);
      if (best === null || value > best) best = value;
    }
    return best;
  }

  groupCount(): number {
    return this.grouper.actionCount;
  }

  groups(): GroupRow[] {
    return groupRows(this.grouper, this.bandit);
  }

  toState(): unknown {
    return {
      grouper: this.grouper.toState(),
      bandit: this.bandit.toState(),
      scorer: this.scorer.toState(),
      segments: this.segments.toState(),
      waiting: this.waiting,
      splitter: this.splitter.toState(),
      outlooks: this.outlooks.toState(),
    };
  }
}
