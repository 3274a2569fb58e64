/**
 * The open redirect after sign-in, attacked on the built app: a `next` that a browser reads as
 * another site (`/%09/evil.example/` loses its tab and becomes `//evil.example/`) must send a
 * signed-in user, and a user who signs in, to Forage's own pages; a control character in `next`
 * must not break the answer (it was a 500).
 */
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApp, type RunningApp } from "../helpers/app-server";
import { launchBrowser } from "../helpers/browser";
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

const HOSTILE_NEXTS = ["/%09/evil.example/", "/%0a/evil.example/", "/%0d%0a/evil.example/", "/%5C/evil.example/", "//evil.example/", "/%2F/evil.example/"];

describe("where sign-in sends the browser", () => {
  it.each(HOSTILE_NEXTS)("answers a signed-in user's next=%s with a redirect to this origin", async (next) => {
    const answer = await fetch(`${app.baseUrl}/sign-in?next=${next}`, {
      redirect: "manual",
      headers: { cookie: `forage_session=${app.admin!.session}` },
    });
    expect(answer.status).toBeGreaterThanOrEqual(300);
    expect(answer.status).toBeLessThan(400);
    const location = new URL(answer.headers.get("location")!, app.baseUrl);
    expect(location.origin).toBe(app.baseUrl);
  });

  it("takes a user who signs in with a hostile next to the crawl list, not to another site", async () => {
    const page = await browser.newPage();
    await page.goto(`${app.baseUrl}/sign-in?next=/%09/evil.example/`, { waitUntil: "networkidle" });
    await page.getByLabel("Email").fill(app.admin!.user.email);
    await page.getByLabel("Password", { exact: true }).fill(app.admin!.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("link", { name: "New crawl" }).first().waitFor();
    expect(new URL(page.url()).origin).toBe(app.baseUrl);
    await page.close();
  });

  it("keeps a same-origin next, query included", async () => {
    const answer = await fetch(`${app.baseUrl}/sign-in?next=${encodeURIComponent("/crawls/new?from=1")}`, {
      redirect: "manual",
      headers: { cookie: `forage_session=${app.admin!.session}` },
    });
    expect(new URL(answer.headers.get("location")!, app.baseUrl).href).toBe(`${app.baseUrl}/crawls/new?from=1`);
  });
});
