import type { Db } from "../store/prisma-client";
import { requestRowSelect, toRequestRowView, type RequestRowView } from "../store/queries/get-requests-page";
import { csvLine } from "./csv";
import { batched, exportFileName, getExportedCrawl, type Download } from "./download";
import { textStream } from "./web-stream";

/** Request log columns, in order: the API's `RequestRow`. */
export const REQUEST_LOG_COLUMNS = [
  "id", "seq", "kind", "method", "url", "status", "mime", "bytes", "durationMs", "tagPath", "groupId", "depth",
  "referrer", "isTarget", "outcome", "error", "redirectTo", "startedAt",
] as const satisfies readonly (keyof RequestRowView)[];

/** Rows per database page. */
const PAGE_SIZE = 1000;

/**
 * The whole request log as CSV, oldest first, streamed a database page at a time (paged by
 * id, up to the last request that existed when the download started: a running crawl's
 * newer requests belong to the next download).
 * @throws NotFoundError when the crawl does not exist.
 */
export async function streamRequestLogCsv(db: Db, crawlId: number): Promise<Download> {
  const crawl = await getExportedCrawl(db, crawlId);
  const last = await db.crawlRequest.findFirst({ where: { crawlId }, orderBy: { id: "desc" }, select: { id: true } });
  return {
    stream: textStream(batched(requestLogLines(db, crawlId, last?.id ?? 0))),
    fileName: exportFileName(crawl, "-requests.csv"),
    contentType: "text/csv; charset=utf-8; header=present",
  };
}

async function* requestLogLines(db: Db, crawlId: number, upToId: number): AsyncGenerator<string> {
  yield csvLine(REQUEST_LOG_COLUMNS);
  let cursor = 0;
  while (cursor < upToId) {
    const rows = await db.crawlRequest.findMany({
      where: { crawlId, id: { gt: cursor, lte: upToId } },
      orderBy: { id: "asc" },
      take: PAGE_SIZE,
      select: requestRowSelect,
    });
    if (rows.length === 0) return;
    for (const row of rows) {
      const view = toRequestRowView(row);
      yield csvLine(REQUEST_LOG_COLUMNS.map((column) => view[column]));
    }
    cursor = rows[rows.length - 1]!.id;
  }
}
