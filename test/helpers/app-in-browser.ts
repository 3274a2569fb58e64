import type { Browser } from "playwright-core";
import { startApp, type RunningApp } from "./app-server";
import { launchBrowser } from "./browser";
import { createTestDatabase, type TestDatabase } from "./test-database";

export interface AppInBrowser {
  database: TestDatabase;
  app: RunningApp;
  browser: Browser;
}

/** A fresh database, the built dashboard on it (`env` added to its environment), and Chromium: what every browser test starts from. */
export async function startAppInBrowser(env: Record<string, string> = {}): Promise<AppInBrowser> {
  const database = await createTestDatabase();
  const app = await startApp(database, env);
  const browser = await launchBrowser();
  return { database, app, browser };
}

/** Stops what `startAppInBrowser` started; tolerates a partial start (a failed beforeAll). */
export async function stopAppInBrowser(parts: Partial<AppInBrowser>): Promise<void> {
  await parts.browser?.close();
  await parts.app?.stop();
  await parts.database?.dispose();
}
