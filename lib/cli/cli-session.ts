import { loadConfig, type ForageConfig } from "../config";
import { ensureMigrated, openDatabase, type Db } from "../store";

/** What `forage crawl` and `forage replay` run in: a migrated database and Ctrl-C / SIGTERM as an abort signal. */
export interface CliSession {
  forage: ForageConfig;
  db: Db;
  /** Aborted by the first SIGINT or SIGTERM: the crawl stops cleanly and the command reports it. */
  signal: AbortSignal;
  /** Removes the signal handlers and closes the database. */
  close(): Promise<void>;
}

/** `--db` / `--out` override DATABASE_URL / FORAGE_DATA_DIR when given. */
export async function openCliSession(options: { db?: string; out?: string }): Promise<CliSession> {
  const forage = loadConfig({ DATABASE_URL: options.db, FORAGE_DATA_DIR: options.out });
  await ensureMigrated(forage, { apply: true });
  const db = await openDatabase(forage);
  const abort = new AbortController();
  const onSignal = () => abort.abort();
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
  return {
    forage,
    db,
    signal: abort.signal,
    close: async () => {
      process.off("SIGINT", onSignal);
      process.off("SIGTERM", onSignal);
      await db.$disconnect();
    },
  };
}
