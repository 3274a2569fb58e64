import { fnv1a32 } from "../path-segment-stats";

/**
 * Flat triples `[url key, fingerprint, run, …]`: what each page linked to (see
 * {@link pageFingerprint}) in the last run that crawled it, and that run's number (1 = the
 * first crawl of the definition).
 */
export type PageFingerprintsState = number[];

/** Pages whose fingerprint is kept, at most: three numbers each, so a few MB of learned state. */
export const MAX_PAGE_FINGERPRINTS = 200_000;

/** 2^21: a URL key is its FNV hash × this + 21 bits of a second hash (below 2^53: collisions 1 in 2^53 per pair). */
const SECOND_HASH_KEYS = 0x200000;

function urlKey(url: string): number {
  return fnv1a32(url) * SECOND_HASH_KEYS + (fnv1a32(`#${url}`) & (SECOND_HASH_KEYS - 1));
}

/**
 * A page's fingerprint: a hash of the set of its links (URL and anchor text), order aside. A
 * publication that gains or loses a file, a listing that shows other entries or prints another
 * date in one, changes it; a page whose layout or text around the links changes does not (a
 * clock, a visitor counter, a rotating banner would otherwise make every page look changed).
 */
export function pageFingerprint(links: readonly { url: string; anchorText: string }[]): number {
  const lines = new Set<string>();
  for (const link of links) lines.add(`${link.url}\u0000${link.anchorText.trim()}`);
  return fnv1a32([...lines].sort().join("\n"));
}

/** What a page's fingerprint says of it: null when no earlier run fingerprinted it. */
export interface PageChange {
  changed: boolean;
  /** The run whose fingerprint this one is compared with. */
  sinceRun: number;
}

/**
 * The fingerprint of every page the runs of a crawl definition crawled, the latest run's winning:
 * a re-crawl compares a revisited page with it to tell whether the page changed (change-history.ts
 * learns from that where change happens). Bounded by {@link MAX_PAGE_FINGERPRINTS}: past it, pages
 * not fingerprinted before are not kept.
 */
export class PageFingerprints {
  private readonly entries = new Map<number, [fingerprint: number, run: number]>();

  /** `previous`: the record of the runs so far; `run`: this run's number. */
  constructor(
    previous: PageFingerprintsState | null | undefined,
    readonly run: number,
    private readonly limit = MAX_PAGE_FINGERPRINTS,
  ) {
    const triples = previous ?? [];
    for (let i = 0; i + 2 < triples.length; i += 3) this.entries.set(triples[i]!, [triples[i + 1]!, triples[i + 2]!]);
  }

  /** Records a crawled page's links; says whether it changed since the last run that crawled it. */
  note(url: string, links: readonly { url: string; anchorText: string }[]): PageChange | null {
    const key = urlKey(url);
    const fingerprint = pageFingerprint(links);
    const before = this.entries.get(key);
    if (before || this.entries.size < this.limit) this.entries.set(key, [fingerprint, this.run]);
    if (!before || before[1] >= this.run) return null;
    return { changed: before[0] !== fingerprint, sinceRun: before[1] };
  }

  get size(): number {
    return this.entries.size;
  }

  toState(): PageFingerprintsState {
    const triples: number[] = [];
    for (const [key, [fingerprint, run]] of this.entries) triples.push(key, fingerprint, run);
    return triples;
  }
}
