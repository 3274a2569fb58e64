import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { loadConfig } from "../config";
import { HostPoliteness } from "../crawler/fetch/host-politeness";
import { runStoredCrawl } from "../worker/run-stored-crawl";
import { startEvolvingSite } from "../sitesim/evolving";
import { ensureMigrated, openDatabase, type Db } from "../store";
import { createCrawl } from "../store/commands/create-crawl";
import { getCrawlChanges } from "../store/queries/get-crawl-changes";
import type { ChangeCounts } from "../store/recrawl-store";

export interface RecrawlBenchOptions {
  /** Publications of version 1 (version 2 adds 12 %, changes 12 % of the old ones). */
  items: number;
  seed: number;
  /** Request budget of every run (generous: the runs end on their own). */
  budget: number;
  log: (line: string) => void;
}

export interface RecrawlBenchRow {
  run: string;
  requests: number;
  /** Requests ÷ the first crawl's. */
  shareOfFirst: number;
  newFound: number;
  newTotal: number;
  counts: ChangeCounts | null;
  truth: ChangeCounts;
  stopReason: string;
}

/**
 * The re-crawl benchmark: an evolving catalogue crawled at version 1, then version 2 served at
 * the same address and crawled three ways: a re-crawl `after` the first (known files trusted),
 * the same with `checkKnownFiles`, and a fresh crawl. Requests, recall of the files new in
 * version 2, and the reported counts against the simulator's truth. One process, a temporary
 * SQLite database; every crawl without politeness delay (the site is local).
 */
export async function runRecrawlBench(options: RecrawlBenchOptions): Promise<RecrawlBenchRow[]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "forage-recrawl-bench-"));
  const forage = loadConfig({ DATABASE_URL: `file:${path.join(dir, "bench.db")}`, FORAGE_DATA_DIR: dir });
  await ensureMigrated(forage, { apply: true });
  const db = await openDatabase(forage);
  const site = await startEvolvingSite({ items: options.items, seed: options.seed });
  try {
    const crawl = async (settings: Record<string, unknown>): Promise<{ id: number; requests: number; stopReason: string }> => {
      const { id } = await createCrawl(
        db,
        { rootUrl: site.rootUrl, budget: { requests: options.budget }, politeness: { delayMs: 0 }, allowPrivateNetwork: true, seed: options.seed, ...settings },
        { asLocalAdmin: true },
      );
      await runStoredCrawl({ db, forage, crawlId: id, politeness: new HostPoliteness(), signal: new AbortController().signal });
      const row = await db.crawl.findUniqueOrThrow({ where: { id }, select: { requestsCount: true, stopReason: true } });
      return { id, requests: row.requestsCount, stopReason: row.stopReason ?? "" };
    };
    site.version = 1;
    options.log(`crawling version 1 (${options.items} publications)`);
    const first = await crawl({});
    site.version = 2;
    const truthLists = site.catalogue.changes(1, 2);
    const truth: ChangeCounts = { new: truthLists.new.length, changed: truthLists.changed.length, unchanged: truthLists.unchanged.length, gone: truthLists.gone.length };
    const newPaths = new Set(truthLists.new);
    const rows: RecrawlBenchRow[] = [];
    const row = async (run: string, result: { id: number; requests: number; stopReason: string }, reportsChanges: boolean) => {
      const targets = await db.target.findMany({ where: { crawlId: result.id }, select: { url: true } });
      const newFound = targets.filter((target) => newPaths.has(new URL(target.url).pathname)).length;
      const report = reportsChanges ? await getCrawlChanges(db, forage.dataDir, result.id, { limit: 0, offset: 0 }) : null;
      rows.push({ run, requests: result.requests, shareOfFirst: result.requests / first.requests, newFound, newTotal: truth.new, counts: report?.counts ?? null, truth, stopReason: result.stopReason });
    };
    rows.push({ run: "first crawl (v1)", requests: first.requests, shareOfFirst: 1, newFound: 0, newTotal: 0, counts: null, truth, stopReason: first.stopReason });
    options.log("re-crawling version 2 after it");
    await row("re-crawl (v2, after)", await crawl({ after: first.id }), true);
    options.log("re-crawling version 2 after it, checking known files");
    await row("re-crawl + check known files", await crawl({ after: first.id, checkKnownFiles: true }), true);
    options.log("fresh crawl of version 2");
    await row("fresh crawl (v2)", await crawl({}), false);
    return rows;
  } finally {
    await site.close();
    await db.$disconnect();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const countsText = (counts: ChangeCounts) => `${counts.new} / ${counts.changed} / ${counts.unchanged} / ${counts.gone}`;

export function formatRecrawlBench(rows: RecrawlBenchRow[]): string {
  const lines = [
    "| run | requests | share of first crawl | new files found | reported new / changed / unchanged / gone | truth | stop |",
    "|---|---:|---:|---:|---|---|---|",
  ];
  for (const row of rows) {
    const recall = row.newTotal > 0 ? `${row.newFound} / ${row.newTotal} (${((100 * row.newFound) / row.newTotal).toFixed(1)} %)` : "–";
    lines.push(
      `| ${row.run} | ${row.requests} | ${(100 * row.shareOfFirst).toFixed(1)} % | ${recall} | ${row.counts ? countsText(row.counts) : "–"} | ${row.newTotal > 0 ? countsText(row.truth) : "–"} | ${row.stopReason} |`,
    );
  }
  return lines.join("\n");
}
