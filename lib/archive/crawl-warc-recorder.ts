import type { CrawlConfig } from "../crawl-config";
import { DEFAULT_USER_AGENT } from "../crawler/fetch/http-fetcher";
import { FORAGE_SOFTWARE } from "./software";
import { WarcExchangeRecorder } from "./warc-exchange-recorder";
import { storageFor } from "../storage/storage-for";
import { crawlWarcDir, crawlWarcKeyPrefix } from "./warc-paths";


/**
 * The web archive of one run of a stored crawl: files `forage-<id>-<time>-<n>.warc.gz` under
 * `<dataDir>/crawls/<id>/warc/`, each opening with a `warcinfo` record naming the software, the
 * crawl's settings and its robots policy. Null when the crawl keeps no archive. With a bucket as
 * the storage, the files are published there as they grow (see `WarcFileWriterOptions.publishTo`).
 */
export function openCrawlWarcRecorder(dataDir: string, crawlId: number, config: CrawlConfig): WarcExchangeRecorder | null {
  if (!config.archive.keepWarc) return null;
  const storage = storageFor(dataDir);
  return new WarcExchangeRecorder({
    dir: crawlWarcDir(dataDir, crawlId),
    prefix: `forage-${crawlId}`,
    maxFileBytes: config.archive.warcFileBytes,
    publishTo: storage.kind === "local" ? null : { storage, keyPrefix: crawlWarcKeyPrefix(crawlId) },
    warcinfo: () => ({
      software: FORAGE_SOFTWARE,
      format: "WARC File Format 1.1",
      conformsTo: "https://iipc.github.io/warc-specifications/specifications/warc-format/warc-1.1/",
      isPartOf: `forage crawl ${crawlId}`,
      description: `Crawl of ${config.rootUrl} (${config.strategy}, seed ${config.seed})`,
      robots: config.politeness.obeyRobots ? "obey" : "ignore",
      "http-header-user-agent": config.politeness.userAgent ?? DEFAULT_USER_AGENT,
      "forage-settings": JSON.stringify(config),
    }),
  });
}
