import type { CrawlConfigInput } from "@/lib/crawl-config";
import { DATA_FILES_MIME_TYPES, DOCUMENT_MIME_TYPES } from "@/lib/crawler/defaults";

/**
 * The one-click first crawl: the built-in demo website on this machine, fast (100 ms between
 * requests, so 2000 requests take a few minutes at most), collecting data files and documents.
 * The demo site listens on 127.0.0.1, which `npm start` adds to the server's network policy.
 */
export function demoCrawlSettings(demoPort: number): CrawlConfigInput {
  return {
    rootUrl: `http://127.0.0.1:${demoPort}/`,
    name: "Demo: statistics office",
    targetMimeTypes: [...new Set([...DATA_FILES_MIME_TYPES, ...DOCUMENT_MIME_TYPES])],
    budget: { requests: 2000 },
    politeness: { delayMs: 100 },
  };
}
