/**
 * Runs the `forage` CLI in a child process that cannot take CI down: V8's heap capped
 * (`--max-old-space-size`), resident memory watched (`rss-watchdog.mjs`, exit 99 past the cap)
 * and the process killed at a deadline. Used to attack the CLI with hostile input.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { PROJECT_ROOT } from "./paths";

export interface CappedRun {
  /** The exit code; null when killed (signal, or the deadline). */
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** The resident memory peak the watchdog saw, in MiB (null when the process died before reporting). */
  peakRssMiB: number | null;
  timedOut: boolean;
}

export interface CapOptions {
  env?: Record<string, string>;
  heapMiB?: number;
  rssMiB?: number;
  timeoutMs?: number;
}

export function runCappedCli(args: string[], { env = {}, heapMiB = 256, rssMiB = 512, timeoutMs = 60_000 }: CapOptions = {}): Promise<CappedRun> {
  const report = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "forage-rss-")), "peak");
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [`--max-old-space-size=${heapMiB}`, "--import", "./test/helpers/rss-watchdog.mjs", "bin/forage.mjs", ...args], {
      cwd: PROJECT_ROOT,
      env: { ...process.env, FORAGE_DEBUG: "", FORAGE_TEST_RSS_CAP_MIB: String(rssMiB), FORAGE_TEST_RSS_REPORT: report, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill("SIGKILL");
    }, timeoutMs);
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.once("error", reject);
    child.once("close", (code, signal) => {
      clearTimeout(timer);
      const peak = fs.existsSync(report) ? Number(fs.readFileSync(report, "utf8")) : null;
      fs.rmSync(path.dirname(report), { recursive: true, force: true });
      resolve({ code, signal, stdout, stderr, peakRssMiB: peak, timedOut });
    });
  });
}
