"use client";

import Link from "next/link";
import { DateTime } from "@/components/ui/DateTime";
import { StatusBadge } from "@/components/ui/StatusBadge";
import { stripScheme } from "@/components/ui/format";
import { formatBytes, formatDuration, formatInteger } from "@/lib/format";
import type { WorkerHealth, WorkerListItem } from "@/lib/store/queries/list-workers";
import type { StorageSummary } from "@/lib/storage/storage-for";
import { useWorkersQuery } from "./use-workers-query";
import "./workers.css";
import { crawlDisplayName } from "@/components/ui/crawl-name";

const HEALTH_LABELS: Record<WorkerHealth, string> = {
  running: "Running",
  unresponsive: "Unresponsive",
  stopping: "Stopping",
  stopped: "Stopped",
};

/** The crawl status pills' colours: alive like a running crawl, unresponsive like a failed one. */
const HEALTH_CLASSES: Record<WorkerHealth, string> = {
  running: "status-running",
  unresponsive: "status-failed",
  stopping: "status-paused",
  stopped: "status-cancelled",
};

const HEALTH_HINTS: Record<WorkerHealth, string> = {
  running: "Heartbeats arrive",
  unresponsive: "No heartbeat for longer than a lease: its crawls move to another worker when their leases expire",
  stopping: "Finishing its crawls' current pages before handing them back",
  stopped: "Shut down cleanly",
};

/** The crawl workers sharing this database: who they are, whether they are alive, what they run. */
export function WorkersPage({
  initialWorkers,
  loadError,
  storage,
}: {
  initialWorkers?: WorkerListItem[];
  loadError: string | null;
  storage: StorageSummary;
}) {
  const query = useWorkersQuery(initialWorkers);
  const error = query.error?.message ?? (query.data ? null : loadError);
  const workers = query.data ?? [];
  const live = workers.filter((worker) => worker.health === "running" || worker.health === "stopping").length;
  return (
    <section aria-labelledby="workers-title">
      <div className="section-head">
        <h1 id="workers-title">Workers</h1>
        <span className="hint" data-testid="workers-summary">
          {live} of {workers.length} running
        </span>
      </div>
      <p className="hint">
        Workers (<code>forage worker</code>) claim queued crawls from the database and run them; the dashboard never crawls. A worker
        sends a heartbeat every half lease.
      </p>
      <p className="hint" data-testid="workers-storage">
        {storage.kind === "s3" ? (
          <>
            Storage: S3-compatible bucket <code>{storage.location}</code>, shared by every worker and the dashboard.
          </>
        ) : (
          <>
            Storage: this machine&apos;s data folder (<code>FORAGE_DATA_DIR</code>): every worker must run on this machine. Set{" "}
            <code>FORAGE_STORAGE_URL</code> to a bucket to run workers on several machines.
          </>
        )}
      </p>
      {error ? (
        <p role="alert" className="error-box">
          {error}
        </p>
      ) : workers.length === 0 ? (
        <p className="hint">No worker has started against this database yet: run <code>forage worker</code>.</p>
      ) : (
        <div className="table-scroll">
          <table className="data-table responsive-table" aria-label="Workers">
            <thead>
              <tr>
                <th scope="col">Worker</th>
                <th scope="col">Host</th>
                <th scope="col">Storage</th>
                <th scope="col" className="num">PID</th>
                <th scope="col">State</th>
                <th scope="col">Started</th>
                <th scope="col">Last heartbeat</th>
                <th scope="col">Load</th>
                <th scope="col">Crawls</th>
              </tr>
            </thead>
            <tbody>
              {workers.map((worker) => (
                <tr key={worker.id} data-testid="worker-row" data-worker-id={worker.id}>
                  <td className="cell-wide cell-nolabel" data-label="Worker">
                    <span className="crawl-name">{worker.id}</span>
                  </td>
                  <td data-label="Host">{worker.hostname}</td>
                  <td data-label="Storage" data-testid="worker-storage">
                    {worker.storage === "local" ? "local folder" : <code>{worker.storage}</code>}
                  </td>
                  <td className="num" data-label="PID">{worker.pid}</td>
                  <td data-label="State">
                    <span className={`status ${HEALTH_CLASSES[worker.health]}`} title={HEALTH_HINTS[worker.health]} data-testid="worker-health">
                      {HEALTH_LABELS[worker.health]}
                    </span>
                  </td>
                  <td data-label="Started">
                    <DateTime iso={worker.startedAt} relative />
                  </td>
                  <td data-label="Last heartbeat">
                    <time dateTime={worker.heartbeatAt} title={worker.heartbeatAt} data-testid="worker-heartbeat">
                      {formatDuration(worker.heartbeatAgeMs)} ago
                    </time>
                  </td>
                  <td data-label="Load" data-testid="worker-load">
                    <WorkerLoadCell load={worker.load} />
                  </td>
                  <td data-label="Crawls" className="cell-wide">
                    {worker.crawls.length === 0 ? (
                      <span className="hint">none</span>
                    ) : (
                      <ul className="worker-crawls">
                        {worker.crawls.map((crawl) => (
                          <li key={crawl.id}>
                            <Link href={`/crawls/${crawl.id}`}>
                              #{crawl.id} {crawl.name ? crawlDisplayName(crawl.name) : stripScheme(crawl.rootUrl)}
                            </Link>{" "}
                            <StatusBadge status={crawl.status} stopReason={null} stopDetail={null} />{" "}
                            <span className="hint">
                              {formatInteger(crawl.requests)} requests · {formatInteger(crawl.targets)} targets
                            </span>
                          </li>
                        ))}
                      </ul>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

/**
 * What an operator reads to decide whether to add a worker: crawls held, pages per second, CPU
 * (1 core = 100 %), memory and event-loop delay over the last heartbeat interval.
 */
function WorkerLoadCell({ load }: { load: WorkerListItem["load"] }) {
  if (!load) return <span className="hint">–</span>;
  const cpuPercent = Math.round(load.cpuCores * 100);
  return (
    <span className="worker-load">
      <span data-testid="worker-load-crawls">{formatInteger(load.crawlsHeld)} {load.crawlsHeld === 1 ? "crawl" : "crawls"}</span> ·{" "}
      <span data-testid="worker-load-pages">{load.pagesPerSecond.toFixed(1)} pages/s</span>
      <br />
      <span title="CPU time per second of wall time: 100 % is one core busy" data-testid="worker-load-cpu">
        CPU {cpuPercent} %
      </span>{" "}
      · <span data-testid="worker-load-memory">{formatBytes(load.rssBytes)}</span> ·{" "}
      <span title="99th percentile of the event loop's delay: above about 100 ms, crawls and heartbeats run late" data-testid="worker-load-loop">
        loop p99 {Math.round(load.loopDelayP99Ms)} ms
      </span>
    </span>
  );
}
