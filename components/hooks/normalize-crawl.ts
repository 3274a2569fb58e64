import type { z } from "zod";
import { crawlConfigSchema, upgradeStoredCrawlConfig, type CrawlConfig } from "@/lib/crawl-config";
import type { CrawlDetail } from "./api-types";

/** The API's answer before normalisation (the server page passes the same shape from lib/store). */
export type RawCrawlDetail = Omit<CrawlDetail, "config"> & { config: unknown };

/**
 * The API passes the stored settings with today's names (lib/crawler/stored-crawl-config.ts), not
 * validated again: a hand-edited document may lack fields, or be null. Each top-level setting that
 * does not validate falls back to its default, so the cockpit always reads a complete
 * configuration and never crashes on `undefined`.
 */
export function normalizeCrawlDetail(raw: RawCrawlDetail): CrawlDetail {
  return { ...raw, config: normalizeConfig(raw.config, raw) };
}

export function normalizeConfig(raw: unknown, crawl: { rootUrl: string; seed: number }): CrawlConfig {
  // The upgrade is the server's too (idempotent): older crawls show the values they ran with.
  const upgraded = upgradeStoredCrawlConfig(raw);
  const stored = upgraded !== null && typeof upgraded === "object" ? (upgraded as Record<string, unknown>) : {};
  const shape = crawlConfigSchema.shape;
  return {
    rootUrl: crawl.rootUrl,
    name: pick(shape.name, stored.name),
    targetMimeTypes: pick(shape.targetMimeTypes, stored.targetMimeTypes),
    budget: pick(shape.budget, stored.budget),
    blocklist: pick(shape.blocklist, stored.blocklist),
    politeness: pick(shape.politeness, stored.politeness),
    strategy: pick(shape.strategy, stored.strategy),
    params: pick(shape.params, stored.params),
    archive: pick(shape.archive, stored.archive),
    seed: crawl.seed,
    allowPrivateNetwork: pick(shape.allowPrivateNetwork, stored.allowPrivateNetwork),
    after: pick(shape.after, stored.after),
    checkKnownFiles: pick(shape.checkKnownFiles, stored.checkKnownFiles),
    applications: pick(shape.applications, stored.applications),
    render: pick(shape.render, stored.render),
  };
}

/** The stored value when it validates, else the setting's default. */
function pick<T>(schema: z.ZodType<T>, value: unknown): T {
  const parsed = schema.safeParse(value);
  return parsed.success ? parsed.data : schema.parse(undefined);
}
