import { defineConfig } from "vitest/config";
import os from "node:os";
import path from "node:path";

// One command runs every layer; each layer is a project so it can be run alone
// (`npx vitest run --project unit`). Native addons (better-sqlite3, hnswlib-node)
// need process isolation: pool "forks".
//
// Test files at once: vitest's default is one less than the cores, which is one on a 2-core
// machine, and most integration files spend their time waiting on child processes, HTTP and
// database rows, so two files share two cores well. The browser files run one at a time
// (fileParallelism: false below). VITEST_MAX_WORKERS / --maxWorkers still override this.
const FILES_AT_ONCE = Math.max(2, os.availableParallelism() - 1);

export default defineConfig({
  resolve: {
    alias: {
      "@": path.resolve(import.meta.dirname),
      "server-only": path.resolve(import.meta.dirname, "test/helpers/stubs/server-only.ts"),
    },
  },
  test: {
    pool: "forks",
    maxWorkers: FILES_AT_ONCE,
    globalSetup: ["test/helpers/global-setup.ts"],
    projects: [
      { extends: true, test: { name: "unit", include: ["test/unit/**/*.test.ts"], testTimeout: 20_000 } },
      {
        extends: true,
        test: { name: "integration", include: ["test/integration/**/*.test.ts"], testTimeout: 120_000, hookTimeout: 120_000 },
      },
      {
        extends: true,
        test: {
          name: "e2e",
          include: ["test/e2e/**/*.test.ts"],
          testTimeout: 120_000,
          hookTimeout: 240_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
