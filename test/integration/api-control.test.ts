import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiRequest, closeRouteDatabase, createCrawlThroughApi, ctx, expectError, getCrawlDetail, openRouteDatabase, url, type RouteContext } from "../helpers/api-routes";
import type { TestDatabase } from "../helpers/test-database";

// The control state machine (lib/store/commands/control-plan.ts) through its four routes:
// route handlers called as plain functions with real Requests, on a real SQLite database.
// app/_server/db.ts reads DATABASE_URL / FORAGE_DATA_DIR on first use: set them first.
let t: TestDatabase;
let crawlsRoute: typeof import("@/app/api/crawls/route");
let crawlRoute: typeof import("@/app/api/crawls/[id]/route");
let control: Record<"pause" | "resume" | "stop" | "cancel", (request: Request, context: RouteContext) => Promise<Response>>;

beforeAll(async () => {
  t = await openRouteDatabase();
  crawlsRoute = await import("@/app/api/crawls/route");
  crawlRoute = await import("@/app/api/crawls/[id]/route");
  control = {
    pause: (await import("@/app/api/crawls/[id]/pause/route")).POST,
    resume: (await import("@/app/api/crawls/[id]/resume/route")).POST,
    stop: (await import("@/app/api/crawls/[id]/stop/route")).POST,
    cancel: (await import("@/app/api/crawls/[id]/cancel/route")).POST,
  };
});

afterAll(() => closeRouteDatabase(t));

async function act(action: keyof typeof control, id: number | string): Promise<Response> {
  return control[action](apiRequest(url(`/api/crawls/${id}/${action}`), { method: "POST" }), ctx(id));
}


describe("crawl control (pause / resume / stop / cancel)", () => {
  async function setRow(id: number, data: Parameters<typeof t.db.crawl.update>[0]["data"]) {
    await t.db.crawl.update({ where: { id }, data });
  }
  const lease = () => ({ workerId: "worker-1", leaseExpiresAt: new Date(Date.now() + 60_000) });

  it("pauses, resumes and stops a queued crawl directly", async () => {
    const id = await createCrawlThroughApi(crawlsRoute);
    expect((await (await act("pause", id)).json()) as object).toMatchObject({ status: "paused", pendingControl: null });
    expect((await (await act("resume", id)).json()) as object).toMatchObject({ status: "queued" });
    const stopped = (await (await act("stop", id)).json()) as Record<string, unknown>;
    expect(stopped).toMatchObject({ status: "finished", stopReason: "user-stop", statusLabel: "Finished: stopped by user" });
    expect(stopped.finishedAt).toEqual(expect.any(String));
    const kinds = (await t.db.crawlEvent.findMany({ where: { crawlId: id }, orderBy: { id: "asc" } })).map((event) => event.kind);
    expect(kinds).toEqual(["created", "paused", "resumed", "stopped"]);
  });

  it("cancels a queued crawl and discards its files", async () => {
    const id = await createCrawlThroughApi(crawlsRoute);
    const folder = path.join(t.config.dataDir, "crawls", String(id), "files");
    fs.mkdirSync(folder, { recursive: true });
    fs.writeFileSync(path.join(folder, "abc"), "data");
    await t.db.storedBody.create({ data: { crawlId: id, sha256: "abc", storagePath: `crawls/${id}/pages/1.pack`, offset: 0, compressedBytes: 24, bytes: 4 } });
    await t.db.target.create({ data: { crawlId: id, url: "https://x.org/a.csv", mime: "text/csv", bytes: 4, sha256: "abc", storagePath: `crawls/${id}/files/abc`, requestSeq: 1 } });
    await t.db.crawlRequest.create({ data: { crawlId: id, seq: 1, kind: "target", method: "GET", url: "https://x.org/a.csv" } });
    const body = (await (await act("cancel", id)).json()) as Record<string, unknown>;
    expect(body).toMatchObject({ status: "cancelled", stopReason: "cancelled", statusLabel: "Cancelled" });
    expect(fs.existsSync(path.join(t.config.dataDir, "crawls", String(id)))).toBe(false);
    expect(await t.db.storedBody.count({ where: { crawlId: id } })).toBe(0);
    expect(await t.db.target.count({ where: { crawlId: id } })).toBe(0);
    expect(await t.db.crawlRequest.count({ where: { crawlId: id } })).toBe(1); // the log stays
  });

  it("refuses to resume a queued crawl", async () => {
    const id = await createCrawlThroughApi(crawlsRoute);
    const error = await expectError(await act("resume", id), 409, "invalid_state");
    expect(error.message).toMatch(/queued, not paused/);
  });

  it.each([
    ["finished", "resume"],
    ["finished", "stop"],
    ["cancelled", "pause"],
    ["failed", "cancel"],
  ] as const)("answers 409 invalid_state for a %s crawl asked to %s, saying why", async (status, action) => {
    const id = await createCrawlThroughApi(crawlsRoute);
    await setRow(id, { status });
    const error = await expectError(await act(action, id), 409, "invalid_state");
    expect(error.message).toContain(status);
    expect(error.message).toContain(`nothing to ${action}`);
    expect((await getCrawlDetail(crawlRoute, id)).status).toBe(status);
  });

  it("leaves the action to the worker that holds a running crawl, through pendingControl", async () => {
    const id = await createCrawlThroughApi(crawlsRoute);
    await setRow(id, { status: "running", startedAt: new Date(), ...lease() });
    expect((await (await act("pause", id)).json()) as object).toMatchObject({ status: "running", pendingControl: "pause" });
    expect((await act("pause", id)).status).toBe(200); // a double click changes nothing
    expect((await (await act("resume", id)).json()) as object).toMatchObject({ status: "running", pendingControl: null });
    expect((await expectError(await act("resume", id), 409, "invalid_state")).message).toMatch(/running, not paused/);
    expect((await (await act("stop", id)).json()) as object).toMatchObject({ pendingControl: "stop" });
    expect((await expectError(await act("pause", id), 409, "invalid_state")).message).toMatch(/already stopping/);
    expect((await (await act("cancel", id)).json()) as object).toMatchObject({ pendingControl: "cancel", status: "running" });
    expect((await expectError(await act("stop", id), 409, "invalid_state")).message).toMatch(/being cancelled/);
    const kinds = (await t.db.crawlEvent.findMany({ where: { crawlId: id } })).map((event) => event.kind);
    expect(kinds.filter((kind) => kind === "control-requested")).toHaveLength(4);
  });

  it("stops a running crawl directly when its worker's lease has expired", async () => {
    const id = await createCrawlThroughApi(crawlsRoute);
    await setRow(id, { status: "running", workerId: "dead", leaseExpiresAt: new Date(Date.now() - 1000) });
    expect((await (await act("stop", id)).json()) as object).toMatchObject({ status: "finished", stopReason: "user-stop", workerId: null, pendingControl: null });
  });

  it("resumes a paused crawl through its worker while held, and re-queues it once released", async () => {
    const held = await createCrawlThroughApi(crawlsRoute);
    await setRow(held, { status: "paused", startedAt: new Date(), ...lease() });
    expect((await (await act("resume", held)).json()) as object).toMatchObject({ status: "paused", pendingControl: "resume" });
    expect((await (await act("pause", held)).json()) as object).toMatchObject({ status: "paused", pendingControl: null });
    expect((await expectError(await act("pause", held), 409, "invalid_state")).message).toMatch(/already paused/);

    const released = await createCrawlThroughApi(crawlsRoute);
    await setRow(released, { status: "paused", startedAt: new Date(), workerId: null, leaseExpiresAt: null });
    expect((await (await act("resume", released)).json()) as object).toMatchObject({ status: "queued", pendingControl: null, workerId: null });
  });

  it("answers 404 for an unknown or malformed crawl id", async () => {
    await expectError(await act("pause", 424242), 404, "not_found");
    await expectError(await act("stop", "x"), 404, "not_found");
  });
});
