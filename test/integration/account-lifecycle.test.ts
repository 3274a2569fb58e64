/**
 * Account lifecycle, least privilege and the audit log, attacked through the real route handlers
 * on a real database: a member on the admin routes, a disabled user's live session and token, a
 * session past its absolute lifetime, weak passwords, an admin removing the last admin, a member
 * reading another's webhook secret or the workers' hosts. Every change leaves an audit entry
 * with its actor and the client address the dashboard server saw.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SESSION_MAX_AGE_MS } from "../../lib/auth/sessions";
import { sha256Hex } from "../../lib/auth/secrets";
import { CLI_AUDIT } from "../../lib/auth/audit-context";
import { deleteUser } from "../../lib/auth/user-admin";
import { CLIENT_ADDRESS_HEADER } from "../../lib/api/client-address";
import { apiRequest, closeRouteDatabase, ctx, expectError, openRouteDatabase, routeAccount, url } from "../helpers/api-routes";
import { createTestAccount, type TestAccount } from "../helpers/test-accounts";
import type { TestDatabase } from "../helpers/test-database";

let t: TestDatabase;
let member: TestAccount;
let usersRoute: typeof import("@/app/api/users/route");
let userRoute: typeof import("@/app/api/users/[id]/route");
let meRoute: typeof import("@/app/api/auth/me/route");
let signInRoute: typeof import("@/app/api/auth/sign-in/route");
let auditRoute: typeof import("@/app/api/audit/route");

/** The address the dashboard server would have put on the admin's requests. */
const ADMIN_ADDRESS = "203.0.113.7";

beforeAll(async () => {
  t = await openRouteDatabase();
  member = await createTestAccount(t.db, { email: "member@forage.test", role: "member" });
  usersRoute = await import("@/app/api/users/route");
  userRoute = await import("@/app/api/users/[id]/route");
  meRoute = await import("@/app/api/auth/me/route");
  signInRoute = await import("@/app/api/auth/sign-in/route");
  auditRoute = await import("@/app/api/audit/route");
});

afterAll(async () => {
  await closeRouteDatabase(t);
});

/** A request with `account`'s bearer token (the route admin's by default), from ADMIN_ADDRESS. */
function as(account: TestAccount | null, path: string, init: RequestInit = {}): Request {
  const headers = new Headers(init.headers);
  headers.set(CLIENT_ADDRESS_HEADER, ADMIN_ADDRESS);
  if (account) headers.set("authorization", `Bearer ${account.token}`);
  return apiRequest(url(path), { ...init, headers });
}

/** A request a browser signed in with `session` sends from this server's own page. */
function withSession(session: string, path: string, init: RequestInit = {}): Request {
  const headers = new Headers(init.headers);
  headers.set("cookie", `forage_session=${session}`);
  headers.set("origin", "http://localhost");
  headers.set(CLIENT_ADDRESS_HEADER, "198.51.100.9");
  return apiRequest(url(path), { ...init, headers, anonymous: true });
}

const patchUser = (account: TestAccount | null, id: number, body: unknown) =>
  userRoute.PATCH(as(account ?? routeAccount(), `/api/users/${id}`, { method: "PATCH", body: JSON.stringify(body) }), ctx(id));
const deleteUserRoute = (account: TestAccount | null, id: number) => userRoute.DELETE(as(account ?? routeAccount(), `/api/users/${id}`, { method: "DELETE" }), ctx(id));
const me = (request: Request) => meRoute.GET(request);
const signIn = (email: string, password: string) =>
  signInRoute.POST(apiRequest(url("/api/auth/sign-in"), { method: "POST", anonymous: true, body: JSON.stringify({ email, password }) }));

async function auditEntries(action: string) {
  const response = await auditRoute.GET(as(routeAccount(), `/api/audit?action=${action}`));
  expect(response.status).toBe(200);
  return ((await response.json()) as { events: { id: number; action: string; actorEmail: string | null; subject: string | null; address: string | null; details: Record<string, unknown> | null }[] }).events;
}

describe("least privilege", () => {
  it("refuses members the user, audit and workers routes (403), whatever the target", async () => {
    const workers = await import("@/app/api/workers/route");
    const self = member.user.id;
    for (const response of [
      await patchUser(member, self, { role: "admin" }),
      await patchUser(member, routeAccount().user.id, { disabled: true }),
      await patchUser(member, routeAccount().user.id, { password: "a brand new passphrase 42" }),
      await deleteUserRoute(member, routeAccount().user.id),
      await auditRoute.GET(as(member, "/api/audit")),
      await workers.GET(as(member, "/api/workers")),
      await usersRoute.POST(as(member, "/api/users", { method: "POST", body: JSON.stringify({ email: "x@forage.test", password: "a brand new passphrase 42" }) })),
    ]) {
      await expectError(response, 403, "forbidden");
    }
    expect(await t.db.user.findUniqueOrThrow({ where: { id: self } })).toMatchObject({ role: "member", disabledAt: null });
    expect(await t.db.user.count({ where: { email: "x@forage.test" } })).toBe(0);
  });

  it("shows the worker holding a crawl (host name and PID) only to admins", async () => {
    const crawls = await import("@/app/api/crawls/route");
    const crawl = await import("@/app/api/crawls/[id]/route");
    const { id } = (await (await crawls.POST(as(member, "/api/crawls", { method: "POST", body: JSON.stringify({ rootUrl: "https://www.example.org/" }) }))).json()) as { id: number };
    await t.db.crawl.update({ where: { id }, data: { status: "running", workerId: "crawler-3:4242", leaseExpiresAt: new Date(Date.now() + 60_000) } });
    const workerSeenBy = async (account: TestAccount) => ((await (await crawl.GET(as(account, `/api/crawls/${id}`), ctx(id))).json()) as { workerId: string | null }).workerId;
    expect(await workerSeenBy(member)).toBeNull();
    expect(await workerSeenBy(routeAccount())).toBe("crawler-3:4242");
    await t.db.crawl.update({ where: { id }, data: { status: "cancelled", workerId: null, leaseExpiresAt: null } });
  });

  it("shows a harvest's webhook secret only to admins and its creator", async () => {
    const harvests = await import("@/app/api/harvests/route");
    const harvest = await import("@/app/api/harvests/[id]/route");
    const other = await createTestAccount(t.db, { email: "other@forage.test", role: "member" });
    const created = await harvests.POST(
      as(member, "/api/harvests", { method: "POST", body: JSON.stringify({ name: "weekly", config: { rootUrl: "https://www.example.org/" }, webhookUrl: "https://93.184.216.34/hook" }) }),
    );
    expect(created.status).toBe(201);
    const { id, webhookSecret } = (await created.json()) as { id: number; webhookSecret: string | null };
    expect(webhookSecret).toMatch(/\S{20,}/);
    const seenBy = async (account: TestAccount) => {
      const one = (await (await harvest.GET(as(account, `/api/harvests/${id}`), ctx(id))).json()) as { webhookSecret: string | null; webhookSecretHidden?: boolean };
      const list = (await (await harvests.GET(as(account, "/api/harvests"))).json()) as { harvests: { id: number; webhookSecret: string | null }[] };
      const listed = list.harvests.find((h) => h.id === id)!;
      const patched = (await (await harvest.PATCH(as(account, `/api/harvests/${id}`, { method: "PATCH", body: JSON.stringify({ name: "weekly" }) }), ctx(id))).json()) as {
        webhookSecret: string | null;
      };
      return { one: one.webhookSecret, listed: listed.webhookSecret, patched: patched.webhookSecret, hidden: one.webhookSecretHidden };
    };
    expect(await seenBy(member)).toEqual({ one: webhookSecret, listed: webhookSecret, patched: webhookSecret, hidden: false });
    expect(await seenBy(routeAccount())).toEqual({ one: webhookSecret, listed: webhookSecret, patched: webhookSecret, hidden: false });
    expect(await seenBy(other)).toEqual({ one: null, listed: null, patched: null, hidden: true });
    // The secret is still there for the receiver: hidden from the viewer, not removed.
    expect((await t.db.harvest.findUniqueOrThrow({ where: { id } })).webhookSecret).toBe(webhookSecret);

    const deleted = await harvest.DELETE(as(routeAccount(), `/api/harvests/${id}`, { method: "DELETE" }), ctx(id));
    expect(deleted.status).toBe(204);
    expect((await auditEntries("harvest-deleted"))[0]).toMatchObject({ subject: `harvest ${id}`, actorEmail: routeAccount().user.email, address: ADMIN_ADDRESS });
  });
});

describe("disabling a user", () => {
  it("stops their live session and token at once, refuses their sign-in, and lets them back in when enabled", async () => {
    const victim = await createTestAccount(t.db, { email: "disabled@forage.test", role: "member" });
    expect((await me(as(victim, "/api/auth/me"))).status).toBe(200);
    expect((await me(withSession(victim.session, "/api/auth/me"))).status).toBe(200);

    const disabled = await patchUser(null, victim.user.id, { disabled: true });
    expect(disabled.status).toBe(200);
    expect(((await disabled.json()) as { user: { disabledAt: string | null } }).user.disabledAt).not.toBeNull();
    const tokenError = await expectError(await me(as(victim, "/api/auth/me")), 401, "unauthorized");
    expect(tokenError.message).toMatch(/disabled/);
    await expectError(await me(withSession(victim.session, "/api/auth/me")), 401, "unauthorized");
    expect(await t.db.session.count({ where: { userId: victim.user.id } })).toBe(0);
    // The right password no longer signs in, with the same answer as a wrong one.
    expect((await expectError(await signIn(victim.user.email, victim.password), 401, "unauthorized")).message).toBe("Wrong email or password");

    const listed = (await (await usersRoute.GET(as(routeAccount(), "/api/users"))).json()) as { users: { email: string; disabledAt: string | null }[] };
    expect(listed.users.find((user) => user.email === victim.user.email)?.disabledAt).not.toBeNull();

    expect((await patchUser(null, victim.user.id, { disabled: false })).status).toBe(200);
    expect((await me(as(victim, "/api/auth/me"))).status).toBe(200);
    expect((await signIn(victim.user.email, victim.password)).status).toBe(200);

    const [enabled] = await auditEntries("user-enabled");
    const [disabledEntry] = await auditEntries("user-disabled");
    for (const entry of [enabled, disabledEntry]) {
      expect(entry).toMatchObject({ actorEmail: routeAccount().user.email, address: ADMIN_ADDRESS, subject: `user ${victim.user.id} (disabled@forage.test)` });
    }
  });

  it("refuses an admin disabling, demoting or deleting their own account (409), and any bad patch (400)", async () => {
    const self = routeAccount().user.id;
    for (const response of [await patchUser(null, self, { disabled: true }), await patchUser(null, self, { role: "member" }), await deleteUserRoute(null, self)]) {
      expect((await expectError(response, 409, "invalid_state")).message).toMatch(/your own account/);
    }
    const ownReset = await expectError(await patchUser(null, self, { password: "a brand new passphrase 42" }), 400, "invalid_request");
    expect(ownReset.fields?.password).toMatch(/Account page/);
    expect((await expectError(await patchUser(null, self, {}), 400, "invalid_request")).message).toMatch(/disabled, role or password/);
    expect((await expectError(await patchUser(null, member.user.id, { disabled: "yes" }), 400, "invalid_request")).fields).toEqual({ disabled: "must be true or false" });
    expect((await expectError(await patchUser(null, member.user.id, { role: "owner" }), 400, "invalid_request")).fields?.role).toMatch(/admin, member/);
    expect((await expectError(await patchUser(null, member.user.id, { email: "x@y.z" }), 400, "invalid_request")).fields?.email).toBe("is not a known field");
    await expectError(await patchUser(null, 999_999, { disabled: true }), 404, "not_found");
    expect(await t.db.user.findUniqueOrThrow({ where: { id: self } })).toMatchObject({ role: "admin", disabledAt: null });
  });

  it("never leaves the server without an enabled admin, from the API or the command line", async () => {
    const second = await createTestAccount(t.db, { email: "second-admin@forage.test", role: "admin" });
    // Two admins: the second may disable the first… and then the first is no longer an enabled admin,
    expect((await patchUser(second, routeAccount().user.id, { disabled: true })).status).toBe(200);
    // so the first, re-enabled by the second, cannot be made to remove the second either way.
    expect((await patchUser(second, routeAccount().user.id, { disabled: false })).status).toBe(200);
    expect((await patchUser(null, second.user.id, { role: "member" })).status).toBe(200);
    // Now the route admin is the last enabled admin: the command line (no actor) cannot remove it.
    await expect(deleteUser(t.db, routeAccount().user.id, CLI_AUDIT)).rejects.toThrow(/last enabled admin/);
    expect(await t.db.user.count({ where: { id: routeAccount().user.id } })).toBe(1);
    const [roleChange] = await auditEntries("user-role-changed");
    expect(roleChange).toMatchObject({ subject: `user ${second.user.id} (second-admin@forage.test)`, details: { from: "admin", to: "member" } });
  });
});

describe("two admins at once", () => {
  it("lets only one of two admins disabling each other at the same moment succeed", async () => {
    const a = await createTestAccount(t.db, { email: "duel-a@forage.test", role: "admin" });
    const b = await createTestAccount(t.db, { email: "duel-b@forage.test", role: "admin" });
    // Leave these two as the only enabled admins.
    const others = await t.db.user.findMany({ where: { role: "admin", disabledAt: null, id: { notIn: [a.user.id, b.user.id] } }, select: { id: true } });
    await t.db.user.updateMany({ where: { id: { in: others.map((user) => user.id) } }, data: { disabledAt: new Date() } });
    try {
      // A few rounds: the two transactions must overlap for the race to show.
      for (let round = 0; round < 8; round++) {
        const [first, second] = await Promise.all([patchUser(a, b.user.id, { disabled: true }), patchUser(b, a.user.id, { disabled: true })]);
        expect([first.status, second.status].sort()).toEqual([200, 409]);
        expect(await t.db.user.count({ where: { role: "admin", disabledAt: null } })).toBe(1);
        await t.db.user.updateMany({ where: { id: { in: [a.user.id, b.user.id] } }, data: { disabledAt: null } });
      }
    } finally {
      await t.db.user.updateMany({ where: { id: { in: others.map((user) => user.id) } }, data: { disabledAt: null } });
      await t.db.user.updateMany({ where: { email: { in: ["duel-a@forage.test", "duel-b@forage.test"] } }, data: { disabledAt: null, role: "member" } });
    }
  });
});

describe("deleting a user", () => {
  it("ends their session and token, keeps their crawls without a creator, and records it", async () => {
    const leaving = await createTestAccount(t.db, { email: "leaving@forage.test", role: "member" });
    const crawls = await import("@/app/api/crawls/route");
    const created = await crawls.POST(as(leaving, "/api/crawls", { method: "POST", body: JSON.stringify({ rootUrl: "https://www.example.org/" }) }));
    const { id: crawlId } = (await created.json()) as { id: number };
    expect((await deleteUserRoute(null, leaving.user.id)).status).toBe(204);
    await expectError(await me(as(leaving, "/api/auth/me")), 401, "unauthorized");
    await expectError(await me(withSession(leaving.session, "/api/auth/me")), 401, "unauthorized");
    expect(await t.db.crawl.findUniqueOrThrow({ where: { id: crawlId } })).toMatchObject({ createdById: null });
    expect((await auditEntries("user-deleted"))[0]).toMatchObject({ subject: `user ${leaving.user.id} (leaving@forage.test)`, address: ADMIN_ADDRESS });
    await expectError(await deleteUserRoute(null, leaving.user.id), 404, "not_found");
  });
});

describe("passwords", () => {
  it("refuses weak passwords with a field message wherever one is set", async () => {
    const weak = await expectError(
      await usersRoute.POST(as(routeAccount(), "/api/users", { method: "POST", body: JSON.stringify({ email: "ann.lee@example.org", password: "password123" }) })),
      400,
      "invalid_request",
    );
    expect(weak.fields?.password).toMatch(/^is too easy to guess: .*common/);
    // Made of the account's own email: weak even though it is long enough.
    const personal = await expectError(
      await usersRoute.POST(as(routeAccount(), "/api/users", { method: "POST", body: JSON.stringify({ email: "ann.lee@example.org", password: "ann.lee@example.org1" }) })),
      400,
      "invalid_request",
    );
    expect(personal.fields?.password).toMatch(/too easy to guess/);
    expect((await expectError(await patchUser(null, member.user.id, { password: "qwertyuiop" }), 400, "invalid_request")).fields?.password).toMatch(/too easy to guess/);
    expect((await expectError(await patchUser(null, member.user.id, { password: "short" }), 400, "invalid_request")).fields?.password).toBe("must be at least 8 characters");
    expect(await t.db.user.count({ where: { email: "ann.lee@example.org" } })).toBe(0);

    const added = await usersRoute.POST(as(routeAccount(), "/api/users", { method: "POST", body: JSON.stringify({ email: "ann.lee@example.org", password: "violet ledger canoe 81" }) }));
    expect(added.status).toBe(201);
    expect((await auditEntries("user-created"))[0]).toMatchObject({ subject: expect.stringContaining("ann.lee@example.org"), details: { role: "member", via: "token" } });
  });

  it("resets a user's password: the old one stops working and their sessions end", async () => {
    const forgetful = await createTestAccount(t.db, { email: "forgetful@forage.test", role: "member" });
    expect((await patchUser(null, forgetful.user.id, { password: "orchid tunnel basalt 7" })).status).toBe(200);
    await expectError(await me(withSession(forgetful.session, "/api/auth/me")), 401, "unauthorized");
    await expectError(await signIn(forgetful.user.email, forgetful.password), 401, "unauthorized");
    expect((await signIn(forgetful.user.email, "orchid tunnel basalt 7")).status).toBe(200);
    expect((await auditEntries("password-reset"))[0]).toMatchObject({ subject: `user ${forgetful.user.id} (forgetful@forage.test)`, actorEmail: routeAccount().user.email });
  });

  it("changes one's own password with the current one: other sessions end, this one stays", async () => {
    const change = await import("@/app/api/account/password/route");
    const user = await createTestAccount(t.db, { email: "changer@forage.test", role: "member" });
    const otherBrowser = (await signIn(user.user.email, user.password)).headers.get("set-cookie")!.split(";")[0]!.split("=")[1]!;
    const post = (body: unknown) => change.POST(withSession(user.session, "/api/account/password", { method: "POST", body: JSON.stringify(body) }));

    expect((await expectError(await post({ currentPassword: "not it at all 1", newPassword: "granite lantern opal 5" }), 400, "invalid_request")).fields).toEqual({
      currentPassword: "is not your current password",
    });
    expect((await expectError(await post({ currentPassword: user.password, newPassword: "changer1234" }), 400, "invalid_request")).fields?.newPassword).toMatch(/too easy to guess/);
    expect((await expectError(await post({ currentPassword: user.password }), 400, "invalid_request")).fields?.newPassword).toBeDefined();

    const ok = await post({ currentPassword: user.password, newPassword: "granite lantern opal 5" });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ endedSessions: 1 });
    expect((await me(withSession(user.session, "/api/auth/me"))).status).toBe(200);
    await expectError(await me(withSession(otherBrowser, "/api/auth/me")), 401, "unauthorized");
    expect((await signIn(user.user.email, "granite lantern opal 5")).status).toBe(200);
    expect((await auditEntries("password-changed"))[0]).toMatchObject({ actorEmail: "changer@forage.test", address: "198.51.100.9", subject: expect.stringContaining("changer@forage.test") });
  });

  it("holds back guesses of the current password from a borrowed session (429 after 5 wrong ones)", async () => {
    const change = await import("@/app/api/account/password/route");
    const user = await createTestAccount(t.db, { email: "guessed@forage.test", role: "member" });
    const post = (currentPassword: string) =>
      change.POST(withSession(user.session, "/api/account/password", { method: "POST", body: JSON.stringify({ currentPassword, newPassword: "granite lantern opal 5" }) }));
    for (let i = 0; i < 5; i++) await expectError(await post(`guess number ${i} x`), 400, "invalid_request");
    const held = await post(user.password);
    await expectError(held, 429, "too_many_requests");
    expect(Number(held.headers.get("retry-after"))).toBeGreaterThan(0);
    // Even the right password changes nothing meanwhile.
    expect((await signIn(user.user.email, user.password)).status).toBe(200);
  });

  it("signs out everywhere: every session of the user ends and the cookie is cleared", async () => {
    const everywhere = await import("@/app/api/account/sign-out-everywhere/route");
    const user = await createTestAccount(t.db, { email: "everywhere@forage.test", role: "member" });
    const second = (await signIn(user.user.email, user.password)).headers.get("set-cookie")!.split(";")[0]!.split("=")[1]!;
    const response = await everywhere.POST(withSession(user.session, "/api/account/sign-out-everywhere", { method: "POST" }));
    expect(response.status).toBe(200);
    expect(response.headers.get("set-cookie")).toContain("Max-Age=0");
    expect(await response.json()).toEqual({ endedSessions: 2 });
    for (const session of [user.session, second]) await expectError(await me(withSession(session, "/api/auth/me")), 401, "unauthorized");
    // The API token is another credential, revoked separately: it still works.
    expect((await me(as(user, "/api/auth/me"))).status).toBe(200);
    expect((await auditEntries("sign-out-everywhere"))[0]).toMatchObject({ actorEmail: "everywhere@forage.test", details: { endedSessions: 2 } });
  });
});

describe("sessions", () => {
  it("refuses a session older than the absolute lifetime, however recently it was used", async () => {
    const user = await createTestAccount(t.db, { email: "old-session@forage.test", role: "member" });
    const id = sha256Hex(user.session);
    const now = Date.now();
    // Used a minute ago and not idle-expired: only its age is wrong.
    await t.db.session.update({ where: { id }, data: { createdAt: new Date(now - SESSION_MAX_AGE_MS - 1000), lastSeenAt: new Date(now - 60_000), expiresAt: new Date(now + 3600_000) } });
    await expectError(await me(withSession(user.session, "/api/auth/me")), 401, "unauthorized");
    // Just inside the limit it works, and its renewed expiry never passes the limit.
    await t.db.session.update({ where: { id }, data: { createdAt: new Date(now - SESSION_MAX_AGE_MS + 60_000), lastSeenAt: new Date(now - 2 * 3600_000) } });
    expect((await me(withSession(user.session, "/api/auth/me"))).status).toBe(200);
    const renewed = await t.db.session.findUniqueOrThrow({ where: { id } });
    expect(renewed.expiresAt.getTime()).toBeLessThanOrEqual(renewed.createdAt.getTime() + SESSION_MAX_AGE_MS);
  });
});

describe("the audit log", () => {
  it("records token creation and revocation and crawl deletion with actor and address", async () => {
    const tokens = await import("@/app/api/tokens/route");
    const token = await import("@/app/api/tokens/[id]/route");
    const crawls = await import("@/app/api/crawls/route");
    const crawl = await import("@/app/api/crawls/[id]/route");
    const created = (await (await tokens.POST(as(routeAccount(), "/api/tokens", { method: "POST", body: JSON.stringify({ name: "audited" }) }))).json()) as { apiToken: { id: number } };
    const tokenId = created.apiToken.id;
    expect((await token.DELETE(as(routeAccount(), `/api/tokens/${tokenId}`, { method: "DELETE" }), ctx(tokenId))).status).toBe(200);
    const { id: crawlId } = (await (await crawls.POST(as(routeAccount(), "/api/crawls", { method: "POST", body: JSON.stringify({ rootUrl: "https://www.example.org/" }) }))).json()) as { id: number };
    await t.db.crawl.update({ where: { id: crawlId }, data: { status: "cancelled" } });
    expect((await crawl.DELETE(as(routeAccount(), `/api/crawls/${crawlId}`, { method: "DELETE" }), ctx(crawlId))).status).toBe(204);

    const expected = { actorEmail: routeAccount().user.email, address: ADMIN_ADDRESS };
    expect((await auditEntries("token-created"))[0]).toMatchObject({ ...expected, subject: `token ${tokenId} (audited) of ${routeAccount().user.email}` });
    expect((await auditEntries("token-revoked"))[0]).toMatchObject({ ...expected, subject: `token ${tokenId} (audited) of ${routeAccount().user.email}` });
    expect((await auditEntries("crawl-deleted"))[0]).toMatchObject({ ...expected, subject: `crawl ${crawlId}`, details: { rootUrl: "https://www.example.org/" } });
  });

  it("pages newest first with before and filters by action; bad parameters are 400s naming them", async () => {
    const all = (await (await auditRoute.GET(as(routeAccount(), "/api/audit?limit=200"))).json()) as { events: { id: number }[]; nextBefore: number | null };
    expect(all.events.length).toBeGreaterThan(5);
    const ids = all.events.map((event) => event.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));

    const first = (await (await auditRoute.GET(as(routeAccount(), "/api/audit?limit=2"))).json()) as { events: { id: number }[]; nextBefore: number };
    expect(first.events.map((event) => event.id)).toEqual(ids.slice(0, 2));
    expect(first.nextBefore).toBe(ids[1]);
    const second = (await (await auditRoute.GET(as(routeAccount(), `/api/audit?limit=2&before=${first.nextBefore}`))).json()) as { events: { id: number }[] };
    expect(second.events.map((event) => event.id)).toEqual(ids.slice(2, 4));

    const filtered = await auditEntries("user-disabled,user-enabled");
    expect(new Set(filtered.map((event) => event.action))).toEqual(new Set(["user-disabled", "user-enabled"]));

    expect((await expectError(await auditRoute.GET(as(routeAccount(), "/api/audit?action=drop-table")), 400, "invalid_request")).fields?.action).toMatch(/comma-separated list of/);
    expect((await expectError(await auditRoute.GET(as(routeAccount(), "/api/audit?before=-1")), 400, "invalid_request")).fields?.before).toBeDefined();
    expect((await expectError(await auditRoute.GET(as(routeAccount(), "/api/audit?befor=3")), 400, "invalid_request")).fields).toEqual({ befor: "is not a known parameter" });
  });
});
