/**
 * What the crawl's web archive costs: the same crawl (same seed, same site) with and without
 * `archive.keepWarc`, alternated, each on a fresh SQLite database, the site in another process
 * (`forage demo`) so that only the crawler's CPU is counted (user + system of this process,
 * zlib's thread pool included). Prints CPU ms per request with and without, and the WARC's bytes
 * on disk per request and against the bytes received.
 *
 *   node --import tsx test/bench/warc-cost.ts [--shape statistics-office] [--size small] [--requests 2000] [--runs 2]
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { listCrawlWarcFiles } from "../../lib/archive/warc-index";
import { loadConfig } from "../../lib/config";
import { parseCrawlConfig } from "../../lib/crawl-config";
import { HostPoliteness } from "../../lib/crawler/fetch/host-politeness";
import { runStoredCrawl } from "../../lib/worker/run-stored-crawl";
import { SIM_TARGET_MIME_TYPES } from "../../lib/sitesim";
import { ensureMigrated, openDatabase } from "../../lib/store";
import { insertCrawl } from "../../lib/store/insert-crawl";
import { freePort } from "../helpers/ports";
import { PROJECT_ROOT } from "../helpers/paths";

function arg(name: string, fallback: string): string {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? process.argv[index + 1]! : fallback;
}
const SHAPE = arg("shape", "statistics-office");
const SIZE = arg("size", "small");
const REQUESTS = Number(arg("requests", "2000"));
const RUNS = Number(arg("runs", "2"));
/** "on" or "off": one variant only (for a profiler). */
const ONLY = arg("only", "");

async function startSite(): Promise<{ rootUrl: string; stop: () => void }> {
  const port = await freePort();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["bin/forage.mjs", "demo", "--shape", SHAPE, "--size", SIZE, "--seed", "1", "--port", String(port)], { cwd: PROJECT_ROOT, stdio: ["ignore", "pipe", "pipe"] });
    child.stdout.on("data", (chunk: Buffer) => {
      const match = /\[forage demo\] (http:\/\/\S+)/.exec(chunk.toString());
      if (match) resolve({ rootUrl: match[1]!, stop: () => child.kill("SIGTERM") });
    });
    child.on("exit", (code) => reject(new Error(`demo site exited (${code})`)));
  });
}

async function crawl(rootUrl: string, keepWarc: boolean) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "forage-warc-cost-"));
  try {
    const forage = loadConfig({ DATABASE_URL: `file:${path.join(dir, "bench.db")}`, FORAGE_DATA_DIR: dir });
    await ensureMigrated(forage, { apply: true });
    const db = await openDatabase(forage);
    const config = parseCrawlConfig({
      rootUrl,
      strategy: "sb",
      seed: 1,
      targetMimeTypes: [...SIM_TARGET_MIME_TYPES],
      budget: { requests: REQUESTS },
      politeness: { delayMs: 0 },
      allowPrivateNetwork: true,
      archive: { keepWarc },
    });
    const crawlId = await insertCrawl(db, config);
    const cpu = process.cpuUsage();
    const started = performance.now();
    await runStoredCrawl({ db, forage, crawlId, politeness: new HostPoliteness(), signal: new AbortController().signal });
    const used = process.cpuUsage(cpu);
    const wallMs = performance.now() - started;
    const row = await db.crawl.findUniqueOrThrow({ where: { id: crawlId } });
    await db.$disconnect();
    const warcBytes = (await listCrawlWarcFiles(dir, crawlId)).reduce((sum, f) => sum + f.bytes, 0);
    const packBytes = folderBytes(path.join(dir, "crawls", String(crawlId), "pages"));
    return { requests: row.requestsCount, receivedBytes: Number(row.targetBytes) + Number(row.nonTargetBytes), cpuMs: (used.user + used.system) / 1000, wallMs, warcBytes, packBytes };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Bytes of the files in a folder (0 when it does not exist): the crawl's page packs. */
function folderBytes(folder: string): number {
  if (!fs.existsSync(folder)) return 0;
  return fs.readdirSync(folder).reduce((sum, name) => sum + fs.statSync(path.join(folder, name)).size, 0);
}

const site = await startSite();
try {
  const results: Record<"on" | "off", Awaited<ReturnType<typeof crawl>>[]> = { on: [], off: [] };
  await crawl(site.rootUrl, false); // warm-up: JIT, site caches
  for (let run = 0; run < RUNS; run++) {
    if (ONLY !== "on") results.off.push(await crawl(site.rootUrl, false));
    if (ONLY !== "off") results.on.push(await crawl(site.rootUrl, true));
  }
  if (ONLY) {
    const rows = results[ONLY as "on" | "off"];
    console.log(`${ONLY}: ${rows.map((r) => (r.cpuMs / r.requests).toFixed(3)).join(", ")} ms/request`);
  } else {
    report(results);
  }
} finally {
  site.stop();
}

function report(results: Record<"on" | "off", Awaited<ReturnType<typeof crawl>>[]>): void {
  const mean = (rows: typeof results.on, pick: (r: (typeof results.on)[number]) => number) => rows.reduce((s, r) => s + pick(r), 0) / rows.length;
  const perRequest = (rows: typeof results.on) => mean(rows, (r) => r.cpuMs / r.requests);
  const on = perRequest(results.on);
  const off = perRequest(results.off);
  const warcPerRequest = mean(results.on, (r) => r.warcBytes / r.requests);
  const ratio = mean(results.on, (r) => r.warcBytes / r.receivedBytes);
  // Pages of a crawl with a WARC are read back from it; a crawl without one keeps them in packs.
  const packWithWarc = mean(results.on, (r) => r.packBytes / r.requests);
  const packWithout = mean(results.off, (r) => r.packBytes / r.requests);
  console.log(JSON.stringify({ shape: SHAPE, size: SIZE, requests: mean(results.on, (r) => r.requests), runs: RUNS, results }, null, 1));
  console.log(
    `${SHAPE}/${SIZE}, ${REQUESTS} requests: CPU ${off.toFixed(3)} ms/request without WARC, ${on.toFixed(3)} with (+${(on - off).toFixed(3)} ms); ` +
      `WARC ${Math.round(warcPerRequest)} bytes/request on disk, ${(100 * ratio).toFixed(0)} % of the bytes received; ` +
      `page packs ${Math.round(packWithWarc)} bytes/request with WARC, ${Math.round(packWithout)} without`,
  );
}
