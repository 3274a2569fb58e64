"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import type { CrawlChanges } from "@/lib/store/queries/get-crawl-changes";
import type { FileChange } from "@/lib/store/recrawl-store";
import { apiFetch } from "./api-fetch";
import { crawlKeys } from "./use-crawls-query";

/** A finished crawl's change report, one page of the files of one kind (`GET /api/crawls/:id/changes`). */
export function useCrawlChangesQuery(id: number, change: FileChange, enabled: boolean, page: { offset: number; limit: number }) {
  return useQuery({
    queryKey: [...crawlKeys.detail(id), "changes", change, page.offset, page.limit] as const,
    queryFn: () => apiFetch<CrawlChanges>(`/api/crawls/${id}/changes?change=${change}&limit=${page.limit}&offset=${page.offset}`),
    enabled,
    placeholderData: keepPreviousData,
  });
}
