/**
 * GET /api/ready: can this dashboard serve? Each check runs with a deadline, so a hung database
 * or bucket makes the probe answer "not ready" in time instead of hanging the orchestrator's
 * probe; and at most one run of each check is in flight per process, so probes arriving while
 * a check hangs wait on that one run instead of piling up queries.
 *
 * The worker check is reported but, by default, does not make the dashboard "not ready": a
 * dashboard without workers still serves users (crawls wait in the queue), and an orchestrator
 * that restarts or unroutes it would fix nothing. Callers that mean "can this service crawl?"
 * (an uptime monitor) ask with `?worker=required`, and then a missing worker answers 503.
 */
export type CheckName = "database" | "storage" | "worker";

export interface CheckResult {
  ok: boolean;
  /** Whether this check decides the answer. */
  required: boolean;
  ms: number;
  /** Why it failed, or what it found; never a secret (error class names, counts, ages). */
  detail?: string;
}

export interface Readiness {
  ready: boolean;
  /** The required checks that failed, in order. */
  failed: CheckName[];
  checks: Record<CheckName, CheckResult>;
}

export interface ReadinessProbes {
  /** Resolves once the database answered a trivial query. */
  database(): Promise<void>;
  /** Resolves once the storage answered (local folder writable, or the bucket reachable). */
  storage(): Promise<void>;
  /** The freshest heartbeat's age in ms among running workers, or null when none is running. */
  freshestWorkerAgeMs(): Promise<number | null>;
}

export interface ReadinessOptions {
  /** Deadline of each check. */
  timeoutMs: number;
  /** A heartbeat older than this is not fresh (the workers' lease: they beat every half lease). */
  leaseMs: number;
  requireWorker: boolean;
}

const inFlight = new WeakMap<ReadinessProbes, Map<CheckName, Promise<unknown>>>();

export async function checkReadiness(probes: ReadinessProbes, options: ReadinessOptions): Promise<Readiness> {
  const [database, storage, worker] = await Promise.all([
    timed(probes, "database", () => probes.database(), options.timeoutMs, true),
    timed(probes, "storage", () => probes.storage(), options.timeoutMs, true),
    timed(probes, "worker", () => probes.freshestWorkerAgeMs(), options.timeoutMs, options.requireWorker),
  ]);
  const workerCheck = workerResult(worker, options);
  const checks: Record<CheckName, CheckResult> = { database: database.result, storage: storage.result, worker: workerCheck };
  const failed = (Object.keys(checks) as CheckName[]).filter((name) => checks[name].required && !checks[name].ok);
  return { ready: failed.length === 0, failed, checks };
}

function workerResult(run: { result: CheckResult; value: unknown }, options: ReadinessOptions): CheckResult {
  if (!run.result.ok) return run.result;
  const age = run.value as number | null;
  const seconds = Math.round(options.leaseMs / 1000);
  if (age === null) return { ...run.result, ok: false, detail: "no worker is running" };
  if (age > options.leaseMs) return { ...run.result, ok: false, detail: `no worker heartbeat in the last ${seconds} s (freshest ${Math.round(age / 1000)} s ago)` };
  return { ...run.result, detail: `freshest heartbeat ${Math.round(age / 1000)} s ago` };
}

async function timed(probes: ReadinessProbes, name: CheckName, run: () => Promise<unknown>, timeoutMs: number, required: boolean): Promise<{ result: CheckResult; value: unknown }> {
  const started = performance.now();
  const ms = () => Math.round(performance.now() - started);
  let running = inFlight.get(probes);
  if (!running) inFlight.set(probes, (running = new Map()));
  let pending = running.get(name);
  if (!pending) {
    pending = run();
    running.set(name, pending);
    const forget = () => running.delete(name);
    pending.then(forget, forget);
  }
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<"timeout">((resolve) => {
    timer = setTimeout(() => resolve("timeout"), timeoutMs);
  });
  try {
    const outcome = await Promise.race([pending.then((value) => ({ value })), deadline]);
    if (outcome === "timeout") return { result: { ok: false, required, ms: ms(), detail: `no answer within ${timeoutMs} ms` }, value: undefined };
    return { result: { ok: true, required, ms: ms() }, value: outcome.value };
  } catch (error) {
    // The error's class only: its message may name hosts, paths or connection strings.
    const kind = error instanceof Error ? ((error as { code?: unknown }).code ? `${error.name} ${String((error as { code?: unknown }).code)}` : error.name) : "error";
    return { result: { ok: false, required, ms: ms(), detail: `failed (${kind.slice(0, 80)})` }, value: undefined };
  } finally {
    clearTimeout(timer);
  }
}
