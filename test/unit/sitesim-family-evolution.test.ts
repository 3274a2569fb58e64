/**
 * The site family in versions: version 1 is byte for byte the site each seed always drew; later
 * versions are a deterministic draw; the change truth agrees with what the versions serve over
 * HTTP (new files linked only in the later version, removed ones 404/410, moved pages 301, revised
 * files with new bytes and validators); a site that does not mark its changes shows no marker.
 */
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildSite, drawFamilyParams, familySiteSize, type SimulatedSite } from "../../lib/sitesim";
import { drawEvolutionParams, FamilyEvolution, startFamilySite, type RunningFamilySite } from "../../lib/sitesim/family";
import { itemPath } from "../../lib/sitesim/family/addresses";

const HOST = "sim.test";

/** A site's ground truth, every page and every target file, hashed. */
function siteHash(site: SimulatedSite): string {
  const g = site.groundTruth();
  const hash = createHash("sha256").update(JSON.stringify(g));
  for (const key of g.htmlPages) hash.update(site.respond("GET", key, { host: HOST }).body);
  for (const target of g.targets) hash.update(site.respond("GET", target.path, { host: HOST }).body);
  return hash.digest("hex").slice(0, 16);
}

/** Hashes of seeds 1–24 taken on the family before it had versions (`siteHash`). */
const SEED_HASHES_BEFORE_VERSIONS: Record<number, string> = {
  1: "542bbffd6e1e0dd7", 2: "c4ee6373f8b2bb8d", 3: "13c37e68ff8176b2", 4: "ee6c21ab9330036d", 5: "6d47b9b263d38b6e", 6: "3ef9e7ab0c3165c5",
  7: "bd62d5bb799cfc0c", 8: "62c1a9e2110f8c85", 9: "2f2ce3522c99fc09", 10: "01ce727a9a22b7c7", 11: "ffa3a42f57b1d9ff", 12: "6b82af9608bee64c",
  13: "a0ed5c9c615bc2aa", 14: "61771451bafd2d69", 15: "7d5b7bac4680cf98", 16: "678506709a41697b", 17: "5f20ee3a37815834", 18: "23b2ba511596f3bd",
  19: "e03243d233140cb9", 20: "143656d8ba11cc50", 21: "6f95582bc01d7d8c", 22: "ccb023bd5f4a4fc2", 23: "94d03115e6e0a766", 24: "8ba64f7de4c675ac",
};

/** The named shapes built on the family's model, at size "tiny" seed 1, hashed the same way (pages only). */
const NAMED_HASHES_BEFORE_VERSIONS = {
  "ministry-portal": "8d5c6212f4b9c6d4", "open-data-portal": "cf316fc6cb87a647", "deep-sparse": "0c400ade41f2970e", "news-heavy": "c8a0f1f2118d02af",
  "research-repository": "2e752d94b4ba5e6b", "documentation-site": "82fd61fb8b28cc06", wiki: "81d30ccd82715f66", "code-forge": "7de460212f948f7c",
} as const;

describe("family versions: version 1 is the family as it always was", () => {
  it("seeds 1–24 serve the same pages and files, byte for byte, as before versions existed", () => {
    for (let seed = 1; seed <= 24; seed++) {
      const evolution = new FamilyEvolution(seed);
      expect(evolution.paramsAt(1), `seed ${seed}`).toEqual(drawFamilyParams(seed, familySiteSize(seed)));
      expect(siteHash(evolution.site(1)), `seed ${seed}`).toBe(SEED_HASHES_BEFORE_VERSIONS[seed]);
    }
  }, 60_000);

  it("the named shapes built on the family's model are unchanged", () => {
    for (const [shape, expected] of Object.entries(NAMED_HASHES_BEFORE_VERSIONS)) {
      const site = buildSite({ shape: shape as keyof typeof NAMED_HASHES_BEFORE_VERSIONS, seed: 1, size: "tiny" });
      const g = site.groundTruth();
      const hash = createHash("sha256").update(JSON.stringify(g));
      for (const key of g.htmlPages) hash.update(site.respond("GET", key, { host: HOST }).body);
      expect(hash.digest("hex").slice(0, 16), shape).toBe(expected);
    }
  }, 60_000);
});

describe("family versions: the draw", () => {
  it("is deterministic: same seed, same changes and same pages; another seed, other changes", () => {
    const a = new FamilyEvolution(16);
    const b = new FamilyEvolution(16);
    expect(b.changes(1, 3)).toEqual(a.changes(1, 3));
    const pages = a.site(3).groundTruth().htmlPages;
    for (const key of pages.filter((_, i) => i % 25 === 0)) {
      expect(b.site(3).respond("GET", key, { host: HOST }).body.equals(a.site(3).respond("GET", key, { host: HOST }).body), key).toBe(true);
    }
    expect(new FamilyEvolution(18).changes(1, 2)).not.toEqual(a.changes(1, 2));
  }, 60_000);

  it("draws its evolution per seed within a month of a real publisher's ranges, every placement and both kinds of marking", () => {
    const drawn = Array.from({ length: 60 }, (_, i) => drawEvolutionParams(i + 1));
    for (const e of drawn) {
      expect(e.newShare).toBeGreaterThanOrEqual(0.05);
      expect(e.newShare).toBeLessThanOrEqual(0.15);
      expect(e.addedShare).toBeGreaterThanOrEqual(0.01);
      expect(e.addedShare).toBeLessThanOrEqual(0.04);
      expect(e.revisedShare).toBeGreaterThanOrEqual(0.01);
      expect(e.revisedShare).toBeLessThanOrEqual(0.03);
      expect(e.removedShare).toBeGreaterThanOrEqual(0.005);
      expect(e.removedShare).toBeLessThanOrEqual(0.02);
      expect(e.movedShare).toBeGreaterThanOrEqual(0);
      expect(e.movedShare).toBeLessThanOrEqual(0.02);
    }
    expect(new Set(drawn.map((e) => e.placement))).toEqual(new Set(["first", "last", "new-section"]));
    expect(new Set(drawn.map((e) => e.marksChanges))).toEqual(new Set([true, false]));
    expect(new Set(drawn.map((e) => e.goneStatus))).toEqual(new Set([404, 410]));
    expect(drawEvolutionParams(9)).toEqual(drawEvolutionParams(9));
  });

  it("the truth's files of each version are exactly the targets a complete crawl of that version finds", () => {
    for (const seed of [4, 10, 17]) {
      const evolution = new FamilyEvolution(seed);
      for (const version of [1, 2, 3]) {
        const targets = evolution.site(version).groundTruth().targets.map((t) => t.path).sort();
        expect([...evolution.files(version).keys()].sort(), `seed ${seed} v${version}`).toEqual(targets);
      }
      const changes = evolution.changes(1, 2);
      expect(changes.new.length, `seed ${seed}`).toBeGreaterThan(0);
      // Files added to old items: new, on items version 1 already had (ids within its item counts).
      expect(changes.newOnOldItems.length, `seed ${seed}`).toBeGreaterThan(0);
      expect(changes.newOnOldItems.every((url) => changes.new.includes(url))).toBe(true);
      const p1 = evolution.paramsAt(1);
      for (const url of changes.newOnOldItems.filter((u) => u.startsWith("/files/"))) {
        const [, slug, n] = /^\/files\/([a-z0-9-]+)\/([0-9]+)-/.exec(url)!;
        const section = p1.sections.findIndex((sec) => sec.slug === slug);
        expect(Number(n), url).toBeLessThanOrEqual(p1.sections[section]!.items);
      }
      expect(changes.new.length + changes.changed.length + changes.unchanged.length).toBe(evolution.files(2).size);
    }
  }, 60_000);

  it("new items listed first shift every listing page: page 1 starts with new items", () => {
    const evolution = new FamilyEvolution(17);
    expect(evolution.evolution.placement).toBe("first");
    const p1 = evolution.paramsAt(1);
    const p2 = evolution.paramsAt(2);
    const section = p2.sections.findIndex((s, i) => s.depth === 2 && s.items > p1.sections[i]!.items);
    expect(section).toBeGreaterThanOrEqual(0);
    const sec = p2.sections[section]!;
    const listing = `/${sec.slug}/`;
    const itemsOnPage1 = (version: number) => {
      const p = evolution.paramsAt(version);
      const paths = new Map(Array.from({ length: p.sections[section]!.items }, (_, i) => [itemPath(p, section, i + 1), i + 1] as const));
      return [...new Set(evolution.site(version).links(listing)!.filter((key) => paths.has(key)).map((key) => paths.get(key)!))];
    };
    const before = itemsOnPage1(1);
    const after = itemsOnPage1(2);
    expect(after[0]).toBe(sec.items); // the newest item first
    expect(before).not.toContain(sec.items);
    expect(after.filter((n) => n <= p1.sections[section]!.items)).not.toEqual(before);
  });

  it("refuses application seeds and versions out of range with a clear message", () => {
    expect(() => new FamilyEvolution(10_002)).toThrow(/only the family's own sites/);
    expect(() => new FamilyEvolution(4).site(0)).toThrow(/version must be an integer from 1 to 24, got 0/);
    expect(() => new FamilyEvolution(4).changes(2, 2)).toThrow(/from < to/);
  });
});

describe.each([
  { seed: 16, marksChanges: true, goneStatus: 410 },
  { seed: 28, marksChanges: false, goneStatus: 404 },
])("family versions served over HTTP: seed $seed", ({ seed, marksChanges, goneStatus }) => {
  let running: RunningFamilySite;
  beforeAll(async () => {
    running = await startFamilySite(seed);
  });
  afterAll(async () => running.close());

  const get = (path: string, headers: Record<string, string> = {}) => fetch(new URL(path, running.rootUrl), { redirect: "manual", headers });

  it(`draws marksChanges ${marksChanges} and removed pages answering ${goneStatus}`, () => {
    expect(running.evolution.marksChanges).toBe(marksChanges);
    expect(running.evolution.evolution.goneStatus).toBe(goneStatus);
  });

  it("new files: absent at version 1, linked and served at version 2", async () => {
    const changes = running.evolution.changes(1, 2);
    expect(changes.new.length).toBeGreaterThan(0);
    const v2Targets = new Set(running.evolution.site(2).groundTruth().targets.map((t) => t.path));
    running.version = 1;
    for (const url of changes.new) expect((await get(url)).status, url).toBe(404);
    running.version = 2;
    for (const url of changes.new) {
      expect(v2Targets.has(url), url).toBe(true);
      expect((await get(url)).status, url).toBe(200);
    }
  });

  it(`removed files answer ${goneStatus} at version 2 and were served at version 1`, async () => {
    const gone = running.evolution.changes(1, 2).gone;
    expect(gone.length).toBeGreaterThan(0);
    for (const url of gone) {
      running.version = 1;
      expect((await get(url)).status, url).toBe(200);
      running.version = 2;
      expect((await get(url)).status, url).toBe(goneStatus);
    }
  });

  it("moved pages answer 301 to their new address, which serves the page; no page links the old one", async () => {
    const moved = running.evolution.changes(1, 2).moved;
    expect(moved.length).toBeGreaterThan(0);
    running.version = 2;
    const pages = new Set(running.site.groundTruth().htmlPages);
    for (const { from, to } of moved) {
      const response = await get(from);
      expect(response.status, from).toBe(301);
      expect(new URL(response.headers.get("location")!, running.rootUrl).pathname + new URL(response.headers.get("location")!, running.rootUrl).search).toBe(to);
      expect((await get(to)).status, to).toBe(200);
      expect(pages.has(from), from).toBe(false);
      expect(pages.has(to), to).toBe(true);
    }
  });

  it("revised files keep their URL with new bytes, a new ETag and version 2's Last-Modified; unchanged ones answer 304 to their ETag", async () => {
    const changes = running.evolution.changes(1, 2);
    expect(changes.changed.length).toBeGreaterThan(0);
    for (const url of changes.changed.slice(0, 5)) {
      running.version = 1;
      const before = await get(url);
      const bytesBefore = Buffer.from(await before.arrayBuffer());
      running.version = 2;
      const after = await get(url);
      const bytesAfter = Buffer.from(await after.arrayBuffer());
      expect(bytesAfter.equals(bytesBefore), url).toBe(false);
      expect(after.headers.get("etag")).not.toBe(before.headers.get("etag"));
      expect(after.headers.get("last-modified")).toBe("Thu, 01 Jan 2026 00:00:00 GMT");
      expect((await get(url, { "if-none-match": before.headers.get("etag")! })).status).toBe(200);
    }
    const unchanged = changes.unchanged[0]!;
    running.version = 1;
    const etag = (await get(unchanged)).headers.get("etag")!;
    running.version = 2;
    const conditional = await get(unchanged, { "if-none-match": etag });
    expect(conditional.status).toBe(304);
    expect(conditional.headers.get("last-modified")).toBe("Mon, 01 Dec 2025 00:00:00 GMT");
  });

  it(marksChanges ? "prints 'updated <date>' on changed items' listing entries and pages" : "shows no change marker anywhere", async () => {
    running.version = 2;
    const marker = /updated \d{1,2} [A-Z][a-z]{2} \d{4}/;
    const site = running.site;
    const marked: string[] = [];
    for (const key of site.groundTruth().htmlPages) if (marker.test(site.respond("GET", key, { host: HOST }).body.toString("utf8"))) marked.push(key);
    if (!marksChanges) {
      expect(marked).toEqual([]);
      return;
    }
    expect(marked.length).toBeGreaterThan(0);
    // The item that gained a file (a new file on an old item) is marked where it is shown.
    const p = running.evolution.paramsAt(2);
    const p1 = running.evolution.paramsAt(1);
    const touched = p.sections.flatMap((sec, section) =>
      sec.depth === 1 ? [] : [...(p.evolved!.items[section] ?? [])].filter(([n, item]) => n <= p1.sections[section]!.items && !item.removed && item.updatedIn === 2).map(([n]) => itemPath(p, section, n)),
    );
    expect(touched.length).toBeGreaterThan(0);
    for (const path of touched) {
      const response = await get(path, {});
      if (response.status === 301) continue; // moved this version: its new address is checked below
      expect(marker.test(await response.text()), path).toBe(true);
    }
  });
});
