"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { CrawlConfigInput } from "@/lib/crawl-config";
import { apiFetch } from "./api-fetch";
import type { CrawlControl, CrawlDetail, LiveSettingsPatch } from "./api-types";
import { normalizeCrawlDetail } from "./normalize-crawl";
import { crawlKeys } from "./use-crawls-query";

const jsonInit = (method: string, body?: unknown): RequestInit => ({
  method,
  headers: { "content-type": "application/json" },
  body: body === undefined ? undefined : JSON.stringify(body),
});

/** POST /api/crawls → `{ id }`; the list is refreshed so the new crawl shows up. */
export function useCreateCrawlMutation() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (settings: CrawlConfigInput) => apiFetch<{ id: number }>("/api/crawls", jsonInit("POST", settings)),
    onSuccess: () => client.invalidateQueries({ queryKey: crawlKeys.list() }),
  });
}

/** Pause, resume, stop or cancel: the answer is the new detail, then everything of the crawl refreshes. */
export function useCrawlControlMutation(id: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (control: CrawlControl) => apiFetch<CrawlDetail>(`/api/crawls/${id}/${control}`, jsonInit("POST")),
    onSuccess: async (detail) => {
      client.setQueryData(crawlKeys.detail(id), normalizeCrawlDetail(detail));
      await Promise.all([
        client.invalidateQueries({ queryKey: crawlKeys.detail(id) }),
        client.invalidateQueries({ queryKey: crawlKeys.list() }),
      ]);
    },
  });
}

/** PATCH the live-editable settings (URL blocklist, politeness delay). */
export function useUpdateCrawlMutation(id: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (patch: LiveSettingsPatch) => apiFetch<CrawlDetail>(`/api/crawls/${id}`, jsonInit("PATCH", patch)),
    onSuccess: async (detail) => {
      client.setQueryData(crawlKeys.detail(id), normalizeCrawlDetail(detail));
      await client.invalidateQueries({ queryKey: crawlKeys.detail(id) });
    },
  });
}

/** DELETE a finished crawl and its files. */
export function useDeleteCrawlMutation(id: number) {
  const client = useQueryClient();
  return useMutation({
    // 204 has no body: apiFetch answers null for it and throws the API's error otherwise.
    mutationFn: () => apiFetch<null>(`/api/crawls/${id}`, { method: "DELETE" }),
    onSuccess: async () => {
      client.removeQueries({ queryKey: crawlKeys.detail(id) });
      await client.invalidateQueries({ queryKey: crawlKeys.list() });
    },
  });
}
