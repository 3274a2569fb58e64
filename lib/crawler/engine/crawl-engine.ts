import type { CrawlConfig } from "../crawl-config";
import type { StopReason } from "../../crawl-status";
import { FetchAbortedError } from "../fetch/errors";
import type { ExtractedLink, PageContext } from "../links";
import { extractPageLinksAsync } from "../page-links-async";
import { createYieldPoint } from "../yield-point";
import type { StepWatch } from "../step-watch";
import { decodeHtmlPage } from "../html-decoding";
import { compileUrlPatterns, hasBlockedExtension, isInSite, isTrapUrl, normalizeUrl, siteKey, type SiteKey, type UrlMatcher } from "../url-rules";
import type { FetchResult } from "../fetch/types";
import type { Budget } from "./budget";
import type { DeadShapeFilter, ParkedLink } from "./dead-shape-filter";
import type { QueryVariantFilter } from "./query-variant-filter";
import type { EngineMeter } from "./engine-meter";
import type { EarlyStopSignal } from "./early-stop-signal";
import { detachString, type LinkTable } from "./link-table";
import { LimitEvents } from "./limit-events";
import { creditDepthOf, LinkLineage } from "./link-lineage";
import type { LinkTyper } from "./link-typer";
import type { ListingEntries } from "./listing-entries";
import type { PageChange, PageFingerprints } from "./page-fingerprints";
import type { PageRendering, RenderedPage, RenderGate } from "./page-rendering";
import type { PageValidators } from "./page-validators";
import type { Recrawl } from "./recrawl";
import type { RequestContext, RequestOutcome, RequestRunner } from "./request-runner";
import type { CrawlStrategy } from "./strategies/strategy";
import { pullReward, type Pull } from "./reward";
import { MAX_SITEMAP_BYTES, MAX_SITEMAP_URLS, parseSitemap, sitemapText } from "../sitemap-parser";
import { mimeOfUrlPath } from "../fetch/effective-mime";
import { enumerationTagPath, isApplicationTagPath, type ApplicationActions } from "./application-actions";
import type { ApplicationCandidate, ApplicationEnumeration, ApplicationFile } from "./site-applications";
import type { CrawlCounters, CrawlEnd, CrawlSink, FrontierLink } from "./types";

/** Everything the engine works with; built by `createCrawlEngine` (or restored from a checkpoint). */
export interface CrawlEngineParts {
  config: CrawlConfig;
  links: LinkTable;
  strategy: CrawlStrategy;
  typer: LinkTyper;
  runner: RequestRunner;
  budget: Budget;
  earlyStop: EarlyStopSignal | null;
  sink: CrawlSink;
  counters: CrawlCounters;
  /** Aborting it ends the run at once, in the middle of a page if need be (`{ kind: "paused" }`). */
  signal: AbortSignal;
  /**
   * Aborting it ends the run at the next page boundary (`{ kind: "paused" }`, `atPageBoundary`
   * true), where the state is whole and can be checkpointed: a worker shutting down drains
   * this way first and aborts `signal` only after its grace period.
   */
  drainSignal?: AbortSignal;
  /** Accumulates the engine's own (non-network) time. */
  meter: EngineMeter;
  /** Measures the synchronous steps (a link checked and typed, a strategy choice); null to measure none. */
  stepWatch?: StepWatch | null;
  /** Learns URL shapes that only answer with useless files; null to fetch every link. */
  deadShapes: DeadShapeFilter | null;
  /** Learns query pairs that only re-present a page (`?print=1`); null to crawl every variant. */
  queryVariants: QueryVariantFilter | null;
  /** Live-editable URL patterns (PATCH while running). */
  urlPatterns: () => readonly string[];
  /** Called after every page with the engine's state, e.g. to flush or checkpoint. */
  afterPage?: () => Promise<void>;
  /** Awaited before every page: a paused crawl waits here, in memory, until resumed. */
  beforePage?: () => Promise<void>;
  /** Whether the root page was already crawled (resumed crawls). */
  rootDone: boolean;
  /** A re-crawl's known files and set-aside pages; null for a first crawl. */
  recrawl?: Recrawl | null;
  /** Each link's listing entry text (hashed), kept for the next run; a re-crawl revisits first the pages whose entry changed. */
  listingEntries?: ListingEntries;
  /** What each crawled page links to, for the next run (and a re-crawl's revisits) to tell which pages changed. */
  pageFingerprints?: PageFingerprints;
  /** The pages' ETag / Last-Modified: a re-crawl revisits them with a conditional GET. */
  pageValidators?: PageValidators;
  /** The applications recognised on the site and their enumerations (SB strategies); null to crawl through HTML only. */
  applications?: ApplicationActions | null;
  /** A re-crawl: when the previous run started, for enumerations that can list only what changed since. */
  changedSince?: Date | null;
  /** Which pages are rendered in a browser, and the rendering (page-rendering.ts); absent: none is. */
  rendering?: PageRendering | null;
}

/** The tag path of the links a sitemap lists: not a path of any page, so they form an action of their own. */
export const SITEMAP_TAG_PATH = "/sitemap";

/**
 * Sitemap files read per crawl at most: 1 % of the request budget (at least 1, at most 1 000), so
 * that a site with thousands of sitemap files (one per day of an archive) cannot spend the budget
 * on them; index files list the newest first.
 */
export function sitemapFileCap(budgetRequests: number): number {
  return Math.min(1000, Math.max(1, Math.floor(budgetRequests / 100)));
}

/** Counted requests between two metric points. */
const METRIC_EVERY_REQUESTS = 10;
/** Engine work between two turns of the event loop while a page's links are typed (see yield-point.ts). */
const LINK_LOOP_YIELD_MS = 10;
/** The steps a StepWatch names. */
export const STEP_CHECK_LINK = "checking a page's new links against the crawl's rules: URL patterns, traps, site boundary";
const STEP_CHOOSE = "the strategy choosing the next page";
const STEP_LEARN = "the strategy learning from a crawled page";

/**
 * The crawl loop of SB-CLASSIFIER and its baselines (docs/ALGORITHM.md): take the next HTML
 * link from the strategy, GET it (following redirects, one counted request per hop), extract
 * its links, type the new ones (HEAD bootstrap, then the classifier), download new targets at
 * once, and report the reward to the strategy. Framework-free; all I/O goes through the
 * request runner (network) and the sink (storage).
 *
 * Classifier labels: every GET of a typed link whose (redirect-followed) answer is a 2xx HTML
 * page or target labels the link's own URL with that type. The kit gave redirects no label, so
 * extension-less download URLs that always redirect (`/api/…/download` → file) were never
 * learned as targets and cost a page pull each; an error still gives no label.
 */
export class CrawlEngine {
  private readonly site: SiteKey;
  private patternsSource: readonly string[] = [];
  private patterns: UrlMatcher = () => false;
  private readonly blockedExtensions: ReadonlySet<string>;
  private lastMetricAt = 0;
  private readonly keepAnchorText: boolean;
  /** What a page's new links remember of the actions that led to it (long-term credit). */
  private readonly lineage: LinkLineage;
  /** True from taking a link out of the frontier until its page is fully processed. */
  private midPage = false;
  private readonly limitEvents: LimitEvents;
  /** The fingerprint's verdict on the page being crawled (null: not read, or not fingerprinted before). */
  private pageChange: PageChange | null = null;
  /** The conditional headers of the set-aside page being revisited (from its validators of an earlier run). */
  private conditionalRevisit: { url: string; headers: Record<string, string> } | null = null;
  rootDone: boolean;

  constructor(private readonly parts: CrawlEngineParts) {
    this.site = siteKey(parts.config.rootUrl);
    this.blockedExtensions = new Set(parts.config.blocklist.extensions);
    this.rootDone = parts.rootDone;
    this.keepAnchorText = parts.config.strategy === "focused";
    this.lineage = new LinkLineage(creditDepthOf(parts.config));
    this.lastMetricAt = parts.counters.requests;
    this.limitEvents = new LimitEvents(parts.sink);
  }

  /** Runs until a stop reason or the abort signal (which ends with `{ kind: "paused" }`). */
  async run(): Promise<CrawlEnd> {
    try {
      if (!this.rootDone) {
        this.midPage = true;
        const root = this.parts.links.createLink({
          url: this.parts.config.rootUrl,
          tagPath: "",
          anchorText: "",
          depth: 0,
          referrer: null,
          groupId: null,
        });
        this.parts.links.markSeen(root.url);
        await this.crawlPage(root);
        // Not when the root was refused (robots.txt, network policy) or never answered: the same
        // host would refuse its sitemaps too, and the crawl ends there.
        const rootAnswered = this.parts.counters.requests > this.parts.counters.errors;
        if (this.readsSitemaps && rootAnswered) await this.readSitemaps(root);
        this.rootDone = true;
        this.midPage = false;
        await this.afterPage();
        // A root URL robots.txt refuses (or whose robots.txt cannot be read: RFC 9309 then means
        // "disallow all") is a failed crawl with its cause, not an exhausted site.
        if (this.parts.counters.requests === 0 && this.parts.counters.robotsSkips > 0) {
          return { kind: "stopped", reason: "failed", detail: `robots.txt refuses the root URL (${this.parts.runner.lastRobotsRefusal ?? "disallowed"})` };
        }
      }
      for (;;) {
        const stop = this.stopReason();
        if (stop) return this.finish(stop);
        if (this.parts.drainSignal?.aborted) return this.pause();
        await this.parts.beforePage?.();
        if (this.parts.signal.aborted || this.parts.drainSignal?.aborted) return this.pause();
        this.midPage = true;
        // A re-crawl revisits the pages the previous runs saw once nothing new is left, or in competition with the fresh frontier (recrawl.ts).
        let revisit = this.revisitBeforeFresh();
        if (revisit === "stop") {
          this.midPage = false;
          return this.finish("site-exhausted");
        }
        let link = revisit ?? this.parts.meter.time(() => this.timeStep(STEP_CHOOSE, () => this.parts.strategy.next(this.parts.counters.requests)));
        if (!link && this.parts.recrawl) link = revisit = this.parts.recrawl.nextDeferred();
        if (!link) {
          this.midPage = false;
          return this.finish("site-exhausted");
        }
        const findsBefore = revisit ? this.parts.recrawl!.finds : 0;
        const frontierBefore = this.parts.strategy.size();
        this.pageChange = null;
        const conditions = revisit ? this.parts.pageValidators?.conditionalHeaders(revisit.url) : null;
        this.conditionalRevisit = conditions && revisit ? { url: revisit.url, headers: conditions } : null;
        await this.crawlPage(link);
        this.conditionalRevisit = null;
        // A revisit tells its class's change history what it found: a changed page, new files and pages.
        if (revisit) this.parts.recrawl!.revisitedPage(link, this.pageChange, this.parts.recrawl!.finds - findsBefore + Math.max(0, this.parts.strategy.size() - frontierBefore));
        this.parts.links.release(link.id);
        this.midPage = false;
        await this.afterPage();
      }
    } catch (error) {
      if (error instanceof FetchAbortedError || this.parts.signal.aborted) return this.pause();
      throw error;
    }
  }

  /**
   * With `revisitsCompete`, a re-crawl's set-aside page to revisit before the strategy's next fresh
   * link, "stop" when neither pays; null: the fresh link (always without the setting, and for a
   * strategy without an estimate of its pulls).
   */
  private revisitBeforeFresh(): FrontierLink | null | "stop" {
    const { recrawl, strategy } = this.parts;
    if (!recrawl?.revisitsCompete || recrawl.deferredCount === 0 || !strategy.expectedReward) return null;
    const fresh = this.parts.meter.time(() => strategy.expectedReward!());
    return fresh === null ? null : recrawl.revisitBefore(fresh);
  }

  /**
   * False when the run ended in the middle of a page (aborted): the frontier then misses the
   * page's link and its new targets are seen but not downloaded, so that state must not be
   * checkpointed. True between pages (inside `afterPage`) and after a drained or finished run.
   */
  get atPageBoundary(): boolean {
    return !this.midPage;
  }

  /** Links waiting in the frontier. */
  frontierSize(): number {
    return this.parts.strategy.size();
  }

  /** The strategy's tag-path groups, for the cockpit. */
  groupRows() {
    return this.parts.strategy.groups();
  }

  private stopReason(): StopReason | null {
    return this.parts.budget.exhaustedReason() ?? (this.parts.earlyStop?.shouldStop() ? "early-stop" : null);
  }

  private async finish(reason: StopReason): Promise<CrawlEnd> {
    if (reason !== "failed") await this.checkUnlinkedKnownFiles();
    const rendered = this.parts.rendering?.summary();
    if (rendered) this.parts.sink.event({ level: "info", kind: "render-summary", message: rendered, data: { pages: this.parts.counters.renderedPages, reasons: Object.fromEntries(this.parts.rendering!.reasons) } });
    this.emitMetrics(true);
    if (reason === "budget-bytes" && this.parts.budget.diskQuotaReached()) {
      const detail = this.parts.budget.describeDiskQuota();
      this.limitEvents.diskQuota(detail);
      return { kind: "stopped", reason, detail };
    }
    return { kind: "stopped", reason };
  }

  private async pause(): Promise<CrawlEnd> {
    this.emitMetrics(true);
    return { kind: "paused" };
  }

  private async afterPage(): Promise<void> {
    this.emitMetrics(false);
    await this.parts.afterPage?.();
  }

  /**
   * One pull, the body of the paper's Algorithm 3 once the strategy has chosen the action and
   * its link: fetch the link (with redirects), then, for an HTML page, extract, type and file its
   * links, download its new targets, and give the reward (reward.ts) to the strategy.
   */
  private async crawlPage(link: FrontierLink): Promise<void> {
    // A URL pattern added (live settings) while the link waited: never requested, nothing learnt.
    if (this.urlPatternMatcher()(link.url)) return;
    // A variant filed before its query pair was learnt to be redundant: skipped the same way.
    if (this.parts.queryVariants?.isRedundant(link.url, this.isKnown)) return;
    const pull = isApplicationTagPath(link.tagPath) ? await this.pullEnumeration(link) : await this.fetchAndReadPage(link);
    const result = pullReward(pull, this.parts.config.params);
    if (link.depth > 0) this.parts.meter.time(() => this.timeStep(STEP_LEARN, () => this.parts.strategy.feedback(link, result))); // the root page has no group
  }

  /** Fetch (with redirects) → extract, type and file links → download new targets: what the pull was. */
  private async fetchAndReadPage(link: FrontierLink): Promise<Pull> {
    const context: RequestContext = { kind: "page", tagPath: link.tagPath || null, groupId: link.groupId, depth: link.depth, referrer: link.referrer };
    const final = await this.getFollowingRedirects(link.url, context, "page");
    if (!final) return { kind: "nothing" };
    const { outcome, url } = final;
    const response = outcome.result;
    this.recordShape(link.url, response, outcome.isTarget, final.inSite);
    const ok = response.outcome === "ok" && response.status >= 200 && response.status < 300;
    if (ok && this.parts.runner.isHtmlMime(response.mime) && response.body) {
      this.labelFetched(link.url, url, "html");
      const { text, encoding, utf8Bytes } = this.parts.meter.time(() => decodeHtmlPage(response.body!, response.headers["content-type"]));
      // The application behind the site, recognised before the root's links are filed: its `avoid` list applies to them.
      if (link.depth === 0 && this.parts.applications) await this.startApplications(link, { url, html: text, headers: Object.entries(response.headers) });
      const pageContext: PageContext = { refreshHeader: response.headers.refresh, encoding, utf8Bytes, stableClassNames: this.parts.config.params.stableTagPathClasses };
      // A script-built page, rendered in a browser when the crawl wants it: its DOM is read instead of its HTML.
      const rendered = await this.renderedPage(link, url, text, response.headers);
      const html = rendered?.html ?? text;
      const { newTargets, knownFiles, downloadedWhileTyping, linksRead } = await this.fileLinksOf(html, url, link, pageContext, rendered?.dataLinks);
      if (rendered) this.parts.rendering!.noteLinks(url, (await extractPageLinksAsync(text, url, pageContext)).links.length, linksRead);
      const downloaded = downloadedWhileTyping + (await this.downloadNewTargets(newTargets, link, url)) + (await this.downloadStatedFiles(html, url, link));
      const changedKnownFiles = await this.revisitKnownFiles(knownFiles, link, url);
      return { kind: "page", newTargets: downloaded, changedKnownFiles };
    }
    if (outcome.isTarget) {
      this.labelFetched(link.url, url, "target");
      return { kind: "target", stored: this.recordTarget(outcome, url, link) };
    }
    return { kind: "nothing" };
  }

  /** The page as a browser shows it, when the crawl renders it (page-rendering.ts); null to read it as fetched. */
  private async renderedPage(link: FrontierLink, pageUrl: string, html: string, headers: Record<string, string>): Promise<RenderedPage | null> {
    const rendering = this.parts.rendering;
    if (!rendering || rendering.mode === "off") return null;
    const context: RequestContext = { kind: "render", tagPath: link.tagPath || null, groupId: link.groupId, depth: link.depth, referrer: pageUrl };
    const gate: RenderGate = {
      runner: this.parts.runner,
      budget: this.parts.budget,
      // The site boundary and the user's blocklists, as for a link; not the robot-trap rules, which judge
      // links found on pages (a script's API call may well be long), nor the application's `avoid` list.
      acceptable: (url) => isInSite(url, this.site) && !hasBlockedExtension(url, this.blockedExtensions) && !this.urlPatternMatcher()(url),
    };
    return rendering.render(pageUrl, html, headers, context, gate, this.parts.signal);
  }

  /**
   * A GET of a typed link labels the link's own URL for the classifier with what answered. After
   * redirects (`finalUrl` differs) only with `labelRedirectedLinks`: the kit gave redirects no label.
   */
  private labelFetched(linkUrl: string, finalUrl: string, type: "html" | "target"): void {
    if (finalUrl !== linkUrl && !this.parts.config.params.labelRedirectedLinks) return;
    this.parts.typer.label(linkUrl, type);
  }

  /**
   * GETs a URL and follows redirects itself (ALGORITHM.md: each hop one counted request, the new
   * URL inheriting the link's tag path and group). Stops at filtered or already-seen locations
   * (but for one return along the chain after a Set-Cookie). A hop to another host is followed
   * (see `acceptable`), and what answers there is kept only if it is a target; `inSite` says
   * where the final answer came from. Null when nothing usable came back (robots, budget,
   * redirect refused).
   */
  private async getFollowingRedirects(
    startUrl: string,
    context: RequestContext,
    plan: "page" | "target" | "sitemap" | "api",
  ): Promise<{ outcome: RequestOutcome; url: string; inSite: boolean } | null> {
    let url = startUrl;
    let inSite = true;
    const chain = [url];
    let revisited = false;
    for (let hop = 0; ; hop++) {
      if (!(await this.parts.runner.allowedByRobots(url, context))) return null;
      // Off the site only a target is kept: a page there is never read.
      // A set-aside page revisited with its validators: a 304 (no body, nothing read) says it is unchanged.
      const conditional = hop === 0 && this.conditionalRevisit?.url === url ? this.conditionalRevisit.headers : undefined;
      const outcome = await this.parts.runner.request("GET", url, context, inSite ? plan : "target", conditional);
      if (!outcome) return null;
      this.limitEvents.response(outcome.result);
      const { status, location, headers } = outcome.result;
      if (plan === "page" && inSite && status >= 200 && status < 300) this.parts.pageValidators?.note(url, headers);
      const isRedirect = status >= 300 && status < 400 && location !== null;
      if (!isRedirect) return { outcome, url, inSite };
      if (hop >= this.parts.config.params.maxRedirects) {
        this.limitEvents.redirectStopped("redirect-limit", startUrl, location, hop + 1);
        return null;
      }
      const next = normalizeUrl(location, url);
      if (!next) return null;
      inSite = isInSite(next, this.site);
      if (!inSite && !this.parts.config.params.followRedirectsOffSite) return null;
      if (!this.acceptable(next, "redirect") || this.parts.deadShapes?.isDead(next)) return null;
      if (!this.parts.links.markSeen(next)) {
        // A server that sets a cookie and sends the client back along the chain (often to the
        // very URL) to check it: with the cookie now kept, going back is worth one request, once.
        if (revisited || headers["set-cookie"] === undefined || !chain.includes(next)) {
          if (chain.includes(next)) this.limitEvents.redirectStopped("redirect-loop", startUrl, next, hop + 1);
          return null;
        }
        revisited = true;
      }
      url = next;
      chain.push(url);
    }
  }

  /**
   * Site boundary, trap filters and blocklists, before any request (ALGORITHM.md "Download and
   * filters"). A redirect's Location skips the robot-trap filters, which are for links found on
   * pages: the server chose it, and the chain is bounded (maxRedirects, seen URLs). Pre-signed
   * download URLs (S3 / MinIO `X-Amz-…` queries) run 400+ characters and failed the length rule,
   * so a forge's or a portal's download that answered 302 to its store was never fetched.
   *
   * A redirect may lead to another host: a link of the site that redirects to a CDN, an S3 bucket,
   * GitHub's release storage is followed there, as Heritrix follows redirects out of scope,
   * whether the link was typed as a target or as a page (the HEAD bootstrap types every redirect
   * as a page, and extension-less `/download/42` links often look like pages to the classifier).
   * What answers off-site is kept only if it is a target: a page there is neither read nor
   * crawled. Network safety and robots.txt apply to that host as to any.
   */
  private acceptable(url: string, source: "link" | "redirect"): boolean {
    if (source === "link" && !isInSite(url, this.site)) return false;
    const { trapExtraLengthChars, trapRepeatCount } = this.parts.config.params;
    const trapOptions = { extraLengthChars: trapExtraLengthChars, repeatCount: trapRepeatCount };
    if (source === "link" && isTrapUrl(url, this.parts.config.rootUrl, trapOptions)) return false;
    if (hasBlockedExtension(url, this.blockedExtensions)) return false;
    // Sign-in, edit, search and feed pages of the application behind the site (its recipe's `avoid`).
    if (source === "link" && this.parts.applications?.avoids(url)) return false;
    return !this.urlPatternMatcher()(url);
  }

  private timeStep<T>(step: string, fn: () => T): T {
    const watch = this.parts.stepWatch;
    return watch ? watch.time(step, fn) : fn();
  }

  private urlPatternMatcher(): UrlMatcher {
    const source = this.parts.urlPatterns();
    if (source !== this.patternsSource) {
      this.patternsSource = source;
      this.patterns = compileUrlPatterns(source);
    }
    return this.patterns;
  }

  /**
   * Extracts the page's links, types the new ones (HEAD bootstrap, then the classifier) and files
   * those typed as pages into the frontier; returns the new links typed as targets (to download)
   * and, in a re-crawl, the known files the page links; `downloadedWhileTyping`: new targets a
   * typing request already downloaded (the GET check of a doubtful HEAD).
   */
  private async fileLinksOf(
    html: string,
    pageUrl: string,
    page: FrontierLink,
    context: PageContext,
    /** Links found besides the HTML's (a rendered page's script data). */
    extraLinks: readonly ExtractedLink[] = [],
  ): Promise<{ newTargets: ExtractedLink[]; knownFiles: ExtractedLink[]; downloadedWhileTyping: number; linksRead: number }> {
    const newTargets: ExtractedLink[] = [];
    const { meter, typer, queryVariants, recrawl } = this.parts;
    const knownFiles: ExtractedLink[] = [];
    const setAside: { link: FrontierLink; amongNew: boolean }[] = [];
    const freshTagPaths = new Set<string>();
    let downloadedWhileTyping = 0;
    meter.start();
    // Parsed and typed in slices with turns of the event loop between them: a hostile page
    // (10 MB, 300 000 nested elements, 20 000 links) must not freeze the worker's other crawls.
    const extracted = await extractPageLinksAsync(html, pageUrl, context);
    this.limitEvents.page(pageUrl, extracted.limits);
    const links = extraLinks.length > 0 ? [...extracted.links, ...extraLinks] : extracted.links;
    this.pageChange = this.parts.pageFingerprints?.note(page.url, links) ?? null;
    const breathe = createYieldPoint(LINK_LOOP_YIELD_MS);
    const watch = this.parts.stepWatch ?? null;
    const linkUrls: string[] = [];
    for (const link of links) {
      watch?.end(); // one step per link: every `continue` below ends it here
      const turn = breathe(); // awaited only when due: an ordinary page never leaves its turn
      if (turn) await turn;
      linkUrls.push(link.url);
      const entryChanged = this.parts.listingEntries?.note(link.url, link.tagPath, link.anchorText) ?? false;
      if (entryChanged) recrawl?.siteMarksChanges();
      // A link the previous runs never saw, even if this run met it on another page first: its list (tag path) shows what is new.
      if (recrawl && !recrawl.seenByPreviousRuns(link.url) && this.parts.links.has(link.url)) freshTagPaths.add(link.tagPath);
      // Most links of a page were seen before (menus, sidebars): the URL rules judged them then.
      if (this.parts.links.has(link.url)) {
        this.parts.strategy.rediscover?.(link.url, link.tagPath);
        if (recrawl && (freshTagPaths.has(link.tagPath) || entryChanged)) recrawl.promote(link.url);
        continue;
      }
      // A step from here: the rules a new link meets, user patterns among them (seen links, above, cost a lookup).
      watch?.begin(STEP_CHECK_LINK);
      if (!this.acceptable(link.url, "link")) continue;
      if (queryVariants?.isRedundant(link.url, this.isKnown)) continue;
      if (this.parts.links.full) {
        this.limitEvents.seenSetFull(this.parts.links.maxSeen);
        continue;
      }
      this.parts.links.markSeen(link.url);
      if (recrawl?.knownFile(link.url)) {
        knownFiles.push(link);
        continue;
      }
      if (recrawl && !recrawl.seenByPreviousRuns(link.url)) freshTagPaths.add(link.tagPath);
      // A page the previous runs saw: set aside, untyped, until nothing new is left.
      if (recrawl?.seenByPreviousRuns(link.url)) {
        // Listed after a link new since the previous runs in the same list (tag path): sites list what was updated right after what is new.
        setAside.push({ link: this.createFrontierLink(link, page), amongNew: freshTagPaths.has(link.tagPath) || entryChanged });
        continue;
      }
      const deadShapes = this.parts.deadShapes;
      if (deadShapes?.isDead(link.url) && !deadShapes.admit(this.parkable(link, page))) continue; // parked
      let type: "html" | "target" | "neither" | "downloaded";
      if (typer.needsHead()) {
        meter.stop(); // a HEAD request: network time, not the engine's
        watch?.end();
        type = await this.typeLink(link, page);
        watch?.begin(STEP_CHECK_LINK);
        meter.start();
      } else {
        type = typer.predict(link.url);
      }
      if (type === "target") newTargets.push(link);
      else if (type === "html") this.fileLink(link, page);
      else if (type === "downloaded") downloadedWhileTyping += 1;
      if (!this.parts.budget.canRequest()) break;
    }
    watch?.end();
    for (const { link, amongNew } of setAside) recrawl!.defer(link, amongNew);
    if (queryVariants) this.reportRedundantPairs(queryVariants.notePage(page.url, pageUrl, linkUrls));
    meter.stop();
    return { newTargets, knownFiles, downloadedWhileTyping, linksRead: extracted.links.length };
  }

  /**
   * Downloads the page's new links typed as targets, at once (the paper's immediate downloads);
   * returns how many were confirmed as targets and kept.
   */
  private async downloadNewTargets(newTargets: readonly ExtractedLink[], page: FrontierLink, pageUrl: string): Promise<number> {
    let found = 0;
    for (const link of newTargets) {
      const context: RequestContext = { kind: "target", tagPath: link.tagPath, groupId: null, depth: page.depth + 1, referrer: pageUrl };
      const final = await this.getFollowingRedirects(link.url, context, "target");
      if (!final) continue;
      const response = final.outcome.result;
      this.recordShape(link.url, response, final.outcome.isTarget, final.inSite);
      if (final.outcome.isTarget) {
        this.labelFetched(link.url, final.url, "target");
        if (this.recordTarget(final.outcome, final.url, { ...page, tagPath: link.tagPath }, pageUrl)) found += 1;
      } else if (response.outcome === "ok" && response.status >= 200 && response.status < 300 && this.parts.runner.isHtmlMime(response.mime)) {
        // A predicted target that is a page: filed under its group (the kit's LOCAL behaviour),
        // unless the page is on another host (a download that redirected to a login, say).
        this.labelFetched(link.url, final.url, "html");
        if (final.inSite) this.fileLink({ ...link, url: final.url }, page, true);
      }
    }
    return found;
  }

  /** A re-crawl's known files the page links: taken as unchanged, or checked; returns how many changed. */
  private async revisitKnownFiles(knownFiles: readonly ExtractedLink[], page: FrontierLink, pageUrl: string): Promise<number> {
    let changed = 0;
    for (const link of knownFiles) {
      const context: RequestContext = { kind: "target", tagPath: link.tagPath, groupId: null, depth: page.depth + 1, referrer: pageUrl };
      changed += await this.revisitKnownFile(link.url, context, link.tagPath);
    }
    return changed;
  }

  private readonly isKnown = (url: string): boolean => this.parts.links.has(url);

  /** Sitemaps are a link source of the SB strategies (`useSitemaps`): their bandit learns whether the sitemap action pays. */
  private get readsSitemaps(): boolean {
    const { strategy, params } = this.parts.config;
    return params.useSitemaps && (strategy === "sb" || strategy === "sb-oracle");
  }

  /**
   * After the root page: the sitemaps robots.txt names (`Sitemap:` lines), else `/sitemap.xml`,
   * and the sitemaps their index files name, newest `lastmod` first, each one counted GET (with
   * redirects) within {@link sitemapFileCap} files. Every new in-site URL they list enters the
   * frontier untyped, under the tag path {@link SITEMAP_TAG_PATH}: one action of its own (and
   * split by URL shape like any other), so the bandit learns whether the sitemap pays.
   */
  private async readSitemaps(root: FrontierLink): Promise<void> {
    const listed = (await this.parts.runner.sitemapsListed(this.parts.config.rootUrl)).filter((url) => isInSite(url, this.site));
    const queue = listed.length > 0 ? listed : [new URL("/sitemap.xml", this.parts.config.rootUrl).toString()];
    const read = new Set<string>();
    let filed = 0;
    const cap = sitemapFileCap(this.parts.config.budget.requests);
    while (queue.length > 0 && read.size < cap && this.parts.budget.canRequest() && !this.parts.signal.aborted) {
      const url = queue.shift()!;
      if (read.has(url)) continue;
      read.add(url);
      const context: RequestContext = { kind: "sitemap", tagPath: SITEMAP_TAG_PATH, groupId: null, depth: 1, referrer: root.url };
      const final = await this.getFollowingRedirects(url, context, "sitemap");
      const response = final?.outcome.result;
      if (!final || !final.inSite || !response?.body || response.status < 200 || response.status >= 300) continue;
      // Gunzipped on libuv's pool (sitemap-parser.ts says why it is asynchronous): no engine time to meter.
      const text = await sitemapText(response.body!);
      if (!text) continue;
      const sitemap = this.parts.meter.time(() => parseSitemap(text.text));
      if (text.truncated || sitemap.truncated) this.limitEvents.sitemapCut(final.url, MAX_SITEMAP_URLS, MAX_SITEMAP_BYTES);
      if (sitemap.kind === "index") {
        for (const entry of sitemap.entries) if (isInSite(entry.url, this.site) && !read.has(entry.url)) queue.push(entry.url);
        continue;
      }
      this.parts.meter.start();
      for (const entry of sitemap.entries) {
        const link = normalizeUrl(entry.url, final.url);
        if (!link || this.parts.links.has(link) || !this.acceptable(link, "link")) continue;
        // A known page the sitemap dates after the previous run started: revisited among the first.
        if (this.parts.recrawl && this.listedAsChanged({ url: link, modified: entry.lastmod ?? undefined }, null)) this.parts.recrawl.changedBySite(link);
        // A re-crawl's known files and the pages its previous runs saw keep their own handling (recrawl.ts), met on pages.
        if (this.parts.recrawl && (this.parts.recrawl.knownFile(link) || this.parts.recrawl.seenByPreviousRuns(link))) continue;
        if (this.parts.links.full) {
          this.limitEvents.seenSetFull(this.parts.links.maxSeen);
          break;
        }
        this.parts.links.markSeen(link);
        this.parts.strategy.add(this.parts.links.createLink({ url: link, tagPath: SITEMAP_TAG_PATH, anchorText: "", depth: 1, referrer: final.url, groupId: null }));
        filed += 1;
      }
      this.parts.meter.stop();
    }
    if (filed > 0) {
      this.parts.sink.event({
        level: "info",
        kind: "sitemap-read",
        message: `Read ${read.size} sitemap file${read.size === 1 ? "" : "s"}: ${filed} new URLs wait in the frontier as the group "${SITEMAP_TAG_PATH}"`,
        data: { files: read.size, urls: filed },
      });
    }
  }

  /**
   * On the root page: the applications it shows (or the one the crawl's settings name), each
   * confirmed by its recipe's probe when it has one (one counted request; a probe that fails
   * costs only itself), then each of their enumerations filed as an action of its own, its first
   * page the action's only link: the bandit chooses it among the tag-path groups.
   */
  private async startApplications(root: FrontierLink, page: { url: string; html: string; headers: [string, string][] }): Promise<void> {
    const actions = this.parts.applications!;
    const candidates: ApplicationCandidate[] = [...actions.source.chosen(this.parts.config.rootUrl)];
    if (candidates.length === 0) candidates.push(...this.parts.meter.time(() => actions.source.recognise(page)));
    for (const candidate of candidates) {
      if (!this.parts.budget.canRequest() || this.parts.signal.aborted) return;
      const application = { ...candidate.application };
      if (candidate.probe) {
        const context: RequestContext = { kind: "api", tagPath: null, groupId: null, depth: 1, referrer: root.url };
        if (!(await this.parts.runner.allowedByRobots(candidate.probe.url, context))) {
          actions.notConfirmed(application, candidate.probe.url, "is disallowed by robots.txt");
          continue;
        }
        const answer = await this.apiAnswer(candidate.probe.url, context);
        if (!answer.ok) {
          actions.notConfirmed(application, candidate.probe.url, answer.why);
          continue;
        }
        const verdict = candidate.probe.check(answer.answer);
        if (!verdict.confirmed) {
          actions.notConfirmed(application, candidate.probe.url, verdict.why);
          continue;
        }
        application.probeUrl = candidate.probe.url;
        if (verdict.version) application.version = verdict.version;
      }
      for (const enumeration of actions.add(application)) this.fileEnumeration(enumeration, root.url);
    }
  }

  /** An enumeration's first page, as the only link of its action. */
  private fileEnumeration(enumeration: ApplicationEnumeration, referrer: string): void {
    const url = normalizeUrl(enumeration.firstUrl(this.parts.changedSince ?? undefined), referrer);
    if (!url || !this.parts.links.markSeen(url)) return;
    this.parts.strategy.add(this.parts.links.createLink({ url, tagPath: enumerationTagPath(enumeration.key), anchorText: "", depth: 1, referrer, groupId: null }));
  }

  /**
   * One GET of an application's API (redirects followed within the site): the answer's text, or
   * why there is none in words.
   */
  private async apiAnswer(url: string, context: RequestContext): Promise<{ ok: true; answer: { status: number; headers: ReadonlyMap<string, string>; body: string }; url: string } | { ok: false; why: string }> {
    const final = await this.getFollowingRedirects(url, context, "api");
    if (!final) return { ok: false, why: this.parts.budget.canRequest() ? "led nowhere (a refused or looping redirect)" : "was not asked: the budget is spent" };
    if (!final.inSite) return { ok: false, why: `redirected off the site (${final.url})` };
    const result = final.outcome.result;
    if (result.outcome === "error") return { ok: false, why: `failed (${result.error?.message ?? "no answer"})` };
    if (result.status < 200 || result.status >= 300) {
      const wait = result.status === 429 && result.headers["retry-after"] ? ` (Retry-After ${result.headers["retry-after"]})` : "";
      return { ok: false, why: `answered ${result.status}${wait}` };
    }
    if (!result.body) return { ok: false, why: result.outcome === "too-large" ? "answered more than the page size limit" : `answered ${result.mime || "no type"}, not JSON` };
    return { ok: true, url: final.url, answer: { status: result.status, headers: new Map(Object.entries(result.headers)), body: result.body.toString("utf8") } };
  }

  /**
   * A pull of an enumeration action: one page of the application's API, its files typed from
   * what the listing declares (no HEAD) and downloaded at once, its next page filed back into
   * the same action. An answer the recipe does not expect, an error, or a page leading off the
   * site closes the action with an event; the crawl goes on through the HTML.
   */
  private async pullEnumeration(link: FrontierLink): Promise<Pull> {
    const actions = this.parts.applications;
    const enumeration = actions?.enumerationOf(link.tagPath);
    if (!actions || !enumeration) return { kind: "nothing" };
    const context: RequestContext = { kind: "api", tagPath: link.tagPath, groupId: link.groupId, depth: link.depth, referrer: link.referrer };
    if (!(await this.parts.runner.allowedByRobots(link.url, context))) {
      actions.close(link.tagPath, link.url, "is disallowed by robots.txt");
      return { kind: "nothing" };
    }
    const fetched = await this.apiAnswer(link.url, context);
    if (!fetched.ok) {
      if (this.parts.budget.canRequest() && !this.parts.signal.aborted) actions.close(link.tagPath, link.url, fetched.why);
      return { kind: "nothing" };
    }
    const listing = await this.parts.meter.time(() => enumeration.read(fetched.url, fetched.answer));
    if (listing.problem) {
      actions.close(link.tagPath, fetched.url, listing.problem);
      return { kind: "nothing" };
    }
    const inSite = listing.files.filter((file) => isInSite(file.url, this.site));
    actions.pageRead(link.tagPath, inSite.length);
    const { downloaded, changed } = await this.takeListedFiles(inSite, link, fetched.url, enumeration);
    if (listing.files.length > 0 && inSite.length === 0) {
      actions.close(link.tagPath, fetched.url, `lists its ${listing.files.length} files on other hosts (${new URL(listing.files[0]!.url).host})`);
      return { kind: "page", newTargets: downloaded, changedKnownFiles: changed };
    }
    const next = listing.nextUrl ? normalizeUrl(listing.nextUrl, fetched.url) : null;
    if (!next) actions.finished(link.tagPath);
    else if (!isInSite(next, this.site)) actions.close(link.tagPath, fetched.url, `names a next page off the site (${next})`);
    else if (!this.parts.links.markSeen(next)) actions.close(link.tagPath, fetched.url, `names as its next page one already read (${next})`);
    else this.parts.strategy.add(this.parts.links.createLink({ url: next, tagPath: link.tagPath, anchorText: "", depth: link.depth, referrer: fetched.url, groupId: null }));
    return { kind: "page", newTargets: downloaded, changedKnownFiles: changed };
  }

  /**
   * Whether a re-crawl's known file, listed again by an application, changed since the previous
   * run by the application's word: listed by a query for what changed, or with a modification
   * date after the previous run started. A file listed with no date is taken as unchanged.
   */
  private listedAsChanged(file: ApplicationFile, enumeration: ApplicationEnumeration | null): boolean {
    const since = this.parts.changedSince;
    if (!since) return false;
    if (enumeration?.listsChangesSince) return true;
    const modified = file.modified ? Date.parse(/[zZ]|[+-]\d\d:?\d\d$/.test(file.modified) ? file.modified : `${file.modified}Z`) : NaN;
    return Number.isFinite(modified) && modified > since.getTime();
  }

  /** Files the page states in a standard form (schema.org `Dataset`), downloaded like its new targets. */
  private async downloadStatedFiles(html: string, pageUrl: string, page: FrontierLink): Promise<number> {
    const source = this.parts.applications?.source;
    if (!source?.filesOnPage) return 0;
    const files = (await this.parts.meter.time(() => source.filesOnPage!({ url: pageUrl, html }))).filter((file) => isInSite(file.url, this.site));
    if (files.length === 0) return 0;
    const { downloaded } = await this.takeListedFiles(files, page, pageUrl, null);
    return downloaded;
  }

  /**
   * The files an enumeration page lists: typed from the declared MIME type or format, else from
   * the URL's extension, else by the URL classifier (a HEAD while it learns); targets downloaded
   * at once, each checked again by its answer. Known files of a re-crawl are checked with a
   * conditional GET when the listing says they changed. Files seen before are skipped.
   */
  private async takeListedFiles(files: readonly ApplicationFile[], action: FrontierLink, pageUrl: string, enumeration: ApplicationEnumeration | null): Promise<{ downloaded: number; changed: number }> {
    let downloaded = 0;
    let changed = 0;
    const recrawl = this.parts.recrawl;
    for (const file of files) {
      if (!this.parts.budget.canRequest() || this.parts.signal.aborted) break;
      const url = normalizeUrl(file.url, pageUrl);
      if (!url || this.parts.links.has(url) || !this.acceptable(url, "redirect")) continue;
      const mime = file.mime ?? mimeOfUrlPath(url);
      // Declared as something else (a web page, a service): not requested, and left for the HTML crawl to meet.
      if (mime && !this.parts.runner.isTargetMime(mime) && !recrawl?.knownFile(url)) continue;
      this.parts.links.markSeen(url);
      const context: RequestContext = { kind: "target", tagPath: action.tagPath, groupId: null, depth: action.depth + 1, referrer: pageUrl };
      if (recrawl?.knownFile(url)) {
        if (this.listedAsChanged(file, enumeration) || recrawl.checkKnownFiles) changed += await this.checkKnownFile(url, context, action.tagPath);
        else recrawl.note(url, "seen");
        continue;
      }
      let type: "html" | "target" | "neither" | "downloaded";
      if (mime) type = "target";
      else {
        const extracted: ExtractedLink = { url, tagPath: action.tagPath, anchorText: file.record?.title ?? "", tag: "a" };
        type = this.parts.typer.needsHead() ? await this.typeLink(extracted, action) : this.parts.typer.predict(url);
      }
      if (type === "downloaded") downloaded += 1;
      if (type !== "target") continue;
      const final = await this.getFollowingRedirects(url, context, "target");
      if (!final) continue;
      this.recordShape(url, final.outcome.result, final.outcome.isTarget, final.inSite);
      if (!final.outcome.isTarget) continue;
      this.labelFetched(url, final.url, "target");
      if (this.recordTarget(final.outcome, final.url, action, pageUrl, file.record ?? null)) downloaded += 1;
    }
    return { downloaded, changed };
  }

  /**
   * A known file linked again: without `checkKnownFiles` it is taken as unchanged (not
   * downloaded); with it, a conditional GET tells. Returns the reward: 1 when it changed.
   */
  private async revisitKnownFile(url: string, context: RequestContext, tagPath: string): Promise<number> {
    const recrawl = this.parts.recrawl!;
    const outcome = recrawl.outcomes.get(url);
    if (outcome !== undefined && outcome !== "seen") return 0;
    if (!recrawl.checkKnownFiles) {
      recrawl.note(url, "seen");
      return 0;
    }
    return this.checkKnownFile(url, context, tagPath);
  }

  /**
   * Conditional GET of a known file (If-None-Match / If-Modified-Since from its stored ETag and
   * Last-Modified): 304 or the same bytes is unchanged, 404/410 gone, other bytes changed (kept
   * as a target). Anything else (an error, a redirect) leaves it unverified ("seen").
   */
  private async checkKnownFile(url: string, context: RequestContext, tagPath: string): Promise<number> {
    const recrawl = this.parts.recrawl!;
    const file = recrawl.knownFile(url)!;
    recrawl.note(url, "seen");
    if (!(await this.parts.runner.allowedByRobots(url, context))) return 0;
    const headers: Record<string, string> = {};
    if (file.etag) headers["if-none-match"] = file.etag;
    if (file.lastModified) headers["if-modified-since"] = file.lastModified;
    const outcome = await this.parts.runner.request("GET", url, context, "target", headers);
    if (!outcome) return 0;
    this.limitEvents.response(outcome.result);
    const status = outcome.result.status;
    if (status === 304) recrawl.note(url, "unchanged");
    else if (status === 404 || status === 410) recrawl.note(url, "gone");
    else if (outcome.isTarget && outcome.stored) {
      if (outcome.stored.sha256 === file.sha256) {
        recrawl.note(url, "unchanged");
        return 0;
      }
      recrawl.note(url, "changed");
      const link: FrontierLink = { id: -1, url, tagPath, anchorText: "", depth: context.depth, referrer: context.referrer, groupId: null };
      return this.recordTarget(outcome, url, link) ? 1 : 0;
    }
    return 0;
  }

  /** With `checkKnownFiles`, the known files no page of this run linked are checked at its end (budget allowing). */
  private async checkUnlinkedKnownFiles(): Promise<void> {
    const recrawl = this.parts.recrawl;
    if (!recrawl?.checkKnownFiles) return;
    for (const file of recrawl.knownFiles()) {
      const outcome = recrawl.outcomes.get(file.url);
      if (outcome !== undefined && outcome !== "seen") continue;
      if (!this.parts.budget.canRequest() || this.parts.signal.aborted) return;
      await this.checkKnownFile(file.url, { kind: "target", tagPath: null, groupId: null, depth: 0, referrer: null }, "");
    }
  }

  private reportRedundantPairs(pairs: readonly string[]): void {
    for (const pair of pairs) {
      this.parts.sink.event({
        level: "info",
        kind: "query-pair-skipped",
        message: `Skipping links that only add ?${pair} to a known page: the pages crawled with it showed no link their page without it lacks`,
        data: { pair },
      });
    }
  }

  /**
   * Types a link by a HEAD request (while the classifier is untrained). A doubtful HEAD answer
   * (403/404/400 before any HEAD succeeded) is checked by a GET of the same URL
   * (`LinkTyper.needsGetCheck`); when that GET answers a target it is the download, and the
   * link is "downloaded".
   */
  private async typeLink(link: ExtractedLink, page: FrontierLink): Promise<"html" | "target" | "neither" | "downloaded"> {
    const typer = this.parts.typer;
    const context: RequestContext = { kind: "bootstrap-head", tagPath: link.tagPath, groupId: null, depth: page.depth + 1, referrer: page.url };
    if (!(await this.parts.runner.allowedByRobots(link.url, context))) return "neither";
    const outcome = await this.parts.runner.request("HEAD", link.url, context, "none");
    if (!outcome) return "neither";
    this.limitEvents.response(outcome.result);
    const runner = this.parts.runner;
    const refusedBefore = typer.headRefused();
    if (typer.needsGetCheck(outcome.result)) return this.typeByGetCheck(link, page, outcome.result.status);
    const type = typer.typeFromHead(outcome.result, (mime) => runner.isTargetMime(mime), (mime) => runner.isHtmlMime(mime));
    const status = outcome.result.status;
    if (!refusedBefore && typer.headRefused()) {
      this.parts.sink.event({
        level: "warn",
        kind: "head-refused",
        message: `The site refuses HEAD requests (${status}): new links are typed as pages and fetched with GET until the URL classifier has learnt from them`,
        data: { status },
      });
    }
    if (type !== "neither" && status >= 200 && status < 300) typer.label(link.url, type);
    this.recordShape(link.url, outcome.result, type === "target", true);
    return type;
  }

  /**
   * The GET check of a link whose HEAD got `headStatus` (doubtful): the GET's answer types it (a
   * page's body is not read: the page is crawled when its group is chosen; a target's body is kept,
   * so that GET was its download) and, when 2xx, shows that the site refuses HEAD.
   */
  private async typeByGetCheck(link: ExtractedLink, page: FrontierLink, headStatus: number): Promise<"html" | "target" | "neither" | "downloaded"> {
    const { typer, runner } = this.parts;
    const context: RequestContext = { kind: "target", tagPath: link.tagPath, groupId: null, depth: page.depth + 1, referrer: page.url };
    const outcome = await runner.request("GET", link.url, context, "none");
    if (!outcome) return "neither";
    this.limitEvents.response(outcome.result);
    const type = typer.typeFromGetCheck(outcome.result, (mime) => runner.isTargetMime(mime), (mime) => runner.isHtmlMime(mime));
    if (typer.headRefused()) {
      const status = outcome.result.status;
      this.parts.sink.event({
        level: "warn",
        kind: "head-refused",
        message: `The site answers HEAD with ${headStatus} where GET answers ${status}: new links are typed as pages and fetched with GET until the URL classifier has learnt from them`,
        data: { status: headStatus },
      });
    }
    if (type === "neither") return "neither";
    typer.label(link.url, type);
    this.recordShape(link.url, outcome.result, type === "target", true);
    if (type === "target" && outcome.isTarget && this.recordTarget(outcome, link.url, { ...page, tagPath: link.tagPath }, page.url)) return "downloaded";
    return type;
  }

  /**
   * Feeds the dead-shape filter with the answer a link of the site got (`answeredInSite`: where its
   * redirects led): a 2xx answer is useful when it is a target, or a page of the site. A page on
   * another host is never crawled: links shaped like `/share/#/twitter` that all lead to one are
   * set aside after a few, instead of costing two requests each.
   */
  private recordShape(url: string, response: FetchResult, isTarget: boolean, answeredInSite: boolean): void {
    const filter = this.parts.deadShapes;
    if (!filter || response.status < 200 || response.status >= 300 || response.outcome === "error") return;
    const isPage = response.outcome === "ok" && this.parts.runner.isHtmlMime(response.mime);
    const offSite = isPage && !isTarget && !answeredInSite;
    const change = filter.record(url, isTarget || (isPage && !offSite));
    if (change?.kind === "died") {
      const answered = offSite ? "pages on another host" : `${response.mime || "files"} (neither pages nor targets)`;
      this.parts.sink.event({
        level: "info",
        kind: "shape-skipped",
        message: `Setting aside links shaped like ${change.shape}: they answered ${answered}; a few are still tried`,
        data: { shape: change.shape, mime: response.mime },
      });
    } else if (change?.kind === "revived") {
      for (const parked of change.parked) this.fileParked(parked);
      this.parts.sink.event({
        level: "info",
        kind: "shape-revived",
        message: `Links shaped like ${change.shape} answered ${isTarget ? "a target" : "a page"}: ${change.parked.length} set-aside links are back in the frontier`,
        data: { shape: change.shape, links: change.parked.length },
      });
    }
  }

  /** What parking a link keeps (anchor texts only where FOCUSED reads them, as in the frontier). */
  private parkable(link: ExtractedLink, page: FrontierLink): ParkedLink {
    return {
      url: link.url,
      tagPath: this.parts.links.internTagPath(link.tagPath),
      anchorText: this.keepAnchorText ? detachString(link.anchorText) : "",
      depth: page.depth + 1,
      referrer: page.url,
      ...this.lineageOf(page),
    };
  }

  /** Files a link its revived shape had parked (already marked seen). */
  private fileParked(parked: ParkedLink): void {
    this.parts.strategy.add(this.parts.links.createLink({ ...parked, groupId: null }));
  }

  private fileLink(link: ExtractedLink, page: FrontierLink, alreadySeen = false): void {
    if (!alreadySeen) this.parts.links.markSeen(link.url);
    this.parts.strategy.add(this.createFrontierLink(link, page));
  }

  private createFrontierLink(link: ExtractedLink, page: FrontierLink): FrontierLink {
    return this.parts.links.createLink({
      url: link.url,
      tagPath: link.tagPath,
      // Only FOCUSED reads anchor texts; kept elsewhere they cost memory per frontier link.
      anchorText: this.keepAnchorText ? detachString(link.anchorText) : "",
      depth: page.depth + 1,
      referrer: page.url,
      groupId: null,
      ...this.lineageOf(page),
    });
  }

  /** `{ lineage }` for a link found on `page`, or nothing (no property: most crawls give no long-term credit). */
  private lineageOf(page: FrontierLink): { lineage?: readonly number[] } {
    const lineage = this.lineage.below(page);
    return lineage ? { lineage } : {};
  }

  /** Records a stored target; false when its body could not be kept. */
  private recordTarget(outcome: RequestOutcome, url: string, link: FrontierLink, sourceUrl: string | null = link.referrer, record: ApplicationFile["record"] | null = null): boolean {
    if (!outcome.stored) return false;
    this.parts.counters.targets += 1;
    this.parts.recrawl?.storedFile(url, outcome.stored.sha256);
    this.parts.budget.noteStored(outcome.stored.bytes);
    this.parts.sink.target({
      url,
      mime: outcome.result.mime,
      bytes: outcome.stored.bytes,
      sha256: outcome.stored.sha256,
      storagePath: outcome.stored.storagePath,
      sourceUrl,
      tagPath: link.tagPath || null,
      groupId: link.groupId,
      requestSeq: outcome.seq,
      fetchedAt: new Date(),
      record,
      detectedMime: outcome.content?.detectedMime ?? null,
      typeMatch: outcome.content?.typeMatch ?? null,
    });
    return true;
  }

  /** A metric point every few requests and at every early-stopping window. */
  private emitMetrics(force: boolean): void {
    this.parts.meter.start();
    this.writeMetrics(force);
    this.parts.meter.stop();
  }

  private writeMetrics(force: boolean): void {
    const counters = this.parts.counters;
    const window = this.parts.earlyStop?.observe(counters.requests, counters.targets) ?? null;
    if (!force && !window && counters.requests - this.lastMetricAt < METRIC_EVERY_REQUESTS) return;
    // Nothing new since the last point (e.g. the final point right after a window closed):
    // writing it again would replace that window's point with one without slope.
    if (counters.requests === this.lastMetricAt && !window) return;
    this.lastMetricAt = counters.requests;
    counters.frontierSize = this.parts.strategy.size();
    counters.groups = this.parts.strategy.groupCount();
    this.parts.sink.metrics({
      requests: counters.requests,
      targets: counters.targets,
      targetBytes: counters.targetBytes,
      nonTargetBytes: counters.nonTargetBytes,
      frontierSize: counters.frontierSize,
      slope: window?.slope ?? null,
      ema: window?.ema ?? null,
      patience: window?.patience ?? null,
      activeMs: Math.round(counters.activeMs),
    });
    this.parts.sink.counters({ ...counters });
  }
}
