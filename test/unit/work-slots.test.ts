import { describe, expect, it } from "vitest";
import { SlotsFullError, WorkSlots } from "../../lib/auth/work-slots";

describe("work slots (password hashing's semaphore)", () => {
  it("runs at most `concurrency` tasks at once, the rest in arrival order, and refuses past the line's length", async () => {
    const slots = new WorkSlots(2, 3);
    let running = 0;
    let most = 0;
    const order: number[] = [];
    const releases: Array<() => void> = [];
    const task = (id: number) => () =>
      new Promise<number>((resolve) => {
        running++;
        most = Math.max(most, running);
        order.push(id);
        releases.push(() => {
          running--;
          resolve(id);
        });
      });
    const accepted = [0, 1, 2, 3, 4].map((id) => slots.run(task(id)));
    await expect(slots.run(task(5))).rejects.toBeInstanceOf(SlotsFullError);
    expect(slots.load).toEqual({ running: 2, waiting: 3 });
    while (releases.length > 0 || running > 0) {
      releases.shift()?.();
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(await Promise.all(accepted)).toEqual([0, 1, 2, 3, 4]);
    expect(order).toEqual([0, 1, 2, 3, 4]);
    expect(most).toBe(2);
    expect(slots.load).toEqual({ running: 0, waiting: 0 });
  });

  it("frees the slot of a task that throws", async () => {
    const slots = new WorkSlots(1, 0);
    await expect(slots.run(() => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    expect(await slots.run(() => Promise.resolve("next"))).toBe("next");
  });
});
