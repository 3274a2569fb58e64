import { compileUrlPatterns, hasBlockedExtension, isInSite, isTrapUrl, siteKey, type SiteKey, type UrlMatcher } from "../url-rules";
import type { CrawlEngineParts } from "./engine-parts";

/**
 * Whether a URL may be requested at all, before any request (ALGORITHM.md "Download and
 * filters"): the site boundary, the robot-trap filters, the user's blocklists and URL patterns
 * (which live settings may change while links wait), and the `avoid` list of the application
 * behind the site.
 */
export class LinkAcceptance {
  readonly site: SiteKey;
  private readonly blockedExtensions: ReadonlySet<string>;
  private patternsSource: readonly string[] = [];
  private patterns: UrlMatcher = () => false;

  constructor(private readonly parts: Pick<CrawlEngineParts, "config" | "urlPatterns" | "applications">) {
    this.site = siteKey(parts.config.rootUrl);
    this.blockedExtensions = new Set(parts.config.blocklist.extensions);
  }

  /**
   * A link found on a page, or a redirect's Location. A redirect skips the robot-trap filters,
   * which are for links found on pages: the server chose it, and the chain is bounded
   * (maxRedirects, seen URLs). Pre-signed download URLs (S3 / MinIO `X-Amz-…` queries) run 400+
   * characters and failed the length rule, so a forge's or a portal's download that answered 302
   * to its store was never fetched.
   *
   * A redirect may lead to another host: a link of the site that redirects to a CDN, an S3 bucket,
   * GitHub's release storage is followed there, as Heritrix follows redirects out of scope,
   * whether the link was typed as a target or as a page (the HEAD bootstrap types every redirect
   * as a page, and extension-less `/download/42` links often look like pages to the classifier).
   * What answers off-site is kept only if it is a target: a page there is neither read nor
   * crawled. Network safety and robots.txt apply to that host as to any.
   */
  acceptable(url: string, source: "link" | "redirect"): boolean {
    if (source === "link" && !isInSite(url, this.site)) return false;
    const { trapExtraLengthChars, trapRepeatCount } = this.parts.config.params;
    const trapOptions = { extraLengthChars: trapExtraLengthChars, repeatCount: trapRepeatCount };
    if (source === "link" && isTrapUrl(url, this.parts.config.rootUrl, trapOptions)) return false;
    if (hasBlockedExtension(url, this.blockedExtensions)) return false;
    // Sign-in, edit, search and feed pages of the application behind the site (its recipe's `avoid`).
    if (source === "link" && this.parts.applications?.avoids(url)) return false;
    return !this.excludedByPattern(url);
  }

  /**
   * A request a rendered page's scripts make: the site boundary and the user's blocklists, as for
   * a link; not the robot-trap rules, which judge links found on pages (a script's API call may
   * well be long), nor the application's `avoid` list.
   */
  acceptableScriptRequest(url: string): boolean {
    return isInSite(url, this.site) && !hasBlockedExtension(url, this.blockedExtensions) && !this.excludedByPattern(url);
  }

  /** True when one of the user's URL patterns (as they are now) excludes the URL. */
  excludedByPattern(url: string): boolean {
    const source = this.parts.urlPatterns();
    if (source !== this.patternsSource) {
      this.patternsSource = source;
      this.patterns = compileUrlPatterns(source);
    }
    return this.patterns(url);
  }
}
