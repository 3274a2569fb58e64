/**
 * What offline replay reads of a stored crawl, and nothing else: its request log, one stored
 * attempt at a time, the HTML bodies it kept and the target files it collected. The replay
 * fetcher and index answer from it; where those live (database rows, page packs or WARC files,
 * the crawl's data folder) is the implementation's business (lib/store/replay-source.ts).
 */
export interface ReplaySource {
  /** Up to `take` rows of the request log with an id above `afterId`, by id (insertion order). */
  requestLog(afterId: number, take: number): Promise<ReplayLogRow[]>;
  /** One stored attempt with where its body lies; null when the row is gone. */
  attempt(id: number): Promise<StoredAttempt | null>;
  /** The decoded HTML body kept at `page`. @throws when the stored file is missing or damaged */
  pageBody(page: StoredPageLocation): Buffer;
  /** The collected target file on disk, or null when it is not there (any more). */
  targetFile(storagePath: string): { absolutePath: string; size: number } | null;
  /** Releases what reading opened (files kept open between pages). */
  close(): void;
}

/** A request-log row as the replay index reads it. */
export interface ReplayLogRow {
  id: number;
  seq: number;
  kind: string;
  method: string;
  url: string;
  status: number | null;
  mime: string | null;
  outcome: string;
  error: string | null;
  redirectTo: string | null;
  bodySha256: string | null;
}

/** Where a kept HTML body lies: a member of a page pack or WARC file, at `offset`, `compressedBytes` long. */
export interface StoredPageLocation {
  storagePath: string;
  offset: number;
  compressedBytes: number;
}

/** A stored attempt with what replaying it needs. */
export interface StoredAttempt {
  status: number | null;
  mime: string | null;
  /** The response headers as stored (JSON object). */
  headers: string | null;
  outcome: string;
  error: string | null;
  redirectTo: string | null;
  /** Bytes on the wire, headers included. */
  bytes: number;
  /** The HTML body kept with this attempt, if any. */
  page: StoredPageLocation | null;
  /** The target file collected from this URL (GET attempts only), with the MIME type it was stored under. */
  target: { storagePath: string; mime: string | null } | null;
}
