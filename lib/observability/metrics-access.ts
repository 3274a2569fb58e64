import { createHash, timingSafeEqual } from "node:crypto";
import { guardRequest } from "../api/guard";
import type { SameOrigin } from "../api/same-origin";
import type { Db } from "../store/prisma-client";

/**
 * Who may read GET /api/metrics. Host first (as everywhere: a rebinding page reads nothing), then
 * either the scraper's own secret, FORAGE_METRICS_TOKEN, sent as a bearer token (compared in
 * constant time, no database involved), or an admin's credentials through the API guard (an
 * admin API token or session; a member is refused 403, nothing at all 401). The dedicated
 * token is the one to give Prometheus: it reads numbers and can change nothing, where an admin
 * token stored in a scrape config could manage users.
 */
export type MetricsReader = "metrics-token" | "admin";

export async function authorizeMetricsRequest(request: Request, sameOrigin: SameOrigin, metricsToken: string | null, db: () => Promise<Db>): Promise<MetricsReader> {
  sameOrigin.checkHost(request);
  if (metricsToken !== null && bearerMatches(request.headers.get("authorization"), metricsToken)) return "metrics-token";
  await guardRequest(request, await db(), sameOrigin, { admin: true });
  return "admin";
}

function bearerMatches(authorization: string | null, expected: string): boolean {
  if (authorization === null) return false;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
  if (!match) return false;
  // Digests of equal length: the comparison's time says nothing about the secret's length or prefix.
  return timingSafeEqual(sha256(match[1]!), sha256(expected));
}

function sha256(text: string): Buffer {
  return createHash("sha256").update(text).digest();
}
