/**
 * `forage import`: a web archive written by another crawler (Heritrix, Browsertrix, `wget
 * --warc-file`, or Forage) becomes a finished crawl with the rows a Forage crawl leaves: one
 * request row per archived response (robots.txt rows as robots fetches), HTML bodies in page
 * packs, target files on disk. `forage replay <id>` then compares strategies on it offline;
 * URLs the archive lacks answer "not archived" as for any replay.
 *
 * Three passes over the archive (`archive-records`, warcio's parser under Forage's bounds): the
 * first pairs request records with responses (to know HEADs) and, reading every record's head
 * and skipping every body, refuses a malformed archive before any row exists; the second finds
 * the root page; the third writes the rows. A refusal after the crawl row exists (an archive
 * with nothing to replay, a body cut short) deletes the crawl and its files: a refused import
 * leaves nothing behind. Any other failure (the database, the disk) marks the crawl failed.
 */
import { parseCrawlConfig, type CrawlConfig } from "../crawl-config";
import type { ForageConfig } from "../config";
import { createBatchWriter, DatabaseCrawlSink } from "../store/database-crawl-sink";
import { deleteCrawl } from "../store/commands/delete-crawl";
import { insertCrawl } from "../store/insert-crawl";
import type { Db } from "../store/prisma-client";
import { CLI_LEASE_MS, cliHolderId, holdLease } from "../worker/leases";
import { archivedResponses, firstHtmlPage, requestMethods } from "./archive-records";
import { archiveSources } from "./archive-sources";
import { ImportError } from "./import-error";

export { ImportError } from "./import-error";

export interface ImportOptions {
  db: Db;
  forage: ForageConfig;
  /** A `.warc`, `.warc.gz` or `.wacz` file. */
  file: string;
  /** The crawl's root URL. @default the first HTML page answered 200 */
  rootUrl?: string;
  /** What counts as a target. @default Forage's default target types */
  targetMimeTypes?: readonly string[];
}

export interface ImportResult {
  crawlId: number;
  requests: number;
  pages: number;
  targets: number;
  /** Records other than HTTP responses (warcinfo, metadata, resources…) and responses that could not be read. */
  skipped: number;
}

export async function importWebArchive(options: ImportOptions): Promise<ImportResult> {
  const archive = await archiveSources(options.file);
  try {
    return await importSources(options, archive.sources);
  } finally {
    archive.close();
  }
}

async function importSources(options: ImportOptions, sources: Awaited<ReturnType<typeof archiveSources>>["sources"]): Promise<ImportResult> {
  const methods = await requestMethods(sources);
  const rootUrl = options.rootUrl ?? (await firstHtmlPage(sources));
  if (!rootUrl) throw new ImportError(`${options.file}: no HTML page answered 200 in the archive; give the crawl's root with --root URL`);
  const config = parseCrawlConfig({
    rootUrl,
    name: `Import of ${options.file.split(/[\\/]/).pop()}`,
    strategy: "bfs",
    seed: 1,
    ...(options.targetMimeTypes ? { targetMimeTypes: [...options.targetMimeTypes] } : {}),
    archive: { keepWarc: false },
    politeness: { delayMs: 0 },
  });
  // Held under this process's lease, as `forage crawl` does: a queued row would be claimed by a
  // worker and crawled live.
  const holderId = cliHolderId();
  const crawlId = await insertCrawl(options.db, config, { heldBy: { holderId, leaseMs: CLI_LEASE_MS } });
  const lease = holdLease(options.db, crawlId, holderId, CLI_LEASE_MS);
  const sink = new DatabaseCrawlSink(createBatchWriter(options.db, options.forage), crawlId, options.forage.dataDir);
  const result: ImportResult = { crawlId, requests: 0, pages: 0, targets: 0, skipped: 0 };
  const targetMimes = new Set(config.targetMimeTypes);
  let targetBytes = 0;
  let otherBytes = 0;
  try {
    // The crawl's own limits: an archive is foreign input (a gzip bomb decodes to gigabytes).
    for await (const row of archivedResponses(sources, methods, Math.max(config.params.maxHtmlBytes, config.params.maxTargetBytes))) {
      if (!row) {
        result.skipped += 1;
        continue;
      }
      const { request, body } = row;
      request.seq = request.kind === "robots" ? 0 : ++result.requests;
      const ok = request.status !== null && request.status >= 200 && request.status < 300 && request.method === "GET" && body !== null;
      if (ok && targetMimes.has(request.mime ?? "")) {
        const writer = sink.openTargetBody();
        writer.writable.end(body);
        const stored = await writer.commit();
        request.isTarget = true;
        request.kind = "target";
        sink.target({ url: request.url, mime: request.mime!, bytes: stored.bytes, sha256: stored.sha256, storagePath: stored.storagePath, sourceUrl: null, tagPath: null, groupId: null, requestSeq: request.seq, fetchedAt: request.startedAt });
        result.targets += 1;
      } else if (ok && (request.mime === "text/html" || request.mime === "application/xhtml+xml")) {
        request.bodySha256 = sink.pageBody(body);
        result.pages += 1;
      }
      if (request.isTarget) targetBytes += request.bytes;
      else otherBytes += request.bytes;
      sink.request(request);
      await sink.flushIfDue();
    }
    if (result.pages === 0) throw new ImportError(`${options.file}: no HTML page answered 200 in the archive: nothing to replay`);
    sink.counters({ requests: result.requests, getRequests: result.requests, headRequests: 0, targets: result.targets, targetBytes, nonTargetBytes: otherBytes, errors: 0, robotsSkips: 0, frontierSize: 0, groups: 0, activeMs: 0, renderedPages: 0 });
    sink.event({ level: "info", kind: "imported", message: `Imported from ${options.file}: ${result.requests} responses, ${result.pages} pages, ${result.targets} targets` });
    await sink.flush();
    await options.db.crawl.update({
      where: { id: crawlId },
      data: {
        status: "finished",
        stopReason: "site-exhausted",
        stopDetail: `imported from ${options.file.split(/[\\/]/).pop()}`,
        startedAt: new Date(),
        finishedAt: new Date(),
        workerId: null,
        leaseExpiresAt: null,
        // The budget of replays defaults to the source's: every archived request.
        config: JSON.stringify({ ...config, budget: { ...config.budget, requests: Math.max(1, result.requests) } } satisfies CrawlConfig),
      },
    });
    return result;
  } catch (error) {
    await sink.flush().catch(() => undefined);
    const message = String(error instanceof Error ? error.message : error).slice(0, 500);
    await options.db.crawl.update({ where: { id: crawlId }, data: { status: "failed", stopReason: "failed", stopDetail: message, finishedAt: new Date(), workerId: null, leaseExpiresAt: null } }).catch(() => undefined);
    if (error instanceof ImportError) await deleteCrawl(options.db, options.forage, crawlId).catch(() => undefined);
    throw error;
  } finally {
    lease.stop();
    sink.close();
  }
}
