import type { StopReason } from "../../crawl-status";
import { FetchAbortedError } from "../fetch/errors";
import type { ExtractedLink, PageContext } from "../links";
import { extractPageLinksAsync } from "../page-links-async";
import { createYieldPoint } from "../yield-point";
import type { StepWatch } from "../step-watch";
import { decodeHtmlPage } from "../html-decoding";
import { LimitEvents } from "./limit-events";
import type { PageChange } from "./page-fingerprints";
import type { RenderedPage, RenderGate } from "./page-rendering";
import type { RequestContext } from "./request-runner";
import { pullReward, type Pull } from "./reward";
import { isApplicationTagPath } from "./application-actions";
import type { CrawlEnd, FrontierLink } from "./types";
import type { CrawlEngineParts } from "./engine-parts";
import type { EngineServices } from "./engine-services";
import { KnownFileChecks } from "./known-file-checks";
import { ApplicationCrawling } from "./application-crawling";
import { SitemapReading } from "./sitemap-reading";
import { TypingRequests } from "./typing-requests";
import { MetricPoints } from "./metric-points";
import { RedirectFollowing } from "./redirect-following";
import { LinkAcceptance } from "./link-acceptance";
import { FrontierFiling } from "./frontier-filing";
import { RecrawlPageLinks } from "./recrawl-page-links";
import { PageRevisit, revisitBeforeFresh } from "./page-revisit";
import { recordTarget } from "./target-records";

export type { CrawlEngineParts } from "./engine-parts";
export { SITEMAP_TAG_PATH, sitemapFileCap } from "./sitemap-reading";

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
 * The parts of a pull that are not the paper's loop live in modules of their own, each given the
 * engine's request steps (engine-services.ts): typing new links by request and the dead-shape
 * filter (typing-requests.ts), sitemaps (sitemap-reading.ts), an application's enumerations and
 * stated files (application-crawling.ts), a re-crawl's known files (known-file-checks.ts), its
 * links set aside and revisits (recrawl-page-links.ts, page-revisit.ts); and the loop's own
 * plumbing: which URLs may be requested (link-acceptance.ts), how a link becomes a frontier link
 * (frontier-filing.ts), stored targets (target-records.ts), redirects followed hop by hop
 * (redirect-following.ts), metric points (metric-points.ts).
 *
 * Classifier labels: every GET of a typed link whose (redirect-followed) answer is a 2xx HTML
 * page or target labels the link's own URL with that type. The kit gave redirects no label, so
 * extension-less download URLs that always redirect (`/api/…/download` → file) were never
 * learned as targets and cost a page pull each; an error still gives no label.
 */
export class CrawlEngine {
  private readonly acceptance: LinkAcceptance;
  private readonly filing: FrontierFiling;
  /** True from taking a link out of the frontier until its page is fully processed. */
  private midPage = false;
  private readonly limitEvents: LimitEvents;
  /** The fingerprint's verdict on the page being crawled (null: not read, or not fingerprinted before). */
  private pageChange: PageChange | null = null;
  /** The set-aside page of an earlier run being revisited, if the page being crawled is one. */
  private revisit: PageRevisit | null = null;
  rootDone: boolean;
  private readonly metrics: MetricPoints;
  private readonly redirects: RedirectFollowing;
  /** The parts of a pull kept in modules of their own, each given the engine's request steps. */
  private readonly knownFiles: KnownFileChecks;
  private readonly applicationCrawling: ApplicationCrawling;
  private readonly sitemaps: SitemapReading;
  private readonly typing: TypingRequests;

  constructor(private readonly parts: CrawlEngineParts) {
    this.acceptance = new LinkAcceptance(parts);
    this.filing = new FrontierFiling(parts);
    this.rootDone = parts.rootDone;
    this.metrics = new MetricPoints(parts);
    this.limitEvents = new LimitEvents(parts.sink);
    const services: EngineServices = {
      parts,
      site: this.acceptance.site,
      limitEvents: this.limitEvents,
      getFollowingRedirects: (url, context, plan) => this.redirects.get(url, context, plan),
      acceptable: (url, source) => this.acceptance.acceptable(url, source),
      typeLink: (link, page) => this.typing.type(link, page),
      recordShape: (url, response, isTarget, answeredInSite) => this.typing.recordShape(url, response, isTarget, answeredInSite),
      labelFetched: (linkUrl, finalUrl, type) => this.labelFetched(linkUrl, finalUrl, type),
      recordTarget: (outcome, url, link, sourceUrl, record) => recordTarget(parts, outcome, url, link, sourceUrl, record),
    };
    this.redirects = new RedirectFollowing(services, (url) => this.revisit?.headersFor(url));
    this.typing = new TypingRequests(services);
    this.knownFiles = new KnownFileChecks(services);
    this.applicationCrawling = new ApplicationCrawling(services, this.knownFiles);
    this.sitemaps = new SitemapReading(services, (file) => this.applicationCrawling.listedAsChanged(file, null));
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
        if (this.sitemaps.enabled && rootAnswered) await this.sitemaps.read(root);
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
        let revisit = revisitBeforeFresh(this.parts);
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
        this.pageChange = null;
        this.revisit = revisit ? new PageRevisit(this.parts.recrawl!, this.parts, revisit) : null;
        await this.crawlPage(link);
        this.revisit?.end(this.pageChange);
        this.revisit = null;
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
    if (reason !== "failed") await this.knownFiles.checkUnlinked();
    const rendered = this.parts.rendering?.summary();
    if (rendered) this.parts.sink.event({ level: "info", kind: "render-summary", message: rendered, data: { pages: this.parts.counters.renderedPages, reasons: Object.fromEntries(this.parts.rendering!.reasons) } });
    this.metrics.emit(true);
    if (reason === "budget-bytes" && this.parts.budget.diskQuotaReached()) {
      const detail = this.parts.budget.describeDiskQuota();
      this.limitEvents.diskQuota(detail);
      return { kind: "stopped", reason, detail };
    }
    return { kind: "stopped", reason };
  }

  private async pause(): Promise<CrawlEnd> {
    this.metrics.emit(true);
    return { kind: "paused" };
  }

  private async afterPage(): Promise<void> {
    this.metrics.emit(false);
    await this.parts.afterPage?.();
  }

  /**
   * One pull, the body of the paper's Algorithm 3 once the strategy has chosen the action and
   * its link: fetch the link (with redirects), then, for an HTML page, extract, type and file its
   * links, download its new targets, and give the reward (reward.ts) to the strategy.
   */
  private async crawlPage(link: FrontierLink): Promise<void> {
    // A URL pattern added (live settings) while the link waited: never requested, nothing learnt.
    if (this.acceptance.excludedByPattern(link.url)) return;
    // A variant filed before its query pair was learnt to be redundant: skipped the same way.
    if (this.parts.queryVariants?.isRedundant(link.url, this.isKnown)) return;
    const pull = isApplicationTagPath(link.tagPath) ? await this.applicationCrawling.pull(link) : await this.fetchAndReadPage(link);
    const result = pullReward(pull, this.parts.config.params);
    if (link.depth > 0) this.parts.meter.time(() => this.timeStep(STEP_LEARN, () => this.parts.strategy.feedback(link, result))); // the root page has no group
  }

  /** Fetch (with redirects) → extract, type and file links → download new targets: what the pull was. */
  private async fetchAndReadPage(link: FrontierLink): Promise<Pull> {
    const context: RequestContext = { kind: "page", tagPath: link.tagPath || null, groupId: link.groupId, depth: link.depth, referrer: link.referrer };
    const final = await this.redirects.get(link.url, context, "page");
    if (!final) return { kind: "nothing" };
    const { outcome, url } = final;
    const response = outcome.result;
    this.typing.recordShape(link.url, response, outcome.isTarget, final.inSite);
    const ok = response.outcome === "ok" && response.status >= 200 && response.status < 300;
    if (ok && this.parts.runner.isHtmlMime(response.mime) && response.body) {
      this.labelFetched(link.url, url, "html");
      const { text, encoding, utf8Bytes } = this.parts.meter.time(() => decodeHtmlPage(response.body!, response.headers["content-type"]));
      // The application behind the site, recognised before the root's links are filed: its `avoid` list applies to them.
      if (link.depth === 0 && this.parts.applications) await this.applicationCrawling.start(link, { url, html: text, headers: Object.entries(response.headers) });
      const pageContext: PageContext = { refreshHeader: response.headers.refresh, encoding, utf8Bytes, stableClassNames: this.parts.config.params.stableTagPathClasses };
      // A script-built page, rendered in a browser when the crawl wants it: its DOM is read instead of its HTML.
      const rendered = await this.renderedPage(link, url, text, response.headers);
      const html = rendered?.html ?? text;
      const { newTargets, knownFiles, downloadedWhileTyping, linksRead } = await this.fileLinksOf(html, url, link, pageContext, rendered?.dataLinks);
      if (rendered) this.parts.rendering!.noteLinks(url, (await extractPageLinksAsync(text, url, pageContext)).links.length, linksRead);
      const downloaded = downloadedWhileTyping + (await this.downloadNewTargets(newTargets, link, url)) + (await this.applicationCrawling.downloadStatedFiles(html, url, link));
      const changedKnownFiles = await this.knownFiles.onPage(knownFiles, link, url);
      return { kind: "page", newTargets: downloaded, changedKnownFiles };
    }
    if (outcome.isTarget) {
      this.labelFetched(link.url, url, "target");
      return { kind: "target", stored: recordTarget(this.parts, outcome, url, link) };
    }
    return { kind: "nothing" };
  }

  /** The page as a browser shows it, when the crawl renders it (page-rendering.ts); null to read it as fetched. */
  private async renderedPage(link: FrontierLink, pageUrl: string, html: string, headers: Record<string, string>): Promise<RenderedPage | null> {
    const rendering = this.parts.rendering;
    if (!rendering || rendering.mode === "off") return null;
    const context: RequestContext = { kind: "render", tagPath: link.tagPath || null, groupId: link.groupId, depth: link.depth, referrer: pageUrl };
    const gate: RenderGate = { runner: this.parts.runner, budget: this.parts.budget, acceptable: (url) => this.acceptance.acceptableScriptRequest(url) };
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

  private timeStep<T>(step: string, fn: () => T): T {
    const watch = this.parts.stepWatch;
    return watch ? watch.time(step, fn) : fn();
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
    const recrawlLinks = recrawl ? new RecrawlPageLinks(recrawl) : null;
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
      // Most links of a page were seen before (menus, sidebars): the URL rules judged them then.
      if (this.parts.links.has(link.url)) {
        this.parts.strategy.rediscover?.(link.url, link.tagPath);
        recrawlLinks?.seenAgain(link, entryChanged);
        continue;
      }
      // A step from here: the rules a new link meets, user patterns among them (seen links, above, cost a lookup).
      watch?.begin(STEP_CHECK_LINK);
      if (!this.acceptance.acceptable(link.url, "link")) continue;
      if (queryVariants?.isRedundant(link.url, this.isKnown)) continue;
      if (this.parts.links.full) {
        this.limitEvents.seenSetFull(this.parts.links.maxSeen);
        continue;
      }
      this.parts.links.markSeen(link.url);
      // A known file, or a page the previous runs saw (set aside, untyped, until nothing new is left).
      if (recrawlLinks?.takes(link, entryChanged, () => this.filing.frontierLink(link, page))) continue;
      const deadShapes = this.parts.deadShapes;
      if (deadShapes?.isDead(link.url) && !deadShapes.admit(this.filing.parked(link, page))) continue; // parked
      let type: "html" | "target" | "neither" | "downloaded";
      if (typer.needsHead()) {
        meter.stop(); // a HEAD request: network time, not the engine's
        watch?.end();
        type = await this.typing.type(link, page);
        watch?.begin(STEP_CHECK_LINK);
        meter.start();
      } else {
        type = typer.predict(link.url);
      }
      if (type === "target") newTargets.push(link);
      else if (type === "html") this.filing.file(link, page);
      else if (type === "downloaded") downloadedWhileTyping += 1;
      if (!this.parts.budget.canRequest()) break;
    }
    watch?.end();
    recrawlLinks?.finish();
    if (queryVariants) this.reportRedundantPairs(queryVariants.notePage(page.url, pageUrl, linkUrls));
    meter.stop();
    return { newTargets, knownFiles: recrawlLinks?.knownFiles ?? [], downloadedWhileTyping, linksRead: extracted.links.length };
  }

  /**
   * Downloads the page's new links typed as targets, at once (the paper's immediate downloads);
   * returns how many were confirmed as targets and kept.
   */
  private async downloadNewTargets(newTargets: readonly ExtractedLink[], page: FrontierLink, pageUrl: string): Promise<number> {
    let found = 0;
    for (const link of newTargets) {
      const context: RequestContext = { kind: "target", tagPath: link.tagPath, groupId: null, depth: page.depth + 1, referrer: pageUrl };
      const final = await this.redirects.get(link.url, context, "target");
      if (!final) continue;
      const response = final.outcome.result;
      this.typing.recordShape(link.url, response, final.outcome.isTarget, final.inSite);
      if (final.outcome.isTarget) {
        this.labelFetched(link.url, final.url, "target");
        if (recordTarget(this.parts, final.outcome, final.url, { ...page, tagPath: link.tagPath }, pageUrl)) found += 1;
      } else if (response.outcome === "ok" && response.status >= 200 && response.status < 300 && this.parts.runner.isHtmlMime(response.mime)) {
        // A predicted target that is a page: filed under its group (the kit's LOCAL behaviour),
        // unless the page is on another host (a download that redirected to a login, say).
        this.labelFetched(link.url, final.url, "html");
        if (final.inSite) this.filing.file({ ...link, url: final.url }, page, true);
      }
    }
    return found;
  }

  private readonly isKnown = (url: string): boolean => this.parts.links.has(url);

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
}
