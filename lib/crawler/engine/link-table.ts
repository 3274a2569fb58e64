import type { FrontierLink } from "./types";

/**
 * Plain JSON state of a {@link LinkTable}. Live links are tuples (a frontier holds millions:
 * an object per link would triple the checkpoint's JSON); tag paths are indices into `tagPaths`.
 */
export interface LinkTableState {
  /** Ids handed out so far (the next link gets this id). */
  readonly nextId: number;
  /** Every URL seen, in the order it was first seen. */
  readonly seen: string[];
  readonly tagPaths: string[];
  /** `lineage` is written only when the link has one (and is absent in older checkpoints). */
  readonly links: [id: number, url: string, tagPath: number, anchorText: string, depth: number, referrer: string | null, groupId: number | null, lineage?: readonly number[]][];
}

/**
 * Every URL the crawl has seen, and the frontier links by id. The seen set is what makes
 * "new" mean new (a URL is typed, fetched and rewarded once); tag paths are interned so a
 * million links share a few thousand path strings.
 *
 * Memory bound: `maxSeen` URLs (`params.maxSeenUrls`) of at most `MAX_URL_CHARS`. Once `full`,
 * the engine takes no new link from pages (redirect hops and the root are still marked, a few
 * per page pulled); the frontier, the set-aside links of dead shapes and the interned tag
 * paths (≤ `PAGE_LIMITS.maxTagPathChars` each) are all subsets of it, so they are bounded too.
 */
export class LinkTable {
  private readonly seen = new Set<string>();

  constructor(
    /** Seen URLs past which `full` is true. */
    readonly maxSeen: number = Number.POSITIVE_INFINITY,
  ) {}

  /** The seen set holds `maxSeen` URLs: pages' new links are no longer taken. */
  get full(): boolean {
    return this.seen.size >= this.maxSeen;
  }
  private readonly tagPaths = new Map<string, string>();
  private readonly links: (FrontierLink | undefined)[] = [];
  private readonly liveIds = new Map<string, number>();

  /** The frontier link (unvisited) with this URL, if any. */
  live(url: string): FrontierLink | undefined {
    const id = this.liveIds.get(url);
    return id === undefined ? undefined : this.links[id];
  }

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
    this.liveIds.set(link.url, link.id);
    return link;
  }

  get(id: number): FrontierLink | undefined {
    return this.links[id];
  }

  /** Drops a crawled link's object (its id stays used). */
  release(id: number): void {
    const link = this.links[id];
    if (link) this.liveIds.delete(link.url);
    this.links[id] = undefined;
  }

  seenUrls(): IterableIterator<string> {
    return this.seen.values();
  }

  liveLinks(): FrontierLink[] {
    return this.links.filter((link): link is FrontierLink => link !== undefined);
  }

  toState(): LinkTableState {
    const tagPaths = [...this.tagPaths.keys()];
    const tagPathIndex = new Map<string, number>();
    for (let i = 0; i < tagPaths.length; i++) tagPathIndex.set(tagPaths[i]!, i);
    const links: LinkTableState["links"] = [];
    for (const link of this.links) {
      if (!link) continue;
      const row: LinkTableState["links"][number] = [link.id, link.url, tagPathIndex.get(link.tagPath) ?? -1, link.anchorText, link.depth, link.referrer, link.groupId];
      if (link.lineage) row.push(link.lineage);
      links.push(row);
    }
    return { nextId: this.links.length, seen: [...this.seen], tagPaths, links };
  }

  /** Restores a table: same ids, same seen set, tag paths interned again. */
  static fromState(state: LinkTableState, maxSeen?: number): LinkTable {
    const table = new LinkTable(maxSeen);
    for (const url of state.seen) table.seen.add(url);
    const tagPaths = state.tagPaths.map((tagPath) => table.internTagPath(tagPath));
    // Pushed, not `length = nextId`: a long array made of holes can fall back to slow dictionary elements.
    for (let id = 0; id < state.nextId; id++) table.links.push(undefined);
    for (const [id, url, tagPath, anchorText, depth, referrer, groupId, lineage] of state.links) {
      if (!(id >= 0 && id < state.nextId)) throw new TypeError(`Invalid link table state: link id ${id} of ${state.nextId}`);
      if (lineage !== undefined && !(Array.isArray(lineage) && lineage.every((action) => Number.isInteger(action) && action >= 0))) {
        throw new TypeError(`Invalid link table state: lineage of link ${id}`);
      }
      const link: FrontierLink = { id, url, tagPath: tagPaths[tagPath] ?? "", anchorText, depth, referrer, groupId };
      table.links[id] = lineage ? { ...link, lineage } : link;
      table.liveIds.set(url, id);
    }
    return table;
  }
}

/**
 * A copy of a string that shares no memory with its source. Strings cut from a page (classes,
 * anchor texts) are V8 slices that keep the whole page alive: a frontier holding one per link
 * held every crawled page, many times the size of the copies.
 */
export function detachString(value: string): string {
  return value.length === 0 ? "" : Buffer.from(value, "utf8").toString("utf8");
}
