"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { apiFetch } from "./api-fetch";
import type { Page, RequestRow } from "./api-types";
import { crawlKeys, LIVE_POLL_MS } from "./use-crawls-query";

export const REQUESTS_PAGE_SIZE = 25;

/** The request log, newest first, optionally filtered by outcome; the first page follows a live crawl. */
export function useCrawlRequestsQuery(
  id: number,
  { outcome, cursor, live }: { outcome: string | null; cursor: string | null; live: boolean },
) {
  return useQuery({
    queryKey: crawlKeys.requests(id, outcome, cursor),
    queryFn: async (): Promise<Page<RequestRow>> => {
      const params = new URLSearchParams({ limit: String(REQUESTS_PAGE_SIZE) });
      if (cursor) params.set("cursor", cursor);
      if (outcome) params.set("outcome", outcome);
      const page = await apiFetch<{ requests: RequestRow[]; nextCursor: string | null }>(`/api/crawls/${id}/requests?${params}`);
      return { items: page.requests, nextCursor: page.nextCursor };
    },
    placeholderData: keepPreviousData,
    refetchInterval: live && cursor === null ? LIVE_POLL_MS : false,
  });
}
