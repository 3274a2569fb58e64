import { parseArgs, type ParseArgsConfig } from "node:util";
import { CliUsageError } from "./cli-error";

type Options = NonNullable<ParseArgsConfig["options"]>;

/**
 * `util.parseArgs` in strict mode, with its errors turned into one-line usage errors
 * ("unknown option --bugdet") instead of stack traces.
 */
export function parseOptions<T extends Options>(argv: string[], options: T, { positionals = 0 } = {}) {
  try {
    const parsed = parseArgs({ args: argv, options, strict: true, allowPositionals: positionals > 0, allowNegative: true });
    if (parsed.positionals.length > positionals) {
      throw new CliUsageError(`unexpected argument "${parsed.positionals[positionals]}"`);
    }
    return parsed;
  } catch (error) {
    if (error instanceof CliUsageError) throw error;
    const message = error instanceof Error ? error.message.split("\n")[0]! : String(error);
    // node appends hints ("To specify a positional argument…"); one line with the option is enough.
    const ambiguous = /^Option '([^']*)' argument is ambiguous/.exec(message);
    if (ambiguous) throw new CliUsageError(`${ambiguous[1]} needs a value; write one that starts with "-" as ${ambiguous[1]}=-5`);
    throw new CliUsageError(message.replace(/^Unknown option '([^']*)'.*$/, "unknown option $1"));
  }
}

/** A whole number within bounds, or a usage error naming the option. */
export function parseIntegerOption(name: string, raw: string | undefined, { min = 0, max = Number.MAX_SAFE_INTEGER } = {}): number | undefined {
  if (raw === undefined) return undefined;
  if (!/^-?\d+$/.test(raw.trim())) throw new CliUsageError(`--${name} must be a whole number, got "${raw}"`);
  const value = Number(raw);
  if (value < min || value > max) {
    const range = max === Number.MAX_SAFE_INTEGER ? `at least ${min}` : `between ${min} and ${max}`;
    throw new CliUsageError(`--${name} must be ${range}, got ${value}`);
  }
  return value;
}
