import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiRequest, closeRouteDatabase, ctx, openRouteDatabase, type ErrorBody, type RouteContext } from "../helpers/api-routes";
import type { TestDatabase } from "../helpers/test-database";

// Route handlers called as plain functions with real Requests, on a real SQLite database.
let t: TestDatabase;
type Get = (request: Request, context: RouteContext) => Promise<Response>;
let routes: Record<"metrics" | "groups" | "earlyStop" | "targets" | "byMime" | "requests" | "events", Get>;

beforeAll(async () => {
  t = await openRouteDatabase();
  routes = {
    metrics: (await import("@/app/api/crawls/[id]/metrics/route")).GET,
    groups: (await import("@/app/api/crawls/[id]/groups/route")).GET,
    earlyStop: (await import("@/app/api/crawls/[id]/early-stop/route")).GET,
    targets: (await import("@/app/api/crawls/[id]/targets/route")).GET,
    byMime: (await import("@/app/api/crawls/[id]/targets/by-mime/route")).GET,
    requests: (await import("@/app/api/crawls/[id]/requests/route")).GET,
    events: (await import("@/app/api/crawls/[id]/events/route")).GET,
  };
});

afterAll(() => closeRouteDatabase(t));

async function call<T>(route: keyof typeof routes, id: number | string, query = ""): Promise<{ status: number; body: T }> {
  const name = route === "byMime" ? "targets/by-mime" : route === "earlyStop" ? "early-stop" : route;
  const response = await routes[route](apiRequest(`http://localhost/api/crawls/${id}/${name}${query}`), ctx(id));
  return { status: response.status, body: (await response.json()) as T };
}

async function ok<T>(route: keyof typeof routes, id: number | string, query = ""): Promise<T> {
  const { status, body } = await call<T>(route, id, query);
  expect(status, JSON.stringify(body)).toBe(200);
  return body;
}

async function newCrawl(config: object = { rootUrl: "https://live.org/" }): Promise<number> {
  const crawl = await t.db.crawl.create({ data: { rootUrl: "https://live.org/", config: JSON.stringify(config), strategy: "sb", seed: 1 } });
  return crawl.id;
}

interface MetricPoint {
  requests: number;
  targets: number;
  targetBytes: number;
  slope: number | null;
  at: string;
}

describe("GET /api/crawls/:id/metrics", () => {
  let id: number;
  beforeAll(async () => {
    id = await newCrawl();
    const data = Array.from({ length: 10_000 }, (_, i) => ({
      crawlId: id,
      requests: (i + 1) * 3,
      targets: i,
      targetBytes: BigInt(i) * 1000n,
      nonTargetBytes: 5n,
      slope: (i + 1) % 100 === 0 ? 0.1 : null,
      ema: (i + 1) % 100 === 0 ? 0.2 : null,
      patience: (i + 1) % 100 === 0 ? 0 : null,
    }));
    await t.db.metricPoint.createMany({ data });
  });

  it("downsamples 10 000 points to at most 2 000, keeping the first and the last, in order", async () => {
    const started = performance.now();
    const { points } = await ok<{ points: MetricPoint[] }>("metrics", id, "?maxPoints=2000");
    const elapsedMs = performance.now() - started;
    expect(points.length).toBeLessThanOrEqual(2000);
    expect(points.length).toBeGreaterThan(1500);
    expect(points[0]).toMatchObject({ requests: 3, targets: 0, targetBytes: 0 });
    expect(points.at(-1)).toMatchObject({ requests: 30_000, targets: 9999, targetBytes: 9_999_000 });
    for (let i = 1; i < points.length; i++) expect(points[i]!.requests).toBeGreaterThan(points[i - 1]!.requests);
    expect(points[0]!.at).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(elapsedMs).toBeLessThan(2000);
  });

  it.each([2, 3, 7, 1999, 9999])("never returns more than maxPoints=%i", async (maxPoints) => {
    const { points } = await ok<{ points: MetricPoint[] }>("metrics", id, `?maxPoints=${maxPoints}`);
    expect(points.length).toBeLessThanOrEqual(maxPoints);
    expect(points[0]?.requests).toBe(3);
    expect(points.at(-1)?.requests).toBe(30_000);
  });

  it("defaults to 2 000 points and returns only points after `after` for live polling", async () => {
    expect((await ok<{ points: MetricPoint[] }>("metrics", id)).points.length).toBeLessThanOrEqual(2000);
    const { points } = await ok<{ points: MetricPoint[] }>("metrics", id, "?after=29970");
    expect(points.map((point) => point.requests)).toEqual([29_973, 29_976, 29_979, 29_982, 29_985, 29_988, 29_991, 29_994, 29_997, 30_000]);
    expect((await ok<{ points: MetricPoint[] }>("metrics", id, "?after=30000")).points).toEqual([]);
  });

  it.each([
    ["?maxPoints=1", "maxPoints"],
    ["?maxPoints=lots", "maxPoints"],
    ["?after=x", "after"],
    ["?from=3", "from"],
  ])("refuses %s with 400", async (query, field) => {
    const { status, body } = await call<ErrorBody>("metrics", id, query);
    expect(status).toBe(400);
    expect(Object.keys(body.error.fields ?? {})).toEqual([field]);
  });

  it("answers 404 for an unknown crawl instead of an empty list", async () => {
    const { status, body } = await call<ErrorBody>("metrics", 987_654);
    expect(status).toBe(404);
    expect(body.error.code).toBe("not_found");
  });

  it("lists early-stopping windows (points with a slope) and the crawl's rule", async () => {
    const body = await ok<{ enabled: boolean; windowRequests: number; patienceWindows: number; windows: { requests: number; slope: number }[] }>("earlyStop", id);
    expect(body.enabled).toBe(true);
    expect(body.windowRequests).toBeGreaterThan(0);
    expect(body.windows).toHaveLength(100);
    expect(body.windows[0]).toEqual({ requests: 300, slope: 0.1, ema: 0.2, patience: 0 });
  });

  it("reads the early-stopping rule from the crawl's settings", async () => {
    const other = await newCrawl({ rootUrl: "https://live.org/", params: { earlyStop: false, earlyStopPatienceWindows: 4 } });
    expect(await ok("earlyStop", other)).toMatchObject({ enabled: false, patienceWindows: 4, windows: [] });
  });
});

describe("GET /api/crawls/:id/groups", () => {
  it("sorts groups by the asked column, limits them and counts them all", async () => {
    const id = await newCrawl();
    await t.db.tagPathGroup.createMany({
      data: [
        { crawlId: id, groupId: 0, sampleTagPath: "/html/body/a", members: 10, available: 0, selections: 5, meanReward: 0.5, totalReward: 3 },
        { crawlId: id, groupId: 1, sampleTagPath: "/html/body/ul/li/a", members: 40, available: 12, selections: 9, meanReward: 2.5, totalReward: 20 },
        { crawlId: id, groupId: 2, sampleTagPath: "/html/body/nav/a", members: 3, available: 1, selections: 30, meanReward: 0.1, totalReward: 1 },
      ],
    });
    type Groups = { groups: { groupId: number; sleeping: boolean }[]; total: number };
    const byMean = await ok<Groups>("groups", id);
    expect(byMean.groups.map((group) => group.groupId)).toEqual([1, 0, 2]);
    expect(byMean.total).toBe(3);
    expect(byMean.groups.find((group) => group.groupId === 0)?.sleeping).toBe(true);
    expect((await ok<Groups>("groups", id, "?sort=selections&limit=2")).groups.map((group) => group.groupId)).toEqual([2, 1]);
    expect((await ok<Groups>("groups", id, "?sort=members")).groups.map((group) => group.groupId)).toEqual([1, 0, 2]);
    const bad = await call<ErrorBody>("groups", id, "?sort=random");
    expect(bad.status).toBe(400);
    expect(bad.body.error.fields?.sort).toMatch(/must be one of meanReward/);
  });
});

describe("paged lists", () => {
  let id: number;
  beforeAll(async () => {
    id = await newCrawl();
    await t.db.target.createMany({
      data: Array.from({ length: 250 }, (_, i) => ({
        crawlId: id,
        url: `https://live.org/files/${i}.${i % 5 === 0 ? "pdf" : "csv"}`,
        mime: i % 5 === 0 ? "application/pdf" : "text/csv",
        bytes: 100 + i,
        sha256: i.toString(16).padStart(64, "0"),
        storagePath: `crawls/${id}/files/${i}`,
        requestSeq: i + 1,
      })),
    });
    await t.db.crawlRequest.createMany({
      data: Array.from({ length: 230 }, (_, i) => ({
        crawlId: id,
        seq: i + 1,
        kind: "page",
        method: "GET",
        url: `https://live.org/p/${i}`,
        outcome: i % 10 === 0 ? "error" : "ok",
        error: i % 10 === 0 ? "timeout" : null,
      })),
    });
    await t.db.crawlEvent.createMany({
      data: Array.from({ length: 25 }, (_, i) => ({ crawlId: id, level: "info", kind: "note", message: `event ${i}` })),
    });
  });

  type TargetsPage = { targets: { id: number; url: string; mime: string; fileUrl: string }[]; nextCursor: string | null };

  it("pages targets in collection order without duplicates or gaps, even while new ones arrive", async () => {
    const seen: number[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page: TargetsPage = await ok<TargetsPage>("targets", id, `?limit=100${cursor ? `&cursor=${cursor}` : ""}`);
      seen.push(...page.targets.map((target) => target.id));
      cursor = page.nextCursor;
      if (++pages === 1) {
        // The worker adds a target between two page reads.
        await t.db.target.create({ data: { crawlId: id, url: "https://live.org/late.csv", mime: "text/csv", bytes: 1, sha256: "f".repeat(64), storagePath: "x", requestSeq: 999 } });
      }
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toHaveLength(251);
    expect(new Set(seen).size).toBe(251);
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
    const all = await t.db.target.findMany({ where: { crawlId: id }, orderBy: { id: "asc" }, select: { id: true } });
    expect(seen).toEqual(all.map((row) => row.id));
  });

  it("ends on an exact page boundary with a null cursor", async () => {
    const first = await ok<TargetsPage>("targets", id, "?limit=251");
    expect(first.targets).toHaveLength(251);
    expect(first.nextCursor).toBeNull();
  });

  it("filters targets by MIME type and gives each its file URL", async () => {
    const page = await ok<TargetsPage>("targets", id, "?mime=APPLICATION/PDF&limit=1000");
    expect(page.targets).toHaveLength(50);
    expect(page.targets.every((target) => target.mime === "application/pdf")).toBe(true);
    expect(page.targets[0]?.fileUrl).toBe(`/api/crawls/${id}/targets/${page.targets[0]?.id}/file`);
  });

  it("counts targets per MIME type", async () => {
    const { mimeTypes } = await ok<{ mimeTypes: { mime: string; count: number; bytes: number }[] }>("byMime", id);
    expect(mimeTypes[0]).toMatchObject({ mime: "text/csv", count: 201 });
    expect(mimeTypes[1]).toMatchObject({ mime: "application/pdf", count: 50 });
    const pdfBytes = Array.from({ length: 50 }, (_, k) => 100 + k * 5).reduce((a, b) => a + b, 0);
    expect(mimeTypes[1]?.bytes).toBe(pdfBytes);
  });

  it.each([["?cursor=abc"], ["?cursor=-4"], ["?cursor=0"], ["?limit=0"], ["?limit=1001"], ["?mime="], ["?page=2"]])(
    "refuses targets%s with 400 invalid_request",
    async (query) => {
      const { status, body } = await call<ErrorBody>("targets", id, query);
      expect(status).toBe(400);
      expect(body.error.code).toBe("invalid_request");
    },
  );

  it("pages requests newest first and filters them by outcome", async () => {
    type RequestsPage = { requests: { id: number; seq: number; outcome: string; isTarget: boolean; startedAt: string }[]; nextCursor: string | null };
    const seen: number[] = [];
    let cursor: string | null = null;
    do {
      const page: RequestsPage = await ok<RequestsPage>("requests", id, `?limit=50${cursor ? `&cursor=${cursor}` : ""}`);
      seen.push(...page.requests.map((request) => request.seq));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toEqual(Array.from({ length: 230 }, (_, i) => 230 - i));
    const errors = await ok<RequestsPage>("requests", id, "?outcome=error&limit=1000");
    expect(errors.requests).toHaveLength(23);
    expect(errors.requests.every((request) => request.outcome === "error")).toBe(true);
    const bad = await call<ErrorBody>("requests", id, "?outcome=weird");
    expect(bad.status).toBe(400);
    expect(bad.body.error.fields?.outcome).toMatch(/must be one of ok/);
  });

  it("pages events newest first", async () => {
    type EventsPage = { events: { id: number; message: string; at: string }[]; nextCursor: string | null };
    const first = await ok<EventsPage>("events", id, "?limit=10");
    expect(first.events[0]?.message).toBe("event 24");
    const second = await ok<EventsPage>("events", id, `?limit=10&cursor=${first.nextCursor}`);
    expect(second.events[0]?.message).toBe("event 14");
    const third = await ok<EventsPage>("events", id, `?limit=10&cursor=${second.nextCursor}`);
    expect(third.events.map((event) => event.message)).toEqual(["event 4", "event 3", "event 2", "event 1", "event 0"]);
    expect(third.nextCursor).toBeNull();
  });

  it.each(["targets", "requests", "events", "groups", "byMime", "earlyStop"] as const)("%s answers 404 for a non-numeric crawl id", async (route) => {
    const { status, body } = await call<ErrorBody>(route, "12abc");
    expect(status).toBe(404);
    expect(body.error.code).toBe("not_found");
  });
});
