import { InvalidStateError } from "../../errors";
import { CrawlConfigError, type CrawlConfig } from "../../crawl-config";
import { isInSite, siteKey } from "../../crawler/url-rules";
import type { Db } from "../prisma-client";

/**
 * A re-crawl's `after` must name a finished crawl of the same site (same scheme, host and port):
 * its learned state and known files are about that site.
 * @throws CrawlConfigError (400, field `after`) for an unknown crawl or another site;
 *         InvalidStateError (409) for a crawl that is not finished.
 */
export async function checkPreviousCrawl(db: Db, config: Pick<CrawlConfig, "after" | "rootUrl">): Promise<void> {
  if (config.after === null) return;
  const previous = await db.crawl.findUnique({ where: { id: config.after }, select: { status: true, rootUrl: true, replayOfCrawlId: true } });
  if (!previous) throw new CrawlConfigError({ after: `names crawl ${config.after}, which does not exist` });
  if (previous.replayOfCrawlId !== null) throw new CrawlConfigError({ after: `names crawl ${config.after}, a replay: a re-crawl follows a crawl of the live site` });
  if (!isInSite(config.rootUrl, siteKey(previous.rootUrl))) {
    throw new CrawlConfigError({ after: `names crawl ${config.after} of ${previous.rootUrl}, another site than ${config.rootUrl}` });
  }
  if (previous.status !== "finished") throw new InvalidStateError(`after: crawl ${config.after} is ${previous.status}; a re-crawl starts from a finished crawl`);
}
