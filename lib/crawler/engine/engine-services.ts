import type { ExtractedLink } from "../links";
import type { SiteKey } from "../url-rules";
import type { FetchResult } from "../fetch/types";
import type { CrawlEngineParts } from "./engine-parts";
import type { LimitEvents } from "./limit-events";
import type { RequestContext, RequestOutcome } from "./request-runner";
import type { ApplicationFile } from "./site-applications";
import type { FrontierLink } from "./types";

/** Where a GET ended after its redirects: the last answer, its URL, and whether it came from the site. */
export interface FollowedRedirects {
  outcome: RequestOutcome;
  url: string;
  inSite: boolean;
}

/** What typing a new link found: a page, a target, neither, or a target its typing request already downloaded. */
export type LinkType = "html" | "target" | "neither" | "downloaded";

/**
 * What the engine lends the parts of a pull that live in modules of their own (sitemaps, an
 * application's enumerations, a re-crawl's known files): its parts and the few steps every
 * request of a crawl goes through, so that each part requests, types and keeps files exactly as
 * the loop does (crawl-engine.ts says what each step does).
 */
export interface EngineServices {
  readonly parts: CrawlEngineParts;
  readonly site: SiteKey;
  readonly limitEvents: LimitEvents;
  /** A counted GET with its redirects followed hop by hop; null when nothing usable came back. */
  getFollowingRedirects(url: string, context: RequestContext, plan: "page" | "target" | "sitemap" | "api"): Promise<FollowedRedirects | null>;
  /** The site boundary, trap filters and blocklists for a link found on a page, or for a redirect's target. */
  acceptable(url: string, source: "link" | "redirect"): boolean;
  /** Types a new link by a HEAD request (with a GET check when the HEAD answer is doubtful). */
  typeLink(link: ExtractedLink, page: FrontierLink): Promise<LinkType>;
  /** Feeds the dead-shape filter with the answer a link got. */
  recordShape(url: string, response: FetchResult, isTarget: boolean, answeredInSite: boolean): void;
  /** Labels a fetched link's URL for the URL classifier. */
  labelFetched(linkUrl: string, finalUrl: string, type: "html" | "target"): void;
  /** Counts and reports a stored target; false when its body could not be kept. */
  recordTarget(outcome: RequestOutcome, url: string, link: FrontierLink, sourceUrl?: string | null, record?: ApplicationFile["record"] | null): boolean;
}
