"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { apiFetch } from "./api-fetch";
import type { MimeCount, Page, TargetFile } from "./api-types";
import { crawlKeys, LIVE_POLL_MS } from "./use-crawls-query";

export const TARGETS_PAGE_SIZE = 25;

/** One page of target files; only the first page follows a live crawl (later pages stay put while read). */
export function useCrawlTargetsQuery(id: number, { mime, cursor, live, mismatched = false }: { mime: string | null; cursor: string | null; live: boolean; mismatched?: boolean }) {
  return useQuery({
    queryKey: [...crawlKeys.targets(id, mime, cursor), mismatched ? "mismatched" : "all"],
    queryFn: async (): Promise<Page<TargetFile> & { mismatches: number }> => {
      const params = new URLSearchParams({ limit: String(TARGETS_PAGE_SIZE) });
      if (cursor) params.set("cursor", cursor);
      if (mime) params.set("mime", mime);
      if (mismatched) params.set("mismatched", "true");
      const page = await apiFetch<{ targets: TargetFile[]; nextCursor: string | null; mismatches: number }>(`/api/crawls/${id}/targets?${params}`);
      return { items: page.targets, nextCursor: page.nextCursor, mismatches: page.mismatches };
    },
    placeholderData: keepPreviousData,
    refetchInterval: live && cursor === null ? LIVE_POLL_MS : false,
  });
}

export function useTargetsByMimeQuery(id: number, live: boolean) {
  return useQuery({
    queryKey: crawlKeys.targetsByMime(id),
    queryFn: async () => (await apiFetch<{ mimeTypes: MimeCount[] }>(`/api/crawls/${id}/targets/by-mime`)).mimeTypes,
    refetchInterval: live ? LIVE_POLL_MS : false,
  });
}
