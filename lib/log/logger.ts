import pino, { type DestinationStream, type Logger } from "pino";
import pretty from "pino-pretty";
import type { ForageConfig, LogLevel } from "../config";
import { redactSecrets, scrubSecretText } from "./redact";

export type { Logger } from "pino";

export interface LoggerSettings {
  /** The process: "forage-dashboard", "forage-worker". */
  name: string;
  level: LogLevel;
  /** "auto": pretty when the destination is stdout on a terminal, json otherwise. */
  format: "json" | "pretty" | "auto";
  /** Where lines go (tests capture them). @default stdout, written synchronously (no line lost at exit) */
  destination?: DestinationStream & NodeJS.WritableStream;
}

/**
 * The operator log of a Forage process (pino): one JSON object a line (time, level, name, msg,
 * fields), or pretty lines for people. Every line, its fields and its child bindings pass
 * `redactSecrets`: fields named like credentials are replaced, and token-like text is scrubbed
 * from messages. Ids go in child bindings (`crawlLog`, `harvestLog`, `requestLog`).
 */
export function createLogger(settings: LoggerSettings): Logger {
  const usePretty = settings.format === "pretty" || (settings.format === "auto" && !settings.destination && process.stdout.isTTY === true);
  const destination = usePretty
    ? pretty({ colorize: !settings.destination && process.stdout.isTTY === true, sync: true, destination: settings.destination ?? 1, ignore: "pid,hostname" })
    : (settings.destination ?? pino.destination({ dest: 1, sync: true }));
  const root = pino(
    {
      name: settings.name,
      level: settings.level,
      // Errors are made plain (type, message, stack) and scrubbed by `redactSecrets` in `formatters.log`.
      serializers: { err: (value: unknown) => (value instanceof Error ? redactSecrets(value) : value) },
      formatters: {
        bindings: (bindings) => redactSecrets(bindings) as Record<string, unknown>,
        log: (object) => redactSecrets(object) as Record<string, unknown>,
      },
      hooks: {
        // The message text (and printf-style arguments) are scrubbed too.
        logMethod(args, method) {
          const scrubbed = args.map((arg) => (typeof arg === "string" ? scrubSecretText(arg) : arg)) as Parameters<typeof method>;
          return method.apply(this, scrubbed);
        },
      },
    },
    destination,
  );
  // pino passes only the root's bindings through `formatters.bindings`; a child's are redacted
  // here (children are made from their parent by prototype, so every descendant uses this `child`).
  const child = root.child;
  root.child = function redactedChild(this: Logger, bindings, options) {
    return child.call(this, redactSecrets(bindings) as typeof bindings, options);
  } as typeof root.child;
  return root;
}

/** The logger of a process from its configuration (FORAGE_LOG_LEVEL, FORAGE_LOG_FORMAT). */
export function loggerFor(config: Pick<ForageConfig, "logLevel" | "logFormat">, name: string): Logger {
  return createLogger({ name, level: config.logLevel, format: config.logFormat });
}

/** Lines about one crawl carry its id. */
export function crawlLog(log: Logger, crawlId: number): Logger {
  return log.child({ crawlId });
}

/** Lines about one harvest carry its id. */
export function harvestLog(log: Logger, harvestId: number): Logger {
  return log.child({ harvestId });
}

/** Lines about one HTTP request carry its id. */
export function requestLog(log: Logger, requestId: string): Logger {
  return log.child({ requestId });
}

/** A logger that writes nothing (library code given none). */
export function silentLogger(): Logger {
  return pino({ level: "silent" });
}
