"use client";

import { useQuery } from "@tanstack/react-query";
import type { CrawlListItem } from "@/lib/store/queries/list-crawls";
import { apiFetch } from "./api-fetch";

/**
 * Hierarchical query keys: everything about one crawl lives under `detail(id)`, so one
 * `invalidateQueries({ queryKey: crawlKeys.detail(id) })` after a control refreshes the
 * headline, the charts and the tables together.
 */
export const crawlKeys = {
  all: ["crawls"] as const,
  list: () => [...crawlKeys.all, "list"] as const,
  detail: (id: number) => [...crawlKeys.all, "detail", id] as const,
  metrics: (id: number) => [...crawlKeys.detail(id), "metrics"] as const,
  groups: (id: number, sort: string, limit: number) => [...crawlKeys.detail(id), "groups", { sort, limit }] as const,
  earlyStop: (id: number) => [...crawlKeys.detail(id), "early-stop"] as const,
  targets: (id: number, mime: string | null, cursor: string | null) =>
    [...crawlKeys.detail(id), "targets", { mime, cursor }] as const,
  targetsByMime: (id: number) => [...crawlKeys.detail(id), "targets-by-mime"] as const,
  requests: (id: number, outcome: string | null, cursor: string | null) =>
    [...crawlKeys.detail(id), "requests", { outcome, cursor }] as const,
};

/** How often live views refresh while a crawl is queued, running or paused. */
export const LIVE_POLL_MS = 1_000;

/** The crawl list, refreshed every 2 s so running crawls' counters move. */
export function useCrawlsQuery(initialData?: CrawlListItem[]) {
  return useQuery({
    queryKey: crawlKeys.list(),
    queryFn: async () => (await apiFetch<{ crawls: CrawlListItem[] }>("/api/crawls")).crawls,
    initialData,
    refetchInterval: 2_000,
  });
}
