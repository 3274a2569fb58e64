"use client";

import { useQuery } from "@tanstack/react-query";
import { isActiveStatus } from "@/lib/crawl-status";
import { ApiError, apiFetch } from "./api-fetch";
import type { CrawlDetail } from "./api-types";
import { normalizeCrawlDetail, type RawCrawlDetail } from "./normalize-crawl";
import { crawlKeys, LIVE_POLL_MS } from "./use-crawls-query";

/** One crawl's detail; polls every second while the crawl can still change, then stops. */
export function useCrawlQuery(id: number | null, { poll = true, initialData }: { poll?: boolean; initialData?: RawCrawlDetail } = {}) {
  return useQuery({
    initialData: initialData ? normalizeCrawlDetail(initialData) : undefined,
    queryKey: crawlKeys.detail(id ?? 0),
    queryFn: async (): Promise<CrawlDetail> => normalizeCrawlDetail(await apiFetch<RawCrawlDetail>(`/api/crawls/${id}`)),
    enabled: id !== null,
    refetchInterval: (query) => (poll && query.state.data && isActiveStatus(query.state.data.status) ? LIVE_POLL_MS : false),
    // An unknown crawl stays unknown: no retry on 404.
    retry: (failureCount, error) => !(error instanceof ApiError && error.status === 404) && failureCount < 1,
  });
}
