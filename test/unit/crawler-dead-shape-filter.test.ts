import { describe, expect, it } from "vitest";
import { DeadShapeFilter, type ParkedLink, urlShape } from "../../lib/crawler/engine/dead-shape-filter";

const link = (n: number): ParkedLink => ({ url: `https://a.org/media/${n}/download`, tagPath: "/html/body/a", anchorText: "", depth: 2, referrer: "https://a.org/list" });

describe("dead URL shapes", () => {
  it("shapes URLs by their digit-free segments, extension and query keys", () => {
    expect(urlShape("https://a.org/media/img/1001")).toBe("/media/img/#");
    expect(urlShape("https://a.org/d/x-80.rdf?id=3&format=ics")).toBe("/d/#.rdf?format=ics&id=#");
  });

  it("dies after three useless answers, parks the shape's new links and lets the 4th, 8th, 16th … through as probes", () => {
    const filter = new DeadShapeFilter();
    expect(filter.record(link(1).url, false)).toBeNull();
    expect(filter.record(link(2).url, false)).toBeNull();
    expect(filter.record(link(3).url, false)).toEqual({ kind: "died", shape: "/media/#/download" });
    expect(filter.isDead(link(99).url)).toBe(true);
    expect(filter.admit({ ...link(4), url: "https://a.org/list/2" })).toBe(true); // another shape
    const admitted = Array.from({ length: 16 }, (_, i) => filter.admit(link(10 + i)));
    expect(admitted.flatMap((ok, i) => (ok ? [i + 1] : []))).toEqual([4, 8, 16]);
    expect(filter.parkedCount).toBe(13);
    // A probe answers useless: the shape stays dead, nothing comes back.
    expect(filter.record(link(13).url, false)).toBeNull();
    // A probe answers a target: the shape revives with its parked links, in arrival order.
    const change = filter.record(link(17).url, true);
    expect(change).toMatchObject({ kind: "revived", shape: "/media/#/download" });
    expect(change?.kind === "revived" && change.parked.map((parked) => parked.url)).toEqual(
      [10, 11, 12, 14, 15, 16, 18, 19, 20, 21, 22, 23, 24].map((n) => link(n).url),
    );
    expect([filter.isDead(link(99).url), filter.parkedCount, filter.admit(link(30))]).toEqual([false, 0, true]);
    // Alive for good: useless answers no longer count.
    for (let i = 0; i < 5; i++) filter.record(link(40 + i).url, false);
    expect(filter.isDead(link(99).url)).toBe(false);
  });

  it("keeps parked links and probe counts through a checkpoint, and reads checkpoints written before parking", () => {
    const filter = new DeadShapeFilter();
    for (let n = 1; n <= 3; n++) filter.record(link(n).url, false);
    for (let n = 10; n < 15; n++) filter.admit(link(n)); // parked 10, 11, 12; probe 13; parked 14
    const restored = DeadShapeFilter.fromState(JSON.parse(JSON.stringify(filter.toState())));
    expect(restored.parkedCount).toBe(4);
    expect([6, 7, 8, 9].map((n) => restored.admit(link(20 + n)))).toEqual([false, false, true, false]); // arrivals 6–9: the 8th probes
    const older = DeadShapeFilter.fromState({ useful: [], useless: [["/media/#/download", 3]] });
    expect([older.isDead(link(1).url), older.parkedCount]).toEqual([true, 0]);
  });
});
