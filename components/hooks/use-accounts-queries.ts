"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiFetch } from "./api-fetch";

export interface UserRow {
  id: number;
  email: string;
  role: "admin" | "member";
  createdAt: string;
  /** Set while the account is disabled. */
  disabledAt: string | null;
}

export interface ApiTokenRow {
  id: number;
  name: string;
  prefix: string;
  userEmail: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

export const accountKeys = {
  all: ["accounts"] as const,
  users: () => [...accountKeys.all, "users"] as const,
  tokens: () => [...accountKeys.all, "tokens"] as const,
  audit: (action: string) => [...accountKeys.all, "audit", action] as const,
};

export const jsonInit = (method: string, body?: unknown): RequestInit => ({
  method,
  headers: { "content-type": "application/json" },
  body: body === undefined ? undefined : JSON.stringify(body),
});

export function useUsersQuery() {
  return useQuery({ queryKey: accountKeys.users(), queryFn: () => apiFetch<{ users: UserRow[] }>("/api/users").then((body) => body.users) });
}

export function useTokensQuery() {
  return useQuery({ queryKey: accountKeys.tokens(), queryFn: () => apiFetch<{ tokens: ApiTokenRow[] }>("/api/tokens").then((body) => body.tokens) });
}

export function useCreateUserMutation() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (user: { email: string; password: string; role: "admin" | "member" }) => apiFetch<{ user: UserRow }>("/api/users", jsonInit("POST", user)),
    onSuccess: () => client.invalidateQueries({ queryKey: accountKeys.users() }),
  });
}

export function useCreateTokenMutation() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (token: { name: string; userEmail: string }) => apiFetch<{ token: string; apiToken: ApiTokenRow }>("/api/tokens", jsonInit("POST", token)),
    onSuccess: () => client.invalidateQueries({ queryKey: accountKeys.tokens() }),
  });
}

export function useRevokeTokenMutation() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => apiFetch<{ apiToken: ApiTokenRow }>(`/api/tokens/${id}`, jsonInit("DELETE")),
    onSuccess: () => client.invalidateQueries({ queryKey: accountKeys.tokens() }),
  });
}
