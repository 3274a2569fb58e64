/**
 * A real web application installed from Debian, as the real-application bench and tests use it:
 * whether its packages are there, a throwaway instance set up by its script
 * (`scripts/real-apps/<app>.sh setup DIR`), served on loopback (`… serve DIR PORT`), and each of
 * a recipe's enumerations paged through to the end with the crawl's own page reader.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import type { FetchedText } from "../../lib/recipes/detect-application";
import { firstPageUrl, readEnumerationPage } from "../../lib/recipes/enumeration-pages";
import type { ListedFile } from "../../lib/recipes/listed-file";
import type { Enumeration } from "../../lib/recipes/recipe-schema";

export type RealApp = "mediawiki" | "wordpress";

const SCRIPTS = path.dirname(new URL(import.meta.url).pathname);

export function scriptOf(app: RealApp): string {
  return path.join(SCRIPTS, `${app}.sh`);
}

/** null when the application's packages are installed, else the script's message (with the apt-get line). */
export function missingPackages(app: RealApp): string | null {
  if (!fs.existsSync(scriptOf(app))) return `${scriptOf(app)} does not exist`;
  // `serve` on a folder that is not an instance checks the packages first (exit 2 with the apt-get line), then the folder.
  const probe = spawnSync("bash", [scriptOf(app), "check"], { encoding: "utf8" });
  return probe.status === 0 ? null : (probe.stderr || probe.stdout).trim() || `exit ${probe.status}`;
}

/** Creates an instance in `dir` (new or empty); the script's output, and how long it took. */
export function setupInstance(app: RealApp, dir: string, files: number): { ms: number; output: string } {
  const started = performance.now();
  const run = spawnSync("bash", [scriptOf(app), "setup", dir, String(files)], { encoding: "utf8", maxBuffer: 16 * 1024 * 1024 });
  if (run.status !== 0) throw new Error(`${app} setup failed (exit ${run.status}): ${run.stderr.trim() || run.stdout.trim()}`);
  return { ms: performance.now() - started, output: run.stdout.trim() };
}

/** The file names the script uploaded, and those the instance's pages link. */
export function instanceFiles(dir: string): { uploaded: string[]; linked: string[] } {
  const lines = (file: string) => fs.readFileSync(path.join(dir, file), "utf8").split("\n").filter(Boolean);
  return { uploaded: lines("uploaded.txt"), linked: lines("linked.txt") };
}

export interface ServedInstance {
  rootUrl: string;
  stop(): Promise<void>;
}

/** Serves the instance on 127.0.0.1:port; resolves once its root page answers. */
export async function serveInstance(app: RealApp, dir: string, port: number): Promise<ServedInstance> {
  const child: ChildProcess = spawn("bash", [scriptOf(app), "serve", dir, String(port)], { stdio: ["ignore", "ignore", "pipe"], detached: true });
  let errors = "";
  child.stderr!.on("data", (chunk: Buffer) => {
    errors = (errors + chunk.toString()).slice(-4000);
  });
  const rootUrl = `http://127.0.0.1:${port}/`;
  const stop = async () => {
    if (child.exitCode !== null || child.pid === undefined) return;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    process.kill(-child.pid, "SIGTERM"); // the script's process group: php -S and its workers
    await exited;
  };
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${app} server exited (${child.exitCode}): ${errors.trim()}`);
    const up = await fetch(rootUrl, { redirect: "manual" }).then(
      (answer) => answer.status < 500,
      () => false,
    );
    if (up) return { rootUrl, stop };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await stop();
  throw new Error(`${app} did not answer on ${rootUrl} within 30 s: ${errors.trim()}`);
}

/** A GET for detectApplications, redirects followed (loopback only: the bench's own instance). */
export async function fetchText(url: string): Promise<FetchedText> {
  const answer = await fetch(url, { headers: { accept: "text/html,application/json;q=0.9,*/*;q=0.5" } });
  return { status: answer.status, headers: [...answer.headers.entries()], body: await answer.text(), url: answer.url || url };
}

export interface EnumerationRun {
  files: ListedFile[];
  /** API pages read. */
  pages: number;
  /** Why it stopped early, if it did. */
  problem?: string;
  /** Each page's number of records, in order. */
  pageRecords: number[];
}

/** Reads an enumeration from its first page to its last, as the crawl's action does (at most `maxPages`). */
export async function readWholeEnumeration(enumeration: Enumeration, base: string, maxPages = 200): Promise<EnumerationRun> {
  const files: ListedFile[] = [];
  const pageRecords: number[] = [];
  let url: string | null = firstPageUrl(enumeration, base);
  let pages = 0;
  while (url && pages < maxPages) {
    const answer = await fetch(url, { redirect: "manual" });
    const headers = new Map([...answer.headers.entries()].map(([name, value]) => [name.toLowerCase(), value]));
    const page = readEnumerationPage(enumeration, base, url, { status: answer.status, headers, body: await answer.text() });
    pages += 1;
    pageRecords.push(page.records);
    files.push(...page.files);
    if (page.problem) return { files, pages, problem: `${url}: ${page.problem}`, pageRecords };
    url = page.nextUrl;
  }
  return { files, pages, pageRecords, ...(url ? { problem: `still going after ${maxPages} pages` } : {}) };
}

/** The last path segment of a file URL, decoded: the name it was uploaded under. */
export function fileName(url: string): string {
  return decodeURIComponent(new URL(url).pathname.split("/").pop() ?? "");
}
