import { describe, expect, it } from "vitest";
import { CliUsageError } from "../../lib/cli/cli-error";
import { MAX_WORKER_CONCURRENCY, workerCommand } from "../../lib/cli/commands/worker";
import { FILES_FOR_WORKER, FILES_PER_CRAWL, openFileLimit, openFileShortfall } from "../../lib/worker/open-file-limit";

const LIMITS = `Limit                     Soft Limit           Hard Limit           Units
Max processes             63432                63432                processes
Max open files            4096                 524288               files
Max locked memory         8388608              8388608              bytes
`;

describe("forage worker's concurrency and open files", () => {
  it("reads the soft open-file limit, unlimited as infinity, and this process's", () => {
    expect(openFileLimit(LIMITS)).toBe(4096);
    expect(openFileLimit(LIMITS.replace(/4096 /, "unlimited "))).toBe(Number.POSITIVE_INFINITY);
    expect(openFileLimit("nothing here")).toBeNull();
    expect(openFileLimit()).toBeGreaterThan(0);
  });

  it("says how to raise a limit too low for the crawls, and nothing when it is enough or unknown", () => {
    const needed = FILES_PER_CRAWL * 2000 + FILES_FOR_WORKER;
    expect(openFileShortfall(2000, needed)).toBeNull();
    expect(openFileShortfall(2000, null)).toBeNull();
    expect(openFileShortfall(2000, 4096)).toBe(
      `the open-file limit is 4096, and 2000 crawls need about ${needed} (a socket per host, files being written): ` +
        `raise the hard limit (\`ulimit -Hn ${needed}\` before starting it, or LimitNOFILE=${needed} in its systemd unit), or run fewer crawls per worker`,
    );
  });

  it("refuses more than the most crawls a worker holds, saying what to do instead", async () => {
    expect(MAX_WORKER_CONCURRENCY).toBe(5000);
    const refusal = await workerCommand(["--concurrency", "5001"]).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(CliUsageError);
    expect((refusal as Error).message).toBe(
      "--concurrency must be between 1 and 5000, got 5001: one worker holds at most 5000 crawls; start more workers (on this machine or others sharing the database) for more",
    );
    await expect(workerCommand(["--concurrency", "0"])).rejects.toThrow("--concurrency must be at least 1, got 0");
  });
});
