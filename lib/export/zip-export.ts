import { Readable } from "node:stream";
import { ZipFile } from "yazl";
import type { ForageConfig } from "../config";
import { InvalidStateError } from "../errors";
import type { Db } from "../store/prisma-client";
import { readChangeReport, type FileChange } from "../store/recrawl-store";
import { batched, exportFileName, getExportedCrawl, type Download } from "./download";
import { manifestCsvChunks, manifestJsonChunks } from "./manifest";
import { changeHistory, manifestEntries, MISSING_NOTE } from "./manifest-entries";
import { isCompressedFormat } from "./mime-extensions";
import { openStoredFile } from "./stored-file";

/**
 * Entries queued in yazl ahead of the one being written. yazl keeps every entry's metadata
 * for the central directory anyway; this bounds the *pending* ones (and the database pages
 * read ahead) so a 100k-target export reads the database at the pace the client downloads.
 */
const READ_AHEAD_ENTRIES = 200;

/**
 * The crawl's targets as a streamed ZIP: every file under `files/` (names from
 * `manifestEntries`), then `manifest.csv` and `manifest.json`. Nothing is built in memory:
 * yazl opens each file lazily (from the storage: folder or bucket) when it reaches it, the client's read pace drives the file reads
 * (pipe back-pressure), and targets come from the database a page at a time.
 *
 * Three passes over the targets (files, then each manifest), all bounded by the highest target
 * id at the start, and the manifests reuse what the first pass found missing: the archive is
 * one consistent snapshot even while the crawl runs. A file that vanishes between its check
 * and its read makes the download fail (truncated archive) rather than lie in the manifest.
 *
 * `changes` keeps the targets whose change since the previous run is one of them ("new and
 * changed files"), in the files and both manifests alike.
 * @throws NotFoundError when the crawl does not exist (before any byte is sent); InvalidStateError
 *   (409) for `changes` on a crawl without a change report (not finished yet).
 */
export async function streamZipExport(db: Db, config: ForageConfig, crawlId: number, { changes }: { changes?: ReadonlySet<FileChange> } = {}): Promise<Download> {
  const crawl = await getExportedCrawl(db, crawlId);
  if (changes && !(await readChangeReport(config.dataDir, crawlId))) {
    throw new InvalidStateError(`Crawl ${crawlId} has no change report yet (it is written when the crawl finishes): download all its files instead`);
  }
  const history = await changeHistory(config, crawlId);
  const upToId = (await db.target.aggregate({ where: { crawlId }, _max: { id: true } }))._max.id ?? 0;
  const zip = new ZipFile();
  const output = zip.outputStream as Readable;
  const closed = new Promise<void>((resolve) => output.once("close", resolve));
  let reading: Readable | null = null;
  output.once("close", () => reading?.destroy());
  zip.on("error", (error: Error) => output.destroy(error));

  const fill = async () => {
    const missing = new Set<number>();
    let queued = 0;
    for await (const entry of manifestEntries(db, config, crawlId, { upToId, history, changes })) {
      if (output.destroyed) return; // the client went away
      if (entry.note === MISSING_NOTE) missing.add(entry.targetId);
      const sourceKey = entry.sourceKey;
      if (!sourceKey) continue;
      const started = new Promise<void>((resolve) => {
        zip.addReadStreamLazy(
          entry.file,
          { mtime: new Date(entry.fetchedAt), compress: !isCompressedFormat(entry.mime) },
          (callback) => {
            resolve();
            openStoredFile(config, sourceKey).then(
              (source) => {
                reading = source;
                // yazl does not listen for its sources' errors: a file removed while the archive is
                // being written (a cancel, a delete) must end this download, not crash the server.
                source.once("error", (error) => output.destroy(error));
                callback(null, source);
              },
              (error: unknown) => output.destroy(error instanceof Error ? error : new Error(String(error))),
            );
          },
        );
      });
      // Every READ_AHEAD_ENTRIES entries, wait until yazl has reached this one.
      if (++queued % READ_AHEAD_ENTRIES === 0) await Promise.race([started, closed]);
    }
    const snapshot = { upToId, isMissing: (id: number) => missing.has(id), history, changes };
    const csv = manifestCsvChunks(manifestEntries(db, config, crawlId, snapshot));
    const json = manifestJsonChunks(crawl, manifestEntries(db, config, crawlId, snapshot));
    zip.addReadStreamLazy("manifest.csv", { mtime: new Date() }, (callback) => callback(null, bufferStream(csv)));
    zip.addReadStreamLazy("manifest.json", { mtime: new Date() }, (callback) => callback(null, bufferStream(json)));
    zip.end();
  };
  fill().catch((error: unknown) => output.destroy(error instanceof Error ? error : new Error(String(error))));

  return {
    stream: Readable.toWeb(output) as ReadableStream<Uint8Array>,
    fileName: exportFileName(crawl, changes ? `-${[...changes].sort().join("-")}.zip` : ".zip"),
    contentType: "application/zip",
  };
}

/** Text pieces as a byte stream yazl can pipe (its transforms expect Buffers). */
function bufferStream(pieces: AsyncIterable<string>): Readable {
  return Readable.from(
    (async function* () {
      for await (const chunk of batched(pieces)) yield Buffer.from(chunk, "utf8");
    })(),
  );
}
