import { describe, expect, it } from "vitest";
import { ActionGrouper, type Assignment } from "../../lib/crawler/action-grouping";
import { TagPathProjector } from "../../lib/crawler/tag-path-projection";

const LEAF_X = "/html/body/div.c/ul/li/a.x"; // 8 n-grams
const LEAF_Y = "/html/body/div.c/ul/li/a.y"; // shares 6 of them: cosine 6/8 = 0.75 exactly

/** WordPress-like pages: per-page body classes make most tag paths new on every page. */
function* sitePaths(pages: number): Generator<string> {
  for (let p = 0; p < pages; p++) {
    const root = `/html.no-js/body.page page-id-${1000 + p}/div#page.site`;
    for (let i = 0; i < 12; i++) yield `${root}/header/nav.main/ul#menu.menu/li.menu-item menu-item-${100 + i}/a`;
    for (let i = 0; i < 6; i++) yield `${root}/main#main/article#post-${p}.post/div.entry-content/${p % 2 ? "ul/li" : "p"}/a`;
    for (let i = 0; i < 4; i++) yield `${root}/footer/ul.footer-menu/li.menu-item menu-item-${900 + i}/a`;
  }
}

for (const index of ["exact", "hnsw"] as const) {
  describe(`ActionGrouper (${index})`, () => {
    it("files a repeated tag path under the same action and counts it as a member", () => {
      const g = new ActionGrouper({ index });
      expect(g.assign("/html/body/ul/li/a")).toEqual({ actionId: 0, created: true });
      expect(g.assign("/html/body/ul/li/a")).toEqual({ actionId: 0, created: false });
      expect(g.members(0)).toBe(2);
      expect(g.sampleTagPath(0)).toBe("/html/body/ul/li/a");
    });

    it("joins a path differing by one class at the leaf: similarity 0.75 = θ joins", () => {
      const g = new ActionGrouper({ index });
      g.assign(LEAF_X);
      expect(g.assign(LEAF_Y)).toEqual({ actionId: 0, created: false });
      // Centroid = running mean: the 6 shared n-grams keep 1/8, the 4 others 1/16.
      const centroid = Array.from(g.centroid(0)).filter((v) => v > 0).sort();
      expect(centroid).toEqual([0.0625, 0.0625, 0.0625, 0.0625, 0.125, 0.125, 0.125, 0.125, 0.125, 0.125]);
    });

    it("creates an action just above the boundary and for paths that differ more", () => {
      const strict = new ActionGrouper({ index, similarityThreshold: 0.75 + 1e-12 });
      strict.assign(LEAF_X);
      expect(strict.assign(LEAF_Y)).toEqual({ actionId: 1, created: true });
      const g = new ActionGrouper({ index });
      g.assign(LEAF_X);
      expect(g.assign("/html/body/div.d/ul/li/a.y").created).toBe(true); // 4 of 8 shared: 0.5
    });

    it(index === "exact" ? "restores a state that reproduces the same later assignments" : "restores a state (its rebuilt graph may answer differently)", () => {
      const paths = [...sitePaths(24)];
      const g = new ActionGrouper({ index });
      const before = paths.slice(0, 260).map((p) => g.assign(p));
      expect(before.filter((a) => a.created).length).toBeGreaterThan(3);
      const restored = ActionGrouper.fromState(JSON.parse(JSON.stringify(g.toState())), { index });
      const rest = paths.slice(260);
      expect(restored.toState()).toEqual(g.toState());
      const a: Assignment[] = rest.map((p) => g.assign(p));
      const b: Assignment[] = rest.map((p) => restored.assign(p));
      if (index === "hnsw") {
        // ef = 10 search over a graph wired differently: only memoised paths are guaranteed.
        expect(restored.assign(paths[0]!)).toEqual(g.assign(paths[0]!));
        return;
      }
      expect(b).toEqual(a);
      expect(restored.toState()).toEqual(g.toState());
    });
  });
}

describe("ActionGrouper exact search", () => {
  it("breaks ties between equally similar centroids in favour of the oldest action", () => {
    const g = new ActionGrouper({ similarityThreshold: 0.8 });
    expect(g.assign("/a/b/c/d/e/f/x").actionId).toBe(0);
    expect(g.assign("/a/b/c/d/e/f/y")).toEqual({ actionId: 1, created: true }); // 7/9 ≈ 0.78 < 0.8
    expect(g.assign("/a/b/c/d/e/f")).toEqual({ actionId: 0, created: false }); // 7/√72 ≈ 0.825 to both
  });

  it("makes the same decisions as a brute-force scan over all centroids (pruning is exact)", () => {
    const g = new ActionGrouper();
    const projector = new TagPathProjector(); // fed the same new paths in the same order as g's own
    const seen = new Set<string>();
    let checked = 0;
    for (const [i, path] of [...sitePaths(30)].entries()) {
      if (seen.has(path)) {
        g.assign(path);
        continue;
      }
      seen.add(path);
      const q = projector.project(path);
      if (i % 5 !== 0 || g.actionCount === 0) {
        g.assign(path);
        continue;
      }
      const qNorm = Math.hypot(...q.values);
      const sims = Array.from({ length: g.actionCount }, (_, id) => {
        const c = g.centroid(id);
        let dot = 0;
        q.indices.forEach((b, k) => (dot += q.values[k]! * c[b]!));
        return dot / (qNorm * Math.hypot(...c));
      });
      const best = Math.max(...sims);
      const bestId = sims.indexOf(best);
      const runnerUp = Math.max(...sims.filter((_, id) => id !== bestId), -1);
      const got = g.assign(path);
      if (Math.abs(best - 0.75) < 1e-9 || best - runnerUp < 1e-9) continue; // too close to call across roundings
      expect(got).toEqual(best >= 0.75 ? { actionId: bestId, created: false } : { actionId: g.actionCount - 1, created: true });
      checked++;
    }
    expect(checked).toBeGreaterThan(20);
  });
});

describe("ActionGrouper HNSW index", () => {
  it("grows past its initial capacity", () => {
    const g = new ActionGrouper({ index: "hnsw" });
    const path = (i: number, leaf = `k${i}`) => `/a${i}/b${i}/c${i}/d${i}/e${i}/f${i}/g${i}/h${i}/${leaf}`;
    for (let i = 0; i < 300; i++) expect(g.assign(path(i)).created).toBe(true);
    expect(g.actionCount).toBe(300);
    expect(g.assign(path(7))).toEqual({ actionId: 7, created: false });
  });

  it("misses true neighbours that the exact search finds (ef = 10 on near-orthogonal centroids)", () => {
    // A new leaf keeps 9 of 11 n-grams: cosine 0.82 to its own action, ~0.1 to all others.
    const path = (i: number, leaf = `k${i}`) => `/a${i}/b${i}/c${i}/d${i}/e${i}/f${i}/g${i}/h${i}/${leaf}`;
    const misses = (index: "exact" | "hnsw"): number => {
      const g = new ActionGrouper({ index });
      for (let i = 0; i < 60; i++) g.assign(path(i));
      return Array.from({ length: 60 }, (_, i) => g.assign(path(i, `z${i}`))).filter((a, i) => a.actionId !== i).length;
    };
    expect(misses("exact")).toBe(0);
    expect(misses("hnsw")).toBeGreaterThan(10); // measured: 30+ of 50 at this size
  });
});
