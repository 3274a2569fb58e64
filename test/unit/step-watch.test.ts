import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { STEP_CHECK_LINK } from "../../lib/crawler/engine/crawl-engine";
import { StepWatch, type SlowStep } from "../../lib/crawler/step-watch";
import { page, runTestCrawl, sendRoute, startTestSite, type TestSite } from "../helpers/crawl-fixtures";

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

describe("the engine's steps", () => {
  const links = ["/a", "/b", "/c", "/d"];
  let site: TestSite;
  beforeAll(async () => {
    const routes: Record<string, string> = { "/": page(links) };
    for (const link of links) routes[link] = page(["/"]);
    // HEAD answers take 150 ms: network time inside the link loop, which is no step's.
    site = await startTestSite((req, res) => {
      const answer = () => sendRoute(routes[req.url ?? ""] ? { body: routes[req.url ?? ""]! } : { status: 404, body: "no" }, req, res);
      if (req.method === "HEAD") setTimeout(answer, 150);
      else answer();
    });
  });
  afterAll(() => site.close());

  it("report a link check that holds the event loop, with its real time, and never an await", async () => {
    const slow: SlowStep[] = [];
    let busy = false;
    // Read on every link check: busy, it holds the thread for 60 ms of CPU as a slow pattern would.
    const live = () => {
      if (busy) {
        const end = performance.now() + 60;
        while (performance.now() < end);
      }
      return { delayMs: 0, urlPatterns: [] };
    };
    const calm = await runTestCrawl({ rootUrl: site.rootUrl, strategy: "bfs", politeness: { obeyRobots: false } }, { live, stepWatch: new StepWatch({ limitMs: 40, onSlowStep: (step) => slow.push(step) }) });
    expect(calm.rows.filter((row) => row.method === "HEAD").length).toBeGreaterThan(0); // the HEAD awaits happened
    expect(slow).toEqual([]);

    busy = true;
    await runTestCrawl({ rootUrl: site.rootUrl, strategy: "bfs", politeness: { obeyRobots: false } }, { live, stepWatch: new StepWatch({ limitMs: 40, onSlowStep: (step) => slow.push(step) }) });
    expect(slow.length).toBeGreaterThanOrEqual(links.length);
    for (const step of slow) {
      expect(step.step).toBe(STEP_CHECK_LINK);
      expect(step.ms).toBeGreaterThanOrEqual(60);
    }
  });
});
