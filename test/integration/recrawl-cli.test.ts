/** `forage crawl --after`: a re-crawl from the command line, its `changes` in the JSON summary, and its refusals. */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEvolvingSite, type RunningEvolvingSite } from "../../lib/sitesim/evolving";
import { runForageCli } from "../helpers/forage-cli";
import { runForageInProcess } from "../helpers/forage-cli-in-process";

let site: RunningEvolvingSite;
let dir: string;

beforeAll(async () => {
  site = await startEvolvingSite({ items: 45, seed: 5 });
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "forage-recrawl-cli-"));
});

afterAll(async () => {
  await site.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const store = () => ["--db", `file:${path.join(dir, "cli.db")}`, "--out", path.join(dir, "data")];

async function crawl(...extra: string[]): Promise<{ crawlId: number; requests: number; after: number | null; changes: Record<string, number> }> {
  const run = await runForageCli(["crawl", site.rootUrl, "--delay-ms", "0", "--seed", "2", "--allow-private-network", "--json", ...extra, ...store()]);
  expect(run.code, run.stderr).toBe(0);
  return JSON.parse(run.stdout.trim()) as never;
}

describe("forage crawl --after", () => {
  it("reports new, changed, unchanged and gone files in the JSON summary", async () => {
    site.version = 1;
    const first = await crawl();
    expect(first.after).toBeNull();
    expect(first.changes).toEqual({ new: site.catalogue.files(1).size, changed: 0, unchanged: 0, gone: 0 });
    site.version = 2;
    const truth = site.catalogue.changes(1, 2);
    const again = await crawl("--after", String(first.crawlId));
    expect(again.after).toBe(first.crawlId);
    expect(again.changes).toMatchObject({ new: truth.new.length, changed: 0, gone: 0 });
    expect(again.requests).toBeLessThan(first.requests);
    const checked = await crawl("--after", String(first.crawlId), "--check-known-files");
    expect(checked.changes).toEqual({ new: truth.new.length, changed: truth.changed.length, unchanged: truth.unchanged.length, gone: truth.gone.length });
  });

  it.each([
    [["--after", "999"], "forage crawl: --after names crawl 999, which does not exist"],
    [["--after", "0"], "forage crawl: --after must be at least 1, got 0"],
    [["--check-known-files"], "forage crawl: --check-known-files needs --after <crawlId> (the crawl whose files to check)"],
  ])("refuses %j with exit 2 and one line", async (args, message) => {
    // Decided from the arguments and the database they name: the CLI's `main` in this process, no child start-up.
    const run = await runForageInProcess(["crawl", site.rootUrl, "--allow-private-network", ...args, ...store()]);
    expect(run.code).toBe(2);
    expect(run.stderr.trim()).toBe(message);
  });
});
