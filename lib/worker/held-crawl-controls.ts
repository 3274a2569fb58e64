/**
 * One look at the database for every crawl a worker holds, however many: the controls the API
 * recorded (pause, resume, stop, cancel) and the live settings a user edited, without reading
 * each held crawl's row every poll.
 *
 * - Controls: the rows this worker holds that carry a `pendingControl` (usually none), found
 *   by the worker's id, not by listing the crawls' ids (a list of thousands passes Prisma's
 *   bind-parameter limit, and its compiler's cost grows with it).
 * - Live settings: `updateLiveSettings` writes the crawl's config, then a `config-changed`
 *   event. The poll reads the events written since its previous look (the primary key's range:
 *   a few rows) and re-reads the config of the held crawls they name. Every
 *   {@link FULL_SETTINGS_SWEEP_MS} it re-reads every held crawl's config anyway: an edit whose
 *   event never came (its process died between the two writes), or whose event id was passed
 *   before it committed (two PostgreSQL transactions committing out of id order), still lands.
 */
import type { Db } from "../store/prisma-client";
import { CONFIG_CHANGED_EVENT_KIND } from "../store/commands/update-live-settings";
import { idSlices } from "./leases";

/** How often every held crawl's settings are re-read whatever the events say. */
export const FULL_SETTINGS_SWEEP_MS = 30_000;

export interface HeldCrawlLook {
  /** Held crawls with a control waiting, as the rows say. */
  controls: { id: number; pendingControl: string }[];
  /** The stored config of the held crawls whose settings may have changed since the previous look. */
  configs: { id: number; config: string }[];
}

export class HeldCrawlControls {
  /** The newest event id seen; null before the first look (which reads every config). */
  private lastEventId: number | null = null;
  private lastSweepAt = -Infinity;

  constructor(
    private readonly db: Db,
    private readonly workerId: string,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** `held`: the crawls this worker runs now. */
  async look(held: readonly number[]): Promise<HeldCrawlLook> {
    const heldSet = new Set(held);
    const controls = (
      await this.db.crawl.findMany({ where: { workerId: this.workerId, pendingControl: { not: null } }, select: { id: true, pendingControl: true } })
    ).filter((row): row is { id: number; pendingControl: string } => row.pendingControl !== null && heldSet.has(row.id));
    const changed = await this.changedSettings(heldSet);
    const configs: HeldCrawlLook["configs"] = [];
    for (const slice of idSlices(changed)) {
      configs.push(...(await this.db.crawl.findMany({ where: { id: { in: slice } }, select: { id: true, config: true } })));
    }
    return { controls, configs };
  }

  /** The held crawls whose config to read: those named by new config-changed events, or all of them at a sweep. */
  private async changedSettings(held: ReadonlySet<number>): Promise<number[]> {
    const sweep = this.now() - this.lastSweepAt >= FULL_SETTINGS_SWEEP_MS;
    if (this.lastEventId === null || sweep) {
      // Events up to here are covered by reading every config now.
      const newest = await this.db.crawlEvent.findFirst({ orderBy: { id: "desc" }, select: { id: true } });
      this.lastEventId = Math.max(this.lastEventId ?? 0, newest?.id ?? 0);
      this.lastSweepAt = this.now();
      return [...held];
    }
    // Only the live edits' events: the crawls' other events (hundreds a second with many crawls) stay in the database.
    const events = await this.db.crawlEvent.findMany({
      where: { id: { gt: this.lastEventId }, kind: CONFIG_CHANGED_EVENT_KIND },
      select: { id: true, crawlId: true },
      orderBy: { id: "asc" },
    });
    const named = new Set<number>();
    for (const event of events) {
      this.lastEventId = Math.max(this.lastEventId, event.id);
      if (held.has(event.crawlId)) named.add(event.crawlId);
    }
    return [...named];
  }
}
