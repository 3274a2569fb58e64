import { loadConfig } from "../../config";
import { ensureMigrated } from "../../store";
import { redact } from "../../store/migrations";
import { parseOptions } from "../parse-options";

export const migrateHelp = "forage migrate              apply pending database migrations";

/** `forage migrate`: bring the configured database up to date. */
export async function migrateCommand(argv: string[]): Promise<number> {
  parseOptions(argv, {});
  const config = loadConfig();
  const applied = await ensureMigrated(config, { apply: true });
  console.log(
    applied.length > 0
      ? `[forage] Applied ${applied.length} migration(s) to ${redact(config.databaseUrl)}.`
      : `[forage] Database ${redact(config.databaseUrl)} is up to date.`,
  );
  return 0;
}
