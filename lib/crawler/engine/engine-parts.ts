import type { CrawlConfig } from "../crawl-config";
import type { StepWatch } from "../step-watch";
import type { Budget } from "./budget";
import type { DeadShapeFilter } from "./dead-shape-filter";
import type { QueryVariantFilter } from "./query-variant-filter";
import type { EngineMeter } from "./engine-meter";
import type { EarlyStopSignal } from "./early-stop-signal";
import type { LinkTable } from "./link-table";
import type { LinkTyper } from "./link-typer";
import type { ListingEntries } from "./listing-entries";
import type { PageFingerprints } from "./page-fingerprints";
import type { PageRendering } from "./page-rendering";
import type { PageValidators } from "./page-validators";
import type { Recrawl } from "./recrawl";
import type { RequestRunner } from "./request-runner";
import type { CrawlStrategy } from "./strategies/strategy";
import type { ApplicationActions } from "./application-actions";
import type { CrawlCounters, CrawlSink } from "./types";

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
