import { defineConfig } from "prisma/config";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { loadConfig } from "./lib/config";

// With a config file Prisma skips .env, and an unresolved url makes the CLI try to download
// a schema-engine binary (no network here): resolve it from lib/config.ts, always.
const config = loadConfig();
process.env.DATABASE_URL = config.databaseUrl;

export default defineConfig({
  experimental: { adapter: true },
  engine: "js", // the WASM schema engine: no binary download
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
  adapter: async () => new PrismaBetterSQLite3({ url: config.databaseUrl }),
});
