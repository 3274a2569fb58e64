import { withCurrentParamNames } from "../crawl-config";
import { NotFoundError } from "../errors";
import { nextRunTimes } from "./schedule";
import type { Db } from "../store/prisma-client";
import { crawlSummarySelect, toCrawlSummary, type CrawlSummary } from "../store/queries/crawl-summary";

/** A harvest as the API shows it (docs/API.md `Harvest`). */
export interface HarvestView {
  id: number;
  name: string;
  rootUrl: string;
  cron: string | null;
  timeZone: string;
  webhookUrl: string | null;
  /** The key of the webhook bodies' HMAC-SHA256 signature (X-Forage-Signature), for the receiver. */
  webhookSecret: string | null;
  /** True when a webhook secret exists but this viewer may not read it (harvest-for-viewer.ts). */
  webhookSecretHidden?: boolean;
  paused: boolean;
  checkKnownFiles: boolean;
  createdAt: string;
  createdBy: string | null;
  /** The creator's user id (null: created from the command line, or the user was deleted); decides who sees `webhookSecret`. */
  createdById: number | null;
  /** The next scheduled run (null: no schedule, or paused). */
  nextRunAt: string | null;
  lastScheduledAt: string | null;
  /** The schedule's next three times from now (empty without a schedule), for the form's preview. */
  upcoming: string[];
  /** Its crawl settings (`after` is set per run). */
  config: Record<string, unknown>;
  /** The queued, running or paused run, if any. */
  activeRunId: number | null;
  /** Runs, newest first. */
  runs: CrawlSummary[];
}

export const harvestSelect = {
  id: true,
  name: true,
  config: true,
  cron: true,
  timeZone: true,
  webhookUrl: true,
  webhookSecret: true,
  paused: true,
  createdAt: true,
  createdBy: { select: { email: true } },
  createdById: true,
  nextRunAt: true,
  lastScheduledAt: true,
  runs: { select: crawlSummarySelect, orderBy: { id: "desc" as const } },
} as const;

type HarvestRow = NonNullable<Awaited<ReturnType<typeof findHarvestRow>>>;

function findHarvestRow(db: Db, id: number) {
  return db.harvest.findUnique({ where: { id }, select: harvestSelect });
}

export function toHarvestView(row: HarvestRow, now = new Date()): HarvestView {
  // A definition stored before a setting was renamed or retired is shown with today's names.
  const config = withCurrentParamNames(JSON.parse(row.config)) as Record<string, unknown>;
  const runs = row.runs.map(toCrawlSummary);
  return {
    id: row.id,
    name: row.name,
    rootUrl: String(config.rootUrl),
    cron: row.cron,
    timeZone: row.timeZone,
    webhookUrl: row.webhookUrl,
    webhookSecret: row.webhookSecret,
    paused: row.paused,
    checkKnownFiles: config.checkKnownFiles === true,
    createdAt: row.createdAt.toISOString(),
    createdBy: row.createdBy?.email ?? null,
    createdById: row.createdById,
    nextRunAt: row.nextRunAt?.toISOString() ?? null,
    lastScheduledAt: row.lastScheduledAt?.toISOString() ?? null,
    upcoming: row.cron && !row.paused ? nextRunTimes({ cron: row.cron, timeZone: row.timeZone }, now, 3).map((date) => date.toISOString()) : [],
    config,
    activeRunId: runs.find((run) => run.status === "queued" || run.status === "running" || run.status === "paused")?.id ?? null,
    runs,
  };
}

/** @throws NotFoundError for an unknown harvest. */
export async function getHarvest(db: Db, id: number): Promise<HarvestView> {
  const row = await findHarvestRow(db, id);
  if (!row) throw new NotFoundError(`Harvest ${id}`);
  return toHarvestView(row);
}

/** Every harvest with its runs, newest harvest first. */
export async function listHarvests(db: Db): Promise<HarvestView[]> {
  const rows = await db.harvest.findMany({ select: harvestSelect, orderBy: { id: "desc" } });
  const now = new Date();
  return rows.map((row) => toHarvestView(row, now));
}
