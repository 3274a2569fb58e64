import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../../lib/store";
import { dialectOf } from "../../lib/store/dialect";
import { claimExpiredCrawl, claimNextCrawl, failExpiredLeases, heartbeatLeases, releaseLease } from "../../lib/worker/leases";
import { createTestDatabase, describePostgres, type TestBackend, type TestDatabase } from "../helpers/test-database";

// The queue and lease functions of lib/worker/leases.ts on PostgreSQL and SQLite, with the same
// expectations. Racing claimers use two Prisma clients (two connection pools) where the dialect
// allows it (PostgreSQL); on SQLite two clients of one process would deadlock inside
// better-sqlite3, so its claimers interleave on one client (as worker.test.ts does).
// Expired leases are backdated rows, not sleeps (pg-boss heartbeatTest).

const LEASE_MS = 60_000;

function leaseSuite(backend: TestBackend) {
  let t: TestDatabase;
  let clients: [Db, Db];

  beforeAll(async () => {
    t = await createTestDatabase({ backend });
    clients = dialectOf(t.config).concurrentClientsInOneProcess ? [t.db, await t.openClient()] : [t.db, t.db];
    for (const id of ["w1", "w2"]) await t.db.worker.create({ data: { id, hostname: "test", pid: 1 } });
  });
  afterAll(async () => t?.dispose());

  async function queue(count: number): Promise<number[]> {
    const ids: number[] = [];
    for (let i = 0; i < count; i++) {
      ids.push((await t.db.crawl.create({ data: { rootUrl: `http://127.0.0.1:9/${i}`, config: "{}", strategy: "sb", seed: i } })).id);
    }
    return ids;
  }

  const rows = (ids: number[]) =>
    t.db.crawl.findMany({ where: { id: { in: ids } }, orderBy: { id: "asc" }, select: { id: true, status: true, workerId: true, leaseExpiresAt: true } });

  it("never hands one crawl to two of 20 racing claimers, and drains the queue", async () => {
    const ids = await queue(8);
    const claims = await Promise.all(
      Array.from({ length: 20 }, (_, i) => claimNextCrawl(clients[i % 2]!, `claimer-${i}`, LEASE_MS).then((id) => ({ id, claimer: `claimer-${i}` }))),
    );
    const won = claims.filter((claim): claim is { id: number; claimer: string } => claim.id !== null);
    expect(new Set(won.map((claim) => claim.id)).size).toBe(won.length);
    expect(won.length).toBeGreaterThan(0);
    // Each claimer that got a crawl holds it, and only it.
    const byId = new Map((await rows(ids)).map((row) => [row.id, row]));
    for (const claim of won) expect(byId.get(claim.id)).toMatchObject({ status: "running", workerId: claim.claimer });
    // Claimers that lost five races in a row give up (null) while crawls are left: the next poll takes them.
    let next: number | null;
    while ((next = await claimNextCrawl(clients[1], "late", LEASE_MS)) !== null) won.push({ id: next, claimer: "late" });
    expect(won.map((claim) => claim.id).sort((a, b) => a - b)).toEqual(ids);
    expect((await rows(ids)).every((row) => row.status === "running" && row.leaseExpiresAt! > new Date())).toBe(true);
  });

  it("claims the oldest queued crawl first", async () => {
    const [older, newer] = await queue(2);
    await t.db.crawl.update({ where: { id: newer! }, data: { createdAt: new Date(Date.now() - 120_000) } });
    await t.db.crawl.update({ where: { id: older! }, data: { createdAt: new Date(Date.now() - 60_000) } });
    expect(await claimNextCrawl(clients[0], "w1", LEASE_MS)).toBe(newer);
    expect(await claimNextCrawl(clients[1], "w2", LEASE_MS)).toBe(older);
  });

  it("heartbeats extend only the caller's own leases and its worker row", async () => {
    const [mine, theirs] = await queue(2);
    const soon = new Date(Date.now() + 1_000);
    await t.db.crawl.update({ where: { id: mine! }, data: { status: "running", workerId: "w1", leaseExpiresAt: soon } });
    await t.db.crawl.update({ where: { id: theirs! }, data: { status: "running", workerId: "w2", leaseExpiresAt: soon } });
    const before = await t.db.worker.findUniqueOrThrow({ where: { id: "w1" } });
    await heartbeatLeases(clients[0], "w1", [mine!, theirs!], LEASE_MS);
    const [a, b] = await rows([mine!, theirs!]);
    expect(a!.leaseExpiresAt!.getTime()).toBeGreaterThan(Date.now() + LEASE_MS / 2);
    expect(b!.leaseExpiresAt).toEqual(soon);
    expect((await t.db.worker.findUniqueOrThrow({ where: { id: "w1" } })).heartbeatAt.getTime()).toBeGreaterThanOrEqual(before.heartbeatAt.getTime());
    // Ended: `theirs` would otherwise expire a second later, and the sweeps of the next tests
    // (which count what they change) would take it for one of theirs.
    await t.db.crawl.updateMany({ where: { id: { in: [mine!, theirs!] } }, data: { status: "finished", workerId: null, leaseExpiresAt: null } });
  });

  it("releases a lease only for its holder", async () => {
    const [id] = await queue(1);
    await t.db.crawl.update({ where: { id: id! }, data: { status: "running", workerId: "w1", leaseExpiresAt: new Date(Date.now() + LEASE_MS) } });
    await releaseLease(clients[1], id!, "w2");
    expect((await rows([id!]))[0]).toMatchObject({ workerId: "w1" });
    await releaseLease(clients[0], id!, "w1");
    expect((await rows([id!]))[0]).toMatchObject({ workerId: null, leaseExpiresAt: null });
  });

  it("fails crawls whose lease expired without a checkpoint, and lets exactly one racer resume one with a checkpoint", async () => {
    const [dead, alive, resumable] = await queue(3);
    const past = new Date(Date.now() - 5_000);
    await t.db.crawl.update({ where: { id: dead! }, data: { status: "running", workerId: "gone", leaseExpiresAt: past } });
    await t.db.crawl.update({ where: { id: alive! }, data: { status: "paused", workerId: "w1", leaseExpiresAt: new Date(Date.now() + LEASE_MS) } });
    await t.db.crawl.update({ where: { id: resumable! }, data: { status: "paused", workerId: "gone", leaseExpiresAt: past } });
    await t.db.crawlCheckpoint.create({ data: { crawlId: resumable!, requests: 10, version: 1, state: Buffer.from("state") } });

    // Both clients sweep at once: each expired crawl changes once.
    const swept = await Promise.all([failExpiredLeases(clients[0]), failExpiredLeases(clients[1])]);
    expect(swept[0] + swept[1]).toBe(1);
    const [deadRow, aliveRow, resumableRow] = await rows([dead!, alive!, resumable!]);
    expect(deadRow).toMatchObject({ status: "failed", workerId: null, leaseExpiresAt: null });
    expect(aliveRow).toMatchObject({ status: "paused", workerId: "w1" });
    expect(resumableRow).toMatchObject({ status: "paused", workerId: "gone" });

    const claims = await Promise.all(Array.from({ length: 10 }, (_, i) => claimExpiredCrawl(clients[i % 2]!, `resumer-${i}`, LEASE_MS)));
    const won = claims.flatMap((claim, i) => (claim ? [{ ...claim, by: `resumer-${i}` }] : []));
    expect(won).toHaveLength(1);
    expect(won[0]).toMatchObject({ id: resumable, status: "paused" });
    expect((await rows([resumable!]))[0]).toMatchObject({ status: "paused", workerId: won[0]!.by });
  });

  it("leaves alone the crawls the sweeping worker runs itself: a heartbeat late after a stall fails or restarts nothing", async () => {
    const [own, ownWithCheckpoint, dead] = await queue(3);
    const past = new Date(Date.now() - 5_000);
    for (const id of [own!, ownWithCheckpoint!]) await t.db.crawl.update({ where: { id }, data: { status: "running", workerId: "w1", leaseExpiresAt: past } });
    await t.db.crawl.update({ where: { id: dead! }, data: { status: "running", workerId: "gone", leaseExpiresAt: past } });
    await t.db.crawlCheckpoint.create({ data: { crawlId: ownWithCheckpoint!, requests: 10, version: 1, state: Buffer.from("state") } });

    expect(await failExpiredLeases(t.db, [own!, ownWithCheckpoint!])).toBe(1);
    expect(await claimExpiredCrawl(t.db, "w1", LEASE_MS, [own!, ownWithCheckpoint!])).toBeNull();
    expect(await rows([own!, ownWithCheckpoint!, dead!])).toMatchObject([
      { status: "running", workerId: "w1" },
      { status: "running", workerId: "w1" },
      { status: "failed", workerId: null },
    ]);
    // Another worker still takes over the one with a checkpoint: to it, w1 looks dead.
    expect(await claimExpiredCrawl(t.db, "w2", LEASE_MS)).toMatchObject({ id: ownWithCheckpoint, status: "running" });
    await t.db.crawl.updateMany({ where: { id: { in: [own!, ownWithCheckpoint!] } }, data: { status: "finished", workerId: null, leaseExpiresAt: null } });
  });
}

describePostgres("leases on PostgreSQL (two clients racing)", () => leaseSuite("postgres"));
describe("leases on SQLite (one client, interleaved)", () => leaseSuite("sqlite"));
