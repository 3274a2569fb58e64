import { spawn, type ChildProcess } from "node:child_process";
import net from "node:net";
import { PROJECT_ROOT } from "./paths";

/** A free TCP port on 127.0.0.1 (bind to 0, read it, release it). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => (typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port"))));
    });
  });
}

export interface ManagedProcess {
  child: ChildProcess;
  output(): string;
  /** SIGTERM, then SIGKILL after the grace period; resolves when the process has exited. */
  stop(graceMs?: number): Promise<void>;
}

/** Starts a Node process from the project root, keeping its output for failure messages. */
export function startNodeProcess(args: string[], env: Record<string, string>): ManagedProcess {
  const child = spawn(process.execPath, args, {
    cwd: PROJECT_ROOT,
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", CHECKPOINT_DISABLE: "1", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const chunks: string[] = [];
  child.stdout?.on("data", (chunk: Buffer) => chunks.push(chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => chunks.push(chunk.toString()));
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
  const exited = new Promise((resolve) => process.child.once("exit", resolve));
  process.child.kill("SIGKILL");
  await exited;
}
