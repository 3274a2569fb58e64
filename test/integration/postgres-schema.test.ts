import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, expectTypeOf, it } from "vitest";
import { Prisma as SqlitePrisma, type Crawl, type CrawlCheckpoint, type MetricPoint, type Worker } from "../../generated/prisma/client";
import {
  Prisma as PostgresPrisma,
  type Crawl as PgCrawl,
  type CrawlCheckpoint as PgCrawlCheckpoint,
  type MetricPoint as PgMetricPoint,
  type Worker as PgWorker,
} from "../../generated/prisma-postgres/client";
import { PROJECT_ROOT } from "../helpers/paths";

// No database here: the PostgreSQL schema, migrations and client derived from the one source.

const read = (file: string) => fs.readFileSync(path.join(PROJECT_ROOT, file), "utf8");

describe("PostgreSQL schema derived from prisma/schema.prisma", () => {
  it("is in sync: generated schema, one PostgreSQL migration per SQLite migration, lock file (scripts/prisma-postgres.mjs --check)", () => {
    const check = spawnSync(process.execPath, ["scripts/prisma-postgres.mjs", "--check"], { cwd: PROJECT_ROOT, encoding: "utf8" });
    expect(check.stderr).toBe("");
    expect(check.status).toBe(0);
  });

  it("differs from the source only by its header, provider and client output", () => {
    const source = read("prisma/schema.prisma").split("\n");
    const postgres = read("prisma/postgres/schema.prisma").split("\n");
    const body = postgres.slice(postgres.indexOf(source[0]!));
    expect(body).toHaveLength(source.length);
    const changed = source.flatMap((line, i) => (line === body[i] ? [] : [[line.trim(), body[i]!.trim()]]));
    expect(changed).toEqual([
      ['output     = "../generated/prisma"', 'output     = "../../generated/prisma-postgres"'],
      ['provider = "sqlite"', 'provider = "postgresql"'],
    ]);
  });

  it("generates a client with the same models and fields as SQLite's", () => {
    expect(PostgresPrisma.ModelName).toEqual(SqlitePrisma.ModelName);
    for (const model of Object.keys(SqlitePrisma.ModelName)) {
      const key = `${model}ScalarFieldEnum` as keyof typeof SqlitePrisma;
      expect(PostgresPrisma[key as keyof typeof PostgresPrisma], model).toEqual(SqlitePrisma[key]);
    }
    // Compile-time (npm run typecheck): the row types are identical, so one `Db` type serves both.
    expectTypeOf<PgCrawl>().toEqualTypeOf<Crawl>();
    expectTypeOf<PgMetricPoint>().toEqualTypeOf<MetricPoint>();
    expectTypeOf<PgCrawlCheckpoint>().toEqualTypeOf<CrawlCheckpoint>();
    expectTypeOf<PgWorker>().toEqualTypeOf<Worker>();
  });

  it("creates every model's table in the PostgreSQL migrations", () => {
    const sql = fs
      .readdirSync(path.join(PROJECT_ROOT, "prisma/postgres/migrations"))
      .filter((name) => fs.existsSync(path.join(PROJECT_ROOT, "prisma/postgres/migrations", name, "migration.sql")))
      .map((name) => read(`prisma/postgres/migrations/${name}/migration.sql`))
      .join("\n");
    for (const model of Object.keys(SqlitePrisma.ModelName)) expect(sql).toContain(`CREATE TABLE "${model}"`);
    expect(sql).not.toMatch(/AUTOINCREMENT|DATETIME/); // SQLite's dialect leaking in
  });
});
