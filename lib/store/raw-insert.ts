import { Prisma } from "../../generated/prisma/client";

/** Rows per INSERT: 500 rows × ~20 columns stays far below SQLite's 32 766 and PostgreSQL's 65 535 parameters. */
const ROWS_PER_STATEMENT = 500;

type Executor = { $executeRaw: (query: Prisma.Sql) => Promise<number> };

/**
 * Multi-row INSERT through Prisma's raw SQL: the crawl's hot path (request rows, metric points)
 * writes hundreds of rows per flush, and `createMany` spends ~0.4 ms of CPU per row compiling
 * the query in the WASM query compiler, raw SQL ~0.07 ms (measured, 3000 rows). Quoted
 * identifiers and bound parameters keep it portable between SQLite and PostgreSQL.
 * `onConflictDoNothing` names the unique columns to skip duplicates (both dialects support
 * `ON CONFLICT (…) DO NOTHING`).
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
  for (let start = 0; start < rows.length; start += ROWS_PER_STATEMENT) {
    const chunk = rows.slice(start, start + ROWS_PER_STATEMENT);
    const values = Prisma.join(chunk.map((row) => Prisma.sql`(${Prisma.join(columns.map((column) => row[column] as unknown))})`));
    await db.$executeRaw(Prisma.sql`${head}${values}${tail}`);
  }
}
