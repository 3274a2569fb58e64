import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { loadConfig } from "../../lib/config";
import { applyMigrations } from "../../lib/store/migrations";

declare module "vitest" {
  export interface ProvidedContext {
    templateDbPath: string;
  }
}

/**
 * Migrates one template SQLite database per test run; every test copies it (a file copy is
 * ~1 ms, `prisma migrate deploy` ~1.5 s). Mirrors graphile-worker's template-database helper.
 * The template lives in its own temporary folder so concurrent test runs never share it.
 */
export default async function setup(project: TestProject): Promise<() => void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "forage-template-"));
  const templateDbPath = path.join(dir, "template.db");
  await applyMigrations(loadConfig({ DATABASE_URL: `file:${templateDbPath}` }));
  project.provide("templateDbPath", templateDbPath);
  return () => fs.rmSync(dir, { recursive: true, force: true });
}
