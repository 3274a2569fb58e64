import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "../helpers/paths";

interface Ended {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** From the child's "ready" line to its end. */
  msAfterReady: number;
}

/**
 * Runs `script` (an ES module, with tsx) in a child process; `onReady` is called once it prints
 * "ready". Killed with SIGKILL after `limitMs` whatever happens, so a broken watchdog fails the
 * test instead of hanging it.
 */
function runChild(script: string, onReady: (child: ReturnType<typeof spawn>) => void, limitMs = 15_000): Promise<Ended & { timedOut: boolean }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], { cwd: PROJECT_ROOT, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    let readyAt = 0;
    let timedOut = false;
    const limit = setTimeout(() => {
      timedOut = true;
      child.kill("SIGKILL");
    }, limitMs);
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
      if (!readyAt && stdout.includes("ready")) {
        readyAt = performance.now();
        onReady(child);
      }
    });
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.once("exit", (code, signal) => {
      clearTimeout(limit);
      resolve({ code, signal, stdout, stderr, timedOut, msAfterReady: readyAt ? performance.now() - readyAt : -1 });
    });
  });
}

const IMPORT = `import { startEventLoopWatchdog } from "./lib/worker/event-loop-watchdog.ts";`;

describe("event-loop watchdog (a thread watching the worker's main thread)", () => {
  it("ends a process whose event loop is stuck in synchronous code, even though its SIGTERM handler cannot run", async () => {
    const script = `${IMPORT}
      const watchdog = startEventLoopWatchdog({ blockedExitMs: 1000 });
      watchdog.markStep(42);
      process.on("SIGTERM", () => { console.log("handled SIGTERM"); process.exit(0); });
      await watchdog.ready;
      console.log("ready");
      for (;;) {} // a crawl stuck for ever: no timer, no signal handler runs again`;
    const ended = await runChild(script, (child) => child.kill("SIGTERM"));
    expect(ended.timedOut, ended.stderr).toBe(false);
    expect(ended.signal).toBe("SIGKILL");
    expect(ended.stdout).not.toContain("handled SIGTERM");
    expect(ended.stderr).toMatch(/\[forage worker\] watchdog: the event loop has been blocked for \d+ ms \(limit 1000 ms; crawl 42 is stuck in a step/);
    expect(ended.msAfterReady).toBeGreaterThanOrEqual(900);
    expect(ended.msAfterReady).toBeLessThan(8_000);
  });

  it("leaves a busy but turning event loop alone, and stops with the process", async () => {
    // Steps of 50 ms of CPU with turns between them, for 2 s: never blocked 500 ms.
    const script = `${IMPORT}
      const watchdog = startEventLoopWatchdog({ blockedExitMs: 500 });
      await watchdog.ready;
      console.log("ready");
      const until = performance.now() + 2000;
      const step = () => {
        const end = performance.now() + 50;
        while (performance.now() < end) {}
        if (performance.now() < until) setImmediate(step);
        else watchdog.stop().then(() => console.log("done"));
      };
      step();`;
    const ended = await runChild(script, () => undefined);
    expect(ended.timedOut, ended.stderr).toBe(false);
    expect(ended).toMatchObject({ code: 0, signal: null });
    expect(ended.stdout).toContain("done");
    expect(ended.stderr).not.toContain("watchdog");
  });
});
