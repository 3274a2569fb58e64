"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { apiFetch } from "./api-fetch";
import type { GroupSort, TagPathGroup } from "./api-types";
import { crawlKeys, LIVE_POLL_MS } from "./use-crawls-query";

export function useCrawlGroupsQuery(id: number, { sort, limit, live }: { sort: GroupSort; limit: number; live: boolean }) {
  return useQuery({
    queryKey: crawlKeys.groups(id, sort, limit),
    queryFn: () => apiFetch<{ groups: TagPathGroup[]; total: number }>(`/api/crawls/${id}/groups?limit=${limit}&sort=${sort}`),
    placeholderData: keepPreviousData,
    refetchInterval: live ? LIVE_POLL_MS : false,
  });
}
