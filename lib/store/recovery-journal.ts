import fs from "node:fs";
import path from "node:path";
import type { LoggedAnswer, RecoveryLog } from "../crawler/fetch/recovering-fetcher";
import type { FetchMethod, FetchOutcome } from "../crawler/fetch/types";
import { checkpointLastRowId } from "./checkpoint-store";
import { decodePackedBody } from "./page-bodies";
import type { Db } from "./prisma-client";
import { pipeline } from "node:stream/promises";
import { readGrowingObject } from "../storage/growing-object";
import type { ObjectStorage } from "../storage/object-storage";
import { storageFor } from "../storage/storage-for";
import { crawlFolder } from "./target-files";

/**
 * The request log as the crawl's journal. The rows a crash rolls back (written after the
 * checkpoint, every 250 ms) record every answer the site gave since: status, headers, outcome,
 * Location, the HTML body in the page packs, the target body in the content-addressed files.
 * Read before the rollback, they let the resumed crawl, which repeats the same requests, have
 * them answered from here instead of by the site (RecoveringFetcher): a kill -9 then costs the
 * site only what the last unwritten batch had done.
 *
 * Target files of those rows are hard-linked into `crawls/<id>/recovery/` first (copied where
 * links are refused): the rollback removes the files no remaining Target row names, and the
 * recovery streams them back into the store as the crawl downloads them again. With a shared
 * bucket as the storage (the crawl may have run on another machine), those files are downloaded
 * there instead, and the rows' pages read from the bucket up front.
 */

/** Where kept target bodies wait, relative to the crawl's folder. */
const RECOVERY_DIR = "recovery";

/**
 * The counted requests written after the checkpoint's rows (in the order they were made), with
 * their bodies made readable. Call before `rollBackToCheckpoint`; `release()` the result.
 */
export async function loadRecoveryLog(db: Db, dataDir: string, crawlId: number, requestRows: number): Promise<RecoveryLog> {
  const keptDir = path.join(dataDir, crawlFolder(crawlId), RECOVERY_DIR);
  fs.rmSync(keptDir, { recursive: true, force: true }); // left by a crash during an earlier recovery
  const lastId = await checkpointLastRowId(db, crawlId, requestRows);
  if (lastId === null) return { answers: [], release: () => undefined };
  const rows = await db.$queryRaw<Array<Record<string, unknown>>>`
    SELECT r."method", r."url", r."status", r."mime", r."headers", r."outcome", r."error", r."bytes",
           r."durationMs", r."isTarget", b."storagePath" AS "bodyPath", b."offset" AS "bodyOffset",
           b."compressedBytes" AS "bodyCompressedBytes", t."sha256" AS "targetSha256"
    FROM "CrawlRequest" r
    LEFT JOIN "StoredBody" b ON b."crawlId" = r."crawlId" AND b."sha256" = r."bodySha256"
    LEFT JOIN "Target" t ON t."crawlId" = r."crawlId" AND t."url" = r."url" AND r."method" = 'GET'
    WHERE r."crawlId" = ${crawlId} AND r."id" > ${lastId} AND r."seq" > 0
    ORDER BY r."id"`;
  const storage = storageFor(dataDir);
  // With a shared bucket the crawl may have run on another machine: what the log's answers need
  // (their pages, their target files) is read from the bucket now, nothing else of the crawl.
  const packs: BodyReader = storage.kind === "local" ? new PackReader(dataDir) : await prefetchBodies(storage, rows);
  const keeper: Keeper = storage.kind === "local" ? new TargetKeeper(path.join(dataDir, crawlFolder(crawlId), "files"), keptDir) : await downloadTargets(storage, rows, crawlId, keptDir);
  const answers = rows.map((row) => toAnswer(row, packs, keeper));
  let released = false;
  return {
    answers,
    release() {
      if (released) return;
      released = true;
      packs.close();
      fs.rmSync(keptDir, { recursive: true, force: true });
    },
  };
}

interface BodyReader {
  read(storagePath: string, offset: number, compressedBytes: number): Buffer;
  close(): void;
}

interface Keeper {
  keep(sha256: string): string | null;
}

/** The page bodies the rows name, read from the storage (ranged reads) and decoded up front. */
async function prefetchBodies(storage: ObjectStorage, rows: Array<Record<string, unknown>>): Promise<BodyReader> {
  const bodies = new Map<string, Buffer>();
  const id = (storagePath: string, offset: number) => `${offset}@${storagePath}`;
  for (const row of rows) {
    if (row.bodyPath === null || row.bodyPath === undefined || row.bodyOffset === null || row.bodyCompressedBytes === null) continue;
    const storagePath = String(row.bodyPath);
    const offset = Number(row.bodyOffset);
    if (bodies.has(id(storagePath, offset))) continue;
    const packed = await readGrowingObject(storage, storagePath.split(path.sep).join("/"), { offset, length: Number(row.bodyCompressedBytes) });
    bodies.set(id(storagePath, offset), decodePackedBody(storagePath, packed));
  }
  return {
    read(storagePath, offset) {
      const body = bodies.get(id(storagePath, offset));
      if (!body) throw new Error(`stored page ${storagePath} at ${offset} was not read`);
      return body;
    },
    close: () => bodies.clear(),
  };
}

/** The target files the rows name, downloaded from the storage into the recovery folder; a missing one is null. */
async function downloadTargets(storage: ObjectStorage, rows: Array<Record<string, unknown>>, crawlId: number, keptDir: string): Promise<Keeper> {
  const kept = new Map<string, string | null>();
  for (const row of rows) {
    const sha256 = row.targetSha256 === null || row.targetSha256 === undefined ? null : String(row.targetSha256);
    if (!row.isTarget || sha256 === null || kept.has(sha256) || !/^[0-9a-f]{64}$/.test(sha256)) continue;
    const file = path.join(keptDir, sha256);
    try {
      fs.mkdirSync(keptDir, { recursive: true });
      await pipeline(await storage.get(`${crawlFolder(crawlId).split(path.sep).join("/")}/files/${sha256}`), fs.createWriteStream(file));
      kept.set(sha256, file);
    } catch {
      fs.rmSync(file, { force: true });
      kept.set(sha256, null);
    }
  }
  return { keep: (sha256) => kept.get(sha256) ?? null };
}

function toAnswer(row: Record<string, unknown>, packs: BodyReader, keeper: Keeper): LoggedAnswer {
  const text = (value: unknown) => (value === null || value === undefined ? null : String(value));
  const int = (value: unknown) => (value === null || value === undefined ? null : Number(value));
  const outcome = String(row.outcome);
  const error = text(row.error);
  const code = error === null ? null : (error.split(":", 1)[0] ?? "").trim();
  const bodyPath = text(row.bodyPath);
  const bodyOffset = int(row.bodyOffset);
  const bodyCompressedBytes = int(row.bodyCompressedBytes);
  const targetSha256 = text(row.targetSha256);
  return {
    method: String(row.method) as FetchMethod,
    url: String(row.url),
    status: int(row.status) ?? 0,
    mime: text(row.mime) ?? "",
    headers: parseHeaders(text(row.headers)),
    // The log writes "redirect" for an answer that was "ok" with a Location.
    outcome: (outcome === "redirect" ? "ok" : outcome) as FetchOutcome,
    error: error === null || code === null ? null : { code, message: error.slice(code.length + 1).trim() },
    bytes: int(row.bytes) ?? 0,
    durationMs: int(row.durationMs) ?? 0,
    readPage: bodyPath !== null && bodyOffset !== null && bodyCompressedBytes !== null ? () => packs.read(bodyPath, bodyOffset, bodyCompressedBytes) : null,
    targetFile: Boolean(row.isTarget) && targetSha256 !== null ? keeper.keep(targetSha256) : null,
  };
}

/** Headers as the fetcher reported them; null when the row has none (the crawl kept no headers). */
function parseHeaders(json: string | null): Record<string, string> | null {
  if (json === null) return null;
  try {
    const parsed: unknown = JSON.parse(json);
    if (!parsed || typeof parsed !== "object") return null;
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(parsed)) if (typeof value === "string") headers[name] = value;
    return headers;
  } catch {
    return null;
  }
}

/** Page pack or WARC files, each opened once and read synchronously (a page a request: as the replay fetcher does). */
class PackReader {
  private readonly fds = new Map<string, number>();

  constructor(private readonly dataDir: string) {}

  read(storagePath: string, offset: number, compressedBytes: number): Buffer {
    let fd = this.fds.get(storagePath);
    if (fd === undefined) {
      fd = fs.openSync(path.join(this.dataDir, storagePath), "r");
      this.fds.set(storagePath, fd);
    }
    const buffer = Buffer.alloc(compressedBytes);
    if (fs.readSync(fd, buffer, 0, compressedBytes, offset) !== compressedBytes) throw new Error(`stored page file ${storagePath} is truncated`);
    return decodePackedBody(storagePath, buffer);
  }

  close(): void {
    for (const fd of this.fds.values()) fs.closeSync(fd);
    this.fds.clear();
  }
}

/** Keeps target files out of the rollback's reach: a hard link (no copy) in the recovery folder. */
class TargetKeeper {
  private readonly kept = new Map<string, string | null>();

  constructor(
    private readonly filesDir: string,
    private readonly keptDir: string,
  ) {}

  /** The kept file's path; null when the file is gone. */
  keep(sha256: string): string | null {
    const known = this.kept.get(sha256);
    if (known !== undefined) return known;
    if (!/^[0-9a-f]{64}$/.test(sha256)) return null;
    const source = path.join(this.filesDir, sha256);
    const kept = path.join(this.keptDir, sha256);
    let result: string | null = kept;
    try {
      fs.mkdirSync(this.keptDir, { recursive: true });
      try {
        fs.linkSync(source, kept);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") throw error;
        fs.copyFileSync(source, kept);
      }
    } catch {
      result = null;
    }
    this.kept.set(sha256, result);
    return result;
  }
}
