import type { ExtractedLink } from "../links";
import type { ParkedLink } from "./dead-shape-filter";
import type { CrawlEngineParts } from "./engine-parts";
import { detachString } from "./link-table";
import { creditDepthOf, LinkLineage } from "./link-lineage";
import type { FrontierLink } from "./types";

/**
 * How a link found on a page becomes a frontier link: its depth and referrer from the page, its
 * tag path interned, its lineage (long-term credit) and, only where FOCUSED reads them, its
 * anchor text — kept elsewhere they cost memory per frontier link.
 */
export class FrontierFiling {
  private readonly keepAnchorText: boolean;
  /** What a page's new links remember of the actions that led to it. */
  private readonly lineage: LinkLineage;

  constructor(private readonly parts: Pick<CrawlEngineParts, "config" | "links" | "strategy">) {
    this.keepAnchorText = parts.config.strategy === "focused";
    this.lineage = new LinkLineage(creditDepthOf(parts.config));
  }

  /** Files a link typed as a page into the strategy's frontier (marking it seen unless it is). */
  file(link: ExtractedLink, page: FrontierLink, alreadySeen = false): void {
    if (!alreadySeen) this.parts.links.markSeen(link.url);
    this.parts.strategy.add(this.frontierLink(link, page));
  }

  frontierLink(link: ExtractedLink, page: FrontierLink): FrontierLink {
    return this.parts.links.createLink({
      url: link.url,
      tagPath: link.tagPath,
      anchorText: this.keepAnchorText ? detachString(link.anchorText) : "",
      depth: page.depth + 1,
      referrer: page.url,
      groupId: null,
      ...this.lineageOf(page),
    });
  }

  /** What parking a link of a dead URL shape keeps (dead-shape-filter.ts). */
  parked(link: ExtractedLink, page: FrontierLink): ParkedLink {
    return {
      url: link.url,
      tagPath: this.parts.links.internTagPath(link.tagPath),
      anchorText: this.keepAnchorText ? detachString(link.anchorText) : "",
      depth: page.depth + 1,
      referrer: page.url,
      ...this.lineageOf(page),
    };
  }

  /** `{ lineage }` for a link found on `page`, or nothing (no property: most crawls give no long-term credit). */
  private lineageOf(page: FrontierLink): { lineage?: readonly number[] } {
    const lineage = this.lineage.below(page);
    return lineage ? { lineage } : {};
  }
}
