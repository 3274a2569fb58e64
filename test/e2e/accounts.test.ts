/**
 * Accounts in a real Chromium against the built app: signing in and out, API tokens created and
 * revoked in Settings, members without admin pages, the first admin made from the setup link
 * `npm start` prints, and a page of another origin that tries to drive a signed-in user's Forage.
 */
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { spawnSync } from "node:child_process";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApp, type RunningApp } from "../helpers/app-server";
import { launchBrowser } from "../helpers/browser";
import { PROJECT_ROOT } from "../helpers/paths";
import { freePort } from "../helpers/processes";
import { createTestDatabase, type TestDatabase } from "../helpers/test-database";

let database: TestDatabase;
let app: RunningApp;
let browser: Browser;

beforeAll(async () => {
  database = await createTestDatabase();
  [app, browser] = await Promise.all([startApp(database), launchBrowser()]);
});

afterAll(async () => {
  await browser?.close();
  await app?.stop();
  await database?.dispose();
});

async function signIn(page: Page, email: string, password: string): Promise<void> {
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

describe("signing in and out", () => {
  it("sends a stranger to the sign-in page, then to the crawl list, and signs out from the header", async () => {
    const page = await browser.newPage();
    await page.goto(app.baseUrl);
    await page.waitForURL(/\/sign-in\?next=%2F$/);
    await signIn(page, app.admin!.user.email, "not the password");
    await page.getByText("Wrong email or password").waitFor();
    await signIn(page, app.admin!.user.email, app.admin!.password);
    await page.waitForURL(`${app.baseUrl}/`);
    await page.getByRole("link", { name: "New crawl" }).first().waitFor();
    expect(await page.locator(".user-menu").textContent()).toContain(app.admin!.user.email);
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.waitForURL(/\/sign-in$/);
    await page.goto(`${app.baseUrl}/crawls/new`);
    await page.waitForURL(/\/sign-in\?next=%2Fcrawls%2Fnew$/);
    await page.close();
  });
});

describe("settings (admin)", () => {
  it("creates an API token shown once, which works until it is revoked", async () => {
    const page = await browser.newPage(app.signedIn);
    // Network idle: the page's scripts have loaded and hydrated, so the form's handler gets the click.
    await page.goto(`${app.baseUrl}/settings`, { waitUntil: "networkidle" });
    await page.getByLabel("Token name").fill("ci script");
    await page.getByRole("button", { name: "Create token" }).click();
    const token = (await page.getByTestId("new-token").textContent())!.trim();
    expect(token).toMatch(/^forage_[\w-]{43}$/);
    const me = () => fetch(`${app.baseUrl}/api/auth/me`, { headers: { authorization: `Bearer ${token}` } });
    expect((await me()).status).toBe(200);
    await page.getByRole("button", { name: "Revoke token ci script" }).click();
    await page.getByTestId("tokens-table").getByText("revoked").first().waitFor();
    expect((await me()).status).toBe(401);
    await page.close();
  });

  it("sets the private networks crawls may reach, with errors next to the field", async () => {
    const page = await browser.newPage(app.signedIn);
    await page.goto(`${app.baseUrl}/settings`);
    const field = page.getByLabel("Private networks crawls may reach");
    await page.waitForFunction(() => !(document.querySelector("textarea[name=privateNetworks]") as HTMLTextAreaElement | null)?.disabled);
    await field.fill("10.20.0.0/16\n10.0.0.0/40");
    await page.getByRole("button", { name: "Save network policy" }).click();
    await expect(page.getByTestId("error-privateNetworks").textContent()).resolves.toContain("10.0.0.0/40");
    await field.fill("10.20.0.0/16\n192.168.1.5");
    await page.getByRole("button", { name: "Save network policy" }).click();
    await page.getByRole("status").filter({ hasText: "Saved" }).waitFor();
    const saved = (await (await app.api("/api/settings/network")).json()) as { privateNetworks: string[] };
    expect(saved.privateNetworks).toEqual(["10.20.0.0/16", "192.168.1.5/32"]);
    await page.close();
  });

  it("adds a member, who signs in and sees no admin pages", async () => {
    const admin = await browser.newPage(app.signedIn);
    await admin.goto(`${app.baseUrl}/settings`);
    const users = admin.locator("section", { has: admin.getByRole("heading", { name: "Users" }) });
    await users.getByLabel("Email").fill("Member@Forage.test");
    await users.getByLabel("Password").fill("short");
    await users.getByRole("button", { name: "Add user" }).click();
    await users.getByTestId("error-password").waitFor();
    await users.getByLabel("Password").fill("member password 1");
    await users.getByRole("button", { name: "Add user" }).click();
    await users.getByTestId("users-table").getByText("member@forage.test").waitFor();
    await admin.close();

    const page = await browser.newPage();
    await page.goto(`${app.baseUrl}/sign-in`);
    await signIn(page, "member@forage.test", "member password 1");
    await page.waitForURL(`${app.baseUrl}/`);
    expect(await page.getByRole("link", { name: "Settings" }).count()).toBe(0);
    await page.goto(`${app.baseUrl}/settings`);
    await page.waitForURL(`${app.baseUrl}/`);
    await page.close();
  });
});

/** Every API route of the built app as a URL (`[id]` → 1) with the methods its file exports. */
function apiRoutes(): { url: string; methods: string[]; anonymous: boolean }[] {
  const found: { url: string; methods: string[]; anonymous: boolean }[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name === "route.ts") {
        const source = fs.readFileSync(full, "utf8");
        const methods = ["GET", "POST", "PUT", "PATCH", "DELETE"].filter((method) => new RegExp(`export (async function|const) ${method}\\b`).test(source));
        const route = path.relative(path.join(PROJECT_ROOT, "app"), path.dirname(full)).replace(/\[[^\]]+\]/g, "1");
        // Sign-in, sign-out and setup are for anyone; health and readiness are for load balancers (docs/OPERATIONS.md).
        found.push({ url: `/${route}`, methods, anonymous: /\/auth\/(sign-in|sign-out|setup)$|^api\/(health|ready)$/.test(route) });
      }
    }
  };
  walk(path.join(PROJECT_ROOT, "app/api"));
  return found;
}

describe("the running server", () => {
  it("answers 401 on every API route without credentials, and 403 to a change from another Origin even with the session", async () => {
    const routes = apiRoutes();
    expect(routes.length).toBeGreaterThanOrEqual(20);
    const cookie = `forage_session=${app.admin!.session}`;
    for (const route of routes) {
      for (const method of route.methods) {
        const body = method === "GET" || method === "DELETE" ? undefined : "{}";
        const headers = body ? { "content-type": "application/json" } : undefined;
        if (!route.anonymous) {
          const anonymous = await fetch(`${app.baseUrl}${route.url}`, { method, body, headers });
          expect(anonymous.status, `${method} ${route.url}`).toBe(401);
        }
        if (method !== "GET") {
          const forged = await fetch(`${app.baseUrl}${route.url}`, { method, body, headers: { ...headers, cookie, origin: "https://attacker.example" } });
          expect(forged.status, `${method} ${route.url} from another origin`).toBe(403);
        }
      }
    }
  });
});

describe("another site", () => {
  it("cannot create, pause or cancel a crawl from a page a signed-in user visits", async () => {
    const created = await app.api("/api/crawls", { method: "POST", body: JSON.stringify({ rootUrl: "https://www.example.org/", name: "victim" }) });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: number };
    const before = await database.db.crawl.count();

    // The attacker's page, served from another origin; it runs every request a page may send without CORS.
    const attackPage = `<!doctype html><title>cats</title><form id="f" method="POST" action="${app.baseUrl}/api/crawls/${id}/cancel" enctype="text/plain" target="sink"><input name='{"a":"' value='"}'></form><iframe name="sink"></iframe>
<script>
(async () => {
  const target = ${JSON.stringify(app.baseUrl)};
  const body = JSON.stringify({ rootUrl: "http://127.0.0.1:1/" });
  const results = {};
  const attempt = async (name, url, init) => {
    try { const r = await fetch(url, init); results[name] = r.type === "opaque" ? "opaque" : r.status; } catch (e) { results[name] = "blocked"; }
  };
  await attempt("create-no-cors", target + "/api/crawls", { method: "POST", mode: "no-cors", credentials: "include", headers: { "content-type": "text/plain" }, body });
  await attempt("create-cors-json", target + "/api/crawls", { method: "POST", credentials: "include", headers: { "content-type": "application/json" }, body });
  await attempt("pause", target + "/api/crawls/${id}/pause", { method: "POST", mode: "no-cors", credentials: "include" });
  await attempt("cancel", target + "/api/crawls/${id}/cancel", { method: "POST", mode: "no-cors", credentials: "include" });
  await attempt("read-list", target + "/api/crawls", { credentials: "include" });
  document.getElementById("f").submit();
  await new Promise((resolve) => setTimeout(resolve, 500));
  window.attackResults = results;
})();
</script>`;
    const attacker = http.createServer((_request, response) => {
      response.writeHead(200, { "content-type": "text/html" });
      response.end(attackPage);
    });
    const port = await freePort();
    await new Promise<void>((resolve) => attacker.listen(port, "127.0.0.1", resolve));
    try {
      // 127.0.0.1 on another port is the same site (the SameSite cookie goes along) but another origin;
      // localhost is another site altogether.
      for (const origin of [`http://127.0.0.1:${port}`, `http://localhost:${port}`]) {
        const page = await browser.newPage(app.signedIn);
        const answered: { url: string; status: number }[] = [];
        const blockedAfterAnswer: string[] = [];
        page.on("response", (response) => {
          if (response.url().startsWith(app.baseUrl)) answered.push({ url: response.url(), status: response.status() });
        });
        // The app's Cross-Origin-Resource-Policy makes Chromium drop the answers to no-cors requests
        // after they arrive: the request reached the server, the page sees nothing.
        page.on("requestfailed", (request) => {
          if (request.url().startsWith(app.baseUrl) && /ERR_BLOCKED_BY_RESPONSE/.test(request.failure()?.errorText ?? "")) blockedAfterAnswer.push(request.url());
        });
        await page.goto(`${origin}/`);
        await page.waitForFunction(() => (window as unknown as { attackResults?: object }).attackResults !== undefined, undefined, { timeout: 20_000 });
        const results = await page.evaluate(() => (window as unknown as { attackResults: Record<string, unknown> }).attackResults);
        // The JSON create is stopped by the browser's CORS preflight; the list cannot be read.
        expect(results["create-cors-json"], origin).toBe("blocked");
        expect(results["read-list"], origin).toBe("blocked");
        // The create, pause and cancel requests and the form reached the server; what it answered was a refusal.
        expect(answered.length + blockedAfterAnswer.length, `${origin}: ${JSON.stringify({ answered, blockedAfterAnswer })}`).toBeGreaterThanOrEqual(4);
        for (const entry of answered) expect([401, 403], `${origin} → ${entry.url}`).toContain(entry.status);
        await page.close();
      }
    } finally {
      attacker.close();
    }
    expect(await database.db.crawl.count()).toBe(before);
    const victim = await database.db.crawl.findUniqueOrThrow({ where: { id } });
    expect({ status: victim.status, pendingControl: victim.pendingControl }).toEqual({ status: "queued", pendingControl: null });
  });

  it("answers 421 to a foreign Host on pages, downloads and assets (DNS rebinding reads nothing)", async () => {
    const port = Number(new URL(app.baseUrl).port);
    for (const path of ["/", "/sign-in", "/api/crawls", "/api/crawls/1/export.zip", "/icon.svg"]) {
      const status = await new Promise<number>((resolve, reject) => {
        const request = http.request({ host: "127.0.0.1", port, path, headers: { host: `rebind.attacker.example:${port}`, cookie: `forage_session=${app.admin!.session}` } }, (response) => {
          response.resume();
          resolve(response.statusCode ?? 0);
        });
        request.on("error", reject);
        request.end();
      });
      expect(status, path).toBe(421);
    }
  });

  it("sends the security headers on pages", async () => {
    const response = await fetch(`${app.baseUrl}/sign-in`);
    expect(response.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    expect(response.headers.get("x-frame-options")).toBe("DENY");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("referrer-policy")).toBe("same-origin");
  });
});

describe("first run", () => {
  it("creates the first admin from the setup link printed at start, then shows the demo crawl", async () => {
    const fresh = await createTestDatabase();
    const freshApp = await startApp(fresh, {}, { withAdmin: false });
    try {
      const printed = spawnSync(process.execPath, ["bin/forage.mjs", "setup-link"], {
        cwd: PROJECT_ROOT,
        env: { ...process.env, DATABASE_URL: fresh.config.databaseUrl, FORAGE_DATA_DIR: fresh.config.dataDir, FORAGE_PUBLIC_URL: freshApp.baseUrl },
        encoding: "utf8",
      });
      const link = /(http:\/\/\S+\/setup\?token=\S+)/.exec(printed.stdout)?.[1];
      expect(link, printed.stdout + printed.stderr).toBeDefined();
      const page = await browser.newPage();
      await page.goto(freshApp.baseUrl);
      await page.waitForURL(/\/sign-in/);
      await page.getByTestId("no-users").waitFor();
      await page.goto(link!);
      await page.getByLabel("Email").fill("owner@forage.test");
      await page.getByLabel("Password", { exact: true }).fill("owner password 1");
      await page.getByLabel("Repeat the password").fill("owner password 1");
      await page.getByRole("button", { name: "Create admin account" }).click();
      await page.waitForURL(`${freshApp.baseUrl}/`);
      await page.getByTestId("crawls-empty").waitFor();
      // The link worked once.
      await page.goto(link!);
      await expect(page.getByTestId("setup-problem").textContent()).resolves.toContain("already has an admin");
      await page.close();
    } finally {
      await freshApp.stop();
      await fresh.dispose();
    }
  });
});
