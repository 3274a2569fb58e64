/**
 * The per-host politeness clock kept in PostgreSQL, so every worker sharing the database honours
 * one delay per host (the in-process clock, lib/crawler/fetch/host-politeness.ts, only sees its
 * own process's crawls), without a database round trip per request:
 * - a process takes a LEASE on a host's `HostClock` row (`holder` = this process, `heldUntil`),
 *   reads the clock from it (end of the last request, its delay, any Retry-After), and while it
 *   holds the lease keeps the clock in memory: its crawls' requests to the host are timed as by
 *   the in-process clock, one at a time, the delay counted from the end of the previous one;
 * - the leases of a process are renewed together, one statement every `leaseMs / 3`, which also
 *   writes each host's clock back; hosts idle that long are released by the same kind of statement,
 *   and `close()` releases every host (shutdown);
 * - another process wanting a leased host marks the row (`wantedBy`, renewed while it waits); the
 *   holder sees it (one statement every `wantCheckMs` while it holds any host) and hands the host
 *   over after its current request, writing the clock; the waiter then takes it and reads the clock;
 * - a Retry-After is written through to the row at once, and a larger delay than the row has
 *   (a robots.txt Crawl-delay) as soon as a request with it starts;
 * - a killed holder's lease lapses after `leaseMs`; the next holder counts the previous request's
 *   end as the lease's end (a dead holder's last request ended before it).
 * Database times are `clock_timestamp()`; this process's are its monotonic clock. A time read
 * from the row is moved into local time on the late side (after the answer arrived), a local
 * time written to the row on the late side too (relative to the statement's own clock), and the
 * lease counts locally from before the statement that renewed it, less a margin: every error
 * lengthens a gap, never shortens it.
 */
import { Prisma } from "../../generated/prisma/client";
import { FetchAbortedError } from "../crawler/fetch/errors";
import { effectiveDelayMs, hostKey, type AcquireOptions, type HostPoliteness, type HostWait, type Release } from "../crawler/fetch/host-politeness";
import type { Db } from "./prisma-client";

export interface PostgresHostClockOptions {
  /** Prefix of this process's holder name (the worker id). */
  holderId: string;
  /** Gap when the caller gives no `delayMs`. @default 1000 */
  defaultDelayMs?: number;
  /** Upper bound on a robots.txt Crawl-delay. @default 30000 */
  crawlDelayCapMs?: number;
  /** How long a host's lease lasts without renewal (a killed worker frees its hosts after it). @default 15000 */
  leaseMs?: number;
  /** How often a holder looks for other processes waiting for its hosts. @default 250 */
  wantCheckMs?: number;
  /** How often a process waiting for another's host asks again. @default 250 */
  wantPollMs?: number;
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

interface HostState {
  key: string;
  queue: Waiter[];
  /** The serve loop runs (it ends when the queue is empty). */
  serving: boolean;
  /** This process holds the host's lease (as far as it knows). */
  leased: boolean;
  /** Local epoch ms until which the lease allows starting a request. */
  leaseValidUntilMs: number;
  /** A request of this process to the host is running. */
  inFlight: boolean;
  /** Another process waits for the host: hand it over after the current request. */
  wanted: boolean;
  /** The clock, local epoch ms: end of the latest request, its delay, Retry-After. */
  lastEndMs: number;
  lastDelayMs: number;
  blockedUntilMs: number;
  /** The largest delay the row is known to hold while this process leases the host. */
  writtenDelayMs: number;
  /** While not leased: when the host is due, as the last attempt learnt (for `waitingFor`). */
  readyAtMs: number;
  /** Database writes of this host, in order (a Retry-After block before the release). */
  writes: Promise<void>;
}

interface AttemptRow {
  taken: boolean;
  /** Ms since the previous request's end (a lapsed lease's end when later); null: no row or never. */
  sinceEndMs: number | null;
  lastDelayMs: number | null;
  blockedForMs: number | null;
  /** Ms another holder's lease still runs; null when not held by another. */
  heldForMs: number | null;
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

/** Milliseconds of an interval expression, as float8. */
function millis(interval: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`(EXTRACT(EPOCH FROM ${interval}) * 1000)::float8`;
}

/** Epoch milliseconds, sub-millisecond and monotonic (Date.now() may step back, and rounds). */
function clockMs(): number {
  return performance.timeOrigin + performance.now();
}

export class PostgresHostClock implements HostPoliteness {
  private readonly options: Required<PostgresHostClockOptions>;
  private readonly hosts = new Map<string, HostState>();
  /** This process's name in the rows: the worker id and this run (an earlier process may have had the same id). */
  private readonly holder: string;
  /** Grants stop this long before the lease would lapse by the local clock (timers fire late, clocks drift). */
  private readonly leaseMarginMs: number;
  private renewTimer: NodeJS.Timeout | null = null;
  private wantTimer: NodeJS.Timeout | null = null;
  private closed = false;

  constructor(
    private readonly db: Db,
    options: PostgresHostClockOptions,
  ) {
    this.options = { defaultDelayMs: 1000, crawlDelayCapMs: 30_000, leaseMs: 15_000, wantCheckMs: 250, wantPollMs: 250, ...options };
    this.holder = `${this.options.holderId}#${Date.now().toString(36)}`;
    this.leaseMarginMs = Math.min(1_000, this.options.leaseMs / 5);
  }

  acquire(url: string | URL, options: AcquireOptions = {}): Promise<Release> {
    const { signal } = options;
    if (signal?.aborted) return Promise.reject(new FetchAbortedError("Aborted while waiting for the host"));
    const host = this.host(hostKey(url));
    return new Promise<Release>((resolve, reject) => {
      // An aborted waiter leaves the queue at once; the serve loop notices at its next look.
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
      if (!host.serving) void this.serve(host);
    });
  }

  blockHostUntil(hostOrUrl: string | URL, untilEpochMs: number): void {
    this.blockHostFor(hostOrUrl, untilEpochMs - Date.now());
  }

  blockHostFor(hostOrUrl: string | URL, durationMs: number): void {
    if (!(durationMs > 0)) return;
    const host = this.host(hostKey(hostOrUrl));
    host.blockedUntilMs = Math.max(host.blockedUntilMs, clockMs() + durationMs);
    host.readyAtMs = Math.max(host.readyAtMs, host.blockedUntilMs);
    // Written through at once: another process taking the host later reads it.
    this.write(host, () =>
      this.db.$executeRaw`
        INSERT INTO "HostClock" ("host", "lastEndAt", "lastDelayMs", "blockedUntil")
        VALUES (${host.key}, ${NOW}, 0, ${ceilMs(Prisma.sql`${NOW} + ${ms(durationMs)}`)})
        ON CONFLICT ("host") DO UPDATE SET "blockedUntil" = GREATEST("HostClock"."blockedUntil", EXCLUDED."blockedUntil")`,
    );
  }

  waitingFor(): HostWait[] {
    const now = clockMs();
    const out: HostWait[] = [];
    for (const host of this.hosts.values()) {
      const head = host.queue[0];
      if (!head) continue;
      const owners = [...new Set(host.queue.map((w) => w.owner).filter((o): o is string => o !== undefined))];
      const readyAt = host.leased ? this.readyAt(host, head.delayMs) : Math.max(host.readyAtMs, host.blockedUntilMs);
      out.push({ host: host.key, untilMs: Math.ceil(Math.max(now, readyAt)), reason: host.blockedUntilMs > now ? "rate-limited" : "politeness", waiters: host.queue.length, owners });
    }
    return out;
  }

  /** Hands every held host back, with its clock (shutdown); the clock takes no more requests. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.stopTimers();
    const held = [...this.hosts.values()].filter((host) => host.leased);
    for (const host of held) this.dropLease(host);
    await Promise.all([...this.hosts.values()].map((host) => host.writes));
    if (held.length > 0) await this.writeLeases(held, "release").catch((error: unknown) => this.report("releasing the held hosts", error));
  }

  private host(key: string): HostState {
    let host = this.hosts.get(key);
    if (!host) {
      host = {
        key, queue: [], serving: false, leased: false, leaseValidUntilMs: 0, inFlight: false, wanted: false,
        lastEndMs: -Infinity, lastDelayMs: 0, blockedUntilMs: 0, writtenDelayMs: 0, readyAtMs: 0, writes: Promise.resolve(),
      };
      this.hosts.set(key, host);
    }
    return host;
  }

  /** Earliest start for a request with `delayMs`, by the in-memory clock (as the in-process clock's). */
  private readyAt(host: HostState, delayMs: number): number {
    return Math.max(host.blockedUntilMs, host.lastEndMs + Math.max(delayMs, host.lastDelayMs));
  }

  private leaseValid(host: HostState): boolean {
    return host.leased && clockMs() < host.leaseValidUntilMs;
  }

  /** Serves the host's queue: takes the lease when it lacks it, then starts each waiter when due, one at a time. */
  private async serve(host: HostState): Promise<void> {
    host.serving = true;
    let failures = 0;
    try {
      while (host.queue.length > 0 && !this.closed) {
        const head = host.queue[0]!;
        if (!this.leaseValid(host)) {
          let row: AttemptRow;
          const sentAt = clockMs();
          try {
            await host.writes;
            row = await this.attempt(host.key, head.delayMs);
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
            await this.sleep(this.options.wantPollMs * 2 ** failures, head.signal);
            continue;
          }
          const answeredAt = clockMs();
          if (row.blockedForMs !== null) host.blockedUntilMs = Math.max(host.blockedUntilMs, answeredAt + row.blockedForMs);
          if (!row.taken) {
            // Held by another process (it was told we wait), or free but promised to another waiter.
            host.leased = false;
            host.readyAtMs = answeredAt + Math.max(0, row.heldForMs ?? 0);
            await this.sleep(Math.min(this.options.wantPollMs, Math.max(1, row.heldForMs ?? this.options.wantPollMs)), head.signal);
            continue;
          }
          // The row's clock, unless this process's memory knows a later request (its own earlier lease).
          const rowEndMs = row.sinceEndMs === null ? -Infinity : answeredAt - row.sinceEndMs;
          if (rowEndMs >= host.lastEndMs) {
            host.lastEndMs = rowEndMs;
            host.lastDelayMs = row.lastDelayMs ?? 0;
          }
          host.leased = true;
          host.wanted = false;
          host.leaseValidUntilMs = sentAt + this.options.leaseMs - this.leaseMarginMs;
          host.writtenDelayMs = head.delayMs;
          this.startTimers();
          continue; // the queue may have changed meanwhile
        }
        const waitMs = this.readyAt(host, head.delayMs) - clockMs();
        if (waitMs > 0) {
          await this.sleep(Math.min(waitMs, Math.max(1, host.leaseValidUntilMs - clockMs())), head.signal);
          continue;
        }
        host.queue.shift();
        head.cleanup();
        if (head.delayMs > host.writtenDelayMs) this.writeDelay(host, head.delayMs);
        host.inFlight = true;
        host.lastDelayMs = head.delayMs;
        await new Promise<void>((released) => {
          let done = false;
          head.resolve(() => {
            if (done) return;
            done = true;
            host.lastEndMs = Math.max(host.lastEndMs, clockMs());
            host.inFlight = false;
            released();
          });
        });
        if (host.wanted && host.leased) this.handOver(host);
      }
    } finally {
      host.serving = false;
      this.forgetIfIdle(host);
    }
  }

  /**
   * One try: takes the lease when the host is free (or its lease lapsed) and not promised to
   * another waiter, else says this process waits (unless another waiter was first). Either way
   * returns the clock as the row had it.
   */
  private async attempt(key: string, delayMs: number): Promise<AttemptRow> {
    const me = this.holder;
    const rows = await this.db.$queryRaw<AttemptRow[]>`
      WITH "now" AS (SELECT ${NOW} AS "t"),
      "taken" AS (
        INSERT INTO "HostClock" ("host", "lastEndAt", "lastDelayMs", "blockedUntil", "holder", "heldUntil")
        SELECT ${key}, "t", ${delayMs}::int, "t", ${me}, "t" + ${ms(this.options.leaseMs)} FROM "now"
        ON CONFLICT ("host") DO UPDATE SET "holder" = EXCLUDED."holder", "heldUntil" = EXCLUDED."heldUntil",
          "lastDelayMs" = EXCLUDED."lastDelayMs",
          "wantedBy" = CASE WHEN "HostClock"."wantedBy" = ${me} THEN NULL ELSE "HostClock"."wantedBy" END
        WHERE ("HostClock"."holder" IS NULL OR "HostClock"."holder" = ${me} OR "HostClock"."heldUntil" < EXCLUDED."lastEndAt")
          AND ("HostClock"."wantedBy" IS NULL OR "HostClock"."wantedBy" = ${me} OR "HostClock"."wantedUntil" < EXCLUDED."lastEndAt")
        RETURNING 1
      ),
      "wanted" AS (
        UPDATE "HostClock" SET "wantedBy" = ${me}, "wantedUntil" = (SELECT "t" FROM "now") + ${ms(4 * this.options.wantPollMs)}
        WHERE "host" = ${key} AND NOT EXISTS (SELECT 1 FROM "taken")
          AND ("wantedBy" IS NULL OR "wantedBy" = ${me} OR "wantedUntil" < (SELECT "t" FROM "now"))
        RETURNING 1
      )
      SELECT
        EXISTS (SELECT 1 FROM "taken") AS "taken",
        ${millis(Prisma.sql`n."t" - GREATEST(c."lastEndAt", CASE WHEN c."holder" <> ${me} THEN c."heldUntil" END)`)} AS "sinceEndMs",
        c."lastDelayMs" AS "lastDelayMs",
        ${millis(Prisma.sql`c."blockedUntil" - n."t"`)} AS "blockedForMs",
        CASE WHEN c."holder" IS NOT NULL AND c."holder" <> ${me} AND c."heldUntil" >= n."t" THEN ${millis(Prisma.sql`c."heldUntil" - n."t"`)} END AS "heldForMs"
      FROM "now" n LEFT JOIN "HostClock" c ON c."host" = ${key}`;
    const row = rows[0]!;
    return { taken: row.taken, sinceEndMs: row.sinceEndMs, lastDelayMs: row.lastDelayMs, blockedForMs: row.blockedForMs, heldForMs: row.heldForMs };
  }

  /** A request with a larger delay than the row holds: written at once, so a process taking the host over after a crash honours it. */
  private writeDelay(host: HostState, delayMs: number): void {
    host.writtenDelayMs = delayMs;
    this.write(host, () => this.db.$executeRaw`
      UPDATE "HostClock" SET "lastDelayMs" = GREATEST("lastDelayMs", ${delayMs}::int) WHERE "host" = ${host.key} AND "holder" = ${this.holder}`);
  }

  /** Another process waits: the host and its clock go to the row, and this process's waiters ask again like anyone. */
  private handOver(host: HostState): void {
    this.dropLease(host);
    this.write(host, () => this.writeLeases([host], "release"));
  }

  private dropLease(host: HostState): void {
    host.leased = false;
    host.wanted = false;
    host.leaseValidUntilMs = 0;
  }

  /**
   * One statement for many hosts: renews their leases (or releases them) and writes each one's
   * clock (its last request's end, moved to database time on the late side, and its delay).
   * Returns the hosts the statement found still held by this process, and which of them another
   * process waits for.
   */
  private async writeLeases(hosts: HostState[], action: "renew" | "release"): Promise<Array<{ host: string; wanted: boolean }>> {
    const now = clockMs();
    const values = hosts.map((host) => {
      const sinceEnd = Number.isFinite(host.lastEndMs) ? Math.max(0, Math.floor(now - host.lastEndMs)) : null;
      return Prisma.sql`(${host.key}::text, ${sinceEnd}::bigint, ${host.lastDelayMs}::int)`;
    });
    const lease = action === "renew" ? Prisma.sql`${NOW} + ${ms(this.options.leaseMs)}` : Prisma.sql`NULL`;
    const holder = action === "renew" ? Prisma.sql`c."holder"` : Prisma.sql`NULL`;
    return this.db.$queryRaw<Array<{ host: string; wanted: boolean }>>`
      UPDATE "HostClock" AS c SET "holder" = ${holder}, "heldUntil" = ${lease},
        "lastEndAt" = GREATEST(c."lastEndAt", ${ceilMs(Prisma.sql`${NOW} - v.since * interval '1 millisecond'`)}),
        "lastDelayMs" = v.delay
      FROM (VALUES ${Prisma.join(values)}) AS v(host, since, delay)
      WHERE c."host" = v.host AND c."holder" = ${this.holder}
      RETURNING c."host" AS "host", (c."wantedBy" IS NOT NULL AND c."wantedBy" <> ${this.holder} AND c."wantedUntil" >= ${NOW}) AS "wanted"`;
  }

  /** Every `leaseMs / 3`: one statement renews the held hosts in use, one releases the idle ones. */
  private async renewLeases(): Promise<void> {
    const now = clockMs();
    const idleMs = this.options.leaseMs / 3;
    const held = [...this.hosts.values()].filter((host) => host.leased);
    if (held.length === 0) return this.stopTimers();
    const idle = held.filter((host) => host.queue.length === 0 && !host.inFlight && now - host.lastEndMs >= idleMs);
    const busy = held.filter((host) => !idle.includes(host));
    for (const host of idle) this.dropLease(host);
    try {
      if (idle.length > 0) await this.writeLeases(idle, "release");
      if (busy.length === 0) return;
      const found = new Map((await this.writeLeases(busy, "renew")).map((row) => [row.host, row.wanted]));
      for (const host of busy) {
        if (!host.leased) continue; // handed over meanwhile
        if (!found.has(host.key)) {
          this.dropLease(host); // the lease lapsed and another process took the host
          continue;
        }
        host.leaseValidUntilMs = now + this.options.leaseMs - this.leaseMarginMs;
        if (found.get(host.key)) this.markWanted(host);
      }
    } catch (error) {
      this.report("renewing the held hosts' leases", error);
    } finally {
      for (const host of idle) this.forgetIfIdle(host);
    }
  }

  /** Every `wantCheckMs` while any host is held: which of them another process waits for. */
  private async checkWanted(): Promise<void> {
    if (![...this.hosts.values()].some((host) => host.leased)) return;
    try {
      const rows = await this.db.$queryRaw<Array<{ host: string }>>`
        SELECT "host" FROM "HostClock" WHERE "holder" = ${this.holder} AND "wantedBy" IS NOT NULL AND "wantedBy" <> ${this.holder} AND "wantedUntil" >= ${NOW}`;
      for (const { host: key } of rows) {
        const host = this.hosts.get(key);
        if (host?.leased) this.markWanted(host);
      }
    } catch (error) {
      this.report("looking for waiters of the held hosts", error);
    }
  }

  /** Hands the host over now when no request of this process runs, else after the running one. */
  private markWanted(host: HostState): void {
    host.wanted = true;
    if (!host.inFlight) this.handOver(host);
  }

  private startTimers(): void {
    if (this.renewTimer || this.closed) return;
    this.renewTimer = setInterval(() => void this.renewLeases(), this.options.leaseMs / 3);
    this.wantTimer = setInterval(() => void this.checkWanted(), this.options.wantCheckMs);
    this.renewTimer.unref();
    this.wantTimer.unref();
  }

  private stopTimers(): void {
    if (this.renewTimer) clearInterval(this.renewTimer);
    if (this.wantTimer) clearInterval(this.wantTimer);
    this.renewTimer = null;
    this.wantTimer = null;
  }

  /** A host neither held nor waited for nor rate-limited leaves memory (its clock is in the row). */
  private forgetIfIdle(host: HostState): void {
    if (!host.serving && !host.leased && host.queue.length === 0 && host.blockedUntilMs <= clockMs()) this.hosts.delete(host.key);
  }

  /** Runs a database write after the host's earlier ones; a failed write is logged (a lapsed lease frees a host left held). */
  private write(host: HostState, run: () => Promise<unknown>): Promise<void> {
    host.writes = host.writes.then(run).then(
      () => undefined,
      (error: unknown) => this.report(`the clock of ${host.key}`, error),
    );
    return host.writes;
  }

  private report(what: string, error: unknown): void {
    console.error(`[forage] host clock, ${what}: ${error instanceof Error ? error.message : String(error)}`);
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
