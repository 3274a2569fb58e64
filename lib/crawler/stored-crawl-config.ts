import { crawlConfigSchema, settingFieldErrors, type FieldErrors } from "./crawl-config";
import { RETIRED_SETTINGS, SETTING_ROWS } from "./settings-table";
import type { z } from "zod";

/**
 * Reading back the settings a crawl was stored with: the one place that knows how older
 * documents differ from today's. Readers that run or change a crawl validate the whole document
 * with {@link readStoredCrawlConfig} (the worker's claim and live settings, `loadCrawlConfig` for
 * runs and replays, live edits, a harvest made from a crawl); readers that only show it take
 * {@link upgradeStoredCrawlConfig} without the schema's cost (the API's crawl detail, which the
 * cockpit and Compare read, and the early-stop panel); harvest definitions take
 * {@link withCurrentParamNames} before they are parsed as new crawl settings.
 */

/** A stored crawl's settings as the schema returns them (the seed lives in its own column). */
export type StoredCrawlConfig = z.output<typeof crawlConfigSchema>;

/** A stored crawl's settings, or why they cannot be read: not JSON at all, or fields today's rules refuse. */
export type StoredConfigRead = { ok: true; config: StoredCrawlConfig } | { ok: false; notJson: boolean; fields: FieldErrors };

/** Former name → today's name, for every renamed setting (settings-table.ts `formerNames`). */
const RENAMED_PARAMS: ReadonlyMap<string, string> = new Map(SETTING_ROWS.flatMap((row) => (row.formerNames ?? []).map((former) => [former, row.key] as const)));

/** Today's name → the value a crawl stored before the setting existed ran with. */
const VALUES_BEFORE_THEY_EXISTED: Readonly<Record<string, unknown>> = Object.fromEntries(
  SETTING_ROWS.filter((row) => row.valueBeforeItExisted !== undefined).map((row) => [row.key, row.valueBeforeItExisted]),
);

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Settings stored under a former name are read under today's (today's name wins when both are
 * present), and settings read by nothing any more are dropped. Harmless on a document that has
 * neither, so harvest definitions use it too.
 */
export function withCurrentParamNames(stored: unknown): unknown {
  if (!isRecord(stored) || !isRecord(stored.params)) return stored;
  const params: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(stored.params)) {
    if (Object.hasOwn(RETIRED_SETTINGS, key)) continue;
    const name = RENAMED_PARAMS.get(key) ?? key;
    if (name !== key && Object.hasOwn(stored.params, name)) continue;
    params[name] = value;
  }
  return { ...stored, params };
}

/**
 * A stored crawl's document as the crawl ran: current names, and for each setting added after it
 * was stored, the value it ran with instead of the newer default (settings-table.ts
 * `valueBeforeItExisted`); likewise no web archive and no rendering for a crawl stored before
 * either existed. Without this, resuming, replaying or live-editing an older crawl would switch
 * it to newer behaviour halfway. A document without `params` is a bare `{ rootUrl }`: today's
 * defaults throughout.
 */
export function upgradeStoredCrawlConfig(stored: unknown): unknown {
  const named = withCurrentParamNames(stored);
  if (!isRecord(named) || !isRecord(named.params)) return named;
  const archive = named.archive ?? { keepWarc: false };
  const render = named.render ?? "off";
  return { ...named, archive, render, params: { ...VALUES_BEFORE_THEY_EXISTED, ...named.params } };
}

/**
 * The one parse of a stored crawl's settings text: JSON, {@link upgradeStoredCrawlConfig}, then
 * the schema (the stored document is an input too: it may predate today's rules).
 */
export function readStoredCrawlConfig(text: string): StoredConfigRead {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return { ok: false, notJson: true, fields: { "(settings)": "are not valid JSON" } };
  }
  const parsed = crawlConfigSchema.safeParse(upgradeStoredCrawlConfig(raw));
  return parsed.success ? { ok: true, config: parsed.data } : { ok: false, notJson: false, fields: settingFieldErrors(parsed.error) };
}
