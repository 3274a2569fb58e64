"use client";

import { useMutation } from "@tanstack/react-query";
import { apiFetch } from "./api-fetch";
import { jsonInit } from "./use-accounts-queries";

/** The signed-in user's own account: a new password (other sessions end), sign out everywhere. */
export function useChangePasswordMutation() {
  return useMutation({
    mutationFn: (change: { currentPassword: string; newPassword: string }) => apiFetch<{ endedSessions: number }>("/api/account/password", jsonInit("POST", change)),
  });
}

export function useSignOutEverywhereMutation() {
  return useMutation({
    mutationFn: () => apiFetch<{ endedSessions: number }>("/api/account/sign-out-everywhere", jsonInit("POST")),
  });
}
