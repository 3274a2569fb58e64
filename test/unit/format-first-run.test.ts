import { describe, expect, it } from "vitest";
import { targetNote } from "@/components/cockpit/target-note";
import { crawlDisplayName, strategyDisplayName } from "@/components/ui/crawl-name";

describe("crawlDisplayName", () => {
  it("writes a replay's strategy by its display name", () => {
    expect(crawlDisplayName("Replay of crawl 4 (bfs)")).toBe("Replay of crawl 4 (Breadth-first)");
    expect(crawlDisplayName("Replay of crawl 4 (tp-off)")).toBe("Replay of crawl 4 (Tag paths offline)");
    expect(crawlDisplayName("Replay of crawl 4 (sb-oracle)")).toBe("Replay of crawl 4 (SB-ORACLE)");
  });

  it("leaves other names alone, brackets included", () => {
    expect(crawlDisplayName("Statistics (weekly)")).toBe("Statistics (weekly)");
    expect(crawlDisplayName("Demo: statistics office")).toBe("Demo: statistics office");
  });

  it("gives every strategy's short display name", () => {
    expect(strategyDisplayName("dfs")).toBe("Depth-first");
    expect(strategyDisplayName("unknown")).toBe("unknown");
  });
});

describe("targetNote", () => {
  it("explains a download typed as a target that answered a page", () => {
    expect(targetNote({ kind: "target", isTarget: false, outcome: "ok", mime: "text/html" })).toBe("Typed as a target from its link, but the answer was HTML: not kept");
  });

  it("explains a page kept because HTML is a target type", () => {
    expect(targetNote({ kind: "page", isTarget: true, outcome: "ok", mime: "text/html" })).toBe("Kept: HTML is one of this crawl's target types");
    expect(targetNote({ kind: "target", isTarget: true, outcome: "ok", mime: "text/html" })).toBe("Kept: HTML is one of this crawl's target types");
  });

  it("says nothing when kind and result agree, or nothing came back", () => {
    expect(targetNote({ kind: "target", isTarget: true, outcome: "ok", mime: "text/csv" })).toBeNull();
    expect(targetNote({ kind: "page", isTarget: false, outcome: "ok", mime: "text/html" })).toBeNull();
    expect(targetNote({ kind: "target", isTarget: false, outcome: "error", mime: null })).toBeNull();
  });
});
