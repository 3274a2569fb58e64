/**
 * The API attacked as another site, a stranger and a member would: every route refuses missing,
 * forged and revoked credentials (401), a foreign Host (421), a foreign Origin on changes (403),
 * non-JSON bodies (415) and oversized ones (413); only admins manage users and tokens.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLIENT_ADDRESS_HEADER } from "../../lib/api/client-address";
import { revokeApiToken } from "../../lib/auth/api-tokens";
import { issueSetupLink } from "../../lib/auth/setup-link";
import { apiRequest, closeRouteDatabase, expectError, openRouteDatabase, routeAccount, url } from "../helpers/api-routes";
import { PROJECT_ROOT } from "../helpers/paths";
import { createTestAccount, type TestAccount } from "../helpers/test-accounts";
import type { TestDatabase } from "../helpers/test-database";

type Handler = (request: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>;
interface Route {
  file: string;
  method: string;
  handler: Handler;
}

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
const STATE_CHANGING = new Set(["POST", "PUT", "PATCH", "DELETE"]);
/** Routes used before signing in: Host and Origin still apply, credentials do not. */
const ANONYMOUS = new Set(["app/api/auth/sign-in/route.ts", "app/api/auth/setup/route.ts", "app/api/auth/sign-out/route.ts", "app/api/health/route.ts", "app/api/ready/route.ts"]);

function routeFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? routeFiles(full) : entry.name === "route.ts" ? [full] : [];
  });
}

let t: TestDatabase;
let routes: Route[];
let member: TestAccount;
const params = { params: Promise.resolve({ id: "1", targetId: "1" }) };

beforeAll(async () => {
  t = await openRouteDatabase();
  member = await createTestAccount(t.db, { email: "member@forage.test", role: "member" });
  routes = [];
  for (const file of routeFiles(path.join(PROJECT_ROOT, "app/api")).sort()) {
    const module = (await import(file)) as Record<string, unknown>;
    for (const method of METHODS) {
      if (typeof module[method] === "function") routes.push({ file: path.relative(PROJECT_ROOT, file), method, handler: module[method] as Handler });
    }
  }
});

afterAll(async () => {
  await closeRouteDatabase(t);
});

const call = (route: Route, init: RequestInit & { anonymous?: boolean } = {}) =>
  route.handler(apiRequest(url("/api/x"), { method: route.method, ...(STATE_CHANGING.has(route.method) ? { body: "{}" } : {}), ...init }), params);

describe("credentials", () => {
  it("finds every route of the API (a new route is checked as soon as it exists)", () => {
    expect(routes.length).toBeGreaterThanOrEqual(25);
    expect(routes.map((route) => `${route.method} ${route.file}`)).toContain("POST app/api/crawls/route.ts");
  });

  it("answers 401 on every route without a session or token", async () => {
    for (const route of routes.filter((r) => !ANONYMOUS.has(r.file))) {
      const error = await expectError(await call(route, { anonymous: true }), 401, "unauthorized");
      expect(error.message, `${route.method} ${route.file}`).toMatch(/Sign in|API token/);
    }
  });

  it("answers 401 to a forged token and to a forged session cookie, everywhere", async () => {
    const forged = `forage_${"A".repeat(43)}`;
    for (const route of routes.filter((r) => !ANONYMOUS.has(r.file))) {
      await expectError(await call(route, { headers: { authorization: `Bearer ${forged}` } }), 401, "unauthorized");
      await expectError(await call(route, { anonymous: true, headers: { cookie: `forage_session=${"B".repeat(43)}`, origin: "http://localhost" } }), 401, "unauthorized");
    }
  });

  it("answers 401 to a token once it is revoked", async () => {
    const account = await createTestAccount(t.db, { email: "revoked@forage.test", role: "admin" });
    const me = routes.find((r) => r.file === "app/api/auth/me/route.ts")!;
    expect((await call(me, { headers: { authorization: `Bearer ${account.token}` } })).status).toBe(200);
    const token = await t.db.apiToken.findFirstOrThrow({ where: { userId: account.user.id } });
    await revokeApiToken(t.db, token.id);
    await expectError(await call(me, { headers: { authorization: `Bearer ${account.token}` } }), 401, "unauthorized");
  });

  it("lets members work with crawls but not manage users or tokens, read the audit log or the workers (403)", async () => {
    const asMember = { headers: { authorization: `Bearer ${member.token}` } };
    const adminOnly = routes.filter((r) => /app\/api\/(users|tokens|settings|audit|workers)\//.test(r.file));
    // Every admin route is checked, the lifecycle's own among them.
    expect(adminOnly.map((route) => `${route.method} ${route.file}`)).toEqual(
      expect.arrayContaining(["PATCH app/api/users/[id]/route.ts", "DELETE app/api/users/[id]/route.ts", "GET app/api/audit/route.ts", "GET app/api/workers/route.ts"]),
    );
    for (const route of adminOnly) {
      await expectError(await call(route, asMember), 403, "forbidden");
    }
    const crawls = await import("@/app/api/crawls/route");
    const created = await crawls.POST(apiRequest(url("/api/crawls"), { method: "POST", body: JSON.stringify({ rootUrl: "https://www.example.org/" }), ...asMember }));
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: number };
    const list = (await (await crawls.GET(apiRequest(url("/api/crawls"), asMember))).json()) as { crawls: { id: number; createdBy: string | null }[] };
    expect(list.crawls.find((crawl) => crawl.id === id)?.createdBy).toBe("member@forage.test");
  });
});

describe("another site", () => {
  it("answers 421 to a foreign Host on every route, anonymous ones included, before any work (DNS rebinding)", async () => {
    for (const route of routes) {
      const error = await expectError(await call(route, { headers: { host: "rebind.attacker.example" } }), 421, "unknown_host");
      expect(error.message).toContain("localhost");
    }
  });

  it("refuses every change sent from another Origin, or cross-site without Origin, even with a valid session (403)", async () => {
    const session = { cookie: `forage_session=${routeAccount().session}` };
    for (const route of routes.filter((r) => STATE_CHANGING.has(r.method))) {
      await expectError(await call(route, { anonymous: true, headers: { ...session, origin: "https://attacker.example" } }), 403, "cross_origin");
      await expectError(await call(route, { anonymous: true, headers: { ...session, "sec-fetch-site": "cross-site" } }), 403, "cross_origin");
      await expectError(await call(route, { anonymous: true, headers: session }), 403, "cross_origin");
      await expectError(await call(route, { headers: { origin: "null" } }), 403, "cross_origin");
    }
  });

  it("refuses a no-cors text/plain crawl creation and creates nothing", async () => {
    const crawls = await import("@/app/api/crawls/route");
    const before = await t.db.crawl.count();
    const body = JSON.stringify({ rootUrl: "http://127.0.0.1:3000/" });
    const cookie = `forage_session=${routeAccount().session}`;
    // What a page on another site can send without a preflight.
    await expectError(
      await crawls.POST(apiRequest(url("/api/crawls"), { method: "POST", anonymous: true, body, headers: { cookie, "content-type": "text/plain", origin: "https://attacker.example" } })),
      403,
      "cross_origin",
    );
    // Even from the right origin (or a script with a token), the body must be JSON.
    await expectError(await crawls.POST(apiRequest(url("/api/crawls"), { method: "POST", body, headers: { "content-type": "text/plain" } })), 415, "unsupported_media_type");
    await expectError(
      await crawls.POST(apiRequest(url("/api/crawls"), { method: "POST", body, headers: { "content-type": "application/x-www-form-urlencoded" } })),
      415,
      "unsupported_media_type",
    );
    expect(await t.db.crawl.count()).toBe(before);
  });

  it("accepts the app's own pages: a session with the same Origin changes things", async () => {
    const crawls = await import("@/app/api/crawls/route");
    const response = await crawls.POST(
      apiRequest(url("/api/crawls"), {
        method: "POST",
        anonymous: true,
        body: JSON.stringify({ rootUrl: "https://www.example.org/" }),
        headers: { cookie: `forage_session=${routeAccount().session}`, origin: "http://localhost", "sec-fetch-site": "same-origin" },
      }),
    );
    expect(response.status).toBe(201);
  });
});

describe("bodies", () => {
  it("stops reading a body at 1 MiB while it streams, with or without Content-Length (413)", async () => {
    const crawls = await import("@/app/api/crawls/route");
    let sent = 0;
    const chunk = new Uint8Array(64 * 1024).fill(0x20);
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        sent += chunk.byteLength;
        if (sent > 64 * 1024 * 1024) controller.close();
        else controller.enqueue(chunk);
      },
    });
    const streamed = new Request(url("/api/crawls"), {
      method: "POST",
      body: endless,
      headers: { authorization: `Bearer ${routeAccount().token}`, "content-type": "application/json" },
      duplex: "half",
    } as RequestInit);
    await expectError(await crawls.POST(streamed), 413, "payload_too_large");
    expect(sent).toBeLessThan(2 * 1024 * 1024); // it stopped pulling soon after the limit
    const declared = apiRequest(url("/api/crawls"), { method: "POST", body: "{}", headers: { "content-length": String(5 * 1024 * 1024) } });
    await expectError(await crawls.POST(declared), 413, "payload_too_large");
  });
});

describe("sign-in, sign-out and setup", () => {
  it("signs in with email and password: an HttpOnly, SameSite=Lax session cookie that the API accepts until sign-out", async () => {
    const signIn = await import("@/app/api/auth/sign-in/route");
    const signOut = await import("@/app/api/auth/sign-out/route");
    const me = await import("@/app/api/auth/me/route");
    const { user, password } = routeAccount();
    const wrong = await signIn.POST(apiRequest(url("/api/auth/sign-in"), { method: "POST", anonymous: true, body: JSON.stringify({ email: user.email, password: "nope-nope-nope" }) }));
    expect((await expectError(wrong, 401, "unauthorized")).message).toBe("Wrong email or password");
    const unknown = await signIn.POST(apiRequest(url("/api/auth/sign-in"), { method: "POST", anonymous: true, body: JSON.stringify({ email: "who@forage.test", password }) }));
    expect((await expectError(unknown, 401, "unauthorized")).message).toBe("Wrong email or password");

    const ok = await signIn.POST(apiRequest(url("/api/auth/sign-in"), { method: "POST", anonymous: true, body: JSON.stringify({ email: user.email.toUpperCase(), password }) }));
    expect(ok.status).toBe(200);
    const setCookie = ok.headers.get("set-cookie")!;
    expect(setCookie).toMatch(/^forage_session=[\w-]{43}; Path=\/; HttpOnly; SameSite=Lax; Max-Age=\d+$/);
    const cookie = setCookie.split(";")[0]!;
    const who = await me.GET(apiRequest(url("/api/auth/me"), { anonymous: true, headers: { cookie } }));
    expect(await who.json()).toMatchObject({ user: { email: user.email, role: "admin" }, via: "session" });

    const out = await signOut.POST(apiRequest(url("/api/auth/sign-out"), { method: "POST", anonymous: true, headers: { cookie, origin: "http://localhost" } }));
    expect(out.status).toBe(204);
    expect(out.headers.get("set-cookie")).toContain("Max-Age=0");
    // The session row is gone: the same cookie, replayed, signs nobody in.
    await expectError(await me.GET(apiRequest(url("/api/auth/me"), { anonymous: true, headers: { cookie } })), 401, "unauthorized");
  });

  it("delays an address after 5 failed sign-ins (429 with Retry-After, even for the right password), but never locks the account", async () => {
    const signIn = await import("@/app/api/auth/sign-in/route");
    const victim = await createTestAccount(t.db, { email: "victim@forage.test", role: "member" });
    const attempt = (password: string, address: string) =>
      signIn.POST(
        apiRequest(url("/api/auth/sign-in"), {
          method: "POST",
          anonymous: true,
          body: JSON.stringify({ email: victim.user.email, password }),
          headers: { [CLIENT_ADDRESS_HEADER]: address },
        }),
      );
    // One at a time, each started once the previous answered: at most 3 start per second, so a 429 is waited out as it says.
    let failures = 0;
    for (let tries = 0; failures < 5 && tries < 20; tries++) {
      const answer = await attempt(`guess-${tries}-xxxxxxxx`, "203.0.113.9");
      if (answer.status === 401) failures++;
      else await new Promise((resolve) => setTimeout(resolve, Number(answer.headers.get("retry-after")) * 1000));
    }
    expect(failures).toBe(5);
    const delayed = await attempt(victim.password, "203.0.113.9");
    await expectError(delayed, 429, "too_many_requests");
    expect(Number(delayed.headers.get("retry-after"))).toBeGreaterThanOrEqual(5);
    // The owner, from anywhere else, is not locked out.
    expect((await attempt(victim.password, "192.0.2.44")).status).toBe(200);
  });

  it("creates the first admin through the one-time setup link, once", async () => {
    // A server without users: a second database, its own route module instances are not needed (the link lives in the rows).
    const setup = await import("@/app/api/auth/setup/route");
    await t.db.session.deleteMany();
    await t.db.apiToken.deleteMany();
    const users = await t.db.user.findMany();
    await t.db.crawl.updateMany({ data: { createdById: null } });
    await t.db.user.deleteMany();
    try {
      const secret = (await issueSetupLink(t.db))!;
      expect(secret).toMatch(/^[\w-]{43}$/);
      const post = (token: string) =>
        setup.POST(apiRequest(url("/api/auth/setup"), { method: "POST", anonymous: true, body: JSON.stringify({ token, email: "first@forage.test", password: "a good password" }) }));
      expect((await expectError(await post("x".repeat(43)), 400, "invalid_request")).fields?.token).toMatch(/not valid/);
      const created = await post(secret);
      expect(created.status).toBe(201);
      expect(await created.json()).toMatchObject({ user: { email: "first@forage.test", role: "admin" } });
      expect(created.headers.get("set-cookie")).toMatch(/^forage_session=/);
      const [entry] = await t.db.auditEvent.findMany({ where: { action: "setup-completed" }, orderBy: { id: "desc" }, take: 1 });
      expect(entry).toMatchObject({ actorEmail: "first@forage.test", subject: expect.stringContaining("first@forage.test") });
      expect((await expectError(await post(secret), 400, "invalid_request")).fields?.token).toMatch(/already has an admin/);
      expect(await issueSetupLink(t.db)).toBeNull();
    } finally {
      await t.db.user.deleteMany({ where: { email: "first@forage.test" } });
      for (const user of users) await t.db.user.create({ data: user });
    }
  });
});
