/**
 * Runs the `forage` CLI's `main` (lib/cli/main.ts) in the test's own process and collects what it
 * prints: for short commands decided by their arguments and the database they name (usage errors,
 * account changes), where a child process would only add the start-up of node and tsx. `bin/forage.mjs` exits with what `main`
 * returns, so the returned code is the process's exit code; test/integration/cli-main.test.ts keeps
 * that end-to-end path checked in a real process.
 *
 * `env` is set in process.env for the call (the command's configuration reads it) and restored
 * after; FORAGE_DEBUG is cleared, as runForageCli does. Not for commands that read standard input,
 * start servers or workers, or exit the process.
 */
import { vi } from "vitest";
import { main } from "../../lib/cli/main";
import type { CliRun } from "./forage-cli";

export async function runForageInProcess(args: string[], env: Record<string, string> = {}): Promise<CliRun> {
  const saved = new Map<string, string | undefined>();
  for (const [name, value] of Object.entries({ FORAGE_DEBUG: "", ...env })) {
    saved.set(name, process.env[name]);
    process.env[name] = value;
  }
  let stdout = "";
  let stderr = "";
  const text = (parts: unknown[]) => `${parts.map(String).join(" ")}\n`;
  const log = vi.spyOn(console, "log").mockImplementation((...parts: unknown[]) => void (stdout += text(parts)));
  const error = vi.spyOn(console, "error").mockImplementation((...parts: unknown[]) => void (stderr += text(parts)));
  // A command writing to the streams directly (a progress line) is caught too, so "printed nothing" holds.
  const out = vi.spyOn(process.stdout, "write").mockImplementation((chunk: string | Uint8Array) => ((stdout += chunk.toString()), true));
  const err = vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => ((stderr += chunk.toString()), true));
  try {
    const code = await main(args);
    return { code, stdout, stderr };
  } finally {
    for (const spy of [log, error, out, err]) spy.mockRestore();
    for (const [name, value] of saved) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
}
