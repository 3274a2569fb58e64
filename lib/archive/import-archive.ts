/**
 * `forage import`: a web archive written by another crawler (Heritrix, Browsertrix, `wget
 * --warc-file`, or Forage) becomes a finished crawl with the rows a Forage crawl leaves: one
 * request row per archived response (robots.txt rows as robots fetches), HTML bodies in page
 * packs, target files on disk. `forage replay <id>` then compares strategies on it offline;
 * URLs the archive lacks answer "not archived" as for any replay.
 *
 * Two passes over the archive (warcio's parser, which undoes chunking and content coding): the
 * first pairs request records with responses (to know HEADs), the second writes the rows.
 */
import { parseCrawlConfig, type CrawlConfig } from "../crawl-config";
import type { ForageConfig } from "../config";
import type { RequestRow } from "../crawler/engine/types";
import { effectiveMime } from "../crawler/fetch/effective-mime";
import { parseMime } from "../crawler/fetch/http-fetcher";
import { createBatchWriter, DatabaseCrawlSink } from "../store/database-crawl-sink";
import { insertCrawl } from "../store/insert-crawl";
import type { Db } from "../store/prisma-client";
import { WARCParser, type WARCRecord } from "warcio";
import { archiveSources, type ArchiveSource } from "./archive-sources";

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

/** An archive that cannot become a crawl (no HTTP response in it, no root URL). */
export class ImportError extends Error {
  override name = "ImportError";
}

export async function importWebArchive(options: ImportOptions): Promise<ImportResult> {
  const sources = await archiveSources(options.file);
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
  const crawlId = await insertCrawl(options.db, config);
  const sink = new DatabaseCrawlSink(createBatchWriter(options.db, options.forage), crawlId, options.forage.dataDir);
  const result: ImportResult = { crawlId, requests: 0, pages: 0, targets: 0, skipped: 0 };
  const targetMimes = new Set(config.targetMimeTypes);
  let targetBytes = 0;
  let otherBytes = 0;
  try {
    for (const source of sources) {
      for await (const record of new WARCParser(source.open(), { keepHeadersCase: true })) {
        const type = record.warcType;
        if ((type !== "response" && type !== "revisit") || !record.httpHeaders || !record.warcTargetURI) {
          result.skipped += 1;
          continue;
        }
        const id = record.warcHeaders.headers.get("WARC-Record-ID") ?? "";
        const method = methods.get(id) ?? "GET";
        // The crawl's own limits: an archive is foreign input (a gzip bomb decodes to gigabytes).
        const row = await responseRow(record, method, Math.max(config.params.maxHtmlBytes, config.params.maxTargetBytes));
        if (!row) {
          result.skipped += 1;
          continue;
        }
        const { request, body } = row;
        request.seq = request.kind === "robots" ? 0 : ++result.requests;
        const ok = request.status !== null && request.status >= 200 && request.status < 300 && method === "GET" && body !== null;
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
    }
    if (result.pages === 0) throw new ImportError(`${options.file}: no HTML page answered 200 in the archive: nothing to replay`);
    sink.counters({ requests: result.requests, getRequests: result.requests, headRequests: 0, targets: result.targets, targetBytes, nonTargetBytes: otherBytes, errors: 0, robotsSkips: 0, frontierSize: 0, groups: 0, activeMs: 0 });
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
        // The budget of replays defaults to the source's: every archived request.
        config: JSON.stringify({ ...config, budget: { ...config.budget, requests: Math.max(1, result.requests) } } satisfies CrawlConfig),
      },
    });
    return result;
  } catch (error) {
    await options.db.crawl.update({ where: { id: crawlId }, data: { status: "failed", stopReason: "failed", stopDetail: String(error instanceof Error ? error.message : error).slice(0, 500), finishedAt: new Date() } }).catch(() => undefined);
    throw error;
  } finally {
    sink.close();
  }
}

/** Response record id → the method of its request record ("HEAD" or "GET"), paired by WARC-Concurrent-To either way. */
async function requestMethods(sources: ArchiveSource[]): Promise<Map<string, "GET" | "HEAD">> {
  const methods = new Map<string, "GET" | "HEAD">();
  const requestMethod = new Map<string, "GET" | "HEAD">();
  const responseLinks: [string, string[]][] = [];
  for (const source of sources) {
    for await (const record of new WARCParser(source.open(), { keepHeadersCase: true })) {
      const id = record.warcHeaders.headers.get("WARC-Record-ID") ?? "";
      const concurrent = [record.warcConcurrentTo ?? []].flat();
      if (record.warcType === "request") {
        const method = record.httpHeaders?.method === "HEAD" ? "HEAD" : "GET";
        requestMethod.set(id, method);
        for (const other of concurrent) methods.set(other, method);
      } else if (record.warcType === "response" || record.warcType === "revisit") {
        if (concurrent.length > 0) responseLinks.push([id, concurrent]);
      }
      await record.skipFully();
    }
  }
  for (const [id, links] of responseLinks) {
    const method = links.map((link) => requestMethod.get(link)).find((m) => m !== undefined);
    if (method && !methods.has(id)) methods.set(id, method);
  }
  return methods;
}

async function firstHtmlPage(sources: ArchiveSource[]): Promise<string | null> {
  for (const source of sources) {
    for await (const record of new WARCParser(source.open(), { keepHeadersCase: true })) {
      const info = record.warcType === "response" ? record.getResponseInfo() : null;
      if (info && Number(info.status) === 200 && parseMime(headerValue(record, "content-type") ?? "") === "text/html" && record.warcTargetURI) {
        return record.warcTargetURI;
      }
      await record.skipFully();
    }
  }
  return null;
}

/**
 * The payload with chunking and content coding undone (warcio's content reader), read up to
 * `limit` decoded bytes; past it the rest is skipped and `tooLarge` set. Null when unreadable.
 */
async function readDecodedBody(record: WARCRecord, limit: number): Promise<{ body: Buffer; bytes: number; tooLarge: boolean } | null> {
  const chunks: Buffer[] = [];
  let bytes = 0;
  try {
    for await (const chunk of record.contentReader) {
      bytes += chunk.length;
      if (bytes > limit) {
        await record.skipFully().catch(() => undefined);
        return { body: Buffer.alloc(0), bytes, tooLarge: true };
      }
      chunks.push(Buffer.from(chunk));
    }
  } catch {
    return null;
  }
  return { body: Buffer.concat(chunks, bytes), bytes, tooLarge: false };
}

/** A response header by name, whatever its case in the archive (warcio's case-keeping map is case-sensitive). */
function headerValue(record: WARCRecord, name: string): string | undefined {
  for (const [key, value] of (record.httpHeaders?.headers ?? []) as Iterable<[string, string]>) if (key.toLowerCase() === name) return value;
  return undefined;
}

/** The request row of an archived response, and its decoded body for a GET (null for a revisit or HEAD). */
async function responseRow(record: WARCRecord, method: "GET" | "HEAD", maxBodyBytes: number): Promise<{ request: RequestRow; body: Buffer | null } | null> {
  const url = record.warcTargetURI!;
  const info = record.getResponseInfo();
  if (!info) return null;
  const headers: Record<string, string> = {};
  let headerBytes = `HTTP/1.1 ${info.status} ${info.statusText ?? ""}\r\n`.length + 2;
  for (const [name, value] of record.httpHeaders!.headers as unknown as Iterable<[string, string]>) {
    const lower = name.toLowerCase();
    headerBytes += name.length + value.length + 4;
    // Forage's fetcher sees neither transfer coding nor, once decoded, the content coding.
    if (lower === "transfer-encoding" || lower === "content-encoding" || lower.startsWith("x-orig-")) continue;
    headers[lower] = headers[lower] === undefined ? value : `${headers[lower]}${lower === "set-cookie" ? "\n" : ", "}${value}`;
  }
  let mime = parseMime(headers["content-type"]);
  const status = Number(info.status);
  if (!Number.isInteger(status) || status < 100 || status > 999) return null;
  if (status >= 200 && status < 300) mime = effectiveMime(mime, url, headers["content-disposition"]);
  let body: Buffer | null = null;
  let wireBytes = 0;
  let tooLarge = false;
  if (record.warcType === "response" && method === "GET") {
    const read = await readDecodedBody(record, maxBodyBytes);
    if (read === null) return null;
    tooLarge = read.tooLarge;
    body = read.tooLarge ? null : read.body;
    wireBytes = read.bytes;
  } else {
    await record.skipFully();
  }
  if (body) headers["content-length"] = String(body.length);
  let location: string | null = null;
  if (headers.location) {
    try {
      location = new URL(headers.location.trim(), url).href;
    } catch {
      location = null;
    }
  }
  const isRedirect = status >= 300 && status < 400 && location !== null;
  const robots = new URL(url).pathname === "/robots.txt";
  const date = record.warcDate ? new Date(record.warcDate) : new Date();
  return {
    request: {
      seq: 0,
      kind: robots ? "robots" : "page",
      method,
      url,
      status,
      mime: mime || null,
      bytes: wireBytes + headerBytes,
      durationMs: 0,
      tagPath: null,
      groupId: null,
      depth: 0,
      referrer: null,
      isTarget: false,
      outcome: tooLarge ? "too-large" : isRedirect ? "redirect" : "ok",
      error: tooLarge ? `too-large: decoded body over the ${maxBodyBytes}-byte limit` : null,
      redirectTo: isRedirect ? location : null,
      headers: JSON.stringify(headers),
      bodySha256: null,
      startedAt: Number.isNaN(date.getTime()) ? new Date() : date,
    },
    body: record.warcType === "response" && method === "GET" ? body : null,
  };
}
