/**
 * Serves one simulated site until interrupted:
 *   node --import tsx lib/sitesim/serve-main.ts --shape statistics-office --seed 1 --size small --port 3100
 * Options: --shape (default statistics-office), --seed (default 1), --size tiny|small|medium|large|<url count>
 * (default small), --port (default 3100, 0 = any), --host (default 127.0.0.1), --delay-ms (default 0), --gzip,
 * --variant (application shapes only: SITE_VARIANTS, e.g. --shape ckan-portal --variant sub-path).
 * Prints the root URL and a one-paragraph description; bad arguments exit with code 2.
 */
import { describeSite } from "./describe";
import { startSiteServer } from "./server";
import { buildSite } from "./site";
import { isScriptedShape, SCRIPTED_SHAPES } from "./scripted/model";
import { checkVariant, SITE_SHAPES } from "./shapes/registry";
import { SITE_SIZES } from "./sizes";
import type { ScriptedShape, SiteShape, SiteSize } from "./types";

interface Args {
  shape: SiteShape | ScriptedShape;
  seed: number;
  size: SiteSize;
  port: number;
  host: string;
  delayMs: number;
  gzip: boolean;
  variant?: string;
}

class UsageError extends Error {}

function intArg(name: string, v: string, min: number, max: number): number {
  if (!/^-?[0-9]+$/.test(v) || Number(v) < min || Number(v) > max) throw new UsageError(`--${name} must be an integer in ${min}..${max}, got "${v}"`);
  return Number(v);
}

export function parseArgs(argv: readonly string[]): Args {
  const a: Args = { shape: "statistics-office", seed: 1, size: "small", port: 3100, host: "127.0.0.1", delayMs: 0, gzip: false };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i]!;
    if (flag === "--gzip") {
      a.gzip = true;
      continue;
    }
    const eq = flag.indexOf("=");
    const name = eq >= 0 ? flag.slice(0, eq) : flag;
    const value = eq >= 0 ? flag.slice(eq + 1) : argv[++i];
    if (value === undefined) throw new UsageError(`${name} needs a value`);
    switch (name) {
      case "--shape":
        if (!(value in SITE_SHAPES) && !isScriptedShape(value)) {
          throw new UsageError(`--shape must be one of ${[...Object.keys(SITE_SHAPES), ...Object.keys(SCRIPTED_SHAPES)].join(", ")}, got "${value}"`);
        }
        a.shape = value as SiteShape | ScriptedShape;
        break;
      case "--seed":
        a.seed = intArg("seed", value, -(2 ** 31), 2 ** 32 - 1);
        break;
      case "--size":
        if (value in SITE_SIZES) a.size = value as SiteSize;
        else if (/^[0-9]+$/.test(value)) a.size = intArg("size", value, 100, 200_000);
        else throw new UsageError(`--size must be tiny, small, medium, large or a URL count (100..200000), got "${value}"`);
        break;
      case "--port":
        a.port = intArg("port", value, 0, 65535);
        break;
      case "--host":
        a.host = value;
        break;
      case "--variant":
        a.variant = value;
        break;
      case "--delay-ms":
        a.delayMs = intArg("delay-ms", value, 0, 60_000);
        break;
      default:
        throw new UsageError(`unknown option "${name}" (--shape, --seed, --size, --variant, --port, --host, --delay-ms, --gzip)`);
    }
  }
  try {
    checkVariant(a.shape, a.variant);
  } catch (err) {
    throw new UsageError(`--variant: ${(err as Error).message}`);
  }
  return a;
}

async function main(): Promise<void> {
  let args: Args;
  try {
    args = parseArgs(process.argv.slice(2));
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    process.stderr.write(`sitesim: ${err.message}\n`);
    process.exit(2);
  }
  const site = buildSite({ shape: args.shape, seed: args.seed, size: args.size, ...(args.variant ? { variant: args.variant } : {}) });
  let running;
  try {
    running = await startSiteServer(site, { port: args.port, host: args.host, delayMs: args.delayMs, gzip: args.gzip });
  } catch (err) {
    process.stderr.write(`sitesim: cannot listen on ${args.host}:${args.port}: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  }
  process.stdout.write(`Simulated site ready at ${running.rootUrl}\n${describeSite(site)}\n`);
  const stop = () => {
    void running.close().then(() => process.exit(0));
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}

const isMain = process.argv[1] !== undefined && import.meta.url === new URL(`file://${process.argv[1]}`).href;
if (isMain) void main();
