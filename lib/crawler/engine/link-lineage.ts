import type { CrawlConfig } from "../crawl-config";
import type { FrontierLink } from "./types";

/**
 * The lineage a page hands its new links (long-term credit, sb-strategy.ts): the action that
 * pulled the page, then the page's own lineage, nearest first, cut at `depth` actions. A link
 * found on page P whose link was pulled by action B, P itself found on a page pulled by A, has
 * the lineage [B, A]; when the link's page yields targets, B and A get their discounted share.
 *
 * Links of one page share one array (the frontier holds millions of links, a page lists tens to
 * hundreds), so the array is made once per page. The root page was pulled by no action: its links
 * have no lineage, and neither has anything when `depth` is 0.
 */
export class LinkLineage {
  private lastPage: FrontierLink | null = null;
  private lastLineage: readonly number[] | undefined = undefined;

  constructor(readonly depth: number) {}

  /** The lineage of links found on `page` (undefined: none). */
  below(page: FrontierLink): readonly number[] | undefined {
    if (this.depth === 0 || page.groupId === null) return undefined;
    if (page === this.lastPage && this.lastLineage?.[0] === page.groupId) return this.lastLineage;
    const lineage = [page.groupId, ...(page.lineage ?? [])].slice(0, this.depth);
    this.lastPage = page;
    this.lastLineage = lineage;
    return lineage;
  }
}

/** Ancestor actions a crawl credits: `longTermCreditDepth` for an SB crawl with a discount above 0, else 0. */
export function creditDepthOf(config: CrawlConfig): number {
  const sb = config.strategy === "sb" || config.strategy === "sb-paper" || config.strategy === "sb-oracle";
  return sb && config.params.longTermCreditDiscount > 0 ? config.params.longTermCreditDepth : 0;
}
