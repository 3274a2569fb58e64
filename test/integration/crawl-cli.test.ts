/**
 * `forage crawl` end to end: a real process crawling the simulator over HTTP into its own
 * SQLite database and folder, the `--json` summary line, the files on disk, and one-line
 * errors with exit 2 on bad input.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildSite, SIM_TARGET_MIME_TYPES, startSiteServer, type RunningSite } from "../../lib/sitesim";
import { runForageCli } from "../helpers/forage-cli";
import { runForageInProcess } from "../helpers/forage-cli-in-process";

let site: RunningSite;
let dir: string;

beforeAll(async () => {
  site = await startSiteServer(buildSite({ shape: "open-data-portal", seed: 1, size: "tiny" }));
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "forage-crawl-cli-"));
});

afterAll(async () => {
  await site.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("forage crawl", () => {
  it("crawls a site, prints one JSON summary line and leaves the targets under --out", async () => {
    const out = path.join(dir, "data");
    const run = await runForageCli([
      "crawl", site.rootUrl, "--budget", "80", "--delay-ms", "0", "--seed", "4", "--allow-private-network", "--json",
      "--target-mime", SIM_TARGET_MIME_TYPES.join(","), "--db", `file:${path.join(dir, "cli.db")}`, "--out", out,
    ]);
    expect(run.code, run.stderr).toBe(0);
    const lines = run.stdout.trim().split("\n");
    expect(lines).toHaveLength(1);
    const summary = JSON.parse(lines[0]!) as Record<string, unknown>;
    expect(Object.keys(summary)).toEqual(["crawlId", "requests", "targets", "targetBytes", "nonTargetBytes", "stopReason", "durationMs", "after", "changes"]);
    expect(summary.requests).toBe(80);
    expect(summary.stopReason).toBe("budget-requests");
    expect(summary.targets).toBeGreaterThan(0);
    const files = fs.readdirSync(path.join(out, "crawls", String(summary.crawlId), "files"));
    expect(files.length).toBeGreaterThan(0);
    expect(files.length).toBeLessThanOrEqual(summary.targets as number); // content-addressed: duplicates share a file
  });

  it.each([
    [["crawl", "https://a.org/", "--budget=-5"], "forage crawl: --budget must be at least 1, got -5"],
    [["crawl", "https://a.org/", "--budget", "-5"], 'forage crawl: --budget needs a value; write one that starts with "-" as --budget=-5'],
    [["crawl", "ftp://a.org/"], "forage crawl: <rootUrl> must use http or https, not ftp"],
    [["crawl", "https://a.org/", "--strategy", "magic"], 'forage crawl: --strategy must be one of sb, sb-paper, bfs, dfs, random, focused, tp-off, tres, got "magic"'],
  ])("refuses %j with exit 2 and one line", async (args, message) => {
    // Decided from the arguments alone: the CLI's `main` in this process, no child start-up.
    const run = await runForageInProcess([...args, "--db", `file:${path.join(dir, "bad.db")}`, "--out", dir]);
    expect(run.code).toBe(2);
    expect(run.stderr.trim()).toBe(message);
    expect(run.stdout).toBe("");
  });
});
