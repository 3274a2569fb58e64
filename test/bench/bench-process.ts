/** What the process benches read from the outside: /proc figures of a child, and a scratch database. */
import type { ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { loadConfig, type ForageConfig } from "../../lib/config";
import { ensureMigrated, openDatabase } from "../../lib/store";
import type { Db } from "../../lib/store/prisma-client";

const TICKS_PER_SECOND = 100; // USER_HZ of /proc/<pid>/stat on Linux

export interface ProcStats {
  /** User + system CPU time so far. */
  cpuMs: number;
  rssBytes: number;
  /** The highest RSS so far (VmHWM). */
  peakRssBytes: number;
  /** Open file descriptors: sockets, files, pipes. */
  openFds: number;
}

export function procStats(pid: number): ProcStats {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const ticks = Number(fields[11]) + Number(fields[12]); // utime, stime (fields 14 and 15)
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (key: string) => Number(new RegExp(`${key}:\\s+(\\d+)`).exec(status)?.[1] ?? 0) * 1024;
  let openFds = 0;
  try {
    openFds = fs.readdirSync(`/proc/${pid}/fd`).length;
  } catch {
    // Gone between the two reads: its last figures stand.
  }
  return { cpuMs: (ticks * 1000) / TICKS_PER_SECOND, rssBytes: kb("VmRSS"), peakRssBytes: kb("VmHWM"), openFds };
}

export interface Scratch {
  forage: ForageConfig;
  db: Db;
  /** DATABASE_URL, FORAGE_DATA_DIR and a private-network policy that lets the workers reach 127.0.0.1. */
  env: Record<string, string>;
  /** The SQLite file's size with its WAL, or PostgreSQL's pg_database_size. */
  sizeBytes(): Promise<number>;
  dispose(): Promise<void>;
}

/** A fresh database: a temp SQLite file, or the scratch PostgreSQL database emptied. */
export async function scratchDatabase(databaseUrl: string | undefined, prefix = "forage-bench-"): Promise<Scratch> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  const sqliteFile = path.join(dir, "bench.db");
  const env = {
    DATABASE_URL: databaseUrl ?? `file:${sqliteFile}`,
    FORAGE_DATA_DIR: dir,
    FORAGE_PRIVATE_NETWORKS: "127.0.0.0/8",
  };
  const forage = loadConfig(env);
  await ensureMigrated(forage, { apply: true });
  const db = await openDatabase(forage);
  if (databaseUrl) {
    // A scratch database: every crawl and harvest of an earlier run goes (rows cascade from them).
    await db.crawl.deleteMany({});
    await db.harvest.deleteMany({});
    await db.hostClock.deleteMany({}).catch(() => undefined);
    await db.worker.deleteMany({});
  }
  return {
    forage,
    db,
    env,
    async sizeBytes() {
      if (databaseUrl) {
        const rows = await db.$queryRaw<Array<{ size: bigint }>>`SELECT pg_database_size(current_database()) AS size`;
        return Number(rows[0]?.size ?? 0);
      }
      const size = (file: string) => (fs.existsSync(file) ? fs.statSync(file).size : 0);
      return size(sqliteFile) + size(`${sqliteFile}-wal`);
    },
    async dispose() {
      await db.$disconnect();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Resolves once a `forage worker` child prints that it is ready; rejects if it exits first. */
export async function waitReady(worker: ChildProcess): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    worker.stdout!.on("data", (chunk: Buffer) => chunk.toString().includes("ready") && resolve());
    worker.once("exit", (code) => reject(new Error(`worker exited (${code})`)));
  });
}
