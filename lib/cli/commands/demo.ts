import { loadConfig } from "../../config";
import { buildSite, describeSite, SITE_SHAPES, SITE_SIZES, startSiteServer, type SiteShape, type SiteSize } from "../../sitesim";
import { CliUsageError } from "../cli-error";
import { parseIntegerOption, parseOptions } from "../parse-options";

export const demoHelp =
  "forage demo [--shape S] [--size tiny|small|medium|large|N] [--seed N] [--port N] [--delay-ms N]\n" +
  "             serve a simulated website (the demo site; benchmarks and tests use the same simulator)";

/** Parses the site options shared by `demo` and `bench`. */
export function parseSiteOptions(values: { shape?: string; size?: string; seed?: string }): { shape: SiteShape; size: SiteSize; seed: number } {
  const shape = values.shape ?? "statistics-office";
  if (!(shape in SITE_SHAPES)) throw new CliUsageError(`--shape must be one of ${Object.keys(SITE_SHAPES).join(", ")}, got "${shape}"`);
  const rawSize = values.size ?? "small";
  let size: SiteSize;
  if (rawSize in SITE_SIZES) size = rawSize as SiteSize;
  else size = parseIntegerOption("size", rawSize, { min: 100, max: 200_000 })!;
  const seed = parseIntegerOption("seed", values.seed, { min: 0, max: 2 ** 31 - 1 }) ?? 1;
  return { shape: shape as SiteShape, size, seed };
}

/** `forage demo`: the built-in demo website, on FORAGE_DEMO_PORT by default. */
export async function demoCommand(argv: string[]): Promise<number> {
  const { values } = parseOptions(argv, {
    shape: { type: "string" },
    size: { type: "string" },
    seed: { type: "string" },
    port: { type: "string" },
    "delay-ms": { type: "string" },
  });
  const forage = loadConfig();
  const spec = parseSiteOptions(values);
  const port = parseIntegerOption("port", values.port, { min: 0, max: 65535 }) ?? forage.demoPort;
  const delayMs = parseIntegerOption("delay-ms", values["delay-ms"], { min: 0, max: 60_000 }) ?? 0;
  const site = buildSite(spec);
  let running;
  try {
    running = await startSiteServer(site, { port, host: forage.host, delayMs });
  } catch (error) {
    throw new Error(`cannot listen on ${forage.host}:${port}: ${error instanceof Error ? error.message : String(error)}`);
  }
  console.log(`[forage demo] ${running.rootUrl}\n[forage demo] ${describeSite(site)}`);
  await new Promise<void>((resolve) => {
    process.once("SIGINT", resolve);
    process.once("SIGTERM", resolve);
  });
  await running.close();
  return 0;
}
