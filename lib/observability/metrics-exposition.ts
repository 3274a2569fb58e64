import { Gauge, Registry } from "prom-client";
import type { Db } from "../store/prisma-client";
import { readDatabaseSnapshot, type DatabaseSnapshot } from "./database-metrics";
import { processMetrics } from "./process-metrics";

/** What GET /api/metrics answers: the Prometheus text format and its content type. */
export interface MetricsExposition {
  contentType: string;
  body: string;
}

/**
 * One scrape: the database's numbers (read now), this process's own metrics (latency histogram,
 * Node's), and how long the database part took. A fresh registry per scrape for the database
 * gauges: nothing stale survives from one scrape to the next (a worker gone, a status emptied).
 */
export async function scrapeMetrics(db: Db, options: { leaseMs: number; now?: Date }): Promise<MetricsExposition> {
  const started = performance.now();
  const snapshot = await readDatabaseSnapshot(db, options);
  const scrapeSeconds = (performance.now() - started) / 1000;
  const registry = databaseRegistry(snapshot, scrapeSeconds);
  const merged = Registry.merge([processMetrics().registry, registry]);
  return { contentType: merged.contentType, body: await merged.metrics() };
}

export function databaseRegistry(snapshot: DatabaseSnapshot, scrapeSeconds: number): Registry {
  const registry = new Registry();
  const gauge = <L extends string>(name: string, help: string, labelNames: readonly L[] = []) => new Gauge<L>({ name, help, labelNames, registers: [registry] });

  const crawls = gauge("forage_crawls", "Crawls stored, by status", ["status"]);
  const requests = gauge("forage_crawl_requests", "Counted HTTP requests of the crawls stored, by crawl status and method (GET, HEAD)", ["status", "method"]);
  const errors = gauge("forage_crawl_request_errors", "Failed requests (kind=error: network, HTTP or limit errors) and robots.txt refusals (kind=robots-disallowed) of the crawls stored, by crawl status", ["status", "kind"]);
  const targets = gauge("forage_crawl_targets", "Target files collected by the crawls stored, by crawl status", ["status"]);
  const bytes = gauge("forage_crawl_bytes", "Bytes downloaded by the crawls stored, by crawl status and kind (target, non-target)", ["status", "kind"]);
  for (const [status, totals] of Object.entries(snapshot.byStatus)) {
    crawls.set({ status }, totals.crawls);
    requests.set({ status, method: "GET" }, totals.getRequests);
    requests.set({ status, method: "HEAD" }, totals.headRequests);
    errors.set({ status, kind: "error" }, totals.errors);
    errors.set({ status, kind: "robots-disallowed" }, totals.robotsSkips);
    targets.set({ status }, totals.targets);
    bytes.set({ status, kind: "target" }, totals.targetBytes);
    bytes.set({ status, kind: "non-target" }, totals.nonTargetBytes);
  }
  gauge("forage_crawl_queue_depth", "Crawls queued, waiting for a worker").set(snapshot.byStatus.queued?.crawls ?? 0);
  gauge("forage_crawl_queue_oldest_age_seconds", "How long the oldest queued crawl has waited (0: none queued)").set(snapshot.oldestQueuedSeconds);

  const deliveries = gauge("forage_webhook_deliveries", "Webhook deliveries of harvest runs, by state (pending, delivered, gave-up)", ["state"]);
  for (const [state, count] of Object.entries(snapshot.webhookDeliveries)) deliveries.set({ state }, count);
  gauge("forage_webhook_failed_attempts", "Webhook attempts that did not deliver (retried or given up)").set(snapshot.webhookFailedAttempts);

  const heartbeat = gauge("forage_worker_heartbeat_age_seconds", "Seconds since each worker's last heartbeat (workers not stopped)", ["worker"]);
  const health = gauge("forage_workers", "Workers not stopped, by health (running, unresponsive: silent for a whole lease, stopping)", ["health"]);
  const byHealth = { running: 0, unresponsive: 0, stopping: 0 };
  const load = {
    crawlsHeld: gauge("forage_worker_crawls_held", "Crawls each worker holds (running or paused), at its last heartbeat", ["worker"]),
    pagesPerSecond: gauge("forage_worker_pages_per_second", "Pages each worker's crawls started per second over its last heartbeat interval", ["worker"]),
    cpuCores: gauge("forage_worker_cpu_cores", "Each worker's CPU time per wall second over its last heartbeat interval (1 = one core)", ["worker"]),
    rssBytes: gauge("forage_worker_resident_memory_bytes", "Each worker's resident memory at its last heartbeat", ["worker"]),
    loopDelayP99Ms: gauge("forage_worker_event_loop_delay_p99_seconds", "99th percentile of each worker's event-loop delay over its last heartbeat interval", ["worker"]),
  };
  for (const worker of snapshot.workers) {
    heartbeat.set({ worker: worker.id }, worker.heartbeatAgeSeconds);
    byHealth[worker.health] += 1;
    if (!worker.load) continue;
    load.crawlsHeld.set({ worker: worker.id }, worker.load.crawlsHeld);
    load.pagesPerSecond.set({ worker: worker.id }, worker.load.pagesPerSecond);
    load.cpuCores.set({ worker: worker.id }, worker.load.cpuCores);
    load.rssBytes.set({ worker: worker.id }, worker.load.rssBytes);
    load.loopDelayP99Ms.set({ worker: worker.id }, worker.load.loopDelayP99Ms / 1000);
  }
  for (const [name, count] of Object.entries(byHealth)) health.set({ health: name }, count);

  gauge("forage_crawl_rate_limit_waits", "Retry-After waits recorded by the crawls running or paused now").set(snapshot.rateLimitWaits);
  gauge("forage_hosts_rate_limited", "Hosts the shared politeness clock holds back for a Retry-After now (PostgreSQL only; 0 on SQLite)").set(snapshot.hostsRateLimited);
  gauge("forage_metrics_database_seconds", "Time the database queries of this scrape took").set(scrapeSeconds);
  return registry;
}
