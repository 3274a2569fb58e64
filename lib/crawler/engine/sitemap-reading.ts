import { MAX_SITEMAP_BYTES, MAX_SITEMAP_URLS, parseSitemap, sitemapText } from "../sitemap-parser";
import { isInSite, normalizeUrl } from "../url-rules";
import type { EngineServices } from "./engine-services";
import type { RequestContext } from "./request-runner";
import type { ApplicationFile } from "./site-applications";
import type { FrontierLink } from "./types";

/** The tag path of the links a sitemap lists: not a path of any page, so they form an action of their own. */
export const SITEMAP_TAG_PATH = "/sitemap";

/**
 * Sitemap files read per crawl at most: 1 % of the request budget (at least 1, at most 1 000), so
 * that a site with thousands of sitemap files (one per day of an archive) cannot spend the budget
 * on them; index files list the newest first.
 */
export function sitemapFileCap(budgetRequests: number): number {
  return Math.min(1000, Math.max(1, Math.floor(budgetRequests / 100)));
}

/** The site's sitemaps as a link source of the SB strategies, read once after the root page. */
export class SitemapReading {
  constructor(
    private readonly engine: EngineServices,
    /** Whether a re-crawl's known page, dated by the sitemap, changed since the previous run (application-crawling.ts). */
    private readonly listedAsChanged: (file: ApplicationFile) => boolean,
  ) {}

  /** Sitemaps are a link source of the SB strategies (`useSitemaps`): their bandit learns whether the sitemap action pays. */
  get enabled(): boolean {
    const { strategy, params } = this.engine.parts.config;
    return params.useSitemaps && (strategy === "sb" || strategy === "sb-oracle");
  }

  /**
   * After the root page: the sitemaps robots.txt names (`Sitemap:` lines), else `/sitemap.xml`,
   * and the sitemaps their index files name, newest `lastmod` first, each one counted GET (with
   * redirects) within {@link sitemapFileCap} files. Every new in-site URL they list enters the
   * frontier untyped, under the tag path {@link SITEMAP_TAG_PATH}: one action of its own (and
   * split by URL shape like any other), so the bandit learns whether the sitemap pays.
   */
  async read(root: FrontierLink): Promise<void> {
    const listed = (await this.engine.parts.runner.sitemapsListed(this.engine.parts.config.rootUrl)).filter((url) => isInSite(url, this.engine.site));
    const queue = listed.length > 0 ? listed : [new URL("/sitemap.xml", this.engine.parts.config.rootUrl).toString()];
    const read = new Set<string>();
    let filed = 0;
    const cap = sitemapFileCap(this.engine.parts.config.budget.requests);
    while (queue.length > 0 && read.size < cap && this.engine.parts.budget.canRequest() && !this.engine.parts.signal.aborted) {
      const url = queue.shift()!;
      if (read.has(url)) continue;
      read.add(url);
      const context: RequestContext = { kind: "sitemap", tagPath: SITEMAP_TAG_PATH, groupId: null, depth: 1, referrer: root.url };
      const final = await this.engine.getFollowingRedirects(url, context, "sitemap");
      const response = final?.outcome.result;
      if (!final || !final.inSite || !response?.body || response.status < 200 || response.status >= 300) continue;
      // Gunzipped on libuv's pool (sitemap-parser.ts says why it is asynchronous): no engine time to meter.
      const text = await sitemapText(response.body!);
      if (!text) continue;
      const sitemap = this.engine.parts.meter.time(() => parseSitemap(text.text));
      if (text.truncated || sitemap.truncated) this.engine.limitEvents.sitemapCut(final.url, MAX_SITEMAP_URLS, MAX_SITEMAP_BYTES);
      if (sitemap.kind === "index") {
        for (const entry of sitemap.entries) if (isInSite(entry.url, this.engine.site) && !read.has(entry.url)) queue.push(entry.url);
        continue;
      }
      this.engine.parts.meter.start();
      for (const entry of sitemap.entries) {
        const link = normalizeUrl(entry.url, final.url);
        if (!link || this.engine.parts.links.has(link) || !this.engine.acceptable(link, "link")) continue;
        // A known page the sitemap dates after the previous run started: revisited among the first.
        if (this.engine.parts.recrawl && this.listedAsChanged({ url: link, modified: entry.lastmod ?? undefined })) this.engine.parts.recrawl.changedBySite(link);
        // A re-crawl's known files and the pages its previous runs saw keep their own handling (recrawl.ts), met on pages.
        if (this.engine.parts.recrawl && (this.engine.parts.recrawl.knownFile(link) || this.engine.parts.recrawl.seenByPreviousRuns(link))) continue;
        if (this.engine.parts.links.full) {
          this.engine.limitEvents.seenSetFull(this.engine.parts.links.maxSeen);
          break;
        }
        this.engine.parts.links.markSeen(link);
        this.engine.parts.strategy.add(this.engine.parts.links.createLink({ url: link, tagPath: SITEMAP_TAG_PATH, anchorText: "", depth: 1, referrer: final.url, groupId: null }));
        filed += 1;
      }
      this.engine.parts.meter.stop();
    }
    if (filed > 0) {
      this.engine.parts.sink.event({
        level: "info",
        kind: "sitemap-read",
        message: `Read ${read.size} sitemap file${read.size === 1 ? "" : "s"}: ${filed} new URLs wait in the frontier as the group "${SITEMAP_TAG_PATH}"`,
        data: { files: read.size, urls: filed },
      });
    }
  }
}
