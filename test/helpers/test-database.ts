import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { loadConfig, type ForageConfig } from "../../lib/config";
import { openDatabase, type Db } from "../../lib/store";
import { inject } from "vitest";

export interface TestDatabase {
  config: ForageConfig;
  db: Db;
  dir: string;
  /** Disconnects and removes the folder. */
  dispose(): Promise<void>;
}

/**
 * A fresh, migrated SQLite database and data folder for one test file: a copy of the template
 * the global setup migrated. Real SQLite, real Prisma.
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  const templateDbPath = inject("templateDbPath");
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "forage-test-"));
  const sqlitePath = path.join(dir, "forage.db");
  fs.copyFileSync(templateDbPath, sqlitePath);
  const config = loadConfig({ DATABASE_URL: `file:${sqlitePath}`, FORAGE_DATA_DIR: dir });
  const db = await openDatabase(config);
  return {
    config,
    db,
    dir,
    async dispose() {
      await db.$disconnect();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
