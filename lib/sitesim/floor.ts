/**
 * A site's FLOOR: how few requests could possibly collect its targets, from the ground-truth
 * graph, as the yardstick "requests ÷ floor" (1.0 = a crawler that never fetches a useless URL).
 *
 * Definition. Take the reference BFS's tree: every URL it requested hangs under the page whose
 * links queued it first (or the redirect that led to it), so the chain from "/" to a target is
 * a shortest path of requests (pages read, redirect hops, the target itself). The floor to a
 * fraction f of the targets is the number of distinct URLs on the chains of ceil(f × n) targets,
 * choosing greedily the target whose chain adds the fewest new URLs (ties: BFS order). At f = 1
 * it is exactly the union of all chains. When the chains of the BFS's first targets happen to
 * share more, their union is taken instead, so the floor is never above the BFS's requests to the
 * same fraction. It is not the graph's true minimum (a Steiner tree, NP-hard), but is simple to check.
 * robots.txt is not counted, as in the BFS reference.
 */
import { computeGroundTruth } from "./ground-truth";
import type { SimulatedSite } from "./site";

export interface SiteFloor {
  targets: number;
  /** Floor to ceil(50 % / 90 % / 100 % × targets); null without targets. */
  to50: number | null;
  to90: number | null;
  toAll: number | null;
}

/** The floor of `site` (a BFS over its link graph, then the greedy cover; tens of ms on a few thousand URLs). */
export function computeSiteFloor(site: SimulatedSite): SiteFloor {
  const parents = new Map<string, string>();
  const truth = computeGroundTruth(site, site, { parents });
  const chains = truth.targets.map((target) => chainOf(target.path, parents));
  const n = chains.length;
  if (n === 0) return { targets: 0, to50: null, to90: null, toAll: null };
  const need = (fraction: number) => Math.max(1, Math.ceil(n * fraction - 1e-9));
  const taken = new Set<string>();
  const done = new Array<boolean>(n).fill(false);
  const floorAt = new Map<number, number>();
  for (let count = 1; count <= n; count++) {
    let best = -1;
    let bestCost = Infinity;
    for (let i = 0; i < n; i++) {
      if (done[i]) continue;
      let cost = 0;
      for (const key of chains[i]!) {
        if (taken.has(key)) break;
        cost++;
      }
      if (cost < bestCost) {
        bestCost = cost;
        best = i;
        if (cost <= 1) break;
      }
    }
    done[best] = true;
    for (const key of chains[best]!) {
      if (taken.has(key)) break;
      taken.add(key);
    }
    floorAt.set(count, taken.size);
  }
  const inBfsOrder = new Set<string>();
  const bfsUnion = new Map<number, number>();
  for (const [i, chain] of chains.entries()) {
    for (const key of chain) inBfsOrder.add(key);
    bfsUnion.set(i + 1, inBfsOrder.size);
  }
  const at = (count: number) => Math.min(floorAt.get(count)!, bfsUnion.get(count)!);
  return { targets: n, to50: at(need(0.5)), to90: at(need(0.9)), toAll: at(n) };
}

/** The URLs from `key` up to "/" in the BFS tree (the target first). */
function chainOf(key: string, parents: ReadonlyMap<string, string>): string[] {
  const chain = [key];
  for (let k = parents.get(key); k !== undefined; k = parents.get(k)) chain.push(k);
  return chain;
}
