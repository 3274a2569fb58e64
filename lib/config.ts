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
  /** A stable name for this worker process in leases (defaults to hostname:pid). */
  FORAGE_WORKER_ID: z.string().trim().min(1).optional(),
  /**
   * How long a worker's claim on a crawl stays valid without a heartbeat (renewed at half of
   * it); after that another worker resumes the crawl from its checkpoint. @default 30000
   */
  FORAGE_WORKER_LEASE_MS: z.coerce.number().int().min(500).max(3_600_000).default(30_000),
  /**
   * Non-public networks crawls may reach, as comma-separated CIDRs (`10.0.0.0/8,fd00::/8`; a bare
   * address is one host). Added to the list an admin saves in Settings → Network. Public
   * addresses are always reachable, cloud-metadata addresses never. `npm start` adds the demo
   * site's address. @default "" (none)
   */
  FORAGE_PRIVATE_NETWORKS: z.string().optional(),
});

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
  /** FORAGE_PRIVATE_NETWORKS as canonical CIDRs ("10.0.0.0/8"). */
  privateNetworks: string[];
}

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
    workerLeaseMs: env.FORAGE_WORKER_LEASE_MS,
    privateNetworks: parsePrivateNetworks(env.FORAGE_PRIVATE_NETWORKS ?? ""),
  };
}

function bracketIpv6(host: string): string {
  return host.includes(":") && !host.startsWith("[") ? `[${host}]` : host;
}

function parsePrivateNetworks(text: string): string[] {
  try {
    return canonicalCidrs(splitCidrList(text));
  } catch (error) {
    if (error instanceof CidrError) throw new ConfigError(`Invalid environment: FORAGE_PRIVATE_NETWORKS: ${error.message}`);
    throw error;
  }
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
