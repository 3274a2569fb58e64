/**
 * The sign-in throttle attacked the way a guesser would: guesses sent all at once, a stranger
 * failing on purpose to lock the owner out, a flood of other emails to push a throttled one out
 * of memory, and the same attack spread over two dashboard processes sharing PostgreSQL. Route
 * handlers are called as functions with the client-address header the dashboard server sets
 * (test/e2e/sign-in-flood.test.ts attacks the running server itself).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLIENT_ADDRESS_HEADER } from "../../lib/api/client-address";
import { toErrorResponse } from "../../lib/api/responses";
import { listAuditEvents } from "../../lib/auth/audit-log";
import { passwordHashesRun } from "../../lib/auth/passwords";
import { SignInThrottle, type SignInAttempt } from "../../lib/auth/sign-in-throttle";
import { openSignInThrottle, type OpenSignInThrottle } from "../../lib/auth/sign-in-throttle-for";
import { TooManyRequestsError } from "../../lib/errors";
import { apiRequest, closeRouteDatabase, openRouteDatabase, url } from "../helpers/api-routes";
import { createTestAccount, type TestAccount } from "../helpers/test-accounts";
import { createTestDatabase, describePostgres, type TestDatabase } from "../helpers/test-database";

let t: TestDatabase;
let signIn: typeof import("@/app/api/auth/sign-in/route");

beforeAll(async () => {
  t = await openRouteDatabase();
  signIn = await import("@/app/api/auth/sign-in/route");
});

afterAll(async () => {
  await closeRouteDatabase(t);
});

const attempt = (email: string, password: string, address: string) =>
  signIn.POST(
    apiRequest(url("/api/auth/sign-in"), { method: "POST", anonymous: true, body: JSON.stringify({ email, password }), headers: { [CLIENT_ADDRESS_HEADER]: address } }),
  );

const sessionsOf = (account: TestAccount) => t.db.session.count({ where: { userId: account.user.id } });

describe("guesses sent at once", () => {
  it("checks only the first few of 300 simultaneous guesses: the right one, sent 300th, does not sign in", async () => {
    const victim = await createTestAccount(t.db, { email: "parallel@forage.test", role: "admin" });
    const sessionsBefore = await sessionsOf(victim);
    const hashesBefore = passwordHashesRun();
    const guesses = Array.from({ length: 300 }, (_, i) => (i === 299 ? victim.password : `wrong-guess-${i}-xxxx`));
    const answers = await Promise.all(guesses.map((password) => attempt(victim.user.email, password, "203.0.113.7")));
    const statuses = answers.map((answer) => answer.status);

    expect(statuses[299]).toBe(429);
    expect(statuses.filter((status) => status === 200)).toHaveLength(0);
    expect(statuses.filter((status) => status === 429).length).toBeGreaterThanOrEqual(290);
    // The refused ones cost no Argon2 work: they were refused before the password was looked at.
    expect(passwordHashesRun() - hashesBefore).toBeLessThanOrEqual(5);
    expect(Number(answers[299]!.headers.get("retry-after"))).toBeGreaterThan(0);

    // Sent alone afterwards, the right password is still refused from that address.
    const later = await attempt(victim.user.email, victim.password, "203.0.113.7");
    expect(later.status).toBe(429);
    expect(await sessionsOf(victim)).toBe(sessionsBefore);
  });
});

describe("a stranger cannot lock the owner out", () => {
  it("lets the owner sign in from another address after a stranger's ten wrong guesses", async () => {
    const owner = await createTestAccount(t.db, { email: "owner@forage.test", role: "admin" });
    for (let i = 0; i < 10; i++) expect([401, 429]).toContain((await attempt(owner.user.email, `stranger-${i}-xxxx`, "198.51.100.66")).status);
    const mine = await attempt(owner.user.email, owner.password, "192.0.2.10");
    expect(mine.status).toBe(200);
  });

  it("only paces the account when ten addresses each guess wrong, and the owner still signs in", async () => {
    const owner = await createTestAccount(t.db, { email: "paced@forage.test", role: "member" });
    for (let i = 0; i < 10; i++) expect((await attempt(owner.user.email, `botnet-${i}-xxxx`, `198.51.100.${100 + i}`)).status).toBe(401);
    // Paced: a second attempt right behind the first waits its turn (429 with a short Retry-After).
    const [first, second] = await Promise.all([attempt(owner.user.email, `botnet-x-xxxx`, "198.51.100.120"), attempt(owner.user.email, `botnet-y-xxxx`, "198.51.100.121")]);
    expect([first.status, second.status].sort()).toEqual([401, 429]);
    const paced = first.status === 429 ? first : second;
    expect(Number(paced.headers.get("retry-after"))).toBeLessThanOrEqual(2);

    // Never locked: once the pace allows, the owner gets in, from a fresh address.
    let mine = await attempt(owner.user.email, owner.password, "192.0.2.20");
    for (let tries = 0; mine.status === 429 && tries < 10; tries++) {
      await new Promise((resolve) => setTimeout(resolve, Number(mine.headers.get("retry-after")) * 1000));
      mine = await attempt(owner.user.email, owner.password, "192.0.2.20");
    }
    expect(mine.status).toBe(200);
  });

  it("records sign-ins, failures and the slow-downs in the audit log with the client's address", async () => {
    const account = await createTestAccount(t.db, { email: "audited@forage.test", role: "member" });
    // Five failures from one address (three may start a second: a refused one is retried when Retry-After says).
    let failures = 0;
    for (let tries = 0; failures < 5 && tries < 20; tries++) {
      const answer = await attempt(account.user.email, `audit-${tries}-xxxx`, "2001:db8:1:2::7");
      if (answer.status === 401) failures++;
      else await new Promise((resolve) => setTimeout(resolve, Number(answer.headers.get("retry-after")) * 1000));
    }
    expect(failures).toBe(5);
    expect((await attempt(account.user.email, account.password, "192.0.2.30")).status).toBe(200);
    const events = await listAuditEvents(t.db, { actions: ["sign-in", "sign-in-failed", "sign-in-slowed"], limit: 500 });
    const failed = events.filter((event) => event.action === "sign-in-failed" && event.subject === account.user.email);
    expect(failed).toHaveLength(5);
    expect(failed.every((event) => event.address === "2001:db8:1:2::7")).toBe(true);
    expect(events.find((event) => event.action === "sign-in" && event.actorEmail === account.user.email)?.address).toBe("192.0.2.30");
    const slowed = events.filter((event) => event.action === "sign-in-slowed" && event.address === "2001:db8:1:2::7");
    expect(slowed).toHaveLength(1);
    expect(slowed[0]!.details).toMatchObject({ delaySecs: 10, attempts: 5 });
  });
});

describe("memory", () => {
  /** A reservation's outcome: "ok", or the status the API answers its refusal with. */
  const tryReserve = (throttle: SignInThrottle, attempt: SignInAttempt) =>
    throttle.reserve(attempt).then(
      () => "ok",
      (error: unknown) => toErrorResponse(error).status,
    );

  it("keeps a delayed address and a paced account through a flood of 10,000 other emails and addresses", async () => {
    const throttle = await SignInThrottle.create({ kind: "memory" });
    const guesser: SignInAttempt = { email: "target@forage.test", accountExists: true, address: "203.0.113.50" };
    for (let i = 0; i < 5; i++) expect(await tryReserve(throttle, guesser)).toBe("ok");
    for (let i = 0; i < 5; i++) expect(await tryReserve(throttle, { ...guesser, address: `198.18.0.${i}` })).toBe("ok");
    expect(await tryReserve(throttle, guesser)).toBe(429);

    for (let i = 0; i < 10_000; i++) {
      await tryReserve(throttle, { email: `flood-${i}@example.org`, accountExists: i % 2 === 0, address: `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}` });
    }
    expect(await tryReserve(throttle, guesser)).toBe(429);
    // The account is still counted: from fresh addresses, the next attempt takes the pace's token, the one right behind it waits.
    expect(await tryReserve(throttle, { ...guesser, address: "192.0.2.99" })).toBe("ok");
    expect(await tryReserve(throttle, { ...guesser, address: "192.0.2.98" })).toBe(429);
  });

  it("counts an IPv6 address per /64: rotating the low bits does not buy fresh guesses", async () => {
    const throttle = await SignInThrottle.create({ kind: "memory" });
    for (let i = 0; i < 5; i++) expect(await tryReserve(throttle, { email: `v6-${i}@example.org`, accountExists: false, address: `2001:db8:aa:bb::${i + 1}` })).toBe("ok");
    expect(await tryReserve(throttle, { email: "v6@example.org", accountExists: false, address: "2001:db8:aa:bb:ffff::1" })).toBe(429);
    expect(await tryReserve(throttle, { email: "v6@example.org", accountExists: false, address: "2001:db8:aa:bc::1" })).toBe("ok");
  });
});

describePostgres("several dashboard processes on PostgreSQL", () => {
  let pg: TestDatabase;
  const opened: OpenSignInThrottle[] = [];
  beforeAll(async () => {
    pg = await createTestDatabase({ backend: "postgres" });
  });
  afterAll(async () => {
    for (const open of opened) await open.close();
    await pg?.dispose();
  });

  it("holds one limit across two processes' throttles: of 300 reservations at once, exactly the five free ones pass", async () => {
    // Two throttles with their own pools, as two dashboard processes have; the second finds the table made.
    opened.push(await openSignInThrottle(pg.config), await openSignInThrottle(pg.config));
    const guess: SignInAttempt = { email: "shared@forage.test", accountExists: true, address: "203.0.113.80" };
    const results = await Promise.allSettled(Array.from({ length: 300 }, (_, i) => opened[i % 2]!.throttle.reserve(guess)));
    expect(results.filter((result) => result.status === "fulfilled")).toHaveLength(5);
    expect(results.filter((result) => result.status === "rejected").every((result) => (result as PromiseRejectedResult).reason instanceof TooManyRequestsError)).toBe(true);
    // The delay holds in both processes.
    await expect(opened[1]!.throttle.reserve(guess)).rejects.toBeInstanceOf(TooManyRequestsError);
    await expect(opened[0]!.throttle.reserve(guess)).rejects.toBeInstanceOf(TooManyRequestsError);
  });
});
