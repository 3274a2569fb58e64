import { isInSite, normalizeUrl } from "../url-rules";
import type { EngineServices, FollowedRedirects } from "./engine-services";
import type { RequestContext } from "./request-runner";

/**
 * Every GET of a crawl with its redirects followed one counted hop at a time (ALGORITHM.md), the
 * hop's target checked like a link (site boundary, blocklists, dead shapes, seen URLs) and every
 * answer reported to the limit events and, for pages, to the page validators a re-crawl revisits with.
 */
export class RedirectFollowing {
  constructor(
    private readonly engine: Pick<EngineServices, "parts" | "site" | "limitEvents" | "acceptable">,
    /** The conditional headers to send with a first request of this URL (a re-crawl's revisit of a page it has validators for). */
    private readonly conditionalHeaders: (url: string) => Record<string, string> | undefined,
  ) {}

  /**
   * GETs a URL and follows redirects itself (ALGORITHM.md: each hop one counted request, the new
   * URL inheriting the link's tag path and group). Stops at filtered or already-seen locations
   * (but for one return along the chain after a Set-Cookie). A hop to another host is followed
   * (see `acceptable`), and what answers there is kept only if it is a target; `inSite` says
   * where the final answer came from. Null when nothing usable came back (robots, budget,
   * redirect refused).
   */
  async get(
    startUrl: string,
    context: RequestContext,
    plan: "page" | "target" | "sitemap" | "api",
  ): Promise<FollowedRedirects | null> {
    let url = startUrl;
    let inSite = true;
    const chain = [url];
    let revisited = false;
    for (let hop = 0; ; hop++) {
      if (!(await this.engine.parts.runner.allowedByRobots(url, context))) return null;
      // Off the site only a target is kept: a page there is never read.
      // A set-aside page revisited with its validators: a 304 (no body, nothing read) says it is unchanged.
      const conditional = hop === 0 ? this.conditionalHeaders(url) : undefined;
      const outcome = await this.engine.parts.runner.request("GET", url, context, inSite ? plan : "target", conditional);
      if (!outcome) return null;
      this.engine.limitEvents.response(outcome.result);
      const { status, location, headers } = outcome.result;
      if (plan === "page" && inSite && status >= 200 && status < 300) this.engine.parts.pageValidators?.note(url, headers);
      const isRedirect = status >= 300 && status < 400 && location !== null;
      if (!isRedirect) return { outcome, url, inSite };
      if (hop >= this.engine.parts.config.params.maxRedirects) {
        this.engine.limitEvents.redirectStopped("redirect-limit", startUrl, location, hop + 1);
        return null;
      }
      const next = normalizeUrl(location, url);
      if (!next) return null;
      inSite = isInSite(next, this.engine.site);
      if (!inSite && !this.engine.parts.config.params.followRedirectsOffSite) return null;
      if (!this.engine.acceptable(next, "redirect") || this.engine.parts.deadShapes?.isDead(next)) return null;
      if (!this.engine.parts.links.markSeen(next)) {
        // A server that sets a cookie and sends the client back along the chain (often to the
        // very URL) to check it: with the cookie now kept, going back is worth one request, once.
        if (revisited || headers["set-cookie"] === undefined || !chain.includes(next)) {
          if (chain.includes(next)) this.engine.limitEvents.redirectStopped("redirect-loop", startUrl, next, hop + 1);
          return null;
        }
        revisited = true;
      }
      url = next;
      chain.push(url);
    }
  }
}
