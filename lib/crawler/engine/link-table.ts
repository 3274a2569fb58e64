import type { FrontierLink } from "./types";

/**
 * Every URL the crawl has seen, and the frontier links by id. The seen set is what makes
 * "new" mean new (a URL is typed, fetched and rewarded once); tag paths are interned so a
 * million links share a few thousand path strings.
 */
export class LinkTable {
  private readonly seen = new Set<string>();
  private readonly tagPaths = new Map<string, string>();
  private readonly links: (FrontierLink | undefined)[] = [];

  has(url: string): boolean {
    return this.seen.has(url);
  }

  /** Marks a URL as seen; false when it already was. */
  markSeen(url: string): boolean {
    if (this.seen.has(url)) return false;
    this.seen.add(url);
    return true;
  }

  get seenCount(): number {
    return this.seen.size;
  }

  internTagPath(tagPath: string): string {
    const existing = this.tagPaths.get(tagPath);
    if (existing !== undefined) return existing;
    const own = detachString(tagPath);
    this.tagPaths.set(own, own);
    return own;
  }

  createLink(fields: Omit<FrontierLink, "id">): FrontierLink {
    const link: FrontierLink = { id: this.links.length, ...fields, tagPath: this.internTagPath(fields.tagPath) };
    this.links.push(link);
    return link;
  }

  get(id: number): FrontierLink | undefined {
    return this.links[id];
  }

  /** Drops a crawled link's object (its id stays used). */
  release(id: number): void {
    this.links[id] = undefined;
  }

  seenUrls(): IterableIterator<string> {
    return this.seen.values();
  }

  liveLinks(): FrontierLink[] {
    return this.links.filter((link): link is FrontierLink => link !== undefined);
  }
}

/**
 * A copy of a string that shares no memory with its source. Strings cut from a page (classes,
 * anchor texts) are V8 slices that keep the whole page alive: a frontier holding one per link
 * held every crawled page (8 MiB for 40 pages of 200 KB, against 0.3 MiB copied).
 */
export function detachString(value: string): string {
  return value.length === 0 ? "" : Buffer.from(value, "utf8").toString("utf8");
}
