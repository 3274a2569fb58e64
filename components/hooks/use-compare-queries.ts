"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { Strategy } from "@/lib/crawl-config";
import { isActiveStatus } from "@/lib/crawl-status";
import type { CrawlComparison } from "@/lib/store/queries/get-crawl-comparison";
import type { CrawlReplays } from "@/lib/store/queries/get-crawl-replays";
import type { SavedVsBfs } from "@/lib/store/queries/get-saved-vs-bfs";
import { apiFetch } from "./api-fetch";
import { crawlKeys, LIVE_POLL_MS } from "./use-crawls-query";

export type { CrawlComparison, ComparedCrawl, CurvePoint } from "@/lib/store/queries/get-crawl-comparison";
export type { CrawlReplays, ReplayFamilyMember } from "@/lib/store/queries/get-crawl-replays";
export type { SavedVsBfs } from "@/lib/store/queries/get-saved-vs-bfs";

export const compareKeys = {
  all: ["compare"] as const,
  comparison: (ids: string) => [...compareKeys.all, ids] as const,
};

/** The URL of the Compare view for these crawls. */
export function compareHref(ids: readonly number[]): string {
  return `/compare?ids=${ids.join(",")}`;
}

/**
 * GET /api/compare for the `ids` of the page's address, as typed (the API names what is wrong
 * with them); polled each second while one of the crawls is still running (replays just asked for).
 */
export function useCompareQuery(ids: string) {
  return useQuery({
    queryKey: compareKeys.comparison(ids),
    queryFn: () => apiFetch<CrawlComparison>(`/api/compare?ids=${encodeURIComponent(ids)}`),
    retry: false,
    refetchInterval: (query) => (query.state.data?.crawls.some((crawl) => isActiveStatus(crawl.status)) ? LIVE_POLL_MS : false),
  });
}

/** Every point of the curves, for the CSV export (the chart holds a downsampled copy). */
export function fetchFullComparison(ids: string): Promise<CrawlComparison> {
  return apiFetch<CrawlComparison>(`/api/compare?ids=${encodeURIComponent(ids)}&maxPoints=100000`);
}

/** The crawl's replay family; polled while one of its replays is queued or running. */
export function useCrawlReplaysQuery(id: number) {
  return useQuery({
    queryKey: [...crawlKeys.detail(id), "replays"] as const,
    queryFn: () => apiFetch<CrawlReplays>(`/api/crawls/${id}/replays`),
    refetchInterval: (query) => (query.state.data?.replays.some((replay) => isActiveStatus(replay.status)) ? LIVE_POLL_MS : false),
  });
}

/**
 * "Saved vs breadth-first" of a crawl (null: no BFS run of its site). `version` changes when a
 * run that may be the BFS one ends (the family's finished replays), which asks again.
 */
export function useSavedVsBfsQuery(id: number, enabled: boolean, version = 0) {
  return useQuery({
    queryKey: [...crawlKeys.detail(id), "saved-vs-bfs", version] as const,
    queryFn: async () => (await apiFetch<{ savedVsBfs: SavedVsBfs | null }>(`/api/compare/saved-vs-bfs?crawl=${id}`)).savedVsBfs,
    enabled,
  });
}

/** POST /api/crawls/:id/replays; the family and the crawl list refresh so the new replays show up. */
export function useCreateReplaysMutation(id: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: { strategies: Strategy[]; seed?: number }) =>
      apiFetch<{ sourceCrawlId: number; replays: { id: number; strategy: Strategy; seed: number }[] }>(`/api/crawls/${id}/replays`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      }),
    onSuccess: async () => {
      await Promise.all([
        client.invalidateQueries({ queryKey: [...crawlKeys.detail(id), "replays"] }),
        client.invalidateQueries({ queryKey: crawlKeys.list() }),
      ]);
    },
  });
}
