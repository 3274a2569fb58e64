import { CliUsageError, EXIT_FAILURE, EXIT_USAGE } from "./cli-error";
import { benchCommand, benchHelp, benchRunCommand } from "./commands/bench";
import { crawlCommand, crawlHelp } from "./commands/crawl";
import { demoCommand, demoHelp } from "./commands/demo";
import { exportCommand, exportHelp } from "./commands/export";
import { harvestCommand, harvestHelp } from "./commands/harvest";
import { importCommand, importHelp } from "./commands/import";
import { migrateCommand, migrateHelp } from "./commands/migrate";
import { recipesCommand, recipesHelp, detectCommand, detectHelp } from "./commands/recipes";
import { replayCommand, replayHelp } from "./commands/replay";
import { setupLinkCommand } from "./commands/setup-link";
import { tokenCommand, tokenHelp } from "./commands/token";
import { userCommand, userHelp } from "./commands/user";
import { workerCommand, workerHelp } from "./commands/worker";

interface Command {
  help: string;
  run: (argv: string[]) => Promise<number>;
}

const commands: Record<string, Command> = {
  bench: { help: benchHelp, run: benchCommand },
  crawl: { help: crawlHelp, run: crawlCommand },
  demo: { help: demoHelp, run: demoCommand },
  detect: { help: detectHelp, run: detectCommand },
  export: { help: exportHelp, run: exportCommand },
  harvest: { help: harvestHelp, run: harvestCommand },
  import: { help: importHelp, run: importCommand },
  migrate: { help: migrateHelp, run: migrateCommand },
  recipes: { help: recipesHelp, run: recipesCommand },
  replay: { help: replayHelp, run: replayCommand },
  token: { help: tokenHelp, run: tokenCommand },
  user: { help: userHelp, run: userCommand },
  worker: { help: workerHelp, run: workerCommand },
};

/** Internal commands, not listed in the help. */
const internalCommands: Record<string, Command> = {
  "bench-run": { help: "", run: benchRunCommand },
  "setup-link": { help: "", run: setupLinkCommand },
};

function usage(): string {
  return ["Usage: forage <command> [options]", "", ...Object.values(commands).map((command) => `  ${command.help}`)].join("\n");
}

/** Runs one CLI command; returns the process exit code. Errors never escape as stack traces. */
export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === "--help" || name === "-h" || name === "help") {
    console.log(usage());
    return name ? 0 : EXIT_USAGE;
  }
  const command = commands[name] ?? internalCommands[name];
  if (!command) {
    console.error(`forage: unknown command "${name}" (try "forage --help")`);
    return EXIT_USAGE;
  }
  try {
    return await command.run(rest);
  } catch (error) {
    if (error instanceof CliUsageError) {
      console.error(`forage ${name}: ${error.message}`);
      return EXIT_USAGE;
    }
    const message = error instanceof Error ? error.message : String(error);
    console.error(`forage ${name}: ${message}`);
    if (process.env.FORAGE_DEBUG) console.error(error);
    return EXIT_FAILURE;
  }
}
