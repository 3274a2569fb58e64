"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { HarvestEventView, HarvestView } from "@/lib/harvest";
import { apiFetch } from "@/components/hooks/api-fetch";
import { crawlKeys } from "@/components/hooks/use-crawls-query";

/** Hierarchical keys: a harvest's events live under its detail, so one invalidation refreshes both. */
export const harvestKeys = {
  all: ["harvests"] as const,
  list: () => [...harvestKeys.all, "list"] as const,
  detail: (id: number) => [...harvestKeys.all, "detail", id] as const,
  events: (id: number) => [...harvestKeys.detail(id), "events"] as const,
};

const postJson = (body: unknown, method = "POST"): RequestInit => ({ method, headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

export function useHarvestsQuery() {
  return useQuery({
    queryKey: harvestKeys.list(),
    queryFn: async () => (await apiFetch<{ harvests: HarvestView[] }>("/api/harvests")).harvests,
    refetchInterval: 5_000,
  });
}

export function useHarvestQuery(id: number | null, initialData?: HarvestView) {
  return useQuery({
    queryKey: harvestKeys.detail(id ?? 0),
    queryFn: () => apiFetch<HarvestView>(`/api/harvests/${id}`),
    enabled: id !== null,
    initialData,
    refetchInterval: 3_000,
  });
}

export function useHarvestEventsQuery(id: number) {
  return useQuery({
    queryKey: harvestKeys.events(id),
    queryFn: async () => (await apiFetch<{ events: HarvestEventView[] }>(`/api/harvests/${id}/events?limit=50`)).events,
    refetchInterval: 3_000,
  });
}

/** Creates, changes, runs and deletes harvests; every change refreshes the harvests and the crawl list. */
export function useHarvestMutations() {
  const client = useQueryClient();
  const refresh = async () => {
    await client.invalidateQueries({ queryKey: harvestKeys.all });
    await client.invalidateQueries({ queryKey: crawlKeys.all });
  };
  return {
    create: useMutation({ mutationFn: (body: Record<string, unknown>) => apiFetch<HarvestView>("/api/harvests", postJson(body)), onSuccess: refresh }),
    update: useMutation({ mutationFn: ({ id, ...body }: { id: number } & Record<string, unknown>) => apiFetch<HarvestView>(`/api/harvests/${id}`, postJson(body, "PATCH")), onSuccess: refresh }),
    run: useMutation({ mutationFn: (id: number) => apiFetch<{ crawlId: number }>(`/api/harvests/${id}/runs`, postJson({})), onSuccess: refresh }),
    remove: useMutation({ mutationFn: (id: number) => apiFetch<null>(`/api/harvests/${id}`, { method: "DELETE" }), onSuccess: refresh }),
  };
}
