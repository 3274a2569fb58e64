import type { ForageConfig } from "../config";
import type { Db } from "../store/prisma-client";
import { csvLine } from "./csv";
import { batched, exportFileName, getExportedCrawl, type Download, type ExportedCrawl } from "./download";
import { MANIFEST_COLUMNS, manifestCells, manifestEntries, type ManifestEntry } from "./manifest-entries";
import { textStream } from "./web-stream";

/** The manifest as CSV text pieces: a header line, then one line per target. */
export async function* manifestCsvChunks(entries: AsyncIterable<ManifestEntry>): AsyncGenerator<string> {
  yield csvLine(MANIFEST_COLUMNS);
  for await (const entry of entries) yield csvLine(manifestCells(entry));
}

/**
 * The manifest as JSON text pieces: `{ crawl, generatedAt, columns, targets: [...] }`, each
 * target an object with the manifest's columns, written as it is read.
 */
export async function* manifestJsonChunks(crawl: ExportedCrawl, entries: AsyncIterable<ManifestEntry>): AsyncGenerator<string> {
  const head = { crawl, generatedAt: new Date().toISOString(), columns: MANIFEST_COLUMNS };
  yield `${JSON.stringify(head).slice(0, -1)},"targets":[`;
  let first = true;
  for await (const entry of entries) {
    const row = Object.fromEntries(MANIFEST_COLUMNS.map((column) => [column, entry[column]]));
    yield `${first ? "\n" : ",\n"}${JSON.stringify(row)}`;
    first = false;
  }
  yield "\n]}\n";
}

/**
 * `manifest.csv` alone, streamed; `file` names the file as the ZIP export names it.
 * @throws NotFoundError when the crawl does not exist.
 */
export async function streamManifestCsv(db: Db, config: ForageConfig, crawlId: number): Promise<Download> {
  const crawl = await getExportedCrawl(db, crawlId);
  return {
    stream: textStream(batched(manifestCsvChunks(manifestEntries(db, config, crawlId)))),
    fileName: exportFileName(crawl, "-manifest.csv"),
    contentType: "text/csv; charset=utf-8; header=present",
  };
}

/**
 * `manifest.json` alone, streamed.
 * @throws NotFoundError when the crawl does not exist.
 */
export async function streamManifestJson(db: Db, config: ForageConfig, crawlId: number): Promise<Download> {
  const crawl = await getExportedCrawl(db, crawlId);
  return {
    stream: textStream(batched(manifestJsonChunks(crawl, manifestEntries(db, config, crawlId)))),
    fileName: exportFileName(crawl, "-manifest.json"),
    contentType: "application/json; charset=utf-8",
  };
}
