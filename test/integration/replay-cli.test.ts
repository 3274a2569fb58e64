import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { main } from "../../lib/cli/main";
import { parseCrawlConfig } from "../../lib/crawl-config";
import { HostPoliteness } from "../../lib/crawler/fetch/host-politeness";
import { runStoredCrawl } from "../../lib/worker/run-stored-crawl";
import { buildSite, SIM_TARGET_MIME_TYPES, startSiteServer } from "../../lib/sitesim";
import { insertCrawl } from "../../lib/store/insert-crawl";
import { runForageCli, type CliRun } from "../helpers/forage-cli";
import { createTestDatabase, type TestDatabase } from "../helpers/test-database";

let t: TestDatabase;
let sourceId: number;

/** `node bin/forage.mjs …` on the test database. */
function forage(args: string[]): Promise<CliRun> {
  return runForageCli(args, { DATABASE_URL: t.config.databaseUrl, FORAGE_DATA_DIR: t.config.dataDir });
}

beforeAll(async () => {
  t = await createTestDatabase();
  const server = await startSiteServer(buildSite({ shape: "statistics-office", seed: 1, size: "tiny" }));
  try {
    const config = parseCrawlConfig({
      rootUrl: server.rootUrl,
      targetMimeTypes: [...SIM_TARGET_MIME_TYPES],
      budget: { requests: 60 },
      politeness: { delayMs: 0 },
      allowPrivateNetwork: true,
      strategy: "sb",
      seed: 3,
    });
    sourceId = await insertCrawl(t.db, config);
    await runStoredCrawl({ db: t.db, forage: t.config, crawlId: sourceId, politeness: new HostPoliteness(), signal: new AbortController().signal });
  } finally {
    await server.close(); // the replays below would fail on any network request
  }
});

afterAll(async () => {
  await t?.dispose();
});

describe("forage replay (command line)", () => {
  it("replays a finished crawl: exit 0, one --json summary line, a new crawl linked to its source", async () => {
    const [json, text] = await Promise.all([
      forage(["replay", String(sourceId), "--strategy", "sb-oracle", "--budget", "50", "--json"]),
      forage(["replay", String(sourceId), "--strategy", "sb"]),
    ]);
    expect(json.code, json.stderr).toBe(0);
    const lines = json.stdout.trim().split("\n");
    expect(lines).toHaveLength(1);
    const summary = JSON.parse(lines[0]!);
    expect(summary).toMatchObject({ requests: 50, replayOfCrawlId: sourceId, stopReason: "budget-requests" });
    // Links the source only HEAD-typed are true pages to the oracle, but their GET was never archived.
    const notArchived = await t.db.crawlRequest.count({ where: { crawlId: summary.crawlId, error: { startsWith: "not-archived:" } } });
    expect(summary.notArchived).toBe(notArchived);
    expect(Object.keys(summary)).toEqual(
      expect.arrayContaining(["crawlId", "requests", "targets", "targetBytes", "nonTargetBytes", "stopReason", "durationMs"]),
    );
    const crawl = await t.db.crawl.findUniqueOrThrow({ where: { id: summary.crawlId } });
    expect(crawl).toMatchObject({ status: "finished", strategy: "sb-oracle", replayOfCrawlId: sourceId, requestsCount: 50, headCount: 0, targetsCount: summary.targets });

    // Without --json: progress and summary on stderr, nothing on stdout; same seed and budget as the source.
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toBe("");
    expect(text.stderr).toMatch(new RegExp(`Replay \\d+ of crawl ${sourceId}: .*\\(sb, seed 3, budget 60 requests`));
    expect(text.stderr).toMatch(/Done: \d+ targets .* for 60 requests \(0 not archived\); stop reason: budget-requests/);
    const source = await t.db.crawl.findUniqueOrThrow({ where: { id: sourceId } });
    const again = await t.db.crawl.findFirstOrThrow({ where: { replayOfCrawlId: sourceId, strategy: "sb" } });
    expect(again.targetsCount).toBe(source.targetsCount);
  });

  it("exits 2 with a one-line message on bad input", async () => {
    const spawned = await forage(["replay", "abc", "--strategy", "bfs"]);
    expect(spawned.code, spawned.stderr).toBe(2);
    expect(spawned.stderr.trim()).toBe('forage replay: <crawlId> must be a crawl number, got "abc"');
    expect(spawned.stdout).toBe("");

    // The other cases in this process (same entry point as bin/forage.mjs), on the test database by --db / --out.
    const running = await insertCrawl(t.db, parseCrawlConfig({ rootUrl: "http://127.0.0.1:9/", seed: 1 }));
    await t.db.crawl.update({ where: { id: running }, data: { status: "running" } });
    const id = String(sourceId);
    const db = ["--db", t.config.databaseUrl, "--out", t.config.dataDir];
    const cases: Array<[string[], string]> = [
      [["replay"], "missing <crawlId>, e.g. forage replay 12 --strategy bfs"],
      [["replay", id], "missing --strategy (sb, sb-paper, sb-oracle, bfs, dfs, random, focused, tp-off, tres)"],
      [["replay", id, "--strategy", "best"], '--strategy must be one of sb, sb-paper, sb-oracle, bfs, dfs, random, focused, tp-off, tres, got "best"'],
      [["replay", id, "--strategy", "bfs", "--budget", "0"], "--budget must be between 1 and 100000000, got 0"],
      [["replay", id, "--strategy", "bfs", "--seed", "x"], '--seed must be a whole number, got "x"'],
      [["replay", id, "--strategy", "bfs", "--bogus"], "unknown option --bogus"],
      [["replay", id, "12", "--strategy", "bfs"], 'unexpected argument "12"'],
      [["replay", "9999", "--strategy", "bfs", ...db], "crawl 9999 not found"],
      [["replay", String(running), "--strategy", "bfs", ...db], `crawl ${running} is still running: replay needs a finished crawl`],
    ];
    const errors = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const logs = vi.spyOn(console, "log").mockImplementation(() => undefined);
    try {
      for (const [args, message] of cases) {
        errors.mockClear();
        expect(await main(args), args.join(" ")).toBe(2);
        expect(errors).toHaveBeenCalledTimes(1);
        // startsWith: parseOptions keeps the tail of node's message for unknown options (see the report).
        expect(String(errors.mock.calls[0]![0]).startsWith(`forage replay: ${message}`), String(errors.mock.calls[0]![0])).toBe(true);
      }
      expect(logs).not.toHaveBeenCalled();
    } finally {
      errors.mockRestore();
      logs.mockRestore();
    }
    expect(await t.db.crawl.count({ where: { replayOfCrawlId: { in: [9999, running] } } })).toBe(0);
  });
});
