"use client";

import { useQuery } from "@tanstack/react-query";
import { apiFetch } from "./api-fetch";
import type { EarlyStopState } from "./api-types";
import { crawlKeys, LIVE_POLL_MS } from "./use-crawls-query";

export function useEarlyStopQuery(id: number, live: boolean) {
  return useQuery({
    queryKey: crawlKeys.earlyStop(id),
    queryFn: () => apiFetch<EarlyStopState>(`/api/crawls/${id}/early-stop`),
    refetchInterval: live ? LIVE_POLL_MS : false,
  });
}
