import { describe, expect, it } from "vitest";
import { LinkScorer, linkFeatures } from "../../lib/crawler/link-scorer";
import { KEPT_FREELY, LINKS_PER_KEPT, LinkRankFeatures, linkRank } from "../../lib/crawler/link-rank";
import { PathSegmentStats } from "../../lib/crawler/path-segment-stats";
import { Prng } from "../../lib/crawler/prng";

const SECTIONS = ["Publications", "statistics", "datasets", "news", "releases"];
const WORDS = ["annual", "labour", "market", "Population", "census"];

/** URLs of several shapes: shared prefixes, upper case, queries (one with a `/`), fragments, no path, non-ASCII. */
function urls(prng: Prng, count: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    const section = SECTIONS[prng.nextInt(SECTIONS.length)]!;
    const word = WORDS[prng.nextInt(WORDS.length)]!;
    const year = 1990 + prng.nextInt(30);
    switch (prng.nextInt(7)) {
      case 0:
        out.push(`https://stats.example.org/en/${section}/${year}/${word}-${i}.html`);
        break;
      case 1:
        out.push(`https://stats.example.org/en/${section}/${word}?page=${i}&sort=Desc`);
        break;
      case 2:
        out.push(`https://stats.example.org/search?next=/en/${section}/${i}&q=${word}`);
        break;
      case 3:
        out.push(`https://stats.example.org/en/${section}/${year}/#part-${i}`);
        break;
      case 4:
        out.push(`https://stats.example.org`);
        break;
      case 5:
        out.push(`https://stats.example.org/de/${section}/Übersicht-${i}`);
        break;
      default:
        out.push(`https://stats.example.org/en/${section}/${year}/${word}/${i}/data-${i}.CSV`);
    }
  }
  return out;
}

describe("LinkRankFeatures", () => {
  it("ranks a filed link to the last bit as linkRank of its strings, while the statistics and the scorer learn", () => {
    const prng = Prng.fromSeed(7);
    const segments = new PathSegmentStats();
    const scorer = new LinkScorer();
    const features = new LinkRankFeatures(segments, scorer);
    const all = urls(prng, 600);
    all.forEach((url, id) => features.file(id, url));
    const anchor = (id: number) => (id % 3 === 0 ? "" : `Report ${id} (PDF)`);
    let compared = 0;
    for (let round = 0; round < 60; round++) {
      for (let draw = 0; draw < 20; draw++) {
        const id = prng.nextInt(all.length);
        const url = all[id]!;
        const depth = id % 20;
        const expected = linkRank(segments.logRatio(url), scorer.logit(url, anchor(id), depth));
        expect(features.rank(id, url, anchor(id), depth)).toBe(expected);
        compared++;
      }
      // Learn a pull: the memos made at the previous counts must not be read again.
      const pulled = all[prng.nextInt(all.length)]!;
      const success = prng.nextInt(4) === 0;
      segments.add(pulled, success);
      scorer.addLabel(linkFeatures(pulled, "", 1), success);
    }
    expect(compared).toBe(1200);
    expect(scorer.trained).toBe(true);
  });

  it("ranks links it never filed (restored from a checkpoint) and links past its bounds from their strings", () => {
    const segments = new PathSegmentStats();
    const scorer = new LinkScorer();
    const features = new LinkRankFeatures(segments, scorer);
    const prng = Prng.fromSeed(3);
    for (const url of urls(prng, 40)) {
      segments.add(url, prng.nextInt(2) === 0);
      scorer.addLabel(linkFeatures(url, "", 2), prng.nextInt(2) === 0);
    }
    const url = "https://stats.example.org/en/releases/2020/census-12.html";
    const expected = linkRank(segments.logRatio(url), scorer.logit(url, "", 2));
    expect(features.rank(123_456, url, "", 2)).toBe(expected);
    // A site where every link has its own directory and slug: the tables keep one entry per
    // LINKS_PER_KEPT links past KEPT_FREELY, and the links past that are still ranked exactly.
    const count = 20_000;
    const unique = (i: number) => `https://h.example/item-${i.toString(36)}x/file-${(i * 7919).toString(36)}z.csv`;
    for (let i = 0; i < count; i++) features.file(i, unique(i));
    const bound = KEPT_FREELY + count / LINKS_PER_KEPT;
    expect(features.kept.shapes).toBeLessThanOrEqual(bound);
    expect(features.kept.shapes).toBeGreaterThan(bound - 2);
    expect(features.kept.prefixes).toBeLessThanOrEqual(bound);
    for (const i of [0, 5, 1500, 9000, count - 1]) expect(features.rank(i, unique(i), "", 2)).toBe(linkRank(segments.logRatio(unique(i)), scorer.logit(unique(i), "", 2)));
  });
});

describe("LinkRankFeatures with the segment statistics going dense", () => {
  it("ranks exactly before and after the counters turn from slots into buckets", () => {
    const segments = new PathSegmentStats();
    const scorer = new LinkScorer();
    const features = new LinkRankFeatures(segments, scorer);
    const prng = Prng.fromSeed(5);
    const all = urls(prng, 300);
    all.forEach((url, id) => features.file(id, url));
    const check = () => {
      for (let id = 0; id < all.length; id += 7) expect(features.rank(id, all[id]!, "", 1)).toBe(linkRank(segments.logRatio(all[id]!), scorer.logit(all[id]!, "", 1)));
    };
    for (const url of all.slice(0, 100)) segments.add(url, prng.nextInt(3) === 0);
    check();
    for (let i = 0; !segments.dense; i++) segments.add(`https://stats.example.org/t${i.toString(36)}x/u${i.toString(36)}y`, i % 5 === 0);
    check();
    segments.add(all[3]!, true);
    check();
  });
});

describe("LinkRankFeatures.rankAll", () => {
  it("ranks drawn links together as one by one, a link no longer in the table at −∞", () => {
    const prng = Prng.fromSeed(11);
    const segments = new PathSegmentStats();
    const scorer = new LinkScorer();
    const features = new LinkRankFeatures(segments, scorer);
    const all = urls(prng, 200);
    all.forEach((url, id) => features.file(id, url));
    for (const url of all.slice(0, 60)) {
      segments.add(url, prng.nextInt(3) === 0);
      scorer.addLabel(linkFeatures(url, "", 1), prng.nextInt(3) === 0);
    }
    const ids = Array.from({ length: 32 }, () => prng.nextInt(all.length));
    const links = ids.map((id) => (id % 17 === 0 ? undefined : { url: all[id]!, anchorText: "", depth: id % 9 }));
    const ranks: number[] = [];
    features.rankAll(ids, links, ids.length, ranks);
    expect(ranks).toEqual(ids.map((id, i) => (links[i] === undefined ? -Infinity : features.rank(id, all[id]!, "", id % 9))));
    expect(ranks.some((rank) => rank === -Infinity)).toBe(ids.some((id) => id % 17 === 0));
  });
});

describe("LinkScorer.asciiBigramSum", () => {
  it("carries a prefix's sum over the rest of the text to the whole text's sum, upper case lowered", () => {
    const scorer = new LinkScorer(1);
    scorer.addLabel(linkFeatures("https://Stats.example.org/EN/data/x-1.csv", "", 1), true);
    scorer.addLabel(linkFeatures("https://stats.example.org/en/news/y-2.html", "", 1), false);
    const url = "https://STATS.example.org/en/Data/table-9.csv?Format=XLS";
    const whole = scorer.asciiBigramSum(url, 1, url.length, 0);
    expect(scorer.logitOfUrlSum(whole, "", 3)).toBe(scorer.logit(url, "", 3));
    for (const cut of [1, 8, 30, url.length - 1, url.length]) {
      expect(scorer.asciiBigramSum(url, cut, url.length, scorer.asciiBigramSum(url.slice(0, cut), 1, cut, 0))).toBe(whole);
    }
  });
});

describe("linkFeatures", () => {
  it("lists each bigram once at its first occurrence with its count, URL then anchor then depth, call after call", () => {
    const reference = (url: string, anchor: string, depth: number) => {
      const map = new Map<number, number>();
      const add = (text: string, offset: number) => {
        const s = text.toLowerCase();
        for (let i = 1; i < s.length; i++) {
          const a = s.charCodeAt(i - 1) - 32;
          const b = s.charCodeAt(i) - 32;
          if (a < 0 || a >= 95 || b < 0 || b >= 95) continue;
          map.set(offset + a * 95 + b, (map.get(offset + a * 95 + b) ?? 0) + 1);
        }
      };
      add(url, 0);
      add(anchor, 95 * 95);
      map.set(2 * 95 * 95 + Math.min(depth, 15), 1);
      return [...map];
    };
    const cases: [string, string, number][] = [
      ["https://Stats.example.org/aaaa/abab/ABAB/x-1-1-1.csv", "Annual annual ANNUAL", 3],
      ["https://stats.example.org/de/Übersicht/ä-ö", "", 40],
      ["", "", 0],
    ];
    for (const [url, anchor, depth] of [...cases, ...cases]) expect([...linkFeatures(url, anchor, depth)]).toEqual(reference(url, anchor, depth));
  });
});
