/**
 * WACZ 1.1.1 (https://specs.webrecorder.net/wacz/1.1.1/) of a crawl's web archive, streamed:
 * `archive/*.warc.gz` as written during the crawl, `indexes/index.cdxj` (the files' CDXJ
 * sidecars merged in byte order), `pages/pages.jsonl`, then `datapackage.json` with the
 * `sha256:` hash and size of every resource, each hashed as it passes into the ZIP (every byte
 * read once), and `datapackage-digest.json` last. Every entry is STOREd: readers fetch
 * records by range, which a deflated entry would forbid.
 */
import { createHash } from "node:crypto";
import { PassThrough, Readable } from "node:stream";
import { ZipFile } from "yazl";
import { InvalidStateError } from "../errors";
import type { ForageConfig } from "../config";
import { exportFileName, getExportedCrawl, type Download } from "../export/download";
import type { Db } from "../store/prisma-client";
import { openGrowingObject, readGrowingObject } from "../storage/growing-object";
import { storageFor } from "../storage/storage-for";
import { compareCdxjLines } from "./cdxj";
// Not from the recorder: the API route that streams a WACZ then never loads warcio.
import { FORAGE_SOFTWARE } from "./software";
import { PAGES_HEADER, pagesFromIndex } from "./wacz-pages";
import { listCrawlWarcFiles, readCrawlCdxjLines } from "./warc-index";

export const WACZ_VERSION = "1.1.1";

export interface WaczResource {
  name: string;
  path: string;
  hash: string;
  bytes: number;
}

/**
 * @throws NotFoundError for an unknown crawl, InvalidStateError for a crawl without a web
 * archive: both before any byte is streamed.
 */
export async function streamWaczExport(db: Db, config: ForageConfig, crawlId: number): Promise<Download> {
  const crawl = await getExportedCrawl(db, crawlId);
  // A snapshot: a running crawl's files are read up to their size now, and only records within it are indexed.
  const storage = storageFor(config.dataDir, config.storage);
  const files = (await listCrawlWarcFiles(config.dataDir, crawlId, storage)).filter((f) => f.bytes > 0);
  if (files.length === 0) {
    throw new InvalidStateError(`Crawl ${crawlId} kept no web archive (WARC): it ran with archive.keepWarc off, or before web archives existed`);
  }
  const zip = new ZipFile();
  const output = zip.outputStream as Readable;
  zip.on("error", (error: Error) => output.destroy(error));
  const resources: WaczResource[] = [];
  const mtime = new Date();

  const addStream = (path: string, open: () => Readable): void => {
    zip.addReadStreamLazy(path, { mtime, compress: false }, (callback) => {
      const source = open();
      const hash = createHash("sha256");
      let bytes = 0;
      const tap = new PassThrough();
      tap.on("data", (chunk: Buffer) => {
        hash.update(chunk);
        bytes += chunk.length;
      });
      tap.on("end", () => resources.push({ name: path.split("/").pop()!.toLowerCase(), path, hash: `sha256:${hash.digest("hex")}`, bytes }));
      // yazl does not listen for its sources' errors: a vanished file ends this download.
      source.once("error", (error) => output.destroy(error));
      callback(null, source.pipe(tap));
    });
  };
  const addBuffer = (path: string, make: () => Promise<Buffer>): void => {
    addStream(path, () => {
      const stream = new PassThrough();
      make().then((buffer) => stream.end(buffer), (error: unknown) => stream.destroy(error instanceof Error ? error : new Error(String(error))));
      return stream;
    });
  };

  // Read from the storage up to each file's size at the start: the snapshot the index lines fit.
  const openStored = (key: string, bytes: number): Readable => {
    const stream = new PassThrough();
    openGrowingObject(storage, key, { offset: 0, length: bytes }).then(
      (source) => {
        source.once("error", (error) => stream.destroy(error));
        source.pipe(stream);
      },
      (error: unknown) => stream.destroy(error instanceof Error ? error : new Error(String(error))),
    );
    return stream;
  };
  for (const file of files) addStream(`archive/${file.name}`, () => openStored(file.key, file.bytes));
  const lines = (await readCrawlCdxjLines(config.dataDir, crawlId, files, storage)).sort(compareCdxjLines);
  addBuffer("indexes/index.cdxj", async () => Buffer.from(lines.map((l) => `${l}\n`).join("")));
  const byName = new Map(files.map((f) => [f.name, f.key]));
  let mainPage: { url: string; ts: string } | null = null;
  addBuffer("pages/pages.jsonl", async () => {
    const pages = await pagesFromIndex(lines, async (name, offset, length) => {
      const key = byName.get(name);
      return key === undefined ? null : readGrowingObject(storage, key, { offset, length });
    });
    mainPage = pages.find((p) => p.url === crawl.rootUrl) ?? pages[0] ?? null;
    return Buffer.from([PAGES_HEADER, ...pages].map((p) => `${JSON.stringify(p)}\n`).join(""));
  });
  let datapackageHash = "";
  zip.addReadStreamLazy("datapackage.json", { mtime, compress: false }, (callback) => {
    const now = new Date().toISOString();
    const datapackage = {
      profile: "data-package",
      wacz_version: WACZ_VERSION,
      title: crawl.name ?? `Crawl ${crawl.id} of ${crawl.rootUrl}`,
      software: FORAGE_SOFTWARE,
      created: now,
      modified: now,
      ...(mainPage ? { mainPageUrl: mainPage.url, mainPageDate: mainPage.ts } : {}),
      resources: [...resources],
    };
    const body = Buffer.from(JSON.stringify(datapackage, null, 2));
    datapackageHash = `sha256:${createHash("sha256").update(body).digest("hex")}`;
    callback(null, Readable.from([body]));
  });
  zip.addReadStreamLazy("datapackage-digest.json", { mtime, compress: false }, (callback) => {
    callback(null, Readable.from([Buffer.from(JSON.stringify({ path: "datapackage.json", hash: datapackageHash }, null, 2))]));
  });
  zip.end();
  return {
    stream: Readable.toWeb(output) as ReadableStream<Uint8Array>,
    fileName: exportFileName(crawl, ".wacz"),
    contentType: "application/wacz",
  };
}
