import { ObjectNotFoundError } from "../storage/object-storage";
import { storageFor } from "../storage/storage-for";
import { decodeStateAsync, encodeStateInSlices } from "../crawler/engine/engine-state";
import type { KnownFileOutcome } from "../crawler/engine/recrawl";
import type { KnownFile, LearnedState, RecrawlBasis, RevisitPage } from "../crawler/engine/recrawl-basis";
import type { EngineState } from "../crawler/engine/engine-state";
import { mergeChangeHistory } from "../crawler/engine/change-history";
import { createYieldPoint } from "../crawler/yield-point";
import type { Db } from "./prisma-client";
import { crawlFolder } from "./target-files";

/**
 * What a finished crawl keeps for the next run of its site, as two gzip JSON objects in the
 * storage, under its folder (next to its target files, removed with them): `recrawl/learned.json.gz` (the engine's
 * final state, the pages to revisit, the URLs seen) and `recrawl/changes.json.gz` (every file
 * the runs so far know, with what this run found: new, changed, unchanged, gone, or carried
 * over unseen, and each file's history). Files rather than rows: both are read whole, once per
 * run, and a checkpoint-sized document does not belong in a table scanned by the cockpit.
 */

export type FileChange = "new" | "changed" | "unchanged" | "gone";

export interface ChangeCounts {
  new: number;
  changed: number;
  unchanged: number;
  gone: number;
}

export interface FileVersion {
  crawlId: number;
  sha256: string;
}

export interface ChangeEntry extends KnownFile {
  /** `carried`: known from an earlier run, neither linked nor checked by this one (not counted). */
  change: FileChange | "carried";
  previousSha256: string | null;
  firstSeenCrawlId: number;
  /** The last run that saw it linked or confirmed it. */
  lastSeenCrawlId: number;
  versions: FileVersion[];
}

/**
 * The known files a re-crawl without "Check known files" did not verify: `linked`, linked again
 * and taken as unchanged without a request (counted unchanged); `unlinked`, linked by no page it
 * read (carried over, not counted). Both 0 with the check, and for a first crawl.
 */
export interface UncheckedCounts {
  linked: number;
  unlinked: number;
}

export interface ChangeReport {
  crawlId: number;
  previousCrawlId: number | null;
  checkedKnownFiles: boolean;
  counts: ChangeCounts;
  /** Absent in reports written before it existed. */
  unchecked?: UncheckedCounts;
  files: ChangeEntry[];
}

/** The storage key of one of the crawl's re-crawl documents. */
export function recrawlKey(crawlId: number, name: "changes" | "learned"): string {
  return `${crawlFolder(crawlId).split("\\").join("/")}/recrawl/${name}.json.gz`;
}

async function writeDocument(dataDir: string, key: string, value: unknown): Promise<void> {
  // Encoded in slices: a finished crawl's learned state is as large as its last checkpoint.
  await storageFor(dataDir).put(key, (await encodeStateInSlices(value)).data);
}

async function readDocument<T>(dataDir: string, key: string): Promise<T | null> {
  try {
    return (await decodeStateAsync(await storageFor(dataDir).read(key))) as T;
  } catch (error) {
    if (error instanceof ObjectNotFoundError) return null;
    throw error;
  }
}

export function readChangeReport(dataDir: string, crawlId: number): Promise<ChangeReport | null> {
  return readDocument<ChangeReport>(dataDir, recrawlKey(crawlId, "changes"));
}

export function readLearnedState(dataDir: string, crawlId: number): Promise<LearnedState | null> {
  return readDocument<LearnedState>(dataDir, recrawlKey(crawlId, "learned"));
}

/**
 * Rows read per query. A query's rows are read and mapped on the event loop's thread (SQLite's
 * driver is synchronous): a finished crawl's every target or page in one query held the worker's
 * other crawls for as long as it took.
 */
const ROWS_PER_READ = 1_000;
/** Work between two turns of the event loop while a finished crawl's report is built. */
const YIELD_AFTER_MS = 10;

/** Every row a query matches, read in pages of {@link ROWS_PER_READ} by id, the event loop getting its turns between pages. */
async function readInPages<T extends { id: number }>(read: (afterId: number, take: number) => Promise<T[]>, pause: () => Promise<void> | undefined): Promise<T[]> {
  const rows: T[] = [];
  let afterId = 0;
  for (;;) {
    const page = await read(afterId, ROWS_PER_READ);
    for (const row of page) rows.push(row);
    if (page.length < ROWS_PER_READ) return rows;
    afterId = page[page.length - 1]!.id;
    await pause();
  }
}

/** A crawl's target rows with the ETag and Last-Modified their request answered with. */
async function storedFiles(db: Db, crawlId: number, pause = createYieldPoint(YIELD_AFTER_MS)): Promise<KnownFile[]> {
  const targets = await readInPages(
    (afterId, take) =>
      db.target.findMany({ where: { crawlId, id: { gt: afterId } }, select: { id: true, url: true, sha256: true, bytes: true, mime: true, requestSeq: true }, orderBy: { id: "asc" }, take }),
    pause,
  );
  const requests = await readInPages(
    (afterId, take) =>
      db.crawlRequest.findMany({ where: { crawlId, isTarget: true, headers: { not: null }, id: { gt: afterId } }, select: { id: true, seq: true, headers: true }, orderBy: { id: "asc" }, take }),
    pause,
  );
  const headersBySeq = new Map<number, Record<string, string>>();
  for (const row of requests) {
    try {
      headersBySeq.set(row.seq, JSON.parse(row.headers!) as Record<string, string>);
    } catch {
      // Unreadable headers: the file is checked without validators (a full GET).
    }
    await pause();
  }
  return targets.map((target) => {
    const headers = headersBySeq.get(target.requestSeq) ?? {};
    return { url: target.url, sha256: target.sha256, bytes: target.bytes, mime: target.mime, etag: headers.etag ?? null, lastModified: headers["last-modified"] ?? null };
  });
}

/** Child pages that led to targets a page needs to be revisited first: a list, not a page with a "see also" box. */
export const MIN_HUB_CHILDREN = 3;

/**
 * Pages to revisit first: those that led to at least {@link MIN_HUB_CHILDREN} pages that led to
 * targets (a listing, a section), and the pages that led to them, up to the root (excluded).
 * The direct parents of targets (a publication's page) are not in it: their files are known.
 */
async function hubPages(db: Db, crawlId: number, rootUrl: string, pause = createYieldPoint(YIELD_AFTER_MS)): Promise<RevisitPage[]> {
  // The pages that led to targets, each once, in the order their first target was stored.
  const parentRows = await readInPages(
    (afterId, take) => db.target.findMany({ where: { crawlId, sourceUrl: { not: null }, id: { gt: afterId } }, select: { id: true, sourceUrl: true }, orderBy: { id: "asc" }, take }),
    pause,
  );
  const parents = new Set(parentRows.map((row) => row.sourceUrl!));
  const pages = await readInPages(
    (afterId, take) =>
      db.crawlRequest.findMany({
        where: { crawlId, kind: "page", method: "GET", status: { gte: 200, lt: 300 }, id: { gt: afterId } },
        select: { id: true, url: true, referrer: true, tagPath: true, depth: true },
        orderBy: { id: "asc" },
        take,
      }),
    pause,
  );
  const byUrl = new Map<string, (typeof pages)[number]>();
  for (const page of pages) if (!byUrl.has(page.url)) byUrl.set(page.url, page);
  const productiveChildren = new Map<string, number>();
  for (const sourceUrl of parents) {
    const referrer = byUrl.get(sourceUrl)?.referrer;
    if (referrer) productiveChildren.set(referrer, (productiveChildren.get(referrer) ?? 0) + 1);
  }
  const hubs = new Map<string, RevisitPage>();
  const queue = [...productiveChildren].filter(([, children]) => children >= MIN_HUB_CHILDREN).map(([url]) => url as string | null);
  while (queue.length > 0) {
    const url = queue.pop();
    if (!url || hubs.has(url)) continue;
    const page = byUrl.get(url);
    if (!page) continue;
    hubs.set(url, { url, tagPath: page.tagPath ?? "", depth: page.depth });
    queue.push(page.referrer);
  }
  hubs.delete(rootUrl);
  return [...hubs.values()];
}

/** The known files and learned state a re-crawl after `previousCrawlId` starts from. */
export async function loadRecrawlBasis(db: Db, dataDir: string, previousCrawlId: number, checkKnownFiles: boolean): Promise<RecrawlBasis> {
  const report = await readChangeReport(dataDir, previousCrawlId);
  const known = report ? report.files.filter((file) => file.change !== "gone").map(knownFileOf) : await storedFiles(db, previousCrawlId);
  const previous = await db.crawl.findUnique({ where: { id: previousCrawlId }, select: { startedAt: true } });
  // An hour early: the site's clock and ours may disagree, and a file listed twice costs one conditional GET.
  const previousStartedAt = previous?.startedAt ? new Date(previous.startedAt.getTime() - 3_600_000).toISOString() : undefined;
  return { previousCrawlId, learned: await readLearnedState(dataDir, previousCrawlId), known, checkKnownFiles, ...(previousStartedAt ? { previousStartedAt } : {}) };
}

function knownFileOf(entry: ChangeEntry): KnownFile {
  return { url: entry.url, sha256: entry.sha256, bytes: entry.bytes, mime: entry.mime, etag: entry.etag, lastModified: entry.lastModified };
}

export interface FinishedRun {
  crawlId: number;
  rootUrl: string;
  engine: EngineState;
  /** The re-crawl's known-file outcomes (null for a first crawl). */
  outcomes: ReadonlyMap<string, KnownFileOutcome> | null;
  previousCrawlId: number | null;
  checkedKnownFiles: boolean;
}

/**
 * Writes what a finished run leaves for the next one: its change report (the targets it stored
 * are new or changed, the known files' outcomes, the rest carried over) and its learned state.
 */
export async function saveRecrawlRecord(db: Db, dataDir: string, run: FinishedRun): Promise<ChangeReport> {
  const previous = run.previousCrawlId === null ? null : await readChangeReport(dataDir, run.previousCrawlId);
  const previousEntries = new Map<string, ChangeEntry>();
  if (previous) {
    for (const entry of previous.files) if (entry.change !== "gone") previousEntries.set(entry.url, entry);
  } else if (run.previousCrawlId !== null) {
    for (const file of await storedFiles(db, run.previousCrawlId)) {
      previousEntries.set(file.url, { ...file, change: "new", previousSha256: null, firstSeenCrawlId: run.previousCrawlId, lastSeenCrawlId: run.previousCrawlId, versions: [{ crawlId: run.previousCrawlId, sha256: file.sha256 }] });
    }
  }
  // A finished crawl's every file and URL: the event loop gets its turns meanwhile.
  const pause = createYieldPoint(YIELD_AFTER_MS);
  const files: ChangeEntry[] = [];
  const stored = new Set<string>();
  for (const file of await storedFiles(db, run.crawlId, pause)) {
    await pause();
    stored.add(file.url);
    const before = previousEntries.get(file.url);
    if (before && before.sha256 === file.sha256) {
      files.push({ ...before, ...file, change: "unchanged", previousSha256: before.sha256, lastSeenCrawlId: run.crawlId });
    } else if (before) {
      files.push({ ...file, change: "changed", previousSha256: before.sha256, firstSeenCrawlId: before.firstSeenCrawlId, lastSeenCrawlId: run.crawlId, versions: [...before.versions, { crawlId: run.crawlId, sha256: file.sha256 }] });
    } else {
      files.push({ ...file, change: "new", previousSha256: null, firstSeenCrawlId: run.crawlId, lastSeenCrawlId: run.crawlId, versions: [{ crawlId: run.crawlId, sha256: file.sha256 }] });
    }
  }
  const unchecked: UncheckedCounts = { linked: 0, unlinked: 0 };
  for (const [url, before] of previousEntries) {
    if (stored.has(url)) continue;
    const outcome = run.outcomes?.get(url);
    const base = { ...before, previousSha256: before.sha256 };
    if (outcome === "seen") unchecked.linked += 1;
    else if (outcome === undefined) unchecked.unlinked += 1;
    if (outcome === "gone") files.push({ ...base, change: "gone" });
    else if (outcome === "unchanged" || outcome === "seen") files.push({ ...base, change: "unchanged", lastSeenCrawlId: run.crawlId });
    else files.push({ ...base, change: "carried" });
  }
  const counts: ChangeCounts = { new: 0, changed: 0, unchanged: 0, gone: 0 };
  for (const file of files) if (file.change !== "carried") counts[file.change] += 1;
  const report: ChangeReport = { crawlId: run.crawlId, previousCrawlId: run.previousCrawlId, checkedKnownFiles: run.checkedKnownFiles, counts, unchecked, files };
  await writeDocument(dataDir, recrawlKey(run.crawlId, "changes"), report);

  const previousLearned = run.previousCrawlId === null ? null : await readLearnedState(dataDir, run.previousCrawlId);
  const revisit = new Map<string, RevisitPage>();
  for (const page of previousLearned?.revisit ?? []) revisit.set(page.url, page);
  for (const page of await hubPages(db, run.crawlId, run.rootUrl, pause)) revisit.set(page.url, page);
  const seenBefore = new Set(previousLearned?.seenBefore ?? []);
  for (const url of run.engine.links.seen) {
    seenBefore.add(url);
    await pause();
  }
  const started = await db.crawl.findUnique({ where: { id: run.crawlId }, select: { startedAt: true } });
  const { requests, targets } = run.engine.counters;
  const learned: LearnedState = {
    // The frontier is this run's: only the model goes on.
    engine: { ...run.engine, links: { nextId: 0, seen: [], tagPaths: [], links: [] }, recrawl: undefined },
    revisit: [...revisit.values()],
    seenBefore: [...seenBefore],
    // What this run's revisits found, added to the runs' before (a first crawl starts the record).
    changeHistory: mergeChangeHistory(previousLearned?.changeHistory, run.engine.recrawl?.tally ?? [], {
      number: run.engine.run ?? 1,
      startedAtMs: started?.startedAt?.getTime() ?? null,
      yieldPerRequest: requests > 0 ? targets / requests : 0,
    }),
  };
  await writeDocument(dataDir, recrawlKey(run.crawlId, "learned"), learned);
  return report;
}
