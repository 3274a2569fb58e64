import { spawn, type ChildProcess } from "node:child_process";
import readline from "node:readline";
import { PROJECT_ROOT } from "./paths";

/** Ports come from one module (./ports); re-exported here for the tests that start processes. */
export { freePort } from "./ports";

export interface ManagedProcess {
  child: ChildProcess;
  output(): string;
  /** SIGTERM, then SIGKILL after the grace period; resolves when the process has exited. */
  stop(graceMs?: number): Promise<void>;
}

export interface NodeProcessOptions {
  /**
   * Keep only the last this many lines of output (a process that runs for an hour would fill
   * memory); without it, all of it is kept.
   */
  keepLines?: number;
  /** Called with each line of its output (stdout and stderr) as it comes. */
  onLine?: (line: string) => void;
}

/** Starts a Node process from the project root, keeping its output for failure messages. */
export function startNodeProcess(args: string[], env: Record<string, string>, options: NodeProcessOptions = {}): ManagedProcess {
  const child = spawn(process.execPath, args, {
    cwd: PROJECT_ROOT,
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", CHECKPOINT_DISABLE: "1", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const chunks: string[] = [];
  if (options.keepLines === undefined && options.onLine === undefined) {
    child.stdout?.on("data", (chunk: Buffer) => chunks.push(chunk.toString()));
    child.stderr?.on("data", (chunk: Buffer) => chunks.push(chunk.toString()));
  } else {
    for (const stream of [child.stdout, child.stderr]) {
      if (!stream) continue;
      readline.createInterface({ input: stream }).on("line", (line) => {
        chunks.push(`${line}\n`);
        if (options.keepLines !== undefined && chunks.length > options.keepLines) chunks.shift();
        options.onLine?.(line);
      });
    }
  }
  return {
    child,
    output: () => chunks.join(""),
    stop(graceMs = 10_000) {
      return new Promise((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        const timer = setTimeout(() => child.kill("SIGKILL"), graceMs);
        child.once("exit", () => {
          clearTimeout(timer);
          resolve();
        });
        child.kill("SIGTERM");
      });
    },
  };
}

/** Polls a URL until it answers (any HTTP status below 500) or the deadline passes. */
export async function waitForHttp(url: string, process: ManagedProcess, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (process.child.exitCode !== null) throw new Error(`process exited early (${process.child.exitCode}):\n${process.output()}`);
    try {
      const response = await fetch(url);
      if (response.status < 500) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms:\n${process.output()}`);
}

/** Kills a process as a crash would (SIGKILL: no handler runs) and waits until it is gone. */
export async function kill9(process: ManagedProcess): Promise<void> {
  // A process that already exited emits no second "exit": waiting for one would never end.
  if (process.child.exitCode !== null || process.child.signalCode !== null) {
    throw new Error(`process exited before it could be killed (${process.child.exitCode ?? process.child.signalCode}):\n${process.output()}`);
  }
  const exited = new Promise((resolve) => process.child.once("exit", resolve));
  process.child.kill("SIGKILL");
  await exited;
}
