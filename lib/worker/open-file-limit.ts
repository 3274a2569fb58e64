/**
 * Whether the process may open the files a worker of `concurrency` crawls needs. Each crawl
 * holds a keep-alive socket to its host (two while a link is typed with a HEAD), its page-pack
 * file while it writes, and a target file while one downloads; the worker adds its database,
 * logs and pipes (npm run bench:many reports the most a worker held).
 *
 * Node raises its soft limit to the hard one at start, so the limit read here is what the worker
 * has; past it, connections and file writes fail with EMFILE, one crawl at a time.
 */
import fs from "node:fs";

/** Descriptors counted per crawl, and for the worker itself. */
export const FILES_PER_CRAWL = 3;
export const FILES_FOR_WORKER = 256;

/** The process's open-file limit (Linux `/proc/self/limits`), or null where it cannot be read. */
export function openFileLimit(limitsText?: string): number | null {
  let text = limitsText;
  if (text === undefined) {
    try {
      text = fs.readFileSync("/proc/self/limits", "utf8");
    } catch {
      return null;
    }
  }
  const line = text.split("\n").find((l) => l.startsWith("Max open files"));
  const soft = line?.slice("Max open files".length).trim().split(/\s+/)[0];
  if (soft === undefined) return null;
  return soft === "unlimited" ? Number.POSITIVE_INFINITY : Number(soft);
}

/** A sentence saying the limit is too low for `concurrency` crawls and how to raise it; null when it is enough (or unknown). */
export function openFileShortfall(concurrency: number, limit: number | null): string | null {
  const needed = FILES_PER_CRAWL * concurrency + FILES_FOR_WORKER;
  if (limit === null || limit >= needed) return null;
  return (
    `the open-file limit is ${limit}, and ${concurrency} crawls need about ${needed} (a socket per host, files being written): ` +
    `raise the hard limit (\`ulimit -Hn ${needed}\` before starting it, or LimitNOFILE=${needed} in its systemd unit), or run fewer crawls per worker`
  );
}
