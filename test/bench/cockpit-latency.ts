/**
 * Cockpit latency on a long crawl: is the dashboard still fast at 100k+ requests?
 *
 *   npm run bench:cockpit --  [--requests 100000] [--runs 20]
 *
 * Fills a fresh SQLite database (migrated like every Forage database) with one crawl of N
 * request rows, a metric point every 10 requests, targets, tag-path groups and events — the
 * shape a real crawl leaves — starts the built dashboard (`next start`, as `npm start` does) on
 * it, and times each page and API call the cockpit makes: first load of the pages, and the
 * calls a live cockpit repeats every second. Prints median and p95 per call.
 */
import Database from "better-sqlite3";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { loadConfig } from "../../lib/config";
import { applyMigrations } from "../../lib/store/migrations";
import { freePort } from "../helpers/ports";
import { startNodeProcess, waitForHttp } from "../helpers/processes";

function arg(name: string, fallback: number): number {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? Number(process.argv[index + 1]) : fallback;
}

const REQUESTS = arg("requests", 100_000);
const RUNS = arg("runs", 20);
const iso = (ms: number) => new Date(ms).toISOString().replace("Z", "+00:00");

function fill(sqlitePath: string): number {
  const db = new Database(sqlitePath);
  const start = Date.now() - REQUESTS * 10;
  const crawlId = Number(
    db
      .prepare(
        `INSERT INTO "Crawl" ("rootUrl","config","strategy","seed","status","createdAt","updatedAt","startedAt","requestsCount","targetsCount","targetBytes","nonTargetBytes","activeMs","frontierSize","groupsCount")
         VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)`,
      )
      .run("http://stats.example.org/", JSON.stringify({ rootUrl: "http://stats.example.org/" }), "sb", 1, "running", iso(start), iso(Date.now()), iso(start), REQUESTS, REQUESTS / 4, REQUESTS * 20_000, REQUESTS * 8_000, REQUESTS * 10, 50_000, 800).lastInsertRowid,
  );
  const request = db.prepare(
    `INSERT INTO "CrawlRequest" ("crawlId","seq","kind","method","url","status","mime","bytes","durationMs","tagPath","groupId","depth","referrer","isTarget","outcome","startedAt") VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)`,
  );
  const target = db.prepare(
    `INSERT INTO "Target" ("crawlId","url","mime","bytes","sha256","storagePath","sourceUrl","tagPath","groupId","requestSeq","fetchedAt") VALUES (?,?,?,?,?,?,?,?,?,?,?)`,
  );
  const metric = db.prepare(
    `INSERT INTO "MetricPoint" ("crawlId","requests","targets","targetBytes","nonTargetBytes","frontierSize","slope","ema","patience","activeMs","at") VALUES (?,?,?,?,?,?,?,?,?,?,?)`,
  );
  const group = db.prepare(
    `INSERT INTO "TagPathGroup" ("crawlId","groupId","sampleTagPath","members","available","selections","meanReward","totalReward","updatedAt") VALUES (?,?,?,?,?,?,?,?,?)`,
  );
  const event = db.prepare(`INSERT INTO "CrawlEvent" ("crawlId","at","level","kind","message") VALUES (?,?,?,?,?)`);
  db.transaction(() => {
    for (let seq = 1; seq <= REQUESTS; seq++) {
      const isTarget = seq % 4 === 0;
      const url = `http://stats.example.org/${isTarget ? "files" : "publications"}/${seq}${isTarget ? ".csv" : ""}`;
      request.run(crawlId, seq, isTarget ? "target" : "page", "GET", url, 200, isTarget ? "text/csv" : "text/html", 20_000, 12, `/html/body/div.page/main#content/ul.list/li/a.g${seq % 800}`, seq % 800, 3, "http://stats.example.org/", isTarget ? 1 : 0, "ok", iso(start + seq * 10));
      if (isTarget) target.run(crawlId, url, "text/csv", 20_000, seq.toString(16).padStart(64, "0"), `crawls/${crawlId}/files/x`, "http://stats.example.org/", "/html/body/a", seq % 800, seq, iso(start + seq * 10));
      if (seq % 10 === 0) {
        const window = seq % 500 === 0;
        metric.run(crawlId, seq, seq / 4, seq * 5_000, seq * 8_000, 50_000, window ? 0.25 : null, window ? 0.25 : null, window ? 0 : null, seq * 10, iso(start + seq * 10));
      }
    }
    for (let g = 0; g < 800; g++) group.run(crawlId, g, `/html/body/div.page/main#content/ul.list/li/a.g${g}`, 100 + g, g % 7, 50 + g, (g % 13) / 5, g * 3, iso(Date.now()));
    for (let e = 0; e < 2_000; e++) event.run(crawlId, iso(start + e * 1000), "info", "note", `event ${e}`);
  })();
  db.close();
  return crawlId;
}

async function time(url: string): Promise<number> {
  const started = performance.now();
  const response = await fetch(url);
  await response.arrayBuffer();
  if (!response.ok) throw new Error(`${url} answered ${response.status}`);
  return performance.now() - started;
}

function stats(samples: number[]): { median: number; p95: number } {
  const sorted = [...samples].sort((a, b) => a - b);
  return { median: sorted[Math.floor(sorted.length / 2)]!, p95: sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.95) - 1)]! };
}

async function main(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "forage-latency-"));
  const sqlitePath = path.join(dir, "forage.db");
  const config = loadConfig({ DATABASE_URL: `file:${sqlitePath}`, FORAGE_DATA_DIR: dir });
  await applyMigrations(config);
  const fillStarted = performance.now();
  const crawlId = fill(sqlitePath);
  console.log(`cockpit latency: crawl ${crawlId} with ${REQUESTS.toLocaleString("en")} requests (filled in ${((performance.now() - fillStarted) / 1000).toFixed(1)} s), ${RUNS} runs per call`);
  const port = await freePort();
  const server = startNodeProcess(["node_modules/next/dist/bin/next", "start", "-H", "127.0.0.1", "-p", String(port)], {
    DATABASE_URL: config.databaseUrl,
    FORAGE_DATA_DIR: dir,
  });
  const base = `http://127.0.0.1:${port}`;
  try {
    await waitForHttp(`${base}/api/crawls`, server);
    const calls: [string, string][] = [
      ["page: crawls list", "/"],
      ["page: cockpit", `/crawls/${crawlId}`],
      ["api: crawl detail (every 1 s)", `/api/crawls/${crawlId}`],
      ["api: metrics, all (first load)", `/api/crawls/${crawlId}/metrics?maxPoints=2000`],
      ["api: metrics, after (every 1 s)", `/api/crawls/${crawlId}/metrics?after=${REQUESTS - 20}`],
      ["api: groups top 50 (every 1 s)", `/api/crawls/${crawlId}/groups?limit=50`],
      ["api: early stop (every 1 s)", `/api/crawls/${crawlId}/early-stop`],
      ["api: targets by MIME (every 1 s)", `/api/crawls/${crawlId}/targets/by-mime`],
      ["api: targets page (every 1 s)", `/api/crawls/${crawlId}/targets?limit=100`],
      ["api: requests page (every 1 s)", `/api/crawls/${crawlId}/requests?limit=100`],
      ["api: events page", `/api/crawls/${crawlId}/events?limit=100`],
    ];
    for (const [, url] of calls) await time(base + url); // warm-up: first compile/render of each route
    const rows: string[] = [];
    for (const [name, url] of calls) {
      const samples: number[] = [];
      for (let i = 0; i < RUNS; i++) samples.push(await time(base + url));
      const { median, p95 } = stats(samples);
      rows.push(`| ${name} | ${median.toFixed(1)} | ${p95.toFixed(1)} |`);
    }
    console.log(["| call | median ms | p95 ms |", "|---|---|---|", ...rows].join("\n"));
  } finally {
    await server.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
