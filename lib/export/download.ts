import { NotFoundError } from "../errors";
import type { Db } from "../store/prisma-client";

/** A streamed download, ready for a `Response`. */
export interface Download {
  stream: ReadableStream<Uint8Array>;
  fileName: string;
  contentType: string;
  /** Known for single files; streamed exports have none (chunked transfer). */
  contentLength?: number;
}

/** What an export says about its crawl. */
export interface ExportedCrawl {
  id: number;
  name: string | null;
  rootUrl: string;
  status: string;
}

/** @throws NotFoundError before any byte is streamed, so an unknown crawl is a clean 404. */
export async function getExportedCrawl(db: Db, crawlId: number): Promise<ExportedCrawl> {
  const crawl = await db.crawl.findUnique({ where: { id: crawlId }, select: { id: true, name: true, rootUrl: true, status: true } });
  if (!crawl) throw new NotFoundError(`Crawl ${crawlId}`);
  return crawl;
}

/** `crawl-12-www.insee.fr` + suffix: says which crawl a file in the Downloads folder came from. */
export function exportFileName(crawl: ExportedCrawl, suffix: string): string {
  let host = "";
  try {
    host = new URL(crawl.rootUrl).hostname.replace(/[^a-z0-9.-]/gi, "");
  } catch {
    // keep the id alone
  }
  return `crawl-${crawl.id}${host ? `-${host}` : ""}${suffix}`;
}

/** Joins small pieces into chunks of about `size` characters: one write per row would be slow. */
export async function* batched(pieces: AsyncIterable<string>, size = 64 * 1024): AsyncGenerator<string> {
  let buffer = "";
  for await (const piece of pieces) {
    buffer += piece;
    if (buffer.length >= size) {
      yield buffer;
      buffer = "";
    }
  }
  if (buffer) yield buffer;
}
