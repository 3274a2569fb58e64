import fs from "node:fs";
import path from "node:path";
import type { CrawlConfig } from "../crawl-config";
import { ReplayError } from "../crawler/replay/replay-config";
import type { ReplayLogRow, ReplaySource, StoredAttempt, StoredPageLocation } from "../crawler/replay/replay-source";
import { loadCrawlConfig } from "./load-crawl-config";
import { decodePackedBody } from "./page-bodies";
import type { Db } from "./prisma-client";

/**
 * A stored crawl as offline replay reads it: its request rows from the database, its HTML
 * bodies from the page packs or WARC files its `StoredBody` rows point at (decoded by
 * `decodePackedBody`, the format `PageBodyStore` writes), its target files from its data folder.
 */
export class DatabaseReplaySource implements ReplaySource {
  /** Page file (path relative to the data folder) → open file descriptor. */
  private readonly files = new Map<string, number>();

  constructor(
    private readonly db: Db,
    /** FORAGE_DATA_DIR: stored pages and target files are relative to it. */
    private readonly dataDir: string,
    readonly crawlId: number,
  ) {}

  async requestLog(afterId: number, take: number): Promise<ReplayLogRow[]> {
    return this.db.crawlRequest.findMany({
      where: { crawlId: this.crawlId, id: { gt: afterId } },
      orderBy: { id: "asc" },
      take,
      select: { id: true, seq: true, kind: true, method: true, url: true, status: true, mime: true, outcome: true, error: true, redirectTo: true, bodySha256: true },
    });
  }

  /**
   * One stored attempt with its body's whereabouts, in one statement: raw SQL (quoted identifiers,
   * bound parameter: SQLite and PostgreSQL alike) is much cheaper than `findUnique` + two lookups.
   */
  async attempt(id: number): Promise<StoredAttempt | null> {
    const rows = await this.db.$queryRaw<Array<Record<string, unknown>>>`
      SELECT r."status", r."mime", r."headers", r."outcome", r."error", r."redirectTo", r."bytes",
             b."storagePath" AS "bodyPath", b."offset" AS "bodyOffset", b."compressedBytes" AS "bodyCompressedBytes",
             t."storagePath" AS "targetPath", t."mime" AS "targetMime"
      FROM "CrawlRequest" r
      LEFT JOIN "StoredBody" b ON b."crawlId" = r."crawlId" AND b."sha256" = r."bodySha256"
      LEFT JOIN "Target" t ON t."crawlId" = r."crawlId" AND t."url" = r."url" AND r."method" = 'GET'
      WHERE r."id" = ${id} AND r."crawlId" = ${this.crawlId}`;
    const raw = rows[0];
    if (!raw) return null;
    const text = (value: unknown) => (value === null || value === undefined ? null : String(value));
    const int = (value: unknown) => (value === null || value === undefined ? null : Number(value));
    const bodyPath = text(raw.bodyPath);
    const bodyOffset = int(raw.bodyOffset);
    const bodyCompressedBytes = int(raw.bodyCompressedBytes);
    const targetPath = text(raw.targetPath);
    return {
      status: int(raw.status),
      mime: text(raw.mime),
      headers: text(raw.headers),
      outcome: String(raw.outcome),
      error: text(raw.error),
      redirectTo: text(raw.redirectTo),
      bytes: int(raw.bytes) ?? 0,
      page: bodyPath !== null && bodyOffset !== null && bodyCompressedBytes !== null ? { storagePath: bodyPath, offset: bodyOffset, compressedBytes: bodyCompressedBytes } : null,
      target: targetPath === null ? null : { storagePath: targetPath, mime: text(raw.targetMime) },
    };
  }

  /**
   * One stored HTML body, read synchronously from a file kept open: opening and closing it for
   * every page cost more than the rest of the answer.
   */
  pageBody(page: StoredPageLocation): Buffer {
    let fd = this.files.get(page.storagePath);
    if (fd === undefined) {
      fd = fs.openSync(path.join(this.dataDir, page.storagePath), "r");
      this.files.set(page.storagePath, fd);
    }
    const buffer = Buffer.alloc(page.compressedBytes);
    const read = fs.readSync(fd, buffer, 0, page.compressedBytes, page.offset);
    if (read !== page.compressedBytes) throw new Error(`stored page file ${page.storagePath} is truncated`);
    return decodePackedBody(page.storagePath, buffer);
  }

  targetFile(storagePath: string): { absolutePath: string; size: number } | null {
    const absolutePath = path.join(this.dataDir, storagePath);
    try {
      const stat = fs.statSync(absolutePath);
      return stat.isFile() ? { absolutePath, size: stat.size } : null;
    } catch {
      return null;
    }
  }

  /** Closes the page files it opened. */
  close(): void {
    for (const fd of this.files.values()) fs.closeSync(fd);
    this.files.clear();
  }
}

/** The source crawl's settings, once it is known to be replayable. @throws ReplayError */
export async function checkReplayable(db: Db, crawlId: number): Promise<CrawlConfig> {
  const crawl = await db.crawl.findUnique({ where: { id: crawlId }, select: { status: true } });
  if (!crawl) throw new ReplayError(`crawl ${crawlId} not found`);
  switch (crawl.status) {
    case "finished":
      break;
    case "queued":
    case "running":
    case "paused":
      throw new ReplayError(`crawl ${crawlId} is still ${crawl.status}: replay needs a finished crawl`);
    case "cancelled":
      throw new ReplayError(`crawl ${crawlId} was cancelled (its files were discarded): replay needs a finished crawl`);
    default:
      throw new ReplayError(`crawl ${crawlId} ${crawl.status === "failed" ? "failed" : `is ${crawl.status}`}: replay needs a finished crawl`);
  }
  const body = await db.storedBody.findFirst({ where: { crawlId }, select: { sha256: true } });
  if (!body) throw new ReplayError(`crawl ${crawlId} kept no page bodies: it cannot be replayed`);
  try {
    return await loadCrawlConfig(db, crawlId);
  } catch (error) {
    throw new ReplayError(`crawl ${crawlId} has unreadable settings: ${error instanceof Error ? error.message : String(error)}`);
  }
}
