"use client";

import { useQuery } from "@tanstack/react-query";
import { apiFetch } from "@/components/hooks/api-fetch";
import type { WorkerListItem } from "@/lib/store/queries/list-workers";

export const workerKeys = { list: () => ["workers", "list"] as const };

/** The workers, refreshed every 2 s so heartbeats and held crawls move. */
export function useWorkersQuery(initialData?: WorkerListItem[]) {
  return useQuery({
    queryKey: workerKeys.list(),
    queryFn: async () => (await apiFetch<{ workers: WorkerListItem[] }>("/api/workers")).workers,
    initialData,
    refetchInterval: 2_000,
  });
}
