import type { CrawlConfig } from "../../crawl-config";
import { HostPoliteness } from "../fetch/host-politeness";
import { DEFAULT_USER_AGENT, HttpFetcher } from "../fetch/http-fetcher";
import { RobotsCache, robotsFetchFor } from "../fetch/robots";
import type { Fetcher } from "../fetch/types";
import { Prng } from "../prng";
import { UrlClassifier } from "../url-classifier";
import { Budget } from "./budget";
import { CrawlEngine } from "./crawl-engine";
import { DeadShapeFilter } from "./dead-shape-filter";
import { EngineMeter } from "./engine-meter";
import { createEarlyStopSignal } from "./early-stop-signal";
import { LinkTable } from "./link-table";
import { LinkTyper, type LinkOracle } from "./link-typer";
import { RequestRunner, type LiveSettings } from "./request-runner";
import { createStrategy } from "./strategies/create-strategy";
import type { CrawlCounters, CrawlSink } from "./types";

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
  };
}

export interface CreateEngineOptions {
  config: CrawlConfig;
  sink: CrawlSink;
  signal: AbortSignal;
  /** Shared by every crawl of the process: politeness is per host, not per crawl. */
  politeness: HostPoliteness;
  /** Defaults to an HttpFetcher honouring the crawl's network settings. */
  fetcher?: Fetcher;
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
}

export interface CrawlRun {
  engine: CrawlEngine;
  counters: CrawlCounters;
  fetcher: Fetcher;
  /** Closes what the run opened (the HTTP agent it created). */
  close(): Promise<void>;
}

/** Assembles a crawl engine for a fresh crawl from its configuration. */
export function createCrawlEngine(options: CreateEngineOptions): CrawlRun {
  const { config, sink, signal, politeness } = options;
  const ownFetcher = options.fetcher
    ? null
    : new HttpFetcher({ allowPrivateNetwork: config.allowPrivateNetwork, userAgent: config.politeness.userAgent ?? DEFAULT_USER_AGENT });
  const fetcher = options.fetcher ?? ownFetcher!;
  const counters = emptyCounters();
  const startedAt = performance.now();
  const activeMs = () => counters.activeMs;
  const tick = () => {
    counters.activeMs = performance.now() - startedAt;
  };
  const budget = new Budget(config.budget, counters, () => {
    tick();
    return activeMs();
  });
  const live = options.live ?? (() => ({ delayMs: config.politeness.delayMs, urlPatterns: config.blocklist.urlPatterns }));
  const robots = config.politeness.obeyRobots
    ? new RobotsCache(
        robotsFetchFor(fetcher, {
          politeness,
          delayMs: live().delayMs,
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
  const owner = options.owner ?? config.rootUrl;
  const meter = options.meter ?? new EngineMeter();
  const runner = new RequestRunner(config, fetcher, politeness, robots, sink, counters, budget, live, signal, owner, options.keepPageBodies ?? true, meter);
  const prng = Prng.fromSeed(config.seed);
  const classifier = new UrlClassifier({ batchSize: config.params.classifierBatchSize, alpha: config.params.sgdAlpha, prng });
  const links = new LinkTable();
  const engine = new CrawlEngine({
    config,
    links,
    strategy: createStrategy(config, prng, links),
    typer: new LinkTyper(classifier, options.oracle ?? null),
    runner,
    budget,
    earlyStop: config.params.earlyStop ? createEarlyStopSignal(config.params) : null,
    meter,
    deadShapes: config.params.skipDeadUrlShapes ? new DeadShapeFilter() : null,
    sink,
    counters,
    signal,
    urlPatterns: () => live().urlPatterns,
    afterPage: async () => {
      tick();
      await options.afterPage?.();
    },
    beforePage: options.beforePage,
    rootDone: false,
  });
  return {
    engine,
    counters,
    fetcher,
    async close() {
      await ownFetcher?.close();
    },
  };
}
