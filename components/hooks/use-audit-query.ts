"use client";

import { useInfiniteQuery } from "@tanstack/react-query";
import { apiFetch } from "./api-fetch";
import { accountKeys } from "./use-accounts-queries";

export interface AuditEventRow {
  id: number;
  at: string;
  action: string;
  actorId: number | null;
  actorEmail: string | null;
  subject: string | null;
  address: string | null;
  details: Record<string, unknown> | null;
}

interface AuditPage {
  events: AuditEventRow[];
  nextBefore: number | null;
}

const PAGE_SIZE = 50;

/** The audit log, newest first, a page of 50 at a time (`fetchNextPage` loads older entries). `action`: "" for all. */
export function useAuditQuery(action: string) {
  return useInfiniteQuery({
    queryKey: accountKeys.audit(action),
    initialPageParam: null as number | null,
    queryFn: ({ pageParam }) => {
      const params = new URLSearchParams({ limit: String(PAGE_SIZE) });
      if (pageParam !== null) params.set("before", String(pageParam));
      if (action) params.set("action", action);
      return apiFetch<AuditPage>(`/api/audit?${params}`);
    },
    getNextPageParam: (page) => page.nextBefore,
  });
}
