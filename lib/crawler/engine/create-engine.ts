import type { CrawlConfig } from "../crawl-config";
import { CookieJar } from "../fetch/cookie-jar";
import { HostPoliteness } from "../fetch/host-politeness";
import { DEFAULT_USER_AGENT, HttpFetcher } from "../fetch/http-fetcher";
import { RobotsCache, robotsFetchFor } from "../fetch/robots";
import type { ExchangeRecorder } from "../fetch/exchange-recorder";
import type { Fetcher } from "../fetch/types";
import { Prng } from "../prng";
import { UrlClassifier } from "../url-classifier";
import { Budget } from "./budget";
import { CrawlFetcher } from "./crawl-fetcher";
import { CrawlEngine } from "./crawl-engine";
import { DeadShapeFilter } from "./dead-shape-filter";
import { EngineMeter } from "./engine-meter";
import { createEarlyStopSignal } from "./early-stop-signal";
import { ENGINE_STATE_VERSION, type EngineState } from "./engine-state";
import { LinkTable } from "./link-table";
import { LinkTyper, type LinkOracle } from "./link-typer";
import { effectiveConfig } from "./paper-faithful";
import { QueryVariantFilter } from "./query-variant-filter";
import { startingState } from "./learned-start";
import { ListingEntries } from "./listing-entries";
import { PageFingerprints } from "./page-fingerprints";
import { PageValidators } from "./page-validators";
import { Recrawl } from "./recrawl";
import type { RecrawlBasis } from "./recrawl-basis";
import { RequestRunner, type LiveSettings } from "./request-runner";
import { createStrategy } from "./strategies/create-strategy";
import { restoreStrategy } from "./strategies/restore-strategy";
import type { CrawlCounters, CrawlSink } from "./types";
import type { StepWatch } from "../step-watch";
import { ApplicationActions } from "./application-actions";
import type { SiteApplications } from "./site-applications";
import type { PageRenderer } from "./page-renderer";
import { PageRendering, type ScriptBuiltSigns } from "./page-rendering";

export function emptyCounters(): CrawlCounters {
  return {
    requests: 0,
    getRequests: 0,
    headRequests: 0,
    targets: 0,
    targetBytes: 0,
    nonTargetBytes: 0,
    errors: 0,
    robotsSkips: 0,
    frontierSize: 0,
    groups: 0,
    activeMs: 0,
    renderedPages: 0,
  };
}

export interface CreateEngineOptions {
  config: CrawlConfig;
  sink: CrawlSink;
  signal: AbortSignal;
  /** Shared by every crawl of the process: politeness is per host, not per crawl. */
  politeness: HostPoliteness;
  /** Defaults to an HttpFetcher honouring the crawl's network policy (`privateNetworks`, `config.allowPrivateNetwork`). */
  fetcher?: Fetcher;
  /**
   * CIDRs of the non-public networks the server lets crawls reach (FORAGE_PRIVATE_NETWORKS and
   * the admin's list); only for the fetcher created here. @default [] (public addresses only,
   * unless the crawl was stored with `allowPrivateNetwork`)
   */
  privateNetworks?: readonly string[];
  /** SB-ORACLE: true link types from a stored crawl. */
  oracle?: LinkOracle;
  /** Live-editable settings; defaults to the configuration's. */
  live?: () => LiveSettings & { urlPatterns: readonly string[] };
  /** Shown in politeness waits, e.g. "crawl 12". */
  owner?: string;
  /** Keep HTML bodies and headers for offline replay. @default true */
  keepPageBodies?: boolean;
  afterPage?: () => Promise<void>;
  beforePage?: () => Promise<void>;
  /** Accumulates the engine's own time (benchmarks). */
  meter?: EngineMeter;
  /** Reports synchronous steps that held the event loop too long (the worker pauses such a crawl). */
  stepWatch?: StepWatch;
  /** Ends the run at the next page boundary (see `CrawlEngineParts.drainSignal`). */
  drainSignal?: AbortSignal;
  /** A state taken by `CrawlRun.captureState()` (a checkpoint): the crawl continues from it. */
  restore?: EngineState;
  /**
   * A re-crawl (`config.after`): the previous run's learned state and known files. Without
   * `restore` the run starts from that state (learned-start.ts); with it (a resumed re-crawl),
   * only the known files are taken from here.
   */
  recrawl?: RecrawlBasis;
  /** Wraps the fetcher every request goes through (a crash recovery answers from the request log first). */
  wrapFetcher?: (fetcher: Fetcher) => Fetcher;
  /** Receives every exchange made over the network (the crawl's WARC). @default none */
  exchangeRecorder?: ExchangeRecorder;
  /**
   * The knowledge of web applications (recipes): with it, an SB crawl whose settings allow it
   * (`config.applications.use`) recognises the application behind the site and chooses among its
   * enumerations as actions. @default none (HTML only)
   */
  applications?: SiteApplications | null;
  /**
   * The browser that renders script-built pages (lib/render, given by the worker) and the test of
   * a page's HTML that says it needs one (render-need.ts); `renderer` null with `unavailable` saying
   * why (no Chromium). Absent: no page is rendered, whatever `config.render` says.
   */
  rendering?: { renderer: PageRenderer | null; unavailable: string | null; signs: (html: string) => ScriptBuiltSigns } | null;
}

export interface CrawlRun {
  engine: CrawlEngine;
  /** The re-crawl's view of the known files (null for a first crawl). */
  recrawl: Recrawl | null;
  counters: CrawlCounters;
  fetcher: Fetcher;
  /**
   * The engine's full state as plain JSON. Only meaningful between two pages (in `afterPage`,
   * or after a run that ended at a page boundary: `engine.atPageBoundary`). O(frontier): not
   * for the per-request path.
   */
  captureState(): EngineState;
  /** Closes what the run opened (the HTTP agent it created). */
  close(): Promise<void>;
}

/** Assembles a crawl engine from its configuration: a fresh crawl, or one restored from `options.restore`. */
export function createCrawlEngine(options: CreateEngineOptions): CrawlRun {
  const { sink, signal, politeness } = options;
  const config = effectiveConfig(options.config);
  const restore = options.restore ?? (options.recrawl ? startingState(options.recrawl.learned, config, emptyCounters()) : undefined);
  const ownFetcher = options.fetcher
    ? null
    : new HttpFetcher({
        allowPrivateNetwork: config.allowPrivateNetwork,
        privateNetworks: [...(options.privateNetworks ?? [])],
        userAgent: config.politeness.userAgent ?? DEFAULT_USER_AGENT,
        requestDeadlineMs: config.params.requestDeadlineMs,
      });
  const fetcher = options.wrapFetcher ? options.wrapFetcher(options.fetcher ?? ownFetcher!) : (options.fetcher ?? ownFetcher!);
  const counters = restore ? { ...emptyCounters(), ...restore.counters } : emptyCounters();
  // Running time goes on from the saved value (time budgets, ETA).
  const startedAt = performance.now() - counters.activeMs;
  // A paused crawl waits in `beforePage`: that time is not running time (ETA, time budgets).
  let pausedMs = 0;
  const activeMs = () => counters.activeMs;
  const tick = () => {
    counters.activeMs = performance.now() - startedAt - pausedMs;
  };
  const budget = new Budget(
    config.budget,
    counters,
    () => {
      tick();
      return activeMs();
    },
    config.params.diskQuotaBytes,
    restore?.storedTargetBytes ?? 0,
  );
  // Every request of the crawl (robots.txt included) under its size, quota and deadline limits.
  const limitedFetcher = new CrawlFetcher(fetcher, config.params, budget, options.exchangeRecorder ?? null);
  const live = options.live ?? (() => ({ delayMs: config.politeness.delayMs, urlPatterns: config.blocklist.urlPatterns }));
  const owner = options.owner ?? config.rootUrl;
  const robots = config.politeness.obeyRobots
    ? new RobotsCache(
        robotsFetchFor(limitedFetcher, {
          politeness,
          delayMs: () => live().delayMs,
          owner,
          onResult: (result) =>
            sink.request({
              seq: 0,
              kind: "robots",
              method: "GET",
              url: result.url,
              status: result.status || null,
              mime: result.mime || null,
              bytes: result.wireBytes + result.headerBytes,
              durationMs: Math.round(result.durationMs),
              tagPath: null,
              groupId: null,
              depth: 0,
              referrer: null,
              isTarget: false,
              outcome: result.outcome,
              error: result.error ? `${result.error.code}: ${result.error.message}` : null,
              redirectTo: result.location,
              headers: null,
              bodySha256: null,
              startedAt: new Date(),
            }),
        }),
        { crawlDelayCapMs: config.politeness.maxCrawlDelayMs },
      )
    : null;
  const meter = options.meter ?? new EngineMeter();
  const cookies = restore?.cookies ? CookieJar.fromState(restore.cookies) : new CookieJar();
  const runner = new RequestRunner(config, limitedFetcher, politeness, robots, sink, counters, budget, live, signal, owner, options.keepPageBodies ?? true, meter, cookies);
  const prng = restore ? Prng.fromState(restore.prng) : Prng.fromSeed(config.seed);
  const classifierOptions = { batchSize: config.params.classifierBatchSize, alpha: config.params.sgdAlpha, prng };
  const classifier = restore ? UrlClassifier.fromState(restore.classifier, classifierOptions) : new UrlClassifier(classifierOptions);
  const links = restore ? LinkTable.fromState(restore.links, config.params.maxSeenUrls) : new LinkTable(config.params.maxSeenUrls);
  const strategy = restore ? restoreStrategy(config, prng, links, restore.strategyState) : createStrategy(config, prng, links);
  const earlyStop = config.params.earlyStop ? createEarlyStopSignal(config.params, restore?.earlyStop) : null;
  const deadShapes = config.params.skipDeadUrlShapes ? (restore?.deadShapes ? DeadShapeFilter.fromState(restore.deadShapes) : new DeadShapeFilter()) : null;
  const queryVariants = config.params.skipRedundantQueryVariants
    ? restore?.queryVariants
      ? QueryVariantFilter.fromState(restore.queryVariants)
      : new QueryVariantFilter()
    : null;
  const recrawl = options.recrawl ? new Recrawl({ ...options.recrawl, revisitsCompete: config.params.revisitsCompete }) : null;
  if (recrawl && restore?.recrawl) recrawl.restore(restore.recrawl, (id) => links.get(id));
  const listingEntries = new ListingEntries(restore?.listingEntries, config.params.maxSeenUrls);
  const pageFingerprints = new PageFingerprints(restore?.pageFingerprints, restore?.run ?? 1);
  const pageValidators = new PageValidators(restore?.pageValidators);
  const usesApplications = options.applications && config.applications.use && (config.strategy === "sb" || config.strategy === "sb-oracle");
  // A re-crawl recognises the site again from its root; only a resumed run restores what it had recognised.
  const applications = usesApplications
    ? options.restore?.applications
      ? ApplicationActions.fromState(options.applications!, sink, options.restore.applications)
      : new ApplicationActions(options.applications!, sink)
    : null;
  const engine = new CrawlEngine({
    config,
    recrawl,
    listingEntries,
    pageFingerprints,
    pageValidators,
    links,
    strategy,
    typer: new LinkTyper(classifier, options.oracle ?? null),
    runner,
    budget,
    earlyStop,
    meter,
    stepWatch: options.stepWatch ?? null,
    deadShapes,
    queryVariants,
    sink,
    counters,
    signal,
    drainSignal: options.drainSignal,
    urlPatterns: () => live().urlPatterns,
    afterPage: async () => {
      tick();
      await options.afterPage?.();
    },
    beforePage: options.beforePage
      ? async () => {
          const waitStarted = performance.now();
          await options.beforePage!();
          pausedMs += performance.now() - waitStarted;
        }
      : undefined,
    rootDone: restore?.rootDone ?? false,
    applications,
    changedSince: options.recrawl?.previousStartedAt ? new Date(options.recrawl.previousStartedAt) : null,
    rendering:
      options.rendering && config.render !== "off"
        ? new PageRendering(config.render, options.rendering.renderer, options.rendering.unavailable, options.rendering.signs, sink, counters, (url) => applications?.scriptBuilt(url) ?? null)
        : null,
  });
  return {
    engine,
    recrawl,
    counters,
    fetcher,
    captureState: () => ({
      version: ENGINE_STATE_VERSION,
      strategy: config.strategy,
      seed: config.seed,
      rootDone: engine.rootDone,
      counters: { ...counters },
      prng: prng.toState(),
      links: links.toState(),
      strategyState: strategy.toState(),
      classifier: classifier.toState(),
      earlyStop: earlyStop ? earlyStop.monitor.toState() : null,
      deadShapes: deadShapes ? deadShapes.toState() : null,
      queryVariants: queryVariants ? queryVariants.toState() : null,
      cookies: cookies.toState(),
      storedTargetBytes: budget.storedTargetBytes,
      listingEntries: listingEntries.toState(),
      pageFingerprints: pageFingerprints.toState(),
      pageValidators: pageValidators.toState(),
      run: pageFingerprints.run,
      recrawl: recrawl?.toState(),
      applications: applications && applications.recognised.length > 0 ? applications.toState() : undefined,
    }),
    async close() {
      await ownFetcher?.close();
    },
  };
}
