import { describe, expect, it } from "vitest";
import { StepWatch, type SlowStep } from "../../lib/crawler/step-watch";

describe("StepWatch", () => {
  it("reports a step that ran past the limit, once, with its name and time", () => {
    let now = 0;
    const slow: SlowStep[] = [];
    const watch = new StepWatch({ limitMs: 100, onSlowStep: (step) => slow.push(step), now: () => now });
    watch.begin("checking links");
    now += 99;
    watch.end();
    watch.begin("checking links");
    now += 250;
    watch.end();
    watch.end(); // nothing runs: nothing to report
    expect(slow).toEqual([{ step: "checking links", ms: 250, limitMs: 100 }]);
    expect(watch.time("choosing", () => ((now += 101), 7))).toBe(7);
    expect(slow.at(-1)).toEqual({ step: "choosing", ms: 101, limitMs: 100 });
  });

  it("drops a step left open by an exception instead of counting the awaits after it", () => {
    let now = 0;
    const slow: SlowStep[] = [];
    const watch = new StepWatch({ limitMs: 100, onSlowStep: (step) => slow.push(step), now: () => now });
    expect(() => watch.time("throwing", () => ((now += 5), JSON.parse("{")))).toThrow(SyntaxError);
    watch.begin("left open");
    now += 10_000; // an await, say
    watch.begin("next");
    now += 1;
    watch.end();
    expect(slow).toEqual([]);
  });
});
