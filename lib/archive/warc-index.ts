/**
 * Reading a crawl's WARC files back through their CDXJ sidecars: the files, the index lines
 * (unsorted, as written), and which record holds each URL's last successful GET (the target
 * manifest names it).
 */
import fs from "node:fs";
import path from "node:path";
import { listGrowingObjects, readGrowingObject } from "../storage/growing-object";
import { ObjectNotFoundError, type ObjectStorage } from "../storage/object-storage";
import { storageFor } from "../storage/storage-for";
import { parseCdxjLine } from "./cdxj";
import { CDXJ_SIDECAR_SUFFIX, crawlWarcKeyPrefix, WARC_SUFFIX } from "./warc-paths";

export interface WarcFileInfo {
  name: string;
  path: string;
  bytes: number;
}

/** A crawl's WARC file in the storage: its name, storage key and size (of its published bytes while it grows). */
export interface StoredWarcFile {
  name: string;
  key: string;
  bytes: number;
}

/** The crawl's WARC files in the storage, in the order written (their names sort by time); [] when it kept none. */
export async function listCrawlWarcFiles(dataDir: string, crawlId: number, storage: ObjectStorage = storageFor(dataDir)): Promise<StoredWarcFile[]> {
  const objects = await listGrowingObjects(storage, crawlWarcKeyPrefix(crawlId));
  return objects
    .filter((object) => object.key.endsWith(WARC_SUFFIX) && !object.key.slice(object.key.lastIndexOf("/") + 1).startsWith("."))
    .map((object) => ({ name: object.key.slice(object.key.lastIndexOf("/") + 1), key: object.key, bytes: object.bytes }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** The WARC files in `dir`, by name; [] when it does not exist. */
export async function listWarcFiles(dir: string): Promise<WarcFileInfo[]> {
  let names: string[];
  try {
    names = await fs.promises.readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
  const files: WarcFileInfo[] = [];
  for (const name of names.filter((n) => n.endsWith(WARC_SUFFIX)).sort()) {
    const full = path.join(dir, name);
    files.push({ name, path: full, bytes: (await fs.promises.stat(full)).size });
  }
  return files;
}

/** Every CDXJ line of the crawl's sidecars whose record lies within the file's first `bytes` bytes. */
export async function readCrawlCdxjLines(dataDir: string, crawlId: number, files?: StoredWarcFile[], storage: ObjectStorage = storageFor(dataDir)): Promise<string[]> {
  const lines: string[] = [];
  for (const file of files ?? (await listCrawlWarcFiles(dataDir, crawlId, storage))) {
    let text: string;
    try {
      text = (await readGrowingObject(storage, file.key + CDXJ_SIDECAR_SUFFIX)).toString("utf8");
    } catch (error) {
      if (error instanceof ObjectNotFoundError) continue;
      throw error;
    }
    for (const line of text.split("\n")) {
      const parsed = line ? parseCdxjLine(line) : null;
      if (parsed && Number(parsed.fields.offset) + Number(parsed.fields.length) <= file.bytes) lines.push(line);
    }
  }
  return lines;
}

export interface WarcRecordRef {
  warcFile: string;
  recordId: string;
}

/** URL → the record of its last 2xx GET response (or revisit). Empty when the crawl kept no archive. */
export async function lastSuccessByUrl(dataDir: string, crawlId: number, storage: ObjectStorage = storageFor(dataDir)): Promise<Map<string, WarcRecordRef>> {
  const refs = new Map<string, WarcRecordRef>();
  for (const line of await readCrawlCdxjLines(dataDir, crawlId, undefined, storage)) {
    const { fields } = parseCdxjLine(line)!;
    const status = Number(fields.status);
    if (status >= 200 && status < 300 && fields.url && fields.filename && fields.recordId) {
      refs.set(fields.url, { warcFile: fields.filename, recordId: fields.recordId });
    }
  }
  return refs;
}
