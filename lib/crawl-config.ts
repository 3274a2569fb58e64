/**
 * The crawl settings live in the crawler (lib/crawler/crawl-config.ts, built on
 * lib/crawler/settings-table.ts); this re-export keeps the path the modules outside the crawler
 * import them by. Code inside lib/crawler imports lib/crawler/crawl-config.ts directly.
 */
export * from "./crawler/crawl-config";
export * from "./crawler/stored-crawl-config";
