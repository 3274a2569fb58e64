import { describe, expect, it } from "vitest";
import { CheckpointSchedule } from "../../lib/crawler/engine/checkpoint-schedule";
import { STORED_CRAWL_CHECKPOINTS } from "../../lib/worker/run-stored-crawl";

describe("checkpoint cadence of slow (polite) crawls", () => {
  /** A schedule on a fake clock whose pages come every `pageMs` and cost `engineMsPerPage` of engine time. */
  function pacedSchedule(pageMs: number, engineMsPerPage: number) {
    let now = 0;
    let engineMs = 0;
    const schedule = new CheckpointSchedule(() => engineMs, { ...STORED_CRAWL_CHECKPOINTS, now: () => now });
    /** The page numbers (1-based) after which a checkpoint was due, over `pages` pages. */
    const checkpointsOver = (pages: number): number[] => {
      const at: number[] = [];
      for (let page = 1; page <= pages; page++) {
        now += pageMs;
        engineMs += engineMsPerPage;
        if (schedule.due()) {
          at.push(page);
          schedule.take(() => ((now += 5), (engineMs += 5), Buffer.alloc(1)));
        }
      }
      return at;
    };
    return { checkpointsOver };
  }

  it("at a 4 s delay, waits for 10 pages past the 10 s interval instead of checkpointing every 2 or 3 pages", () => {
    const at = pacedSchedule(4_000, 1).checkpointsOver(41);
    expect(at).toEqual([1, 11, 21, 31, 41]);
  });

  it("at 1 s a page, keeps the 10 s interval (10 pages take that long anyway)", () => {
    const at = pacedSchedule(1_000, 1).checkpointsOver(31);
    expect(at).toEqual([1, 11, 21, 31]);
  });

  it("a crawl whose pages are a minute apart still gets one at each stretched interval (60 s)", () => {
    const at = pacedSchedule(30_000, 1).checkpointsOver(7);
    expect(at).toEqual([1, 3, 5, 7]);
  });

  it("a crawl whose pages are slow only because the worker is busy (its engine time stretched) still waits for the pages", () => {
    // 4 s a page and 400 ms of engine time each: 25 × the 5 ms checkpoint after 1 page.
    const at = pacedSchedule(4_000, 400).checkpointsOver(21);
    expect(at).toEqual([1, 11, 21]);
  });

  it("without minPages a 4 s crawl checkpoints every 10 s, as before", () => {
    let now = 0;
    const schedule = new CheckpointSchedule(() => 0, { now: () => now });
    const at: number[] = [];
    for (let page = 1; page <= 10; page++) {
      now += 4_000;
      if (schedule.due()) {
        at.push(page);
        schedule.take(() => ((now += 5), Buffer.alloc(1)));
      }
    }
    expect(at).toEqual([1, 2, 5, 8]);
  });
});

describe("checkpoints encoded while the event loop turns", () => {
  it("counts the work the capture reports, not the wall time the worker's other crawls took meanwhile", async () => {
    let now = 0;
    let engineMs = 0;
    const schedule = new CheckpointSchedule(() => engineMs, { minIntervalMs: 0, maxIntervalMs: 1_000_000, costFactor: 10, now: () => now });
    const capture = async () => {
      now += 500; // other crawls' turns between the slices
      return { data: Buffer.alloc(3), workMs: 20 };
    };
    // The first two are due at once (the first checkpoint's cost is no measure: JIT warm-up).
    for (let i = 0; i < 2; i++) {
      expect(schedule.due()).toBe(true);
      expect((await schedule.takeAsync(capture)).length).toBe(3);
    }
    expect(schedule.totalMs).toBe(40);
    expect(schedule.lastBytes).toBe(3);
    // The next one waits for 10 × 20 ms of the engine's own time, whatever the wall clock says.
    now += 10_000;
    engineMs += 199;
    expect(schedule.due()).toBe(false);
    engineMs += 1;
    expect(schedule.due()).toBe(true);
  });
});
