/** Runs the `forage` CLI (`node bin/forage.mjs …`) as a child process and collects its output. */
import { spawn } from "node:child_process";
import { PROJECT_ROOT } from "./paths";

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * `env` is added to this process's environment (FORAGE_DEBUG is cleared: errors stay one line);
 * `input`, when given, is written to its standard input (a `--password-stdin` password).
 * With `timeoutMs`, a run still going then is killed (SIGKILL) and the promise rejects with its
 * output so far: a stuck command fails the test with a message and leaves no process behind.
 */
export function runForageCli(args: string[], env: Record<string, string> = {}, input?: string, { timeoutMs }: { timeoutMs?: number } = {}): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["bin/forage.mjs", ...args], {
      cwd: PROJECT_ROOT,
      env: { ...process.env, FORAGE_DEBUG: "", ...env },
      stdio: [input === undefined ? "ignore" : "pipe", "pipe", "pipe"],
    });
    if (input !== undefined) child.stdin!.end(input);
    let stdout = "";
    let stderr = "";
    child.stdout!.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const timer =
      timeoutMs === undefined
        ? undefined
        : setTimeout(() => {
            child.kill("SIGKILL");
            reject(new Error(`forage ${args.join(" ")} did not finish within ${timeoutMs} ms (killed):\n${stdout}\n${stderr}`));
          }, timeoutMs);
    child.once("error", reject);
    child.once("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}
