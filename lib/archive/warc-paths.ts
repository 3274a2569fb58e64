import path from "node:path";

/** Where a crawl's WARC files and their CDXJ sidecars live: `<dataDir>/crawls/<id>/warc/`. */
export function crawlWarcDir(dataDir: string, crawlId: number): string {
  return path.join(dataDir, "crawls", String(crawlId), "warc");
}

export const WARC_SUFFIX = ".warc.gz";
/** Each WARC file's index, written as its records land (unsorted; sorted on export). */
export const CDXJ_SIDECAR_SUFFIX = ".cdxj";

/** The storage key prefix of a crawl's WARC files and sidecars: `crawls/<id>/warc`. */
export function crawlWarcKeyPrefix(crawlId: number): string {
  return `crawls/${crawlId}/warc`;
}
