/**
 * The per-host politeness clock kept in PostgreSQL, so every worker sharing the database honours
 * one delay per host (the in-process clock, lib/crawler/fetch/host-politeness.ts, only sees its
 * own process's crawls). Same semantics as that clock, across processes and machines:
 * - one request in flight per host: a `HostClock` row per host names its holder; taking it is one
 *   atomic `INSERT … ON CONFLICT DO UPDATE … WHERE <free and due> RETURNING`;
 * - the delay counts from the END of the previous request: the release stamps `lastEndAt`, and
 *   the next acquire waits until `lastEndAt + max(its delay, the previous request's delay)`;
 * - Retry-After: `blockedUntil`, written before the slot is released;
 * - a lease (`heldUntil`, renewed while the request runs) so a killed worker does not block the
 *   host for longer than `leaseMs`.
 * Every time is the database's clock (`clock_timestamp()`), so the machines' clocks may differ.
 * Stored times are rounded UP to the millisecond (the columns hold milliseconds): the gap can
 * grow by under 1 ms, never shrink (with no delay at all, the end time does not matter).
 *
 * Inside a process, callers for one host queue FIFO and only the head asks the database; while
 * another worker holds the host, the head polls every `pollMs` (the holder's release is not
 * announced), and once the host is free it sleeps exactly until the host is due.
 */
import { Prisma } from "../../generated/prisma/client";
import { FetchAbortedError } from "../crawler/fetch/errors";
import { effectiveDelayMs, hostKey, type AcquireOptions, type HostPoliteness, type HostWait, type Release } from "../crawler/fetch/host-politeness";
import type { Db } from "./prisma-client";

export interface PostgresHostClockOptions {
  /** Prefix of this process's holder names (the worker id). */
  holderId: string;
  /** Gap when the caller gives no `delayMs`. @default 1000 */
  defaultDelayMs?: number;
  /** Upper bound on a robots.txt Crawl-delay. @default 30000 */
  crawlDelayCapMs?: number;
  /** How long a held slot stays held without renewal (a killed worker frees the host after it). @default 15000 */
  leaseMs?: number;
  /** How often the head waiter asks again while another worker holds the host. @default 20 */
  pollMs?: number;
}

interface Waiter {
  delayMs: number;
  owner: string | undefined;
  signal: AbortSignal | undefined;
  resolve: (release: Release) => void;
  reject: (err: Error) => void;
  /** Removes the abort listener once the waiter leaves the queue. */
  cleanup: () => void;
}

interface HostQueue {
  key: string;
  queue: Waiter[];
  /** The head is asking the database or holds the slot. */
  busy: boolean;
  /** Database writes of this host, in order (a Retry-After block before the release). */
  writes: Promise<void>;
  /** What the head last learnt: when it may start (epoch ms), and whether a Retry-After is why. */
  readyAtMs: number;
  rateLimited: boolean;
}

interface AttemptRow {
  taken: boolean;
  /** Ms until the host is due (delay, Retry-After); null when the row did not exist yet. */
  readyInMs: number | null;
  /** Ms the current holder's lease still runs; null when free. */
  heldForMs: number | null;
  blockedForMs: number | null;
}

/** Consecutive database errors before an acquire gives up with the error. */
const MAX_DB_FAILURES = 5;

/** `clock_timestamp()` as the UTC timestamp Prisma's DateTime columns hold. */
const NOW = Prisma.sql`(clock_timestamp() AT TIME ZONE 'UTC')`;

/** A timestamp rounded up to the millisecond (the columns are timestamp(3), which would round to nearest). */
function ceilMs(sql: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`(date_trunc('milliseconds', ${sql}) + interval '1 millisecond')`;
}

function ms(value: number): Prisma.Sql {
  return Prisma.sql`(${Math.ceil(value)}::bigint * interval '1 millisecond')`;
}

export class PostgresHostClock implements HostPoliteness {
  private readonly options: Required<PostgresHostClockOptions>;
  private readonly hosts = new Map<string, HostQueue>();
  private holds = 0;
  /** Tells this process's holds from an earlier process's with the same worker id. */
  private readonly run = Date.now().toString(36);

  constructor(
    private readonly db: Db,
    options: PostgresHostClockOptions,
  ) {
    this.options = { defaultDelayMs: 1000, crawlDelayCapMs: 30_000, leaseMs: 15_000, pollMs: 20, ...options };
  }

  acquire(url: string | URL, options: AcquireOptions = {}): Promise<Release> {
    const { signal } = options;
    if (signal?.aborted) return Promise.reject(new FetchAbortedError("Aborted while waiting for the host"));
    const host = this.host(hostKey(url));
    return new Promise<Release>((resolve, reject) => {
      // An aborted waiter leaves the queue at once; when it was the head, `serve` notices and
      // gives back a slot taken for it meanwhile.
      const onAbort = () => {
        const index = host.queue.indexOf(waiter);
        if (index < 0) return;
        host.queue.splice(index, 1);
        reject(new FetchAbortedError("Aborted while waiting for the host"));
      };
      const waiter: Waiter = {
        delayMs: Math.ceil(effectiveDelayMs(options, this.options)),
        owner: options.owner,
        signal,
        resolve,
        reject,
        cleanup: () => signal?.removeEventListener("abort", onAbort),
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      host.queue.push(waiter);
      if (!host.busy) void this.serve(host);
    });
  }

  blockHostUntil(hostOrUrl: string | URL, untilEpochMs: number): void {
    this.blockHostFor(hostOrUrl, untilEpochMs - Date.now());
  }

  blockHostFor(hostOrUrl: string | URL, durationMs: number): void {
    if (!(durationMs > 0)) return;
    const host = this.host(hostKey(hostOrUrl));
    host.readyAtMs = Math.max(host.readyAtMs, Date.now() + durationMs);
    host.rateLimited = true;
    this.write(host, () =>
      this.db.$executeRaw`
        INSERT INTO "HostClock" ("host", "lastEndAt", "lastDelayMs", "blockedUntil")
        VALUES (${host.key}, ${NOW}, 0, ${ceilMs(Prisma.sql`${NOW} + ${ms(durationMs)}`)})
        ON CONFLICT ("host") DO UPDATE SET "blockedUntil" = GREATEST("HostClock"."blockedUntil", EXCLUDED."blockedUntil")`,
    );
  }

  waitingFor(): HostWait[] {
    const now = Date.now();
    const out: HostWait[] = [];
    for (const host of this.hosts.values()) {
      if (host.queue.length === 0) continue;
      const owners = [...new Set(host.queue.map((w) => w.owner).filter((o): o is string => o !== undefined))];
      out.push({ host: host.key, untilMs: Math.ceil(Math.max(now, host.readyAtMs)), reason: host.rateLimited && host.readyAtMs > now ? "rate-limited" : "politeness", waiters: host.queue.length, owners });
    }
    return out;
  }

  private host(key: string): HostQueue {
    let host = this.hosts.get(key);
    if (!host) {
      host = { key, queue: [], busy: false, writes: Promise.resolve(), readyAtMs: 0, rateLimited: false };
      this.hosts.set(key, host);
    }
    return host;
  }

  /** Serves the host's queue head: takes the slot in the database, hands it over, and goes on after its release. */
  private async serve(host: HostQueue): Promise<void> {
    host.busy = true;
    let failures = 0;
    while (host.queue.length > 0) {
      const head = host.queue[0]!;
      const holder = `${this.options.holderId}#${this.run}.${++this.holds}`;
      let row: AttemptRow;
      try {
        await host.writes;
        row = await this.attempt(host.key, holder, head.delayMs);
        failures = 0;
      } catch (error) {
        if (++failures >= MAX_DB_FAILURES) {
          failures = 0;
          if (host.queue[0] === head) {
            host.queue.shift();
            head.cleanup();
            head.reject(error instanceof Error ? error : new Error(String(error)));
          }
          continue;
        }
        await this.sleep(this.options.pollMs * 2 ** failures, head.signal);
        continue;
      }
      if (row.taken) {
        host.rateLimited = false;
        if (host.queue[0] !== head) {
          await this.release(host, holder); // its waiter left meanwhile
          continue;
        }
        host.queue.shift();
        head.cleanup();
        const released = new Promise<void>((resolve) => head.resolve(this.holdSlot(host, holder, resolve)));
        await released;
        continue;
      }
      const readyIn = Math.max(0, row.readyInMs ?? 0);
      host.readyAtMs = Date.now() + readyIn;
      host.rateLimited = (row.blockedForMs ?? 0) > 0;
      // Held by someone else: ask again soon (its release is not announced). Free but not due:
      // sleep until it is due. A row created by someone else since: at once.
      const waitMs = row.heldForMs !== null ? Math.min(this.options.pollMs, Math.max(1, row.heldForMs)) : row.readyInMs === null ? 0 : readyIn;
      await this.sleep(waitMs, head.signal);
    }
    host.busy = false;
    if (host.queue.length === 0) this.hosts.delete(host.key);
  }

  /** The release function of a taken slot: renews the lease while held, frees the slot in the database once. */
  private holdSlot(host: HostQueue, holder: string, done: () => void): Release {
    const renew = setInterval(() => {
      this.write(host, () => this.db.$executeRaw`
        UPDATE "HostClock" SET "heldUntil" = ${NOW} + ${ms(this.options.leaseMs)} WHERE "host" = ${host.key} AND "holder" = ${holder}`);
    }, Math.max(100, this.options.leaseMs / 3));
    renew.unref();
    let released = false;
    return () => {
      if (released) return;
      released = true;
      clearInterval(renew);
      void this.release(host, holder).finally(done);
    };
  }

  private release(host: HostQueue, holder: string): Promise<void> {
    return this.write(host, () => this.db.$executeRaw`
      UPDATE "HostClock" SET "holder" = NULL, "heldUntil" = NULL, "lastEndAt" = ${ceilMs(NOW)}
      WHERE "host" = ${host.key} AND "holder" = ${holder}`);
  }

  /**
   * One try: takes the slot when it is free (or its lease ran out) and due; otherwise says how
   * long until it is due and how long the holder's lease still runs (the row as it was before).
   */
  private async attempt(key: string, holder: string, delayMs: number): Promise<AttemptRow> {
    const rows = await this.db.$queryRaw<Array<{ taken: boolean; readyInMs: number | null; heldForMs: number | null; blockedForMs: number | null }>>`
      WITH "now" AS (SELECT ${NOW} AS "t"),
      "taken" AS (
        INSERT INTO "HostClock" ("host", "lastEndAt", "lastDelayMs", "blockedUntil", "holder", "heldUntil")
        SELECT ${key}, "t", ${delayMs}::int, "t", ${holder}, "t" + ${ms(this.options.leaseMs)} FROM "now"
        ON CONFLICT ("host") DO UPDATE SET "holder" = EXCLUDED."holder", "heldUntil" = EXCLUDED."heldUntil", "lastDelayMs" = EXCLUDED."lastDelayMs"
        WHERE ("HostClock"."holder" IS NULL OR "HostClock"."heldUntil" < EXCLUDED."lastEndAt")
          AND "HostClock"."blockedUntil" <= EXCLUDED."lastEndAt"
          AND (GREATEST(EXCLUDED."lastDelayMs", "HostClock"."lastDelayMs") = 0
            OR "HostClock"."lastEndAt" + ${ms(1)} * GREATEST(EXCLUDED."lastDelayMs", "HostClock"."lastDelayMs") <= EXCLUDED."lastEndAt")
        RETURNING 1
      )
      SELECT
        EXISTS (SELECT 1 FROM "taken") AS "taken",
        (EXTRACT(EPOCH FROM (GREATEST(c."blockedUntil", c."lastEndAt" + ${ms(1)} * GREATEST(${delayMs}::int, c."lastDelayMs")) - n."t")) * 1000)::float8 AS "readyInMs",
        CASE WHEN c."holder" IS NOT NULL AND c."heldUntil" >= n."t" THEN (EXTRACT(EPOCH FROM (c."heldUntil" - n."t")) * 1000)::float8 END AS "heldForMs",
        (EXTRACT(EPOCH FROM (c."blockedUntil" - n."t")) * 1000)::float8 AS "blockedForMs"
      FROM "now" n LEFT JOIN "HostClock" c ON c."host" = ${key}`;
    const row = rows[0]!;
    return { taken: row.taken, readyInMs: row.readyInMs, heldForMs: row.heldForMs, blockedForMs: row.blockedForMs };
  }

  /** Runs a database write after the host's earlier ones; a failed write is logged (a lease frees a slot left held). */
  private write(host: HostQueue, run: () => Promise<unknown>): Promise<void> {
    host.writes = host.writes.then(run).then(
      () => undefined,
      (error: unknown) => console.error(`[forage] host clock of ${host.key}: ${error instanceof Error ? error.message : String(error)}`),
    );
    return host.writes;
  }

  private sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
    return new Promise((resolve) => {
      if (ms <= 0 || signal?.aborted) return resolve();
      const timer = setTimeout(done, ms);
      signal?.addEventListener("abort", done, { once: true });
      function done() {
        clearTimeout(timer);
        signal?.removeEventListener("abort", done);
        resolve();
      }
    });
  }
}

/**
 * Deletes the clock rows of hosts nobody has crawled for `idleMs`: not held (or a lapsed lease),
 * no Retry-After still running, last request ended over `idleMs` ago. A later request to such a
 * host inserts a fresh row, which is correct once `idleMs` exceeds any delay a crawl may ask
 * for (a gap that old is due anyway). Without it the table keeps a row per host ever crawled.
 * @returns how many rows went.
 */
export async function pruneIdleHostClocks(db: Db, idleMs: number): Promise<number> {
  return db.$executeRaw`
    DELETE FROM "HostClock"
    WHERE ("holder" IS NULL OR "heldUntil" < ${NOW})
      AND "blockedUntil" < ${NOW}
      AND "lastEndAt" < ${NOW} - ${ms(idleMs)}`;
}
