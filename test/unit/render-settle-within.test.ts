import { describe, expect, it } from "vitest";
import { RequestActivity } from "../../lib/render/request-activity";
import { settleWithin } from "../../lib/render/settle-within";

describe("settleWithin", () => {
  it("tells the work's value, its failure, the time limit, or the abort", async () => {
    expect(await settleWithin(Promise.resolve(7), 1_000)).toEqual({ kind: "done", value: 7 });
    const error = new Error("broken");
    expect(await settleWithin(Promise.reject(error), 1_000)).toEqual({ kind: "failed", error });
    expect(await settleWithin(new Promise(() => {}), 20)).toEqual({ kind: "time-limit" });
    const controller = new AbortController();
    const waiting = settleWithin(new Promise(() => {}), 10_000, controller.signal);
    controller.abort();
    expect(await waiting).toEqual({ kind: "aborted" });
    expect(await settleWithin(Promise.resolve(1), 1_000, controller.signal)).toEqual({ kind: "aborted" });
  });

  it("catches a failure that comes after the time limit (no unhandled rejection)", async () => {
    const unhandled: unknown[] = [];
    const listener = (reason: unknown) => unhandled.push(reason);
    process.on("unhandledRejection", listener);
    try {
      let fail: (error: Error) => void = () => {};
      const late = new Promise<never>((_resolve, reject) => (fail = reject));
      expect(await settleWithin(late, 10)).toEqual({ kind: "time-limit" });
      fail(new Error("too late"));
      const aborted = new AbortController();
      aborted.abort();
      expect(await settleWithin(Promise.reject(new Error("after an abort")), 10, aborted.signal)).toEqual({ kind: "aborted" });
      await new Promise((resolve) => setImmediate(resolve));
      expect(unhandled).toEqual([]);
    } finally {
      process.off("unhandledRejection", listener);
    }
  });
});

describe("RequestActivity", () => {
  it("is quiet only with nothing in flight for the quiet time since the last start, end or touch", async () => {
    const activity = new RequestActivity();
    expect(activity.isQuiet(0)).toBe(true);
    activity.started();
    expect(activity.isQuiet(0)).toBe(false);
    activity.finished();
    expect(activity.isQuiet(0)).toBe(true);
    expect(activity.isQuiet(60_000)).toBe(false);
    const before = performance.now();
    await activity.quiet(40, new AbortController().signal, 5);
    expect(performance.now() - before).toBeGreaterThanOrEqual(35);
  });

  it("stops waiting when told to", async () => {
    const activity = new RequestActivity();
    activity.started();
    const stop = new AbortController();
    const waiting = activity.quiet(10, stop.signal, 5);
    stop.abort();
    await expect(waiting).rejects.toThrow("stopped");
  });
});
