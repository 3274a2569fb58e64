import { collectDefaultMetrics, Histogram, Registry } from "prom-client";
import { RouteLabels } from "./route-label";

/**
 * The dashboard process's own metrics: Node's (CPU, memory, event-loop lag, prefixed
 * `forage_dashboard_`) and the latency of every HTTP request the dashboard server answered.
 * Kept on `globalThis`: the dashboard server (loaded by scripts/dashboard.mjs) and the metrics
 * route (inside Next.js's bundle) hold separate copies of this module, and must share one set.
 */
export interface ProcessMetrics {
  registry: Registry;
  observeRequest(method: string, path: string, status: number, seconds: number): void;
}

const SLOT = Symbol.for("forage.observability.processMetrics");
const holder = globalThis as unknown as Record<symbol, ProcessMetrics | undefined>;

/** Upper bounds (seconds) of the latency buckets: API answers take milliseconds, exports and sign-ins (Argon2) up to seconds. */
export const HTTP_LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

const KNOWN_METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

export function processMetrics(): ProcessMetrics {
  const existing = holder[SLOT];
  if (existing) return existing;
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: "forage_dashboard_" });
  const latency = new Histogram({
    name: "forage_http_request_duration_seconds",
    help: "Time from a request's arrival at the dashboard server to the end of its answer, by method, route (ids folded) and status",
    labelNames: ["method", "route", "status"] as const,
    buckets: HTTP_LATENCY_BUCKETS,
    registers: [registry],
  });
  const routes = new RouteLabels();
  const created: ProcessMetrics = {
    registry,
    observeRequest(method, path, status, seconds) {
      latency.observe({ method: KNOWN_METHODS.has(method) ? method : "other", route: routes.label(path, status), status: String(status) }, seconds);
    },
  };
  holder[SLOT] = created;
  return created;
}
