/**
 * Does a sign-in flood starve the dashboard? File-download latency of a signed-in user, with no
 * flood and then while one client floods `POST /api/auth/sign-in` (unknown emails: each one an
 * Argon2 hash unless held) on 64 connections.
 *
 *   node --import tsx test/bench/sign-in-flood.ts [--downloads 200] [--connections 64] [--server dashboard|next-start]
 *
 * Fills a fresh SQLite database with a finished crawl of 20 target files (100 KiB each) and an
 * admin with an API token, starts the built app (`--server dashboard`: scripts/dashboard.mjs, as
 * `npm start` runs it; `next-start`: plain `next start`, to see what the server's hold is worth),
 * and downloads the files one after another. All traffic stays on 127.0.0.1; each phase ends
 * after `--downloads` downloads or 60 s. Prints p50 / p95 / max per phase and the flood's answers.
 */
import Database from "better-sqlite3";
import crypto from "node:crypto";
import { setMaxListeners } from "node:events";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Agent, request } from "undici";
import { loadConfig } from "../../lib/config";
import { openDatabase } from "../../lib/store";
import { applyMigrations } from "../../lib/store/migrations";
import { freePort } from "../helpers/ports";
import { startNodeProcess, waitForHttp } from "../helpers/processes";
import { createTestAccount } from "../helpers/test-accounts";

function arg(name: string, fallback: string): string {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 && process.argv[index + 1] !== undefined ? process.argv[index + 1]! : fallback;
}

const DOWNLOADS = Number(arg("downloads", "200"));
const CONNECTIONS = Number(arg("connections", "64"));
const SERVER = arg("server", "dashboard");
const PHASE_LIMIT_MS = 60_000;
const FILES = 20;
const FILE_BYTES = 100 * 1024;

if (!["dashboard", "next-start"].includes(SERVER)) throw new Error(`--server must be dashboard or next-start, not ${SERVER}`);
if (!Number.isInteger(DOWNLOADS) || DOWNLOADS < 10) throw new Error("--downloads must be an integer of at least 10");
if (!Number.isInteger(CONNECTIONS) || CONNECTIONS < 1 || CONNECTIONS > 512) throw new Error("--connections must be an integer from 1 to 512");

/** A finished crawl whose targets are real files in the data folder; returns their download paths. */
function fillCrawl(sqlitePath: string, dataDir: string): string[] {
  const db = new Database(sqlitePath);
  const now = new Date().toISOString().replace("Z", "+00:00");
  const crawlId = Number(
    db
      .prepare(
        `INSERT INTO "Crawl" ("rootUrl","config","strategy","seed","status","createdAt","updatedAt","startedAt","requestsCount","targetsCount","targetBytes","nonTargetBytes","activeMs","frontierSize","groupsCount")
         VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)`,
      )
      .run("http://stats.example.org/", JSON.stringify({ rootUrl: "http://stats.example.org/" }), "sb", 1, "finished", now, now, now, FILES, FILES, FILES * FILE_BYTES, 0, 1000, 0, 1).lastInsertRowid,
  );
  const insert = db.prepare(
    `INSERT INTO "Target" ("crawlId","url","mime","bytes","sha256","storagePath","sourceUrl","tagPath","groupId","requestSeq","fetchedAt") VALUES (?,?,?,?,?,?,?,?,?,?,?)`,
  );
  const folder = path.join(dataDir, "crawls", String(crawlId), "files");
  fs.mkdirSync(folder, { recursive: true });
  const paths: string[] = [];
  for (let i = 1; i <= FILES; i++) {
    const body = crypto.randomBytes(FILE_BYTES);
    const sha256 = crypto.createHash("sha256").update(body).digest("hex");
    fs.writeFileSync(path.join(folder, sha256), body);
    const id = Number(insert.run(crawlId, `http://stats.example.org/files/${i}.csv`, "text/csv", FILE_BYTES, sha256, `crawls/${crawlId}/files/${sha256}`, "http://stats.example.org/", "/html/body/a", 0, i, now).lastInsertRowid);
    paths.push(`/api/crawls/${crawlId}/targets/${id}/file`);
  }
  db.close();
  return paths;
}

interface Phase {
  name: string;
  latencies: number[];
  floodAnswers: Map<string, number>;
  seconds: number;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(sorted.length * p) - 1))]!;
}

async function downloads(base: string, token: string, files: string[], agent: Agent): Promise<number[]> {
  const latencies: number[] = [];
  const deadline = Date.now() + PHASE_LIMIT_MS;
  for (let i = 0; i < DOWNLOADS && Date.now() < deadline; i++) {
    const started = performance.now();
    const response = await request(base + files[i % files.length]!, { headers: { authorization: `Bearer ${token}` }, dispatcher: agent });
    const body = Buffer.from(await response.body.arrayBuffer());
    if (response.statusCode !== 200 || body.length !== FILE_BYTES) throw new Error(`download answered ${response.statusCode} with ${body.length} bytes`);
    latencies.push(performance.now() - started);
  }
  return latencies;
}

/** 64 connections sending sign-ins for unknown emails as fast as answers come, until stopped. */
function startFlood(base: string): { stop(): Promise<Map<string, number>> } {
  const agent = new Agent({ connections: CONNECTIONS, pipelining: 0 });
  const stop = new AbortController();
  setMaxListeners(CONNECTIONS + 10, stop.signal); // one listener per connection's request
  const answers = new Map<string, number>();
  const count = (key: string) => answers.set(key, (answers.get(key) ?? 0) + 1);
  const loop = async (n: number) => {
    for (let i = 0; !stop.signal.aborted; i++) {
      try {
        const response = await request(`${base}/api/auth/sign-in`, {
          method: "POST",
          headers: { "content-type": "application/json", origin: base },
          body: JSON.stringify({ email: `nobody-${n}-${i}@example.org`, password: "a wrong password" }),
          dispatcher: agent,
          signal: stop.signal,
        });
        await response.body.dump();
        count(String(response.statusCode));
      } catch {
        if (!stop.signal.aborted) count("closed");
      }
    }
  };
  const loops = Array.from({ length: CONNECTIONS }, (_, n) => loop(n));
  return {
    async stop() {
      stop.abort();
      await Promise.all(loops);
      await agent.close();
      return answers;
    },
  };
}

async function main(): Promise<void> {
  if (!fs.existsSync(path.resolve(".next/BUILD_ID"))) throw new Error("No Next.js build: run `npx next build` first");
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "forage-sign-in-flood-"));
  const sqlitePath = path.join(dir, "forage.db");
  const config = loadConfig({ DATABASE_URL: `file:${sqlitePath}`, FORAGE_DATA_DIR: dir });
  await applyMigrations(config);
  const files = fillCrawl(sqlitePath, dir);
  const db = await openDatabase(config);
  const { token } = await createTestAccount(db);
  await db.$disconnect();

  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const command = SERVER === "dashboard" ? ["scripts/dashboard.mjs"] : ["node_modules/next/dist/bin/next", "start", "-H", "127.0.0.1", "-p", String(port)];
  const server = startNodeProcess(command, { DATABASE_URL: config.databaseUrl, FORAGE_DATA_DIR: dir, FORAGE_HOST: "127.0.0.1", FORAGE_PORT: String(port), FORAGE_PUBLIC_URL: base });
  const user = new Agent({ connections: 1 });
  const phases: Phase[] = [];
  try {
    await waitForHttp(`${base}/sign-in`, server);
    await downloads(base, token, files, user); // warm-up: first compile of the routes, the OS's file cache
    let started = performance.now();
    phases.push({ name: "no flood", latencies: await downloads(base, token, files, user), floodAnswers: new Map(), seconds: (performance.now() - started) / 1000 });
    const flood = startFlood(base);
    await new Promise((resolve) => setTimeout(resolve, 1000)); // the flood at full strength before measuring
    started = performance.now();
    const latencies = await downloads(base, token, files, user);
    const seconds = (performance.now() - started) / 1000;
    phases.push({ name: `${CONNECTIONS}-connection sign-in flood`, latencies, floodAnswers: await flood.stop(), seconds });
  } finally {
    await user.close();
    await server.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }

  console.log(`sign-in flood bench: server ${SERVER}, ${DOWNLOADS} downloads of ${FILE_BYTES / 1024} KiB per phase, one at a time`);
  const rows = phases.map((phase) => {
    const sorted = [...phase.latencies].sort((a, b) => a - b);
    const answers = [...phase.floodAnswers].map(([status, n]) => `${status}: ${(n / phase.seconds).toFixed(0)}/s`).join(", ") || "–";
    return `| ${phase.name} | ${sorted.length} | ${percentile(sorted, 0.5).toFixed(1)} | ${percentile(sorted, 0.95).toFixed(1)} | ${sorted.at(-1)!.toFixed(1)} | ${answers} |`;
  });
  console.log(["| phase | downloads | p50 ms | p95 ms | max ms | flood answers |", "|---|---|---|---|---|---|", ...rows].join("\n"));
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
