import fs from "node:fs";
import path from "node:path";
import { PROJECT_ROOT } from "./paths";
import type { BrowserContextOptions } from "playwright-core";
import { freePort } from "./ports";
import { startNodeProcess, waitForHttp, type ManagedProcess } from "./processes";
import { createTestAccount, type TestAccount } from "./test-accounts";
import type { TestDatabase } from "./test-database";

export interface RunningApp {
  baseUrl: string;
  /** The admin the tests act as: its token for API calls, its session for the browser (null: started without users). */
  admin: TestAccount | null;
  /** Options for `browser.newPage()` / `newContext()` that open pages signed in as the admin. */
  signedIn: BrowserContextOptions;
  /** `fetch` on the app as the admin (bearer token). */
  api(path: string, init?: RequestInit): Promise<Response>;
  server: ManagedProcess;
  stop(): Promise<void>;
}

/**
 * The built dashboard (scripts/dashboard.mjs, as `npm start` runs it) on a free port, on the test's own
 * database and data folder. `npm test` builds the app before the suite when sources changed.
 * `env` adds variables for the server (e.g. `FORAGE_DEMO_PORT`); it cannot replace the database
 * or the data folder. An admin account is created first (the app has no anonymous access)
 * unless `withAdmin` is false (the first-run journey).
 */
export async function startApp(database: TestDatabase, env: Record<string, string> = {}, { withAdmin = true } = {}): Promise<RunningApp> {
  if (!fs.existsSync(path.join(PROJECT_ROOT, ".next/BUILD_ID"))) {
    throw new Error("No Next.js build: run the suite with `npm test`, which builds the app first");
  }
  const admin = withAdmin ? await createTestAccount(database.db) : null;
  const port = await freePort();
  const server = startNodeProcess(["scripts/dashboard.mjs"], {
    // The server listens on, and answers only as, its public origin: this port on 127.0.0.1.
    FORAGE_HOST: "127.0.0.1",
    FORAGE_PORT: String(port),
    FORAGE_PUBLIC_URL: `http://127.0.0.1:${port}`,
    ...env,
    DATABASE_URL: database.config.databaseUrl,
    FORAGE_DATA_DIR: database.config.dataDir,
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  await waitForHttp(`${baseUrl}/api/crawls`, server);
  const signedIn: BrowserContextOptions = {
    storageState: {
      cookies: [{ name: "forage_session", value: admin?.session ?? "", domain: "127.0.0.1", path: "/", expires: -1, httpOnly: true, secure: false, sameSite: "Lax" }],
      origins: [],
    },
  };
  const api = (path: string, init: RequestInit = {}) => {
    const headers = new Headers(init.headers);
    if (admin) headers.set("authorization", `Bearer ${admin.token}`);
    if (init.body !== undefined && !headers.has("content-type")) headers.set("content-type", "application/json");
    return fetch(`${baseUrl}${path}`, { ...init, headers });
  };
  return { baseUrl, admin, signedIn, api, server, stop: () => server.stop() };
}
