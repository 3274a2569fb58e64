import { describe, expect, it } from "vitest";
import { LinkScorer, linkFeatures } from "../../lib/crawler/link-scorer";

describe("LinkScorer", () => {
  it("lists URL and anchor 2-grams (counted) and a depth one-hot", () => {
    const features = linkFeatures("/a/a/", "Ab", 20);
    // "/a/a/": bigrams "/a", "a/", "/a", "a/" (each twice); anchor "ab"; depth 20 → last bucket 15
    const slash = 15; // "/" is code 47 = 32 + 15
    const a = 65; // "a" is code 97 = 32 + 65
    expect(features.get(slash * 95 + a)).toBe(2);
    expect(features.get(a * 95 + slash)).toBe(2);
    expect(features.get(95 * 95 + a * 95 + (98 - 32))).toBe(1); // anchor "ab", lower-cased
    expect(features.get(2 * 95 * 95 + 15)).toBe(1);
    expect(features.size).toBe(4);
  });

  it("logit is score's log-odds, computed without the feature map", () => {
    const scorer = new LinkScorer(2);
    expect(scorer.logit("http://x/a", "", 1)).toBe(0); // untrained: p = 0.5
    scorer.addLabel(linkFeatures("http://x/reports/a-1", "Dossier", 3), true);
    scorer.addLabel(linkFeatures("http://x/news/b-2", "Read more", 3), false);
    for (const [url, anchor, depth] of [["http://x/reports/z-9", "Dossier", 4], ["http://x/news/q", "", 1], ["http://x/Ü", "é", 30]] as const) {
      const z = scorer.logit(url, anchor, depth);
      expect(z).not.toBe(0);
      expect(1 / (1 + Math.exp(-z))).toBeCloseTo(scorer.score(linkFeatures(url, anchor, depth)), 12);
    }
  });

  it("learns which URLs lead to targets: after training, links like the rewarding ones rank first", () => {
    const scorer = new LinkScorer();
    for (let i = 0; i < 40; i++) {
      scorer.addLabel(linkFeatures(`http://site/proceedings/volume-${i}/part-${i}`, "Part", 4), i % 3 === 0);
      scorer.addLabel(linkFeatures(`http://site/projects/item-${i}/part-${i}`, "Part", 4), false);
    }
    expect(scorer.trained).toBe(true);
    const ranked = ["http://site/projects/item-77/part-1", "http://site/proceedings/volume-77/part-1"].map((url) => scorer.logit(url, "Part", 4));
    expect(ranked[1]).toBeGreaterThan(ranked[0]!);
    const restored = LinkScorer.fromState(JSON.parse(JSON.stringify(scorer.toState())));
    expect(restored.logit("http://site/proceedings/x", "Part", 4)).toBe(scorer.logit("http://site/proceedings/x", "Part", 4));
  });
});
