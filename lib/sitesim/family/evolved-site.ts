/**
 * What a later version of a family site changed since version 1, as the addresses and pages read
 * it (`FamilyParams.evolved`). evolution.ts draws it; a site without it is version 1, exactly as
 * the seed first drew it.
 */

/** One file of an item in a later version. */
export interface EvolvedFile {
  /** 1 as first published; each revision (same URL, new bytes) adds one. */
  revision: number;
  /** The version that published or last revised it (its Last-Modified). */
  since: number;
}

/** An item whose state is no longer version 1's draw: a new item, or an old one changed or removed. */
export interface EvolvedItem {
  removed: boolean;
  /** Its files by index k (1-based; gaps where files were removed). */
  files: ReadonlyMap<number, EvolvedFile>;
  /** The version of its last change (new, file added, revised or removed); 1 if never changed. */
  updatedIn: number;
}

export interface EvolvedSite {
  version: number;
  /** Whether listings and item pages print "updated <date>" on what changed. */
  marksChanges: boolean;
  /** Sections of version 1 (later ones were added by evolution). */
  firstSections: number;
  /**
   * Per section: its item count when it first appeared. Related links, hubs and calendars draw
   * among these, so they stay where they were; version 1's file draw is spread over them.
   */
  stableItems: readonly number[];
  /** Per section: items changed since version 1, by id (ids above `stableItems` are new). */
  items: ReadonlyArray<ReadonlyMap<number, EvolvedItem>>;
  /** Per section: new items listed first (newest first) rather than appended. */
  newFirst: readonly boolean[];
}
