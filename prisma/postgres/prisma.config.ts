import pg from "pg";
import { defineConfig } from "prisma/config";
import { PrismaPg } from "@prisma/adapter-pg";
import { loadConfig } from "../../lib/config";

// The Prisma CLI's config for PostgreSQL (`--config prisma/postgres/prisma.config.ts`); paths
// below are relative to this file. The runtime does not read it: lib/store/prisma-client.ts
// opens its own PrismaPg adapter.

// prisma/orm#27403: @prisma/adapter-pg 6.19.3 cannot deserialize the catalog types the schema
// engine reads in `migrate deploy` / `db push` ("Column type 'name' could not be deserialized").
// Relabel them as text before the adapter maps column types: "char" (18) and name (19) → text
// (25), their arrays (1002, 1003) → text[] (1009). CLI only: application queries never select them.
const TEXT_OIDS: Record<number, number> = { 18: 25, 19: 25, 1002: 1009, 1003: 1009 };
type FieldDescription = { dataTypeID: number };
const resultPrototype = pg.Result.prototype as unknown as { addFields(fields: FieldDescription[]): void; __forageOidShim?: true };
if (!resultPrototype.__forageOidShim) {
  const addFields = resultPrototype.addFields;
  resultPrototype.addFields = function (this: unknown, fields: FieldDescription[]) {
    for (const field of fields) field.dataTypeID = TEXT_OIDS[field.dataTypeID] ?? field.dataTypeID;
    return addFields.call(this, fields);
  };
  resultPrototype.__forageOidShim = true;
}

// With a config file Prisma skips .env, and an unresolved url makes the CLI try to download a
// binary: always set one. `prisma generate` needs no database and never calls the adapter, so
// without a PostgreSQL URL (unset: the SQLite default) it runs on a placeholder; the commands
// that do call the adapter (migrate deploy, migrate diff, db push) stop with a clear message.
const config = loadConfig();
const isPostgres = config.databaseProvider === "postgresql";
process.env.DATABASE_URL = isPostgres ? config.databaseUrl : "postgresql://placeholder.invalid/set-DATABASE_URL";

export default defineConfig({
  experimental: { adapter: true },
  engine: "js", // the WASM schema engine: no binary download
  schema: "schema.prisma",
  migrations: { path: "migrations" },
  adapter: async () => {
    if (!isPostgres) throw new Error("prisma/postgres/prisma.config.ts needs DATABASE_URL=postgresql://… (it is unset or a SQLite URL)");
    return new PrismaPg({ connectionString: config.databaseUrl });
  },
});
