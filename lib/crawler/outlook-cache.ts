/**
 * The best sampled link rank of each SB action, kept for a few pulls (sb-strategy.ts).
 *
 * A group's URL outlook (group-outlook.ts) ranks {@link OUTLOOK_SAMPLES} random links of each of
 * the up to 16 actions the bandit asks at every pull: about 64 rankings a pull, each a few
 * microseconds of hashing a URL that is seldom in the processor's cache, so the choice of the next
 * link cost far more than the bandit itself on a large frontier. The outlook is a noisy estimate
 * anyway (the best of four draws) and the URL statistics it reads move a little with each label,
 * so an action's best rank is reused while the crawl makes {@link OUTLOOK_REFRESH_REQUESTS} requests
 * and then drawn again: each asked action is ranked once every few pulls instead of every pull. The
 * action just pulled is drawn again at its next ask: a lucky draw, kept, would hold the bandit on
 * its action for several pulls. Only the rank is kept; the outlook is made from it with the current
 * reward scale at each choice.
 *
 * Part of the strategy's checkpoint, so a resumed crawl chooses as an uninterrupted one.
 */

/** Requests of the crawl an action's best sampled rank is reused for before its links are drawn and ranked again. */
export const OUTLOOK_REFRESH_REQUESTS = 8;

/** Checkpoint form: [actionId, best rank (null for −∞), pull it was drawn at]. */
export type OutlookCacheState = [actionId: number, bestRank: number | null, drawnAtRequest: number][];

export class OutlookCache {
  private readonly bestRank: number[] = [];
  /** The crawl's request count when each action's rank was drawn; absent = never. */
  private readonly drawnAt: number[] = [];

  /** The action's kept best rank while it is fewer than {@link OUTLOOK_REFRESH_REQUESTS} requests old; undefined when it must be drawn. */
  fresh(actionId: number, requestsSoFar: number): number | undefined {
    const at = this.drawnAt[actionId];
    return at !== undefined && at >= 0 && requestsSoFar - at < OUTLOOK_REFRESH_REQUESTS ? this.bestRank[actionId] : undefined;
  }

  /** Keeps the best rank just drawn for the action. */
  keep(actionId: number, requestsSoFar: number, rank: number): void {
    this.bestRank[actionId] = rank;
    this.drawnAt[actionId] = requestsSoFar;
  }

  /** The action's rank is drawn again at its next ask. */
  forget(actionId: number): void {
    if (this.drawnAt[actionId] !== undefined) this.drawnAt[actionId] = -1;
  }

  toState(): OutlookCacheState {
    const state: OutlookCacheState = [];
    for (let id = 0; id < this.drawnAt.length; id++) {
      const at = this.drawnAt[id];
      if (at === undefined || at < 0) continue;
      const rank = this.bestRank[id]!;
      state.push([id, Number.isFinite(rank) ? rank : null, at]);
    }
    return state;
  }

  static fromState(state: OutlookCacheState | undefined): OutlookCache {
    const cache = new OutlookCache();
    for (const entry of state ?? []) {
      const [id, rank, at] = Array.isArray(entry) ? entry : [];
      if (!Number.isInteger(id) || id! < 0 || !Number.isInteger(at) || (rank !== null && typeof rank !== "number")) {
        throw new TypeError("Invalid outlook cache state");
      }
      cache.bestRank[id!] = rank ?? -Infinity;
      cache.drawnAt[id!] = at!;
    }
    return cache;
  }
}
