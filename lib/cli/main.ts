import { CliUsageError, EXIT_FAILURE, EXIT_USAGE } from "./cli-error";
import { migrateCommand, migrateHelp } from "./commands/migrate";

interface Command {
  help: string;
  run: (argv: string[]) => Promise<number>;
}

const commands: Record<string, Command> = {
  migrate: { help: migrateHelp, run: migrateCommand },
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
  const command = commands[name];
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
