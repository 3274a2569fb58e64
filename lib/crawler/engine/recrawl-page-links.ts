import type { ExtractedLink } from "../links";
import type { Recrawl } from "./recrawl";
import type { FrontierLink } from "./types";

/**
 * What a re-crawl does with one page's links, beside the fresh crawl's filing: known files are
 * collected to check, pages the previous runs saw are set aside (untyped) until nothing new is
 * left, and a list (tag path) that shows a link new since the previous runs marks the links
 * listed after it — sites list what was updated right after what is new.
 */
export class RecrawlPageLinks {
  /** Known files the page links, to check (known-file-checks.ts). */
  readonly knownFiles: ExtractedLink[] = [];
  private readonly freshTagPaths = new Set<string>();
  private readonly setAside: { link: FrontierLink; amongNew: boolean }[] = [];

  constructor(private readonly recrawl: Recrawl) {}

  /** A link this run met before (on this page or another): promoted when its list shows something new. */
  seenAgain(link: ExtractedLink, entryChanged: boolean): void {
    // A link the previous runs never saw, even if this run met it on another page first: its list shows what is new.
    if (!this.recrawl.seenByPreviousRuns(link.url)) this.freshTagPaths.add(link.tagPath);
    if (this.freshTagPaths.has(link.tagPath) || entryChanged) this.recrawl.promote(link.url);
  }

  /**
   * A link new to this run, accepted by the crawl's rules: true when the re-crawl keeps it (a
   * known file, or a page set aside); false for a link new since the previous runs, to type and
   * file as a fresh crawl does.
   */
  takes(link: ExtractedLink, entryChanged: boolean, frontierLink: () => FrontierLink): boolean {
    if (this.recrawl.knownFile(link.url)) {
      this.knownFiles.push(link);
      return true;
    }
    if (!this.recrawl.seenByPreviousRuns(link.url)) {
      this.freshTagPaths.add(link.tagPath);
      return false;
    }
    this.setAside.push({ link: frontierLink(), amongNew: this.freshTagPaths.has(link.tagPath) || entryChanged });
    return true;
  }

  /** Hands the pages set aside to the re-crawl's revisit queues, once the whole page is read. */
  finish(): void {
    for (const { link, amongNew } of this.setAside) this.recrawl.defer(link, amongNew);
  }
}
