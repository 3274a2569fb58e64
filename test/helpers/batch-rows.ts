import type { RequestRow } from "../../lib/crawler/engine/types";
import type { Db } from "../../lib/store";

/** A running crawl row whose lease `holder` holds for a minute: what a batch writer checks before writing. */
export async function heldCrawl(db: Db, holder: string): Promise<number> {
  const crawl = await db.crawl.create({
    data: { rootUrl: "http://127.0.0.1/", config: "{}", strategy: "sb", seed: 1, status: "running", workerId: holder, leaseExpiresAt: new Date(Date.now() + 60_000) },
  });
  return crawl.id;
}

/** A request-log row of a page, numbered `seq`. */
export function requestRow(seq: number): RequestRow {
  return {
    seq, kind: "page", method: "GET", url: `http://127.0.0.1/${seq}`, status: 200, mime: "text/html", bytes: 10, durationMs: 1, tagPath: null, groupId: null,
    depth: 0, referrer: null, isTarget: false, outcome: "ok", error: null, redirectTo: null, headers: null, bodySha256: null, startedAt: new Date(),
  };
}
