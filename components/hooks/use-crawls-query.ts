"use client";

import { useQuery } from "@tanstack/react-query";
import type { CrawlListItem } from "@/lib/store/queries/list-crawls";
import { apiFetch } from "./api-fetch";

export const crawlKeys = {
  all: ["crawls"] as const,
  list: () => [...crawlKeys.all, "list"] as const,
  detail: (id: number) => [...crawlKeys.all, "detail", id] as const,
};

/** The crawl list, refreshed every 2 s so running crawls' counters move. */
export function useCrawlsQuery(initialData?: CrawlListItem[]) {
  return useQuery({
    queryKey: crawlKeys.list(),
    queryFn: async () => (await apiFetch<{ crawls: CrawlListItem[] }>("/api/crawls")).crawls,
    initialData,
    refetchInterval: 2_000,
  });
}
