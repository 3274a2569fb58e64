import type { CrawlEngineParts } from "./engine-parts";
import type { PageChange } from "./page-fingerprints";
import type { Recrawl } from "./recrawl";
import type { FrontierLink } from "./types";

/**
 * With `revisitsCompete`, a re-crawl's set-aside page to revisit before the strategy's next fresh
 * link, "stop" when neither pays; null: the fresh link (always without the setting, and for a
 * strategy without an estimate of its pulls).
 */
export function revisitBeforeFresh(parts: Pick<CrawlEngineParts, "recrawl" | "strategy" | "meter">): FrontierLink | null | "stop" {
  const { recrawl, strategy } = parts;
  if (!recrawl?.revisitsCompete || recrawl.deferredCount === 0 || !strategy.expectedReward) return null;
  const fresh = parts.meter.time(() => strategy.expectedReward!());
  return fresh === null ? null : recrawl.revisitBefore(fresh);
}

/**
 * One revisit of a page a previous run crawled: asked conditionally (its validators of that run),
 * and what it found — a changed page, new files and pages — told to its class's change history.
 */
export class PageRevisit {
  private readonly findsBefore: number;
  private readonly frontierBefore: number;
  /** The conditional request headers of the page (null: no validators were kept). */
  private readonly conditions: Record<string, string> | null;

  constructor(
    private readonly recrawl: Recrawl,
    private readonly parts: Pick<CrawlEngineParts, "strategy" | "pageValidators">,
    readonly link: FrontierLink,
  ) {
    this.findsBefore = recrawl.finds;
    this.frontierBefore = parts.strategy.size();
    this.conditions = parts.pageValidators?.conditionalHeaders(link.url) ?? null;
  }

  /** The conditional headers for a request of `url`: only the revisited page's own. */
  headersFor(url: string): Record<string, string> | undefined {
    return this.conditions && url === this.link.url ? this.conditions : undefined;
  }

  /** Once the page is read: what it brought, for the change history. */
  end(change: PageChange | null): void {
    const newPages = Math.max(0, this.parts.strategy.size() - this.frontierBefore);
    this.recrawl.revisitedPage(this.link, change, this.recrawl.finds - this.findsBefore + newPages);
  }
}
