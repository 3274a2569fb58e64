import { describe, expect, it } from "vitest";
import { runForageCli } from "../helpers/forage-cli";

// The `forage` command's entry: help lists every command (each loaded only when needed), an
// unknown name is a usage error with one line, names of Object's prototype are not commands.

const COMMANDS = ["bench", "crawl", "demo", "detect", "export", "harvest", "import", "migrate", "recipes", "replay", "token", "user", "worker"];

describe("forage", () => {
  it("--help lists every command with its help line and exits 0", async () => {
    const run = await runForageCli(["--help"]);
    expect(run.code).toBe(0);
    expect(run.stdout.split("\n")[0]).toBe("Usage: forage <command> [options]");
    for (const command of COMMANDS) expect(run.stdout).toMatch(new RegExp(`^  forage ${command}\\b`, "m"));
    expect(run.stdout).not.toContain("bench-run");
  });

  it("refuses an unknown command, or a name of Object's prototype, with exit 2 and one line", async () => {
    for (const name of ["crawll", "constructor", "__proto__", "toString"]) {
      const run = await runForageCli([name]);
      expect(run.code, name).toBe(2);
      expect(run.stderr.trim(), name).toBe(`forage: unknown command "${name}" (try "forage --help")`);
    }
  });

  it("runs a command whose module it loads on demand, with its own usage errors", async () => {
    const run = await runForageCli(["migrate", "--bogus"]);
    expect(run.code).toBe(2);
    expect(run.stderr.trim()).toBe("forage migrate: unknown option --bogus");
  });
});
