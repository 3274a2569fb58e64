"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiFetch } from "./api-fetch";
import { accountKeys, jsonInit, type UserRow } from "./use-accounts-queries";

export type UserPatch = { disabled: boolean } | { role: "admin" | "member" } | { password: string };

/**
 * An admin's changes to a user (PATCH / DELETE /api/users/:id). Users, tokens (a deleted user's
 * go with them) and the audit log are refetched after each.
 */
export function useUpdateUserMutation() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, patch }: { id: number; patch: UserPatch }) => apiFetch<{ user: UserRow }>(`/api/users/${id}`, jsonInit("PATCH", patch)),
    onSuccess: () => client.invalidateQueries({ queryKey: accountKeys.all }),
  });
}

export function useDeleteUserMutation() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => apiFetch<null>(`/api/users/${id}`, jsonInit("DELETE")),
    onSuccess: () => client.invalidateQueries({ queryKey: accountKeys.all }),
  });
}
