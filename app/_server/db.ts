import "server-only";
import { SameOrigin } from "@/lib/api/same-origin";
import { setPasswordHashConcurrency } from "@/lib/auth/passwords";
import { loadConfig, type ForageConfig } from "@/lib/config";
import { ensureMigrated, openDatabase, type Db } from "@/lib/store";

/**
 * The web server's one database handle. The dashboard never migrates by itself while workers
 * may be writing: `npm start` migrates before starting it; a database with pending migrations
 * makes every request fail with a clear DatabaseNotReadyError instead of a broken query.
 */
interface ServerState {
  config: ForageConfig;
  sameOrigin: SameOrigin;
  db: Promise<Db>;
}

const globalForForage = globalThis as unknown as { forageServer?: ServerState };

export function getServerConfig(): ForageConfig {
  return getState().config;
}

/** This server's own Host and Origin values (FORAGE_PUBLIC_URL). */
export function getSameOrigin(): SameOrigin {
  return getState().sameOrigin;
}

export async function getDb(): Promise<Db> {
  return getState().db;
}

function getState(): ServerState {
  if (!globalForForage.forageServer) {
    const config = loadConfig();
    setPasswordHashConcurrency(config.passwordHashConcurrency);
    const db = ensureMigrated(config, { apply: false }).then(() => openDatabase(config));
    // A failed open must not be cached forever: the next request tries again.
    db.catch(() => {
      globalForForage.forageServer = undefined;
    });
    globalForForage.forageServer = { config, sameOrigin: new SameOrigin(config.publicOrigin), db };
  }
  return globalForForage.forageServer;
}
