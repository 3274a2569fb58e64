/**
 * A soak: many harvests of many simulated hosts, run by one worker for a chosen time while a
 * user's browser polls the dashboard every second, sampled from the outside. Used by
 * `npm run bench:soak` (an hour by default) and, for a minute or two, by a test.
 *
 * Each host is a tiny simulated statistics office on its own port of 127.0.0.1 (so each has its
 * own politeness clock), served by this process. Each harvest crawls one host every minute
 * (cron `* * * * *`) and starts with a run at once. The dashboard (scripts/dashboard.mjs, the
 * production build) is asked what the cockpit asks: the crawl list and one running crawl, and
 * /api/metrics for its event-loop delay. Every sample reads the worker's and the dashboard's CPU,
 * memory and open descriptors from /proc, the worker's event-loop p99 from its heartbeat
 * (Worker row), the database's size, and the requests and runs so far.
 */
import { createHarvest } from "../../lib/harvest/create-harvest";
import { buildSite, startSiteServer, type RunningSite } from "../../lib/sitesim";
import { pollUntil } from "../helpers/poll-until";
import { freePort } from "../helpers/ports";
import { startNodeProcess, waitForHttp, type ManagedProcess } from "../helpers/processes";
import { createTestAccount } from "../helpers/test-accounts";
import { procStats, scratchDatabase } from "./bench-process";

export interface SoakOptions {
  durationMs: number;
  hosts: number;
  /** Politeness delay of every crawl. */
  delayMs: number;
  /** Request budget of each harvest run. */
  requestsPerRun: number;
  sampleEveryMs: number;
  /** A scratch PostgreSQL database (wiped); SQLite in a temp folder without. */
  databaseUrl?: string;
  /** Ends the soak early at the first sample this accepts (a test waiting for a condition). */
  until?: (sample: SoakSample) => boolean;
  /** Progress lines (one per sample). */
  progress?: (line: string) => void;
}

export interface SoakSample {
  atSeconds: number;
  workerRssBytes: number;
  /** Since the worker was ready. */
  workerCpuMs: number;
  workerFds: number;
  workerLoopP99Ms: number;
  dashboardRssBytes: number;
  dashboardCpuMs: number;
  dashboardFds: number;
  dashboardLoopP99Ms: number;
  databaseBytes: number;
  requests: number;
  runsFinished: number;
  runsFailed: number;
}

export interface SoakResult {
  samples: SoakSample[];
  /** Everything that went wrong: dashboard answers that were not 200, failed runs, error log lines. */
  errors: string[];
  /** Dashboard polls answered (each is several requests). */
  polls: number;
}

/**
 * A child process that keeps only its last lines (an hour of logs is not kept) and reports its
 * error lines: pino's level 50 (error) and 60 (fatal), uncaught errors, the event-loop watchdog.
 */
function startChild(name: string, args: string[], env: Record<string, string>, onError: (line: string) => void): ManagedProcess {
  return startNodeProcess(args, env, {
    keepLines: 20,
    onLine: (line) => {
      if (/"level":(50|60)/.test(line) || /^Error|Unhandled|watchdog/.test(line)) onError(`${name}: ${line.slice(0, 500)}`);
    },
  });
}

/** The dashboard's event-loop p99 from its Prometheus text (prom-client's default metric). */
function dashboardLoopP99Ms(metricsText: string): number {
  const line = metricsText.split("\n").find((l) => l.startsWith("forage_dashboard_nodejs_eventloop_lag_p99_seconds "));
  return line ? Number(line.split(" ")[1]) * 1000 : Number.NaN;
}

export async function runSoak(options: SoakOptions): Promise<SoakResult> {
  const errors: string[] = [];
  const scratch = await scratchDatabase(options.databaseUrl, "forage-soak-");
  const sites: RunningSite[] = [];
  let worker: ManagedProcess | null = null;
  let dashboard: ManagedProcess | null = null;
  try {
    for (let index = 0; index < options.hosts; index++) {
      sites.push(await startSiteServer(buildSite({ shape: "statistics-office", seed: index + 1, size: "tiny" })));
    }
    const admin = await createTestAccount(scratch.db);
    for (const [index, site] of sites.entries()) {
      await createHarvest(
        scratch.db,
        {
          name: `soak ${index + 1}`,
          cron: "* * * * *",
          timeZone: "UTC",
          runNow: true,
          config: { rootUrl: site.rootUrl, strategy: "sb", seed: index + 1, budget: { requests: options.requestsPerRun }, politeness: { delayMs: options.delayMs }, archive: { keepWarc: true } },
        },
        { asLocalAdmin: true, privateNetworks: ["127.0.0.0/8"] },
      );
    }

    const port = await freePort();
    const baseUrl = `http://127.0.0.1:${port}`;
    dashboard = startChild("dashboard", ["scripts/dashboard.mjs"], { ...scratch.env, FORAGE_HOST: "127.0.0.1", FORAGE_PORT: String(port), FORAGE_PUBLIC_URL: baseUrl }, (line) => errors.push(line));
    await waitForHttp(`${baseUrl}/api/health`, dashboard, 120_000);
    worker = startChild("worker", ["bin/forage.mjs", "worker", "--concurrency", String(options.hosts)], { ...scratch.env, FORAGE_WORKER_LEASE_MS: "10000" }, (line) => errors.push(line));
    const started = worker;
    // Ready once it has registered (its Worker row); a worker that ends first fails with its last lines.
    await pollUntil(
      "the worker to register",
      async () => {
        if (started.child.exitCode !== null || started.child.signalCode !== null) throw new Error(`the worker exited (${started.child.signalCode ?? started.child.exitCode}) before it was ready:\n${started.output()}`);
        return scratch.db.worker.count();
      },
      (count) => count > 0,
      { timeoutMs: 120_000, pollMs: 100, context: started.output },
    );
    // From the ready worker on: compiling its TypeScript and migrating are not the crawls' cost.
    const workerCpuAtReady = procStats(worker.child.pid!).cpuMs;

    const headers = { authorization: `Bearer ${admin.token}` };
    const get = async (pathname: string): Promise<Response | null> => {
      try {
        const response = await fetch(`${baseUrl}${pathname}`, { headers });
        if (response.status !== 200) errors.push(`dashboard: GET ${pathname} answered ${response.status}`);
        return response;
      } catch (error) {
        errors.push(`dashboard: GET ${pathname} failed: ${error instanceof Error ? error.message : String(error)}`);
        return null;
      }
    };

    // The browser: every second, the crawl list and the newest running crawl, as the cockpit does.
    let polls = 0;
    let polling = true;
    const browser = (async () => {
      while (polling) {
        const tick = Date.now();
        const list = await get("/api/crawls");
        const crawls = list && list.ok ? ((await list.json()) as { crawls?: Array<{ id: number; status: string }> }).crawls ?? [] : [];
        const running = crawls.find((crawl) => crawl.status === "running");
        if (running) await (await get(`/api/crawls/${running.id}`))?.arrayBuffer();
        polls += 1;
        await new Promise((resolve) => setTimeout(resolve, Math.max(0, 1_000 - (Date.now() - tick))));
      }
    })();

    const samples: SoakSample[] = [];
    const t0 = Date.now();
    for (;;) {
      await new Promise((resolve) => setTimeout(resolve, options.sampleEveryMs));
      if (worker.child.exitCode !== null || worker.child.signalCode !== null) throw new Error(`the worker exited (${worker.child.signalCode ?? worker.child.exitCode}): ${errors.join("; ") || worker.output()}`);
      const w = procStats(worker.child.pid!);
      const d = procStats(dashboard.child.pid!);
      const metrics = await get("/api/metrics");
      const [row, totals, finished, failed, databaseBytes] = await Promise.all([
        scratch.db.worker.findFirst({ orderBy: { heartbeatAt: "desc" }, select: { loopDelayP99Ms: true } }),
        scratch.db.crawl.aggregate({ _sum: { requestsCount: true } }),
        scratch.db.crawl.count({ where: { status: "finished" } }),
        scratch.db.crawl.findMany({ where: { status: "failed" }, select: { id: true, stopDetail: true } }),
        scratch.sizeBytes(),
      ]);
      for (const crawl of failed) {
        const message = `crawl ${crawl.id} failed: ${crawl.stopDetail ?? "no detail"}`;
        if (!errors.includes(message)) errors.push(message);
      }
      const sample: SoakSample = {
        atSeconds: (Date.now() - t0) / 1000,
        workerRssBytes: w.rssBytes,
        workerCpuMs: w.cpuMs - workerCpuAtReady,
        workerFds: w.openFds,
        workerLoopP99Ms: row?.loopDelayP99Ms ?? Number.NaN,
        dashboardRssBytes: d.rssBytes,
        dashboardCpuMs: d.cpuMs,
        dashboardFds: d.openFds,
        dashboardLoopP99Ms: metrics && metrics.ok ? dashboardLoopP99Ms(await metrics.text()) : Number.NaN,
        databaseBytes,
        requests: totals._sum.requestsCount ?? 0,
        runsFinished: finished,
        runsFailed: failed.length,
      };
      samples.push(sample);
      options.progress?.(
        `${sample.atSeconds.toFixed(0)} s: ${sample.requests} requests, ${finished} runs finished, worker ${(w.rssBytes / 2 ** 20).toFixed(0)} MB, dashboard ${(d.rssBytes / 2 ** 20).toFixed(0)} MB, ${errors.length} errors`,
      );
      if (Date.now() - t0 >= options.durationMs || options.until?.(sample)) break;
    }
    polling = false;
    await browser;
    return { samples, errors, polls };
  } finally {
    await worker?.stop(15_000);
    await dashboard?.stop(15_000);
    for (const site of sites) await site.close();
    await scratch.dispose();
  }
}

/** The figures the issue judges a soak by, from its samples. */
export interface SoakSummary {
  requests: number;
  runsFinished: number;
  /** Worker CPU per request over the whole soak. */
  workerCpuMsPerRequest: number;
  /** Growth of each process's RSS from the sample nearest `settleSeconds` to the last one. */
  workerRssGrowth: number;
  dashboardRssGrowth: number;
  workerLoopP99MaxMs: number;
  dashboardLoopP99MaxMs: number;
  workerFdsMax: number;
  dashboardFdsMax: number;
  databaseBytes: number;
}

export function summariseSoak(samples: readonly SoakSample[], settleSeconds: number): SoakSummary {
  const last = samples.at(-1)!;
  const settled = samples.find((sample) => sample.atSeconds >= settleSeconds) ?? samples[0]!;
  const max = (pick: (sample: SoakSample) => number) => Math.max(...samples.map(pick).filter(Number.isFinite));
  return {
    requests: last.requests,
    runsFinished: last.runsFinished,
    workerCpuMsPerRequest: last.workerCpuMs / Math.max(1, last.requests),
    workerRssGrowth: last.workerRssBytes / settled.workerRssBytes - 1,
    dashboardRssGrowth: last.dashboardRssBytes / settled.dashboardRssBytes - 1,
    workerLoopP99MaxMs: max((sample) => sample.workerLoopP99Ms),
    dashboardLoopP99MaxMs: max((sample) => sample.dashboardLoopP99Ms),
    workerFdsMax: max((sample) => sample.workerFds),
    dashboardFdsMax: max((sample) => sample.dashboardFds),
    databaseBytes: last.databaseBytes,
  };
}
