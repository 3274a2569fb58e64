import { defineConfig } from "vitest/config";
import path from "node:path";

// One command runs every layer; each layer is a project so it can be run alone
// (`npx vitest run --project unit`). Native addons (better-sqlite3, hnswlib-node)
// need process isolation: pool "forks".
export default defineConfig({
  resolve: {
    alias: {
      "@": path.resolve(import.meta.dirname),
      "server-only": path.resolve(import.meta.dirname, "test/helpers/stubs/server-only.ts"),
    },
  },
  test: {
    pool: "forks",
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
