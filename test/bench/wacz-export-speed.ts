/**
 * WACZ export speed: a crawl archive of N exchanges (written through the crawl's recorder:
 * HTML pages with titles and CSV files, ≈ 20–30 KB each, distinct payloads) exported with
 * `streamWaczExport` to a file. Prints the archive's size, the time to write it during the
 * "crawl", and the export's time and throughput.
 *
 *   node --import tsx test/bench/wacz-export-speed.ts [--requests 25000]
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import { openCrawlWarcRecorder } from "../../lib/archive/crawl-warc-recorder";
import { streamWaczExport } from "../../lib/archive/wacz-export";
import { loadConfig } from "../../lib/config";
import { parseCrawlConfig } from "../../lib/crawl-config";
import { ensureMigrated, openDatabase } from "../../lib/store";
import { insertCrawl } from "../../lib/store/insert-crawl";

const index = process.argv.indexOf("--requests");
const REQUESTS = index >= 0 ? Number(process.argv[index + 1]) : 25_000;

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "forage-wacz-speed-"));
try {
  const forage = loadConfig({ DATABASE_URL: `file:${path.join(dir, "bench.db")}`, FORAGE_DATA_DIR: dir });
  await ensureMigrated(forage, { apply: true });
  const db = await openDatabase(forage);
  const config = parseCrawlConfig({ rootUrl: "http://stats.example.org/", seed: 1 });
  const crawlId = await insertCrawl(db, config);
  const recorder = openCrawlWarcRecorder(dir, crawlId, config)!;
  const written = performance.now();
  for (let i = 0; i < REQUESTS; i++) {
    const html = i % 5 < 3;
    const url = html ? `http://stats.example.org/page/${i}` : `http://stats.example.org/files/${i}.csv`;
    const body = html
      ? Buffer.from(`<html><head><title>Page ${i}</title></head><body>${`<p>paragraph ${i} <a href="/page/${i + 1}">next</a></p>`.repeat(400)}</body></html>`)
      : Buffer.from(Array.from({ length: 1500 }, (_, row) => `${i},${row},${(row * 7919) % 1000}\n`).join(""));
    const recording = recorder.open({
      method: "GET",
      url,
      requestHeaders: [["host", "stats.example.org"], ["user-agent", "Forage/0.1"]],
      requestedAt: new Date(),
      httpVersion: "HTTP/1.1",
      status: 200,
      statusText: "OK",
      responseHeaders: [["Content-Type", html ? "text/html; charset=utf-8" : "text/csv"], ["Content-Length", String(body.length)]],
      facts: { kind: html ? "page" : "target", tagPath: "/html/body/ul/li/a", depth: 2, referrer: "http://stats.example.org/" },
    });
    recording.chunk(body);
    recording.end({ truncated: null });
    await recorder.room();
  }
  await recorder.close();
  const writeMs = performance.now() - written;
  const warcBytes = recorder.writer.bytes;

  const file = path.join(dir, "out.wacz");
  const started = performance.now();
  const download = await streamWaczExport(db, forage, crawlId);
  await pipeline(Readable.fromWeb(download.stream as NodeReadableStream<Uint8Array>), fs.createWriteStream(file));
  const exportMs = performance.now() - started;
  const waczBytes = fs.statSync(file).size;
  await db.$disconnect();
  console.log(
    `${REQUESTS} exchanges: WARC ${(warcBytes / 1e6).toFixed(1)} MB written in ${(writeMs / 1000).toFixed(1)} s (${(writeMs / REQUESTS).toFixed(3)} ms each); ` +
      `WACZ ${(waczBytes / 1e6).toFixed(1)} MB exported in ${(exportMs / 1000).toFixed(1)} s (${(waczBytes / 1e6 / (exportMs / 1000)).toFixed(0)} MB/s)`,
  );
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
