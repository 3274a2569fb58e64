import { describe, expect, it } from "vitest";
import { ContextSlots } from "../../lib/render/context-slots";

describe("ContextSlots", () => {
  it("grants at most size slots, the others in the order they asked", async () => {
    const slots = new ContextSlots(2);
    const first = await slots.acquire();
    const second = await slots.acquire();
    const granted: string[] = [];
    const third = slots.acquire().then((release) => (granted.push("third"), release));
    const fourth = slots.acquire().then((release) => (granted.push("fourth"), release));
    await Promise.resolve();
    expect(slots.held()).toBe(2);
    expect(slots.waiting()).toBe(2);
    expect(granted).toEqual([]);

    first();
    first(); // a second release of the same slot changes nothing
    const releaseThird = await third;
    expect(granted).toEqual(["third"]);
    expect(slots.held()).toBe(2);
    second();
    const releaseFourth = await fourth;
    expect(granted).toEqual(["third", "fourth"]);
    releaseThird();
    releaseFourth();
    expect(slots.held()).toBe(0);
  });

  it("lets a waiter leave the line when its signal aborts, and refuses an aborted one at once", async () => {
    const slots = new ContextSlots(1);
    const held = await slots.acquire();
    const controller = new AbortController();
    const leaving = slots.acquire(controller.signal);
    const staying = slots.acquire();
    controller.abort();
    await expect(leaving).rejects.toThrow("aborted");
    expect(slots.waiting()).toBe(1);
    held();
    const release = await staying;
    expect(slots.held()).toBe(1);
    release();
    await expect(slots.acquire(controller.signal)).rejects.toThrow("aborted");
    expect(slots.held()).toBe(0);
  });
});
