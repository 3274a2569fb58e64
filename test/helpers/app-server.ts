import fs from "node:fs";
import path from "node:path";
import { PROJECT_ROOT } from "./paths";
import { freePort, startNodeProcess, waitForHttp, type ManagedProcess } from "./processes";
import type { TestDatabase } from "./test-database";

export interface RunningApp {
  baseUrl: string;
  server: ManagedProcess;
  stop(): Promise<void>;
}

/**
 * The built dashboard (`next start`, as `npm start` runs it) on a free port, on the test's own
 * database and data folder. `npm test` builds the app before the suite when sources changed.
 * `env` adds variables for the server (e.g. `FORAGE_DEMO_PORT`); it cannot replace the database
 * or the data folder.
 */
export async function startApp(database: TestDatabase, env: Record<string, string> = {}): Promise<RunningApp> {
  if (!fs.existsSync(path.join(PROJECT_ROOT, ".next/BUILD_ID"))) {
    throw new Error("No Next.js build: run the suite with `npm test`, which builds the app first");
  }
  const port = await freePort();
  const server = startNodeProcess(["node_modules/next/dist/bin/next", "start", "-H", "127.0.0.1", "-p", String(port)], {
    ...env,
    DATABASE_URL: database.config.databaseUrl,
    FORAGE_DATA_DIR: database.config.dataDir,
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  await waitForHttp(`${baseUrl}/api/crawls`, server);
  return { baseUrl, server, stop: () => server.stop() };
}
