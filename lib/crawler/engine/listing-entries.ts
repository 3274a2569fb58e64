import { fnv1a32 } from "../path-segment-stats";

/**
 * Flat pairs `[key, text hash, key, text hash, …]`: the anchor text each link had in each list
 * (tag path) where the runs so far met it, the latest run's text winning.
 */
export type ListingEntriesState = number[];

/** 2^20: the tag path's share of a key (a key is url hash × this + 20 bits of the tag path's hash, below 2^53). */
const TAG_PATH_KEYS = 0x100000;

/** The key of a link in a list: its URL and the tag path of its anchor (a list's links share one). */
export function entryKey(url: string, tagPath: string): number {
  return fnv1a32(url) * TAG_PATH_KEYS + (fnv1a32(tagPath) & (TAG_PATH_KEYS - 1));
}

/**
 * What each link's entry said, by list: the anchor text of a link, hashed, keyed by its URL and
 * tag path. Catalogues print a publication's date of last update or its file count in its listing
 * entry, so an entry whose text differs from the previous run's points at a page that changed,
 * wherever the listing now shows it. Hashes, not texts: a crawl keeps one number pair per link
 * and list. Two entries sharing a key (1 in 2^52 per pair) would only reorder a revisit.
 */
export class ListingEntries {
  private readonly entries: Map<number, number>;
  private readonly limit: number;

  /**
   * `previous`: the record of the runs so far, which this run's entries overwrite. `limit`: the
   * most entries kept (the crawl's seen-URL limit): past it, entries of new keys are not kept.
   */
  constructor(previous: ListingEntriesState | null | undefined, limit: number) {
    this.entries = new Map();
    this.limit = limit;
    const pairs = previous ?? [];
    for (let i = 0; i + 1 < pairs.length; i += 2) this.entries.set(pairs[i]!, pairs[i + 1]!);
  }

  /**
   * Records a link's entry in a list and says whether it changed: true when this list showed the
   * link before with another text, false when it showed the same text or never showed the link.
   */
  note(url: string, tagPath: string, anchorText: string): boolean {
    const key = entryKey(url, tagPath);
    const hash = fnv1a32(anchorText);
    const before = this.entries.get(key);
    if (before === hash) return false;
    if (before !== undefined || this.entries.size < this.limit) this.entries.set(key, hash);
    return before !== undefined;
  }

  get size(): number {
    return this.entries.size;
  }

  toState(): ListingEntriesState {
    const pairs: number[] = [];
    for (const [key, hash] of this.entries) pairs.push(key, hash);
    return pairs;
  }
}
