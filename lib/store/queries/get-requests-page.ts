import type { RequestRow } from "../../crawler/engine/types";
import type { Db } from "../prisma-client";
import { toPage } from "./paging";
import { requireCrawl } from "./require-crawl";

/** Outcomes the worker records on a request (prisma/schema.prisma `CrawlRequest.outcome`). */
export const REQUEST_OUTCOMES = ["ok", "blocked-mime", "too-large", "error", "robots-disallowed", "redirect"] as const;
export type RequestOutcome = (typeof REQUEST_OUTCOMES)[number];

/** One line of the request log (docs/API.md `RequestRow`). */
export type RequestRowView = Omit<RequestRow, "kind" | "method" | "outcome" | "headers" | "bodySha256" | "startedAt"> & {
  id: number;
  /** As stored (the engine writes `RequestKind`, `"GET" | "HEAD"`, `RequestOutcome`). */
  kind: string;
  method: string;
  outcome: string;
  startedAt: string;
};

/** The columns of `RequestRowView` (not `headers`, which can be kilobytes per row). */
export const requestRowSelect = {
  id: true, seq: true, kind: true, method: true, url: true, status: true, mime: true, bytes: true,
  durationMs: true, tagPath: true, groupId: true, depth: true, referrer: true, isTarget: true,
  outcome: true, error: true, redirectTo: true, startedAt: true,
} as const;

export interface RequestsPageOptions {
  /** The previous page's `nextCursor`. */
  cursor?: number;
  /** @default 100 */
  limit?: number;
  outcome?: RequestOutcome;
}

/**
 * The request log, newest first, a page at a time; the cursor is the last (smallest) id
 * seen, so new requests arriving at the top never shift the pages being read.
 * @throws NotFoundError when the crawl does not exist.
 */
export async function getRequestsPage(
  db: Db,
  crawlId: number,
  { cursor, limit = 100, outcome }: RequestsPageOptions = {},
): Promise<{ requests: RequestRowView[]; nextCursor: string | null }> {
  await requireCrawl(db, crawlId);
  const rows = await db.crawlRequest.findMany({
    where: { crawlId, ...(cursor !== undefined ? { id: { lt: cursor } } : {}), ...(outcome ? { outcome } : {}) },
    orderBy: { id: "desc" },
    take: limit + 1,
    select: requestRowSelect,
  });
  const page = toPage(rows, limit);
  return { requests: page.items.map(toRequestRowView), nextCursor: page.nextCursor };
}

export function toRequestRowView(row: Omit<RequestRowView, "startedAt"> & { startedAt: Date }): RequestRowView {
  return { ...row, startedAt: row.startedAt.toISOString() };
}
