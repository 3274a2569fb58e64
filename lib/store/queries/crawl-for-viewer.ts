import type { UserView } from "../../auth/users";
import type { CrawlDetail } from "./get-crawl";

/**
 * A crawl as this user may see it: `workerId` is the worker's host name and PID (e.g.
 * "crawler-3:4242"), which only admins see, as on the Workers page; members get null.
 */
export function crawlForViewer(crawl: CrawlDetail, viewer: Pick<UserView, "role">): CrawlDetail {
  return viewer.role === "admin" ? crawl : { ...crawl, workerId: null };
}
