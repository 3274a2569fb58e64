/** The latency histogram's route label stays bounded whatever paths clients send. */
import { describe, expect, it } from "vitest";
import { foldPath, MAX_ROUTES, RouteLabels } from "../../lib/observability/route-label";

describe("route labels", () => {
  it("folds ids, collapses build assets and names unknown paths unmatched", () => {
    expect(foldPath("/api/crawls/17/targets")).toBe("/api/crawls/:id/targets");
    expect(foldPath("/crawls/3")).toBe("/crawls/:id");
    expect(foldPath("/_next/static/chunks/abc123.js")).toBe("/_next");
    expect(foldPath("/api/harvests/12/events")).toBe("/api/harvests/:id/events");
    const labels = new RouteLabels();
    expect(labels.label("/no-such-page-4242", 404)).toBe("unmatched");
  });

  it("answers 'other' once MAX_ROUTES distinct labels exist", () => {
    const labels = new RouteLabels();
    const seen = new Set<string>();
    for (let i = 0; i < MAX_ROUTES + 50; i++) seen.add(labels.label(`/page-${String.fromCharCode(97 + (i % 26))}${i}x/y`, 200));
    expect(seen.size).toBe(MAX_ROUTES + 1);
    expect(seen.has("other")).toBe(true);
  });
});
