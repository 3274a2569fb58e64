"use client";

import { useQuery } from "@tanstack/react-query";
import type { RecipeSummary } from "@/lib/recipes/recipes-in-force";
import { apiFetch } from "./api-fetch";

/** The recipes crawls run with (`GET /api/recipes`); they change only when the server restarts. */
export function useRecipesQuery() {
  return useQuery({
    queryKey: ["recipes"],
    queryFn: () => apiFetch<{ recipes: RecipeSummary[]; problem: string | null }>("/api/recipes"),
    staleTime: Infinity,
  });
}
