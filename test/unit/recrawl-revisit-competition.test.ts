import { describe, expect, it } from "vitest";
import { revisitClassKey } from "../../lib/crawler/engine/change-history";
import { LinkTable } from "../../lib/crawler/engine/link-table";
import { Recrawl } from "../../lib/crawler/engine/recrawl";
import type { RecrawlBasis } from "../../lib/crawler/engine/recrawl-basis";
import { poissonUpperBound } from "../../lib/crawler/engine/revisit-outlook";

const DAY = 86_400_000;
const LIST = "/html/body/main/ul/li/a";

/** A third run: the second found the publications' class changing one revisit in five, two files a change; the first crawl found 0.2 files a request. */
const basis: RecrawlBasis = {
  previousCrawlId: 2,
  known: [{ url: "http://s/files/old.csv", sha256: "aa", bytes: 1, mime: "text/csv", etag: null, lastModified: null }],
  checkKnownFiles: false,
  revisitsCompete: true,
  learned: {
    engine: null as never,
    revisit: [],
    seenBefore: [],
    changeHistory: {
      runs: 2,
      runStarts: [[1, 0], [2, 30 * DAY]],
      firstRunYield: 0.2,
      classes: [{ key: revisitClassKey(LIST, "http://s/publication/1"), visits: 50, changes: 10, finds: 20, intervalMs: 50 * 30 * DAY, lastChangedRun: 2 }],
    },
  },
};

function setUp() {
  const table = new LinkTable();
  const recrawl = new Recrawl(basis, 60 * DAY);
  recrawl.siteMarksChanges(); // outlooks at their estimate: the arithmetic below
  for (let i = 1; i <= 5; i++) recrawl.defer(table.createLink({ url: `http://s/publication/${i}`, tagPath: LIST, anchorText: "", depth: 2, referrer: null, groupId: null }), false);
  return { table, recrawl };
}

describe("a re-crawl's revisits against the fresh frontier", () => {
  it("bound a fresh action's reward per pull above its mean, less with more pulls, unbounded before the first", () => {
    expect(poissonUpperBound(0.5, 0)).toBe(Infinity);
    expect(poissonUpperBound(0.5, 10)).toBeGreaterThan(0.5);
    expect(poissonUpperBound(0.5, 1000)).toBeLessThan(poissonUpperBound(0.5, 10));
    expect(poissonUpperBound(0.5, 1000)).toBeGreaterThan(0.5);
    // The bound λ solves (λ − mean)² = z²·λ / n.
    const lambda = poissonUpperBound(0.3, 40);
    expect((lambda - 0.3) ** 2).toBeCloseTo((1.645 ** 2 * lambda) / 40, 9);
  });

  it("revisit a class worth more than the fresh link first, and let a better fresh link go first", () => {
    const { recrawl } = setUp();
    // Publications: odds of a change since the second run 1 − 40.5/50.5 ≈ 0.2, ≈ 2 files a change: ≈ 0.4 a revisit.
    const value = recrawl.outlookOf({ tagPath: LIST, url: "http://s/publication/1" }).value;
    expect(value).toBeGreaterThan(0.35);
    expect(value).toBeLessThan(0.45);
    expect(recrawl.revisitBefore(value + 0.1)).toBeNull();
    expect(recrawl.deferredCount).toBe(5);
    const revisit = recrawl.revisitBefore(value - 0.1);
    expect(revisit).toMatchObject({ url: "http://s/publication/1" });
    expect(recrawl.deferredCount).toBe(4);
  });

  it("stop only when neither the fresh frontier nor any class pays, after the classes that changed last run are checked", () => {
    const { recrawl } = setUp();
    const belowPayLine = 0.005; // the pay line: 5 % of 0.2
    // The class changed in the second run: owed two checks, taken though the fresh link does not pay.
    for (let i = 0; i < 2; i++) {
      const next = recrawl.revisitBefore(belowPayLine);
      expect(next).not.toBeNull();
      expect(next).not.toBe("stop");
      recrawl.revisitedPage(next as Exclude<typeof next, null | "stop">, { changed: false, sinceRun: 2 }, 0);
    }
    // Still paying (≈ 0.4 a revisit at its estimate): revisited before a fresh link that does not pay.
    expect(recrawl.revisitBefore(belowPayLine)).toMatchObject({ url: "http://s/publication/3" });
    // A fresh link that pays goes first when it is worth more.
    expect(recrawl.revisitBefore(10)).toBeNull();
    const quiet = new Recrawl({ ...basis, learned: { ...basis.learned!, changeHistory: { ...basis.learned!.changeHistory!, classes: [] } } }, 60 * DAY);
    quiet.siteMarksChanges();
    const table = new LinkTable();
    for (let i = 0; i < 40; i++) quiet.defer(table.createLink({ url: `http://s/news/${i}`, tagPath: LIST, anchorText: "", depth: 2, referrer: null, groupId: null }), false);
    let revisits = 0;
    for (let next = quiet.revisitBefore(belowPayLine); next !== "stop"; next = quiet.revisitBefore(belowPayLine)) {
      expect(next).not.toBeNull();
      quiet.revisitedPage(next!, { changed: false, sinceRun: 2 }, 0);
      revisits += 1;
    }
    // Never changed, nothing owed: given up, with pages left and a fresh frontier that does not pay: the run stops.
    expect(revisits).toBeGreaterThan(0);
    expect(quiet.deferredCount).toBeGreaterThan(0);
  });

  it("count as finds only new files and known files with new bytes", () => {
    const { recrawl } = setUp();
    recrawl.storedFile("http://s/files/old.csv", "aa");
    expect(recrawl.finds).toBe(0);
    recrawl.storedFile("http://s/files/old.csv", "bb");
    recrawl.storedFile("http://s/files/new.csv", "cc");
    expect(recrawl.finds).toBe(2);
  });
});
