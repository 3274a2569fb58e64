/**
 * The re-crawl family bench: evolving sites of the procedural family (lib/sitesim/family/evolution.ts),
 * a month apart, for sites that do or do not mark what changed. Per seed: version 1 crawled with
 * default settings until the crawl stops, then version 2 re-crawled `after` it, then version 3
 * `after` that (a harvest's first three runs). Recall of the files new in each version against
 * the evolution's truth, and requests as a share of the first crawl's. One process, a temporary
 * SQLite database, the site on 127.0.0.1 without politeness delay; any engine the settings pick.
 * recrawl-family-summary.ts turns the rows into distributions.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { loadConfig } from "../config";
import { HostPoliteness } from "../crawler/fetch/host-politeness";
import { SIM_TARGET_MIME_TYPES, startFamilySite, type FamilyChanges, type RunningFamilySite } from "../sitesim";
import type { NewItemPlacement } from "../sitesim/family";
import { ensureMigrated, openDatabase, type Db } from "../store";
import { createCrawl } from "../store/commands/create-crawl";
import { getChangeCounts } from "../store/queries/get-crawl-changes";
import type { ChangeCounts } from "../store/recrawl-store";
import { runStoredCrawl } from "../worker/run-stored-crawl";
import { splitOf, type SeedSplit } from "./family-bench";

/** The aim: this share of the new files … */
export const AIM_RECALL = 0.95;
/** … within this share of the first crawl's requests. */
export const AIM_REQUEST_SHARE = 0.2;
/** Without `budget`: every run's request budget is this many times the BFS reference of version 1 (the runs end on their own well before). */
export const DEFAULT_BUDGET_FACTOR = 3;

export interface RecrawlFamilyBenchOptions {
  seeds: number[];
  /** Request budget of every run; default {@link DEFAULT_BUDGET_FACTOR} × the site's BFS reference. */
  budget?: number;
  /** Seed s's site listens on portBase + s (the URL classifier's features include the port). */
  portBase: number;
  /** Settings added to every crawl (e.g. another strategy); default settings otherwise. */
  settings?: Record<string, unknown>;
  log: (line: string) => void;
}

/** One re-crawl of a seed: version `version` crawled after the previous run. */
export interface RecrawlRun {
  version: number;
  requests: number;
  /** Requests ÷ the first crawl's. */
  shareOfFirst: number;
  /** Files new in this version (truth) and how many of them the run fetched. */
  newTotal: number;
  newFound: number;
  /** newFound ÷ newTotal. */
  recall: number;
  /** Of the new files, those added to items already there in the previous version (what a site without markers hides), and how many the run fetched. */
  newOnOldItemsTotal: number;
  newOnOldItemsFound: number;
  /** New files fetched within {@link AIM_REQUEST_SHARE} of the first crawl's requests. */
  newFoundWithinAim: number;
  /** Whether the aim holds: ≥ {@link AIM_RECALL} of the new files within {@link AIM_REQUEST_SHARE} of the first crawl's requests. */
  aimMet: boolean;
  /** The counted request that fetched each new file found, ascending. */
  newFileSeqs: number[];
  /** The change report the run wrote (null when it wrote none), and the truth it should equal with known files checked. */
  reported: ChangeCounts | null;
  truth: ChangeCounts;
  stopReason: string;
}

export interface RecrawlFamilySeedRow {
  seed: number;
  split: SeedSplit;
  marksChanges: boolean;
  placement: NewItemPlacement;
  firstRequests: number;
  firstStopReason: string;
  /** Files of version 1 and how many the first crawl fetched. */
  firstTargets: number;
  firstFound: number;
  budget: number;
  v2: RecrawlRun;
  v3: RecrawlRun;
  /**
   * Requests each re-crawl needed to reach the lower of the two recalls (as shares of the first
   * crawl's requests), and whether run 3 needed no more than run 2; null when a run found no new file.
   */
  sameRecall: number;
  run2ToSameRecall: number;
  run3ToSameRecall: number;
  run3NoMoreThanRun2: boolean | null;
}

/** Requests a run needed to fetch `count` of its new files (0 for none). */
export function requestsToFind(newFileSeqs: readonly number[], count: number): number {
  return count <= 0 ? 0 : newFileSeqs[count - 1]!;
}

const countsOf = (changes: FamilyChanges): ChangeCounts => ({ new: changes.new.length, changed: changes.changed.length, unchanged: changes.unchanged.length, gone: changes.gone.length });

/** Crawls every seed's three versions; one row per seed with a new file in both versions, in seed order. */
export async function runRecrawlFamilyBench(options: RecrawlFamilyBenchOptions): Promise<RecrawlFamilySeedRow[]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "forage-recrawl-family-"));
  const forage = loadConfig({ DATABASE_URL: `file:${path.join(dir, "bench.db")}`, FORAGE_DATA_DIR: dir });
  try {
    await ensureMigrated(forage, { apply: true });
    const db = await openDatabase(forage);
    try {
      const rows: RecrawlFamilySeedRow[] = [];
      for (const seed of options.seeds) {
        const site = await startFamilySite(seed, { port: options.portBase + seed });
        try {
          rows.push(await benchSeed(db, forage, site, seed, options));
        } finally {
          await site.close();
        }
      }
      return rows;
    } finally {
      await db.$disconnect();
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function benchSeed(db: Db, forage: ReturnType<typeof loadConfig>, site: RunningFamilySite, seed: number, options: RecrawlFamilyBenchOptions): Promise<RecrawlFamilySeedRow> {
  const evolution = site.evolution;
  const firstTruth = evolution.site(1).groundTruth();
  const budget = options.budget ?? Math.ceil(DEFAULT_BUDGET_FACTOR * firstTruth.bfsRequests);
  const crawl = async (after: number | null) => {
    const { id } = await createCrawl(
      db,
      {
        rootUrl: site.rootUrl,
        budget: { requests: budget },
        politeness: { delayMs: 0 },
        allowPrivateNetwork: true,
        seed,
        targetMimeTypes: [...SIM_TARGET_MIME_TYPES],
        ...options.settings,
        ...(after === null ? {} : { after }),
      },
      { asLocalAdmin: true },
    );
    await runStoredCrawl({ db, forage, crawlId: id, politeness: new HostPoliteness(), signal: new AbortController().signal });
    const row = await db.crawl.findUniqueOrThrow({ where: { id }, select: { requestsCount: true, stopReason: true } });
    const targets = await db.target.findMany({ where: { crawlId: id }, select: { url: true, requestSeq: true } });
    return { id, requests: row.requestsCount, stopReason: row.stopReason ?? "", targets };
  };
  site.version = 1;
  const first = await crawl(null);
  const firstPaths = new Set(first.targets.map((target) => pathOf(target.url)));
  const firstFound = firstTruth.targets.filter((target) => firstPaths.has(target.path)).length;
  options.log(`seed ${seed}: version 1 crawled, ${first.requests} requests, ${firstFound} of ${firstTruth.targets.length} files (${first.stopReason})`);

  const recrawl = async (version: number, after: number): Promise<{ id: number; run: RecrawlRun }> => {
    site.version = version;
    const changes = evolution.changes(version - 1, version);
    const result = await crawl(after);
    const newPaths = new Set(changes.new);
    const newFileSeqs = result.targets.filter((target) => newPaths.has(pathOf(target.url))).map((target) => target.requestSeq).sort((a, b) => a - b);
    const newFound = newFileSeqs.length;
    const onOldItems = new Set(changes.newOnOldItems);
    const newOnOldItemsFound = result.targets.filter((target) => onOldItems.has(pathOf(target.url))).length;
    const newFoundWithinAim = newFileSeqs.filter((seq) => seq <= AIM_REQUEST_SHARE * first.requests).length;
    const newTotal = changes.new.length;
    const run: RecrawlRun = {
      version,
      requests: result.requests,
      shareOfFirst: result.requests / first.requests,
      newTotal,
      newFound,
      recall: newFound / newTotal,
      newOnOldItemsTotal: onOldItems.size,
      newOnOldItemsFound,
      newFoundWithinAim,
      aimMet: newFoundWithinAim >= AIM_RECALL * newTotal,
      newFileSeqs,
      reported: await getChangeCounts(db, result.id),
      truth: countsOf(changes),
      stopReason: result.stopReason,
    };
    options.log(`seed ${seed}: version ${version} re-crawled, ${run.requests} requests (${pct(run.shareOfFirst)} of the first), ${newFound} of ${newTotal} new files (${result.stopReason})`);
    return { id: result.id, run };
  };
  const second = await recrawl(2, first.id);
  const third = await recrawl(3, second.id);
  const v2 = second.run;
  const v3 = third.run;
  const sameRecall = Math.min(v2.recall, v3.recall);
  const run2ToSameRecall = requestsToFind(v2.newFileSeqs, Math.ceil(sameRecall * v2.newTotal - 1e-9)) / first.requests;
  const run3ToSameRecall = requestsToFind(v3.newFileSeqs, Math.ceil(sameRecall * v3.newTotal - 1e-9)) / first.requests;
  return {
    seed,
    split: splitOf(seed),
    marksChanges: evolution.marksChanges,
    placement: evolution.evolution.placement,
    firstRequests: first.requests,
    firstStopReason: first.stopReason,
    firstTargets: firstTruth.targets.length,
    firstFound,
    budget,
    v2,
    v3,
    sameRecall,
    run2ToSameRecall,
    run3ToSameRecall,
    run3NoMoreThanRun2: sameRecall > 0 ? run3ToSameRecall <= run2ToSameRecall : null,
  };
}

/** A stored target's URL as the truth names files: path + query. */
function pathOf(url: string): string {
  const u = new URL(url);
  return u.pathname + u.search;
}

function pct(share: number): string {
  return `${(100 * share).toFixed(1)} %`;
}
