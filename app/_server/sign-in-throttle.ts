import "server-only";
import { openSignInThrottle } from "@/lib/auth/sign-in-throttle-for";
import type { SignInThrottle } from "@/lib/auth/sign-in-throttle";
import { getServerConfig } from "./db";

const globalForForage = globalThis as unknown as { forageSignInThrottle?: Promise<SignInThrottle> };

/** The dashboard process's one sign-in throttle (lib/auth/sign-in-throttle.ts). A failed open is retried by the next sign-in. */
export function getSignInThrottle(): Promise<SignInThrottle> {
  if (!globalForForage.forageSignInThrottle) {
    const opened = openSignInThrottle(getServerConfig()).then((open) => open.throttle);
    opened.catch(() => {
      globalForForage.forageSignInThrottle = undefined;
    });
    globalForForage.forageSignInThrottle = opened;
  }
  return globalForForage.forageSignInThrottle;
}
