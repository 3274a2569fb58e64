import { z } from "zod";
import { ALLOW_PRIVATE_NETWORK_IS_SERVER_SETTING, blocklistSchema, CrawlConfigError, crawlConfigSchema, politenessSchema, readStoredCrawlConfig, settingFieldErrors, type StoredCrawlConfig } from "../../crawl-config";
import { InvalidRequestError, InvalidStateError, NotFoundError } from "../../errors";
import type { Db } from "../prisma-client";
import { getCrawl, type CrawlDetail } from "../queries/get-crawl";
import { addCrawlEvent } from "./add-crawl-event";

/** The event a live edit writes after the settings; a worker re-reads the settings of the crawls it names (lib/worker/held-crawl-controls.ts). */
export const CONFIG_CHANGED_EVENT_KIND = "config-changed";

/**
 * The settings a user may change while a crawl exists, and only these: excluding a section
 * (URL patterns) and slowing down or speeding up (delay). Everything else (root URL, budget,
 * strategy…) defines the run; changing it would make its curves meaningless, so it means a
 * new crawl ("clone it instead"). The worker re-reads the stored config within a second.
 */
export const liveSettingsPatchSchema = z.strictObject({
  blocklist: z.strictObject({ urlPatterns: blocklistSchema.shape.urlPatterns.unwrap() }).optional(),
  politeness: z.strictObject({ delayMs: politenessSchema.shape.delayMs.unwrap() }).optional(),
});
export type LiveSettingsPatch = z.output<typeof liveSettingsPatchSchema>;

const EDITABLE: Record<string, { fields: readonly string[]; schema: z.ZodObject }> = {
  blocklist: { fields: ["urlPatterns"], schema: blocklistSchema },
  politeness: { fields: ["delayMs"], schema: politenessSchema },
};
const NOT_EDITABLE = "is not editable while a crawl exists: clone it instead";
const MAX_ATTEMPTS = 5;

/**
 * Validates `patch`, merges it into the crawl's stored settings, revalidates the whole
 * settings document and writes a "config-changed" event listing each change.
 * @returns the crawl after the change.
 * @throws InvalidRequestError (400, a field that is unknown, not editable or invalid),
 *   NotFoundError, InvalidStateError (409: the crawl is over).
 */
export async function updateLiveSettings(db: Db, crawlId: number, patch: unknown): Promise<CrawlDetail> {
  const changes = parsePatch(patch);
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const crawl = await db.crawl.findUnique({ where: { id: crawlId }, select: { status: true, config: true } });
    if (!crawl) throw new NotFoundError(`Crawl ${crawlId}`);
    if (!["queued", "running", "paused"].includes(crawl.status)) {
      throw new InvalidStateError(`Crawl ${crawlId} is ${crawl.status}: its settings can no longer change; clone it to run again`);
    }
    const before = readStoredConfig(crawl.config);
    const merged = {
      ...before,
      blocklist: { ...before.blocklist, ...changes.blocklist },
      politeness: { ...before.politeness, ...changes.politeness },
    };
    const parsed = crawlConfigSchema.safeParse(merged);
    if (!parsed.success) throw new CrawlConfigError(settingFieldErrors(parsed.error));
    const diff = describeDiff(before, parsed.data);
    if (diff.length === 0) return getCrawl(db, crawlId);
    // Compare-and-set on the settings text: two concurrent PATCHes never lose each other's change.
    const { count } = await db.crawl.updateMany({
      where: { id: crawlId, config: crawl.config, status: crawl.status },
      data: { config: JSON.stringify(parsed.data) },
    });
    if (count === 0) continue;
    await addCrawlEvent(db, crawlId, {
      level: "info",
      kind: CONFIG_CHANGED_EVENT_KIND,
      message: `Settings changed: ${diff.map((change) => `${change.field} ${format(change.before)} → ${format(change.after)}`).join("; ")}`,
      data: { changes: diff },
    });
    return getCrawl(db, crawlId);
  }
  throw new InvalidStateError(`Crawl ${crawlId} kept changing while applying the settings: try again`);
}

function parsePatch(patch: unknown): LiveSettingsPatch {
  if (typeof patch !== "object" || patch === null || Array.isArray(patch)) {
    throw new InvalidRequestError({ "(body)": "must be a JSON object" }, "Invalid settings");
  }
  // Own keys only, collected in a Map: `EDITABLE["constructor"]` is Object's constructor, and a
  // patch `{"constructor": {}}` (or `__proto__`) made this read `.schema.shape` of it, a 500
  // (found by test/fuzz/api-bodies.fuzz.ts).
  const fields = new Map<string, string>();
  for (const [key, value] of Object.entries(patch)) {
    const editable = Object.hasOwn(EDITABLE, key) ? EDITABLE[key] : undefined;
    if (!editable) {
      fields.set(key, key === "allowPrivateNetwork" ? ALLOW_PRIVATE_NETWORK_IS_SERVER_SETTING : Object.hasOwn(crawlConfigSchema.shape, key) ? NOT_EDITABLE : "is not a known setting");
    } else if (typeof value === "object" && value !== null && !Array.isArray(value)) {
      const known = Object.keys(editable.schema.shape);
      for (const inner of Object.keys(value)) {
        if (!editable.fields.includes(inner)) fields.set(`${key}.${inner}`, known.includes(inner) ? NOT_EDITABLE : "is not a known setting");
      }
    }
  }
  if (fields.size > 0) throw new InvalidRequestError(Object.fromEntries(fields), "Invalid settings");
  const parsed = liveSettingsPatchSchema.safeParse(patch);
  if (!parsed.success) throw new InvalidRequestError(settingFieldErrors(parsed.error), "Invalid settings");
  if (!parsed.data.blocklist && !parsed.data.politeness) {
    throw new InvalidRequestError({ "(body)": "names no editable setting (blocklist.urlPatterns, politeness.delayMs)" }, "Invalid settings");
  }
  return parsed.data;
}

/** The stored settings with defaults filled, so the diff compares like with like. */
function readStoredConfig(text: string): StoredCrawlConfig {
  const read = readStoredCrawlConfig(text);
  if (read.ok) return read.config;
  if (read.notJson) throw new InvalidStateError("The crawl's stored settings are not valid JSON: clone it instead");
  throw new CrawlConfigError(read.fields);
}

interface Change {
  field: string;
  before: unknown;
  after: unknown;
}

function describeDiff(before: StoredCrawlConfig, after: StoredCrawlConfig): Change[] {
  const changes: Change[] = [];
  if (JSON.stringify(before.blocklist.urlPatterns) !== JSON.stringify(after.blocklist.urlPatterns)) {
    changes.push({ field: "blocklist.urlPatterns", before: before.blocklist.urlPatterns, after: after.blocklist.urlPatterns });
  }
  if (before.politeness.delayMs !== after.politeness.delayMs) {
    changes.push({ field: "politeness.delayMs", before: before.politeness.delayMs, after: after.politeness.delayMs });
  }
  return changes;
}

function format(value: unknown): string {
  return Array.isArray(value) ? (value.length === 0 ? "[]" : value.map((item) => JSON.stringify(item)).join(", ")) : String(value);
}
