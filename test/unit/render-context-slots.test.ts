import { describe, expect, it } from "vitest";
import { ContextSlots } from "../../lib/render/context-slots";
import { pollUntil } from "../helpers/poll-until";

/** Slots over named items whose closes are recorded and finish when the test says. */
function slotsOf(size: number, idleMs = 60_000) {
  const closed: string[] = [];
  const slots = new ContextSlots<string>({
    size,
    idleMs,
    close: async (item) => {
      closed.push(item);
    },
  });
  return { slots, closed };
}

describe("ContextSlots", () => {
  it("grants at most size slots, the others in the order they asked", async () => {
    const { slots } = slotsOf(2);
    expect(await slots.acquire(null)).toEqual({ kind: "new" });
    expect(await slots.acquire(null)).toEqual({ kind: "new" });
    const granted: string[] = [];
    const third = slots.acquire(null).then(() => granted.push("third"));
    const fourth = slots.acquire(null).then(() => granted.push("fourth"));
    await Promise.resolve();
    expect(slots.held()).toBe(2);
    expect(slots.waiting()).toBe(2);
    expect(granted).toEqual([]);

    slots.release();
    await third;
    expect(granted).toEqual(["third"]);
    expect(slots.held()).toBe(2);
    slots.release();
    await fourth;
    expect(granted).toEqual(["third", "fourth"]);
    slots.release();
    slots.release();
    expect(slots.held()).toBe(0);
  });

  it("gives a kept item to the next holder with its key, never to another key", async () => {
    const { slots, closed } = slotsOf(2);
    await slots.acquire("a");
    slots.keep("a", "context-a");
    expect(await slots.acquire("b")).toEqual({ kind: "new" });
    expect(await slots.acquire("a")).toEqual({ kind: "kept", item: "context-a" });
    expect(slots.held()).toBe(2);
    expect(slots.idleCount()).toBe(0);
    expect(closed).toEqual([]);
  });

  it("counts idle items as held, and closes the least recently used one for a waiter of another key", async () => {
    const { slots, closed } = slotsOf(2);
    await slots.acquire("a");
    await slots.acquire("b");
    slots.keep("a", "context-a");
    slots.keep("b", "context-b");
    expect(slots.held()).toBe(2);

    const c = slots.acquire("c");
    expect(await c).toEqual({ kind: "new" });
    expect(closed).toEqual(["context-a"]);
    expect(slots.held()).toBe(2);
    expect(await slots.acquire("b")).toEqual({ kind: "kept", item: "context-b" });
  });

  it("never keeps an item for a keyless holder, and a holder whose item closes frees its slot once closed", async () => {
    const { slots } = slotsOf(1);
    await slots.acquire("a");
    slots.keep("a", "context-a");
    expect(await slots.acquire(null)).toEqual({ kind: "new" });
    let close!: () => void;
    slots.releaseWhen(new Promise<void>((resolve) => (close = resolve)));
    const next = slots.acquire("a");
    await Promise.resolve();
    expect(slots.waiting()).toBe(1);
    close();
    expect(await next).toEqual({ kind: "new" });
  });

  it("closes an idle item after idleMs unused, and every idle item on closeIdle", async () => {
    const { slots, closed } = slotsOf(3, 50);
    await slots.acquire("a");
    slots.keep("a", "context-a");
    await pollUntil("the idle item closed", () => closed.length, (count) => count === 1, { timeoutMs: 5_000, pollMs: 10 });
    await pollUntil("its slot free", () => slots.held(), (held) => held === 0, { timeoutMs: 5_000, pollMs: 10 });

    const lasting = slotsOf(3);
    await lasting.slots.acquire("a");
    await lasting.slots.acquire("b");
    lasting.slots.keep("a", "context-a");
    lasting.slots.keep("b", "context-b");
    await lasting.slots.closeIdle();
    expect(lasting.closed.sort()).toEqual(["context-a", "context-b"]);
    expect(lasting.slots.held()).toBe(0);
  });

  it("lets a waiter leave the line when its signal aborts, and refuses an aborted one at once", async () => {
    const { slots } = slotsOf(1);
    await slots.acquire(null);
    const controller = new AbortController();
    const leaving = slots.acquire(null, controller.signal);
    const staying = slots.acquire(null);
    controller.abort();
    await expect(leaving).rejects.toThrow("aborted");
    expect(slots.waiting()).toBe(1);
    slots.release();
    await staying;
    expect(slots.held()).toBe(1);
    slots.release();
    await expect(slots.acquire(null, controller.signal)).rejects.toThrow("aborted");
    expect(slots.held()).toBe(0);
  });
});
