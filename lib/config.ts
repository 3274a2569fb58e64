import path from "node:path";
import { z } from "zod";
import { canonicalCidrs, CidrError, splitCidrList } from "./crawler/fetch/network-policy";

/**
 * Process configuration: the only module that reads `process.env`.
 *
 * Precedence: explicit overrides passed to `loadConfig()` > environment variables > defaults.
 * Relative paths are resolved against the current working directory once, here, so every
 * process (web server, worker, CLI, Prisma CLI) agrees on where the data lives.
 */
export const envSchema = z.object({
  /** `file:<path>` (SQLite) or `postgresql://…`. @default "file:<FORAGE_DATA_DIR>/forage.db" */
  DATABASE_URL: z.string().trim().min(1).optional(),
  /** Where crawled files, stored HTML bodies and the SQLite database live. @default "data" */
  FORAGE_DATA_DIR: z.string().trim().min(1).default("data"),
  /** Port of the dashboard. @default 3000 */
  FORAGE_PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  /** Port of the built-in demo website started next to the dashboard. @default 3100 */
  FORAGE_DEMO_PORT: z.coerce.number().int().min(0).max(65535).default(3100),
  /** Host the dashboard and demo bind to. @default "127.0.0.1" */
  FORAGE_HOST: z.string().trim().min(1).default("127.0.0.1"),
  /**
   * The address users reach the dashboard at, e.g. `https://forage.example.org` behind a reverse
   * proxy. Requests naming another Host are refused (DNS rebinding), state-changing requests from
   * another Origin too, and session cookies are `Secure` when it is https.
   * @default "http://<FORAGE_HOST>:<FORAGE_PORT>"
   */
  FORAGE_PUBLIC_URL: z
    .string()
    .trim()
    .url("must be a URL such as https://forage.example.org")
    .refine((value) => /^https?:\/\//i.test(value), "must start with http:// or https://")
    .optional(),
  /** A folder of recipe files (docs/RECIPES.md) added to, or replacing, the shipped ones. */
  FORAGE_RECIPES_DIR: z.string().trim().min(1).optional(),
  /** A stable name for this worker process in leases (defaults to hostname:pid). */
  FORAGE_WORKER_ID: z.string().trim().min(1).optional(),
  /**
   * How long a worker's claim on a crawl stays valid without a heartbeat (renewed at half of
   * it); after that another worker resumes the crawl from its checkpoint. @default 30000
   */
  FORAGE_WORKER_LEASE_MS: z.coerce.number().int().min(500).max(3_600_000).default(30_000),
  /**
   * Longest synchronous step a crawl may take in the worker (one link checked against the crawl's
   * rules, one choice of the strategy) before the worker pauses it with an event saying so: the
   * crawls of a worker share one thread, and such a step holds back all of them. @default 1000
   */
  FORAGE_WORKER_MAX_STEP_MS: z.coerce.number().int().min(10).max(600_000).default(1_000),
  /**
   * How long the worker's event loop may stay blocked before its watchdog thread ends the process
   * (its crawls resume elsewhere from their checkpoints once their leases expire). Keep it under
   * half of FORAGE_WORKER_LEASE_MS, so that no lease lapses while the process lives; well above
   * the longest ordinary pause (a resume's rollback, a garbage collection). @default 10000
   */
  FORAGE_WORKER_BLOCKED_EXIT_MS: z.coerce.number().int().min(100).max(3_600_000).default(10_000),
  /**
   * Non-public networks crawls may reach, as comma-separated CIDRs (`10.0.0.0/8,fd00::/8`; a bare
   * address is one host). Added to the list an admin saves in Settings → Network. Public
   * addresses are always reachable, cloud-metadata addresses never. `npm start` adds the demo
   * site's address. @default "" (none)
   */
  FORAGE_PRIVATE_NETWORKS: z.string().optional(),
  /**
   * Reverse proxies in front of the dashboard, as comma-separated CIDRs. A request whose socket
   * peer is listed takes its client address from the right-most `X-Forwarded-For` entry that is
   * not itself listed; from anyone else the header is ignored (a client can write anything in
   * it). Sign-in limits are per client address. @default "" (none: the socket's address)
   */
  FORAGE_TRUSTED_PROXIES: z.string().optional(),
  /**
   * Password hashes (Argon2id: ~19 MiB and a core's worth of work each) computed at once by one
   * process; more wait in a queue of 32 per slot, beyond which sign-ins are answered 503. Keeps
   * hashing from starving every other request. @default 1
   */
  FORAGE_PASSWORD_HASH_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(1),
  /**
   * Where crawled bytes are kept (targets, pages, WARC files, re-crawl documents): unset for the
   * local folder FORAGE_DATA_DIR (one machine), or `s3://bucket/prefix` for an S3-compatible
   * bucket every worker and the dashboard share (several machines). @default "" (local folder)
   */
  FORAGE_STORAGE_URL: z.string().trim().optional(),
  /** The S3-compatible server (MinIO, Ceph, Garage…), addressed path-style; unset for AWS S3. */
  FORAGE_S3_ENDPOINT: z
    .string()
    .trim()
    .url("must be a URL such as http://minio.internal:9000")
    .refine((value) => /^https?:\/\//i.test(value), "must start with http:// or https://, e.g. http://minio.internal:9000")
    .optional(),
  /** The bucket's credentials (unset: the AWS SDK's default chain, e.g. an instance role). */
  AWS_ACCESS_KEY_ID: z.string().trim().min(1).optional(),
  AWS_SECRET_ACCESS_KEY: z.string().trim().min(1).optional(),
  /** The bucket's region. @default "us-east-1" */
  AWS_REGION: z.string().trim().min(1).default("us-east-1"),
  /**
   * Least severe operator log line written by the dashboard server and workers (lib/log):
   * fatal, error, warn, info, debug, trace, or silent. @default "info" ("silent" under the test runner)
   */
  FORAGE_LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"], { message: "must be one of fatal, error, warn, info, debug, trace, silent" }).optional(),
  /** `json` (one object a line, for log collectors) or `pretty` (for people). @default pretty on a terminal, json otherwise */
  FORAGE_LOG_FORMAT: z.enum(["json", "pretty"], { message: "must be json or pretty" }).optional(),
  /**
   * A secret Prometheus sends as `Authorization: Bearer …` to read GET /api/metrics, so that the
   * scraper holds no API token (an admin's token can change everything). Admin API tokens are
   * accepted too. At least 32 characters, e.g. `openssl rand -hex 32`. @default "" (admin tokens only)
   */
  FORAGE_METRICS_TOKEN: z.string().trim().min(32, "must be at least 32 characters (e.g. openssl rand -hex 32)").max(512).optional(),
  /**
   * Browser contexts (one rendered page each) a worker process has open at once; further pages
   * wait their turn. Each costs a renderer process's memory. @default 2
   */
  FORAGE_RENDER_CONTEXTS: z.coerce.number().int().min(1, "must be 1 to 8").max(8, "must be 1 to 8").default(2),
  /**
   * Time limit of one rendered page in ms (loading, scripts, "Load more" steps): past it the page's
   * browser context is closed, and the DOM as far as rendered kept when it can be read. @default 15000
   */
  FORAGE_RENDER_PAGE_MS: z.coerce.number().int().min(500, "must be 500 to 600000 ms").max(600_000, "must be 500 to 600000 ms").default(15_000),
  /** The Chromium (or Chrome) executable that renders script-built pages. @default the first of /usr/bin/chromium, chromium-browser, google-chrome-stable, google-chrome */
  FORAGE_CHROMIUM_PATH: z.string().trim().min(1).optional(),
  /** Set by the test runner (vitest): logs default to silent. Not for operators. */
  VITEST: z.string().optional(),
});

/** Where crawled bytes live: the local data folder, or an S3-compatible bucket. */
export type StorageConfig =
  | { kind: "local" }
  | {
      kind: "s3";
      bucket: string;
      /** Key prefix without slashes at either end; "" for the bucket's root. */
      prefix: string;
      endpoint: string | null;
      region: string;
      credentials: { accessKeyId: string; secretAccessKey: string } | null;
    };

export type DatabaseProvider = "sqlite" | "postgresql";

export interface ForageConfig {
  databaseUrl: string;
  databaseProvider: DatabaseProvider;
  /** Absolute path of the SQLite file (sqlite only). */
  sqlitePath: string | null;
  dataDir: string;
  port: number;
  demoPort: number;
  host: string;
  /** Origin the dashboard is reached at (scheme://host[:port], no path): FORAGE_PUBLIC_URL or http://host:port. */
  publicOrigin: string;
  workerId: string | null;
  /** Lease of the worker's claims, in ms. */
  workerLeaseMs: number;
  /** FORAGE_WORKER_MAX_STEP_MS: a crawl step over it pauses the crawl. */
  workerMaxStepMs: number;
  /** FORAGE_WORKER_BLOCKED_EXIT_MS: an event loop blocked this long ends the worker process. */
  workerBlockedExitMs: number;
  /**
   * FORAGE_PRIVATE_NETWORKS as canonical entries: a CIDR on any port ("10.0.0.0/8") or on listed
   * ports ("192.168.1.10/32:8080,8443", "[fd00::/8]:443"). The variable separates entries with
   * commas or spaces; a bare port after an entry with ports continues its list (network-list.ts).
   */
  privateNetworks: string[];
  /** FORAGE_TRUSTED_PROXIES as canonical CIDRs. */
  trustedProxies: string[];
  /** Password hashes computed at once (FORAGE_PASSWORD_HASH_CONCURRENCY). */
  passwordHashConcurrency: number;
  storage: StorageConfig;
  /** FORAGE_RECIPES_DIR as an absolute path, or null. */
  recipesDir: string | null;
  /** FORAGE_LOG_LEVEL; "silent" by default under the test runner, else "info". */
  logLevel: LogLevel;
  /** FORAGE_LOG_FORMAT, or "auto": pretty when stdout is a terminal, else json. */
  logFormat: "json" | "pretty" | "auto";
  /** FORAGE_METRICS_TOKEN, or null (only admin API tokens read the metrics). */
  metricsToken: string | null;
  /** FORAGE_RENDER_CONTEXTS: rendered pages at once per worker process. */
  renderContexts: number;
  /** FORAGE_RENDER_PAGE_MS: time limit of one rendered page. */
  renderPageMs: number;
  /** FORAGE_CHROMIUM_PATH as an absolute path, or null (the usual install paths are tried). */
  chromiumPath: string | null;
}

export type LogLevel = "fatal" | "error" | "warn" | "info" | "debug" | "trace" | "silent";

export class ConfigError extends Error {
  override name = "ConfigError";
}

export function loadConfig(overrides: Partial<z.input<typeof envSchema>> = {}, cwd = process.cwd()): ForageConfig {
  // An override given as undefined (an absent CLI flag) must not hide the environment's value.
  const given = Object.fromEntries(Object.entries(overrides).filter(([, value]) => value !== undefined));
  const parsed = envSchema.safeParse({ ...pickEnv(), ...given });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ConfigError(`Invalid environment: ${issue?.path.join(".")}: ${issue?.message}`);
  }
  const env = parsed.data;
  const dataDir = path.resolve(cwd, env.FORAGE_DATA_DIR);
  const rawUrl = env.DATABASE_URL ?? `file:${path.join(dataDir, "forage.db")}`;
  const { databaseUrl, databaseProvider, sqlitePath } = resolveDatabaseUrl(rawUrl, cwd);
  return {
    databaseUrl,
    databaseProvider,
    sqlitePath,
    dataDir,
    port: env.FORAGE_PORT,
    demoPort: env.FORAGE_DEMO_PORT,
    host: env.FORAGE_HOST,
    publicOrigin: new URL(env.FORAGE_PUBLIC_URL ?? `http://${bracketIpv6(env.FORAGE_HOST)}:${env.FORAGE_PORT}`).origin,
    workerId: env.FORAGE_WORKER_ID ?? null,
    recipesDir: env.FORAGE_RECIPES_DIR ? path.resolve(cwd, env.FORAGE_RECIPES_DIR) : null,
    workerLeaseMs: env.FORAGE_WORKER_LEASE_MS,
    workerMaxStepMs: env.FORAGE_WORKER_MAX_STEP_MS,
    workerBlockedExitMs: env.FORAGE_WORKER_BLOCKED_EXIT_MS,
    privateNetworks: parseCidrSetting("FORAGE_PRIVATE_NETWORKS", env.FORAGE_PRIVATE_NETWORKS ?? ""),
    trustedProxies: parseProxySetting(env.FORAGE_TRUSTED_PROXIES ?? ""),
    passwordHashConcurrency: env.FORAGE_PASSWORD_HASH_CONCURRENCY,
    storage: parseStorage(env),
    logLevel: env.FORAGE_LOG_LEVEL ?? (env.VITEST ? "silent" : "info"),
    logFormat: env.FORAGE_LOG_FORMAT ?? "auto",
    metricsToken: env.FORAGE_METRICS_TOKEN ?? null,
    renderContexts: env.FORAGE_RENDER_CONTEXTS,
    renderPageMs: env.FORAGE_RENDER_PAGE_MS,
    chromiumPath: env.FORAGE_CHROMIUM_PATH ? path.resolve(cwd, env.FORAGE_CHROMIUM_PATH) : null,
  };
}

/** The storage part of the environment alone (modules that know only the data folder use it). */
export function loadStorageConfig(): StorageConfig {
  const parsed = envSchema.safeParse(pickEnv());
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ConfigError(`Invalid environment: ${issue?.path.join(".")}: ${issue?.message}`);
  }
  return parseStorage(parsed.data);
}

function parseStorage(env: z.output<typeof envSchema>): StorageConfig {
  const url = env.FORAGE_STORAGE_URL ?? "";
  if (url === "" || url === "local") return { kind: "local" };
  const match = /^s3:\/\/([a-z0-9][a-z0-9.-]{1,61}[a-z0-9])(?:\/(.*))?$/.exec(url);
  if (!match) {
    throw new ConfigError(
      `Invalid environment: FORAGE_STORAGE_URL must be s3://bucket or s3://bucket/prefix (bucket: 3-63 lower-case letters, digits, dots, hyphens), got "${url.slice(0, 80)}"`,
    );
  }
  const prefix = (match[2] ?? "").replace(/^\/+|\/+$/g, "");
  if (prefix.split("/").some((segment) => segment === "." || segment === "..") || prefix.includes("//")) {
    throw new ConfigError(`Invalid environment: FORAGE_STORAGE_URL: the prefix "${prefix.slice(0, 80)}" has an empty, "." or ".." segment`);
  }
  if ((env.AWS_ACCESS_KEY_ID === undefined) !== (env.AWS_SECRET_ACCESS_KEY === undefined)) {
    throw new ConfigError("Invalid environment: AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY go together: set both or neither");
  }
  return {
    kind: "s3",
    bucket: match[1]!,
    prefix,
    endpoint: env.FORAGE_S3_ENDPOINT ?? null,
    region: env.AWS_REGION,
    credentials: env.AWS_ACCESS_KEY_ID ? { accessKeyId: env.AWS_ACCESS_KEY_ID, secretAccessKey: env.AWS_SECRET_ACCESS_KEY! } : null,
  };
}

function bracketIpv6(host: string): string {
  return host.includes(":") && !host.startsWith("[") ? `[${host}]` : host;
}

function parseCidrSetting(name: string, text: string): string[] {
  try {
    return canonicalCidrs(splitCidrList(text));
  } catch (error) {
    if (error instanceof CidrError) throw new ConfigError(`Invalid environment: ${name}: ${error.message}`);
    throw error;
  }
}

/** Proxies are address ranges: the network policy's list syntax, without its ports. */
function parseProxySetting(text: string): string[] {
  const entries = parseCidrSetting("FORAGE_TRUSTED_PROXIES", text);
  const withPort = entries.find((entry) => /\/\d+\]?:/.test(entry));
  if (withPort) throw new ConfigError(`Invalid environment: FORAGE_TRUSTED_PROXIES: ${withPort} names ports; a proxy is an address range (e.g. 127.0.0.1/32)`);
  return entries;
}

function pickEnv(): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const key of Object.keys(envSchema.shape)) {
    const value = process.env[key];
    if (value !== undefined && value !== "") out[key] = value;
  }
  return out;
}

function resolveDatabaseUrl(url: string, cwd: string) {
  if (url.startsWith("postgres://") || url.startsWith("postgresql://")) {
    return { databaseUrl: url, databaseProvider: "postgresql" as const, sqlitePath: null };
  }
  if (url.startsWith("file:")) {
    // Prisma resolves relative SQLite paths against the schema file, the adapter against the
    // process's cwd: an absolute path removes the ambiguity.
    const sqlitePath = path.resolve(cwd, url.slice("file:".length));
    return { databaseUrl: `file:${sqlitePath}`, databaseProvider: "sqlite" as const, sqlitePath };
  }
  throw new ConfigError(
    `Invalid environment: DATABASE_URL must start with "file:" (SQLite) or "postgresql://" (PostgreSQL), got "${url.slice(0, 40)}"`,
  );
}
