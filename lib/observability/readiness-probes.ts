import fs from "node:fs/promises";
import type { StorageConfig } from "../config";
import type { Db } from "../store/prisma-client";
import { storageFor } from "../storage/storage-for";
import type { ReadinessProbes } from "./readiness";

/** A key no one writes: asking for it proves the bucket answers (absent is fine, refused or unreachable is not). */
const PROBE_KEY = "forage-readiness-probe";

/** The readiness probes of a dashboard process over its database and storage. */
export function readinessProbes(db: () => Promise<Db>, storage: { dataDir: string; config: StorageConfig }): ReadinessProbes {
  return {
    async database() {
      const client = await db();
      await client.$queryRawUnsafe("SELECT 1");
    },
    async storage() {
      if (storage.config.kind === "local") {
        // The folder exists, is a folder and is writable (an unmounted volume is not).
        const stat = await fs.stat(storage.dataDir);
        if (!stat.isDirectory()) throw Object.assign(new Error("not a folder"), { name: "StorageError", code: "ENOTDIR" });
        await fs.access(storage.dataDir, fs.constants.W_OK);
        return;
      }
      await storageFor(storage.dataDir, storage.config).head(PROBE_KEY);
    },
    async freshestWorkerAgeMs() {
      const client = await db();
      const row = await client.worker.findFirst({ where: { state: "running" }, orderBy: { heartbeatAt: "desc" }, select: { heartbeatAt: true } });
      return row ? Math.max(0, Date.now() - row.heartbeatAt.getTime()) : null;
    },
  };
}
