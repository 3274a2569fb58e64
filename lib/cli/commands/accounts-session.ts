import { loadConfig, type ForageConfig } from "../../config";
import { ensureMigrated, openDatabase, type Db } from "../../store";

/** The database the account commands work on (`--db` overrides DATABASE_URL), migrated; closed by `run`'s end. */
export async function withAccountsDb<T>(dbOption: string | undefined, run: (db: Db, forage: ForageConfig) => Promise<T>): Promise<T> {
  const forage = loadConfig({ DATABASE_URL: dbOption });
  await ensureMigrated(forage, { apply: true });
  const db = await openDatabase(forage);
  try {
    return await run(db, forage);
  } finally {
    await db.$disconnect();
  }
}

/** All of standard input as text, without the final line break (a password piped with `echo`). */
export async function readStdin(stream: NodeJS.ReadableStream = process.stdin): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string));
  return Buffer.concat(chunks).toString("utf8").replace(/\r?\n$/, "");
}
