/**
 * Reading a crawl's WARC files back through their CDXJ sidecars: the files, the index lines
 * (unsorted, as written), and which record holds each URL's last successful GET (the target
 * manifest names it).
 */
import fs from "node:fs";
import path from "node:path";
import { parseCdxjLine } from "./cdxj";
import { CDXJ_SIDECAR_SUFFIX, crawlWarcDir, WARC_SUFFIX } from "./warc-paths";

export interface WarcFileInfo {
  name: string;
  path: string;
  bytes: number;
}

/** The crawl's WARC files in the order written (their names sort by time); [] when it kept none. */
export async function listCrawlWarcFiles(dataDir: string, crawlId: number): Promise<WarcFileInfo[]> {
  return listWarcFiles(crawlWarcDir(dataDir, crawlId));
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
export async function readCrawlCdxjLines(dataDir: string, crawlId: number, files?: WarcFileInfo[]): Promise<string[]> {
  const lines: string[] = [];
  for (const file of files ?? (await listCrawlWarcFiles(dataDir, crawlId))) {
    let text: string;
    try {
      text = await fs.promises.readFile(file.path + CDXJ_SIDECAR_SUFFIX, "utf8");
    } catch {
      continue;
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
export async function lastSuccessByUrl(dataDir: string, crawlId: number): Promise<Map<string, WarcRecordRef>> {
  const refs = new Map<string, WarcRecordRef>();
  for (const line of await readCrawlCdxjLines(dataDir, crawlId)) {
    const { fields } = parseCdxjLine(line)!;
    const status = Number(fields.status);
    if (status >= 200 && status < 300 && fields.url && fields.filename && fields.recordId) {
      refs.set(fields.url, { warcFile: fields.filename, recordId: fields.recordId });
    }
  }
  return refs;
}
