import { Prisma } from "../../generated/prisma/client";
import { PORTABLE_MAX_BIND_PARAMETERS } from "./dialect";

/**
 * Rows per INSERT: 500 (×20 columns = 10 000 parameters), never more than the strictest
 * dialect's parameter limit allows. Larger statements gain nothing measurable.
 */
const MAX_ROWS_PER_STATEMENT = 500;

type Executor = { $executeRaw: (query: Prisma.Sql) => Promise<number> };

/**
 * Multi-row INSERT through Prisma's raw SQL: the crawl's hot path (request rows, metric points)
 * writes hundreds of rows per flush, and `createMany` spends several times the CPU of raw SQL
 * per row compiling the query in the WASM query compiler.
 *
 * Portable by construction, so it takes no dialect (a transaction client does not say which
 * database it is on): quoted identifiers, bound parameters whose JS types (Date, boolean,
 * bigint, Buffer) each driver adapter converts as it does for Prisma's own writes, statement
 * size within every dialect's parameter limit (lib/store/dialect.ts), and
 * `ON CONFLICT (…) DO NOTHING` (SQLite ≥ 3.24 and PostgreSQL) for `onConflictDoNothing`, the
 * unique columns whose duplicates are skipped. Tested on both: test/integration/postgres-raw-sql.test.ts.
 */
export async function insertRows<T extends object>(
  db: Executor,
  table: string,
  columns: readonly (keyof T & string)[],
  rows: readonly T[],
  onConflictDoNothing?: readonly string[],
): Promise<void> {
  const head = Prisma.raw(`INSERT INTO "${table}" (${columns.map((column) => `"${column}"`).join(", ")}) VALUES `);
  const tail = onConflictDoNothing ? Prisma.raw(` ON CONFLICT (${onConflictDoNothing.map((c) => `"${c}"`).join(", ")}) DO NOTHING`) : Prisma.empty;
  const rowsPerStatement = Math.max(1, Math.min(MAX_ROWS_PER_STATEMENT, Math.floor(PORTABLE_MAX_BIND_PARAMETERS / columns.length)));
  for (let start = 0; start < rows.length; start += rowsPerStatement) {
    const chunk = rows.slice(start, start + rowsPerStatement);
    const values = Prisma.join(chunk.map((row) => Prisma.sql`(${Prisma.join(columns.map((column) => row[column] as unknown))})`));
    await db.$executeRaw(Prisma.sql`${head}${values}${tail}`);
  }
}
