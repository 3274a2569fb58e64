import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { LinkScorer, linkFeatures } from "../../lib/crawler/link-scorer";
import { linkRank, SCORER_LOGIT_CAP, SCORER_WEIGHT } from "../../lib/crawler/link-rank";

describe("linkRank", () => {
  it("adds 0.1 × the scorer's log-odds to the segment log-ratio, the log-odds capped at ±30", () => {
    expect(SCORER_WEIGHT).toBe(0.1);
    expect(SCORER_LOGIT_CAP).toBe(30);
    expect(linkRank(0.3, 7)).toBeCloseTo(1.0, 12);
    expect(linkRank(-1.5, -30)).toBeCloseTo(-4.5, 12);
    expect(linkRank(1, 500)).toBeCloseTo(4, 12);
    expect(linkRank(0, 0)).toBe(0);
  });

  it("lets the segment statistics decide when the scorer's log-odds are far out (values of a code forge crawl)", () => {
    // Traced on the code forge, seed 1: a file's history (segment log-ratio −0.45, log-odds −928.5)
    // and a Permalink to a data file at a commit (+2.18, −1 089). Uncapped, the history ranked first
    // (−93.3 against −106.7); it never gives a target, the Permalink does.
    const history = linkRank(-0.45, -928.5);
    const permalink = linkRank(2.18, -1089);
    expect(history).toBeCloseTo(-3.45, 12);
    expect(permalink).toBeCloseTo(-0.82, 12);
    expect(permalink).toBeGreaterThan(history);
  });

  it("needs the cap: a scorer trained on forge-like URLs gives log-odds in the hundreds", () => {
    const sha = (i: number) => createHash("sha1").update(String(i)).digest("hex");
    const scorer = new LinkScorer();
    const base = "https://git.example.org/stats/prices";
    for (let i = 0; i < 40; i++) {
      scorer.addLabel(linkFeatures(`${base}/src/commit/${sha(i)}/data/table-${i}.csv`, "Permalink", 5), true);
      scorer.addLabel(linkFeatures(`${base}/raw/branch/main/data/table-${i}.xlsx`, "Raw", 5), true);
      scorer.addLabel(linkFeatures(`${base}/commits/commit/${sha(i + 100)}/data/table-${i}.csv`, "History", 5), false);
      scorer.addLabel(linkFeatures(`${base}/blame/commit/${sha(i + 200)}/data/table-${i}.csv`, "Blame", 5), false);
    }
    const logits = [
      scorer.logit(`${base}/src/commit/${sha(999)}/data/table-77.csv`, "Permalink", 5),
      scorer.logit(`${base}/commits/branch/main/data/table-77.csv`, "History", 5),
    ];
    expect(Math.max(...logits.map(Math.abs))).toBeGreaterThan(100);
  });
});
