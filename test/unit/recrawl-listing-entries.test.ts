import { describe, expect, it } from "vitest";
import { parseCrawlConfig } from "../../lib/crawl-config";
import { emptyCounters } from "../../lib/crawler/engine/create-engine";
import { startingState } from "../../lib/crawler/engine/learned-start";
import { entryKey, ListingEntries } from "../../lib/crawler/engine/listing-entries";
import { EvolvingCatalogue } from "../../lib/sitesim/evolving";

// FNV-1a 32-bit test vectors: "" → 0x811c9dc5, "a" → 0xe40c292c, "foobar" → 0xbf9cf968.
const FNV_EMPTY = 0x811c9dc5;
const FNV_A = 0xe40c292c;
const FNV_FOOBAR = 0xbf9cf968;

describe("listing entries", () => {
  it("keys an entry by its URL's hash times 2^20 plus the low 20 bits of its tag path's hash", () => {
    expect(entryKey("a", "foobar")).toBe(FNV_A * 2 ** 20 + 0xcf968);
    expect(entryKey("foobar", "a")).toBe(FNV_FOOBAR * 2 ** 20 + 0xc292c);
    expect(Number.isSafeInteger(entryKey("a", "foobar"))).toBe(true);
  });

  it("says changed only when the same list showed the link before with another text", () => {
    const entries = new ListingEntries(null, 100);
    expect(entries.note("a", "foobar", "")).toBe(false); // never shown: not a change
    expect(entries.note("a", "foobar", "")).toBe(false); // same text
    expect(entries.note("a", "a", "foobar")).toBe(false); // another list: another entry
    expect(entries.note("a", "foobar", "a")).toBe(true);
    expect(entries.note("a", "foobar", "a")).toBe(false); // the new text is the record now
    expect(entries.toState()).toEqual([FNV_A * 2 ** 20 + 0xcf968, FNV_A, FNV_A * 2 ** 20 + 0xc292c, FNV_FOOBAR]);
    expect(entries.toState()).not.toContain(FNV_EMPTY);
  });

  it("compares a run's entries with the record of the previous run, which it overwrites", () => {
    const previous = [entryKey("http://x/p/1", "ol/li/h2/a"), FNV_A];
    const entries = new ListingEntries(previous, 100);
    expect(entries.note("http://x/p/1", "ol/li/h2/a", "a")).toBe(false);
    expect(entries.note("http://x/p/1", "ol/li/h2/a", "foobar")).toBe(true);
    expect(entries.toState()).toEqual([entryKey("http://x/p/1", "ol/li/h2/a"), FNV_FOOBAR]);
  });

  it("keeps at most `limit` entries, and still sees changes of the kept ones", () => {
    const entries = new ListingEntries(null, 1);
    entries.note("a", "t", "a");
    entries.note("b", "t", "a");
    expect(entries.size).toBe(1);
    expect(entries.note("b", "t", "foobar")).toBe(false); // not kept: no record to differ from
    expect(entries.note("a", "t", "foobar")).toBe(true);
  });

  it("a re-crawl starts from the previous run's record", () => {
    const config = parseCrawlConfig({ rootUrl: "http://127.0.0.1:9/", seed: 3 });
    const engine = { ...startingState(null, config, emptyCounters()), listingEntries: [12, 34] };
    expect(startingState({ engine, revisit: [], seenBefore: [] }, config, emptyCounters()).listingEntries).toEqual([12, 34]);
    expect(startingState(null, config, emptyCounters()).listingEntries).toBeUndefined();
  });
});

describe("the evolving catalogue's listing entries", () => {
  const catalogue = new EvolvingCatalogue({ items: 30, seed: 2 });
  const entryText = (version: number, id: number): string => {
    const found = catalogue.route(version, `/section/${["population", "economy", "environment"][id % 3]}`, new URLSearchParams());
    const html = found?.kind === "page" ? found.html : "";
    const match = new RegExp(`<a href="/publication/${id}">([^<]*)<span class="updated">([^<]*)</span>`).exec(html);
    return match ? match[1]! + match[2]! : "(not on page 1)";
  };

  it("print each publication's date of last update, in version 1 and 2 alike", () => {
    // Version 1: one publication every other day up to 31 Dec 2025, the last one on that day.
    expect(entryText(1, 30)).toBe("Publication 30 · updated 31 Dec 2025");
    expect(entryText(1, 28)).toBe("Publication 28 · updated 30 Dec 2025");
    expect(entryText(1, 27)).toBe("Publication 27 · updated 30 Dec 2025");
    // Version 2's new publications and its changes are dated 1 Feb 2026; untouched ones keep their date.
    expect(entryText(2, 31)).toBe("Publication 31 · updated 1 Feb 2026");
    const v1 = catalogue.items(1);
    for (const [id, item] of catalogue.items(2)) {
      if (!v1.has(id)) continue;
      const touched = item.updatedIn === 2;
      expect(item.updatedOn === "1 Feb 2026").toBe(touched);
      if (!touched) expect(item.updatedOn).toBe(v1.get(id)!.updatedOn);
    }
  });
});
