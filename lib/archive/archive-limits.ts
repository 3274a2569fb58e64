/**
 * What `forage import` accepts from an archive. An archive is foreign input: each limit is far
 * above what a crawler writes and far below what would take the process down.
 */
const KIB = 1024;
const MIB = 1024 * KIB;

export interface ArchiveLimits {
  /** ZIP entries of a WACZ: a crawl rotating 1 GB WARC files writes one entry per GB, plus a few indexes. @default 10000 */
  zipEntries: number;
  /** Inflated ÷ compressed size past which a deflated entry is a ZIP bomb (text deflates ~10×; deflate's ceiling is ~1032×). @default 100 */
  zipInflateRatio: number;
  /** Under this claimed size a deflated entry is never called a bomb (tiny entries have high ratios). @default 1 MiB */
  zipInflateFloorBytes: number;
  /** One WARC or HTTP header line (warcio's line reader has no cap of its own). @default 64 KiB */
  headerLineBytes: number;
  /** One record's head: the blank lines before it, its WARC header block and its HTTP header block. @default 1 MiB */
  recordHeadBytes: number;
}

export const ARCHIVE_LIMITS: ArchiveLimits = {
  zipEntries: 10_000,
  zipInflateRatio: 100,
  zipInflateFloorBytes: 1 * MIB,
  headerLineBytes: 64 * KIB,
  recordHeadBytes: 1 * MIB,
};
