import { CliUsageError, EXIT_FAILURE, EXIT_USAGE } from "./cli-error";

interface Command {
  help: string;
  run: (argv: string[]) => Promise<number>;
}

type CommandLoader = () => Promise<Command>;

/**
 * Each command's module is loaded when it runs: loading all of them (crawler, store, archive,
 * bench, sitesim…) cost every `forage` process about 2 s of CPU before it did anything.
 */
const commands: Record<string, CommandLoader> = {
  bench: () => import("./commands/bench").then((m) => ({ help: m.benchHelp, run: m.benchCommand })),
  crawl: () => import("./commands/crawl").then((m) => ({ help: m.crawlHelp, run: m.crawlCommand })),
  demo: () => import("./commands/demo").then((m) => ({ help: m.demoHelp, run: m.demoCommand })),
  detect: () => import("./commands/recipes").then((m) => ({ help: m.detectHelp, run: m.detectCommand })),
  export: () => import("./commands/export").then((m) => ({ help: m.exportHelp, run: m.exportCommand })),
  harvest: () => import("./commands/harvest").then((m) => ({ help: m.harvestHelp, run: m.harvestCommand })),
  import: () => import("./commands/import").then((m) => ({ help: m.importHelp, run: m.importCommand })),
  migrate: () => import("./commands/migrate").then((m) => ({ help: m.migrateHelp, run: m.migrateCommand })),
  recipes: () => import("./commands/recipes").then((m) => ({ help: m.recipesHelp, run: m.recipesCommand })),
  replay: () => import("./commands/replay").then((m) => ({ help: m.replayHelp, run: m.replayCommand })),
  token: () => import("./commands/token").then((m) => ({ help: m.tokenHelp, run: m.tokenCommand })),
  user: () => import("./commands/user").then((m) => ({ help: m.userHelp, run: m.userCommand })),
  worker: () => import("./commands/worker").then((m) => ({ help: m.workerHelp, run: m.workerCommand })),
};

/** Internal commands, not listed in the help. */
const internalCommands: Record<string, CommandLoader> = {
  "bench-run": () => import("./commands/bench").then((m) => ({ help: "", run: m.benchRunCommand })),
  "setup-link": () => import("./commands/setup-link").then((m) => ({ help: "", run: m.setupLinkCommand })),
};

async function usage(): Promise<string> {
  const loaded = await Promise.all(Object.values(commands).map((load) => load()));
  return ["Usage: forage <command> [options]", "", ...loaded.map((command) => `  ${command.help}`)].join("\n");
}

/** Runs one CLI command; returns the process exit code. Errors never escape as stack traces. */
export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === "--help" || name === "-h" || name === "help") {
    console.log(await usage());
    return name ? 0 : EXIT_USAGE;
  }
  const load = Object.hasOwn(commands, name) ? commands[name] : Object.hasOwn(internalCommands, name) ? internalCommands[name] : undefined;
  if (!load) {
    console.error(`forage: unknown command "${name}" (try "forage --help")`);
    return EXIT_USAGE;
  }
  try {
    const command = await load();
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
