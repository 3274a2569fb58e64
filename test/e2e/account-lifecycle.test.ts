/**
 * Account lifecycle in a real Chromium against the built app: an admin disables a member whose
 * browser is signed in (the next page sends it to sign-in), enables, resets the password (a weak
 * one refused next to the field), reads it in the audit log and deletes the member after a
 * question; a member changes their password on the Account page and signs out everywhere, and
 * sees neither Workers nor Settings.
 */
import type { Browser, BrowserContext, Page } from "playwright-core";
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

async function addMember(email: string, password: string): Promise<void> {
  const response = await app.api("/api/users", { method: "POST", body: JSON.stringify({ email, password, role: "member" }) });
  expect(response.status, await response.clone().text()).toBe(201);
}

/** A fresh browser signed in as `email` through the sign-in form. */
async function signedInAs(email: string, password: string): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`${app.baseUrl}/sign-in`, { waitUntil: "networkidle" });
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL(`${app.baseUrl}/`);
  return { context, page };
}

/**
 * The browser's next page finds its session gone and lands on sign-in. The page it is on may
 * get there first (its polling gets a 401 and redirects), which aborts our navigation: fine.
 */
async function expectSignedOut(page: Page): Promise<void> {
  await page.goto(`${app.baseUrl}/crawls/new`).catch(() => undefined);
  await page.waitForURL(/\/sign-in/);
}

async function openSettings(): Promise<Page> {
  const page = await browser.newPage(app.signedIn);
  // Network idle: the page has hydrated, so the buttons' handlers get the clicks.
  await page.goto(`${app.baseUrl}/settings`, { waitUntil: "networkidle" });
  return page;
}

describe("Settings → Users", () => {
  it("disables a signed-in member at once, enables, resets the password, and deletes after asking", async () => {
    await addMember("crew@forage.test", "amber meadow piano 6");
    const member = await signedInAs("crew@forage.test", "amber meadow piano 6");
    const admin = await openSettings();
    const row = admin.getByTestId("user-crew@forage.test");

    await row.getByRole("button", { name: "Disable crew@forage.test" }).click();
    await row.getByText("disabled", { exact: true }).waitFor();
    // The member's next page finds the session gone.
    await expectSignedOut(member.page);
    await member.context.close();

    await row.getByRole("button", { name: "Enable crew@forage.test" }).click();
    await row.getByRole("button", { name: "Disable crew@forage.test" }).waitFor();

    await row.getByRole("button", { name: "Reset password of crew@forage.test" }).click();
    await row.getByLabel("New password for crew@forage.test").fill("password123");
    await row.getByRole("button", { name: "Set password", exact: true }).click();
    await expect(row.getByTestId("error-resetPassword").textContent()).resolves.toMatch(/too easy to guess/);
    await row.getByLabel("New password for crew@forage.test").fill("cobalt river thimble 4");
    await row.getByRole("button", { name: "Set password", exact: true }).click();
    await row.getByRole("status").filter({ hasText: "New password set" }).waitFor();
    const again = await signedInAs("crew@forage.test", "cobalt river thimble 4");
    await again.context.close();

    // The audit log shows what happened, newest first.
    const audit = admin.locator("section", { has: admin.getByRole("heading", { name: "Audit log" }) });
    await admin.reload({ waitUntil: "networkidle" });
    await audit.getByTestId("audit-table").getByText("password-reset").waitFor();
    const actions = await audit.locator("tbody tr td:nth-child(3)").allTextContents();
    // Sign-ins are recorded too (by the sign-in route), so only the order of these is fixed.
    expect(actions.indexOf("password-reset")).toBeGreaterThanOrEqual(0);
    expect(actions.indexOf("password-reset")).toBeLessThan(actions.indexOf("user-enabled"));
    expect(actions.indexOf("user-enabled")).toBeLessThan(actions.indexOf("user-disabled"));
    await audit.getByLabel("Show").selectOption("user-disabled");
    await audit.getByTestId("audit-table").locator("tbody tr").first().getByText("crew@forage.test").waitFor();
    expect(await audit.locator("tbody tr td:nth-child(3)").allTextContents()).toEqual(["user-disabled"]);

    await row.getByRole("button", { name: "Delete crew@forage.test" }).click();
    await row.getByRole("button", { name: "Yes, delete crew@forage.test" }).click();
    await admin.getByTestId("user-crew@forage.test").waitFor({ state: "detached" });
    expect(await database.db.user.count({ where: { email: "crew@forage.test" } })).toBe(0);

    // The admin's own row offers nothing that would lock them out.
    const own = admin.getByTestId(`user-${app.admin!.user.email}`);
    expect(await own.getByRole("button").count()).toBe(0);
    await admin.close();
  });
});

describe("Account", () => {
  it("changes the password with errors next to the fields, then signs out everywhere", async () => {
    await addMember("self@forage.test", "amber meadow piano 6");
    const elsewhere = await signedInAs("self@forage.test", "amber meadow piano 6");
    const { context, page } = await signedInAs("self@forage.test", "amber meadow piano 6");
    // Members see neither the workers (host names, PIDs) nor Settings.
    expect(await page.getByRole("navigation", { name: "Main" }).getByRole("link").allTextContents()).toEqual(["Crawls", "New crawl"]);
    await page.goto(`${app.baseUrl}/workers`);
    await page.waitForURL(`${app.baseUrl}/`);

    // The signed-in email in the header leads to the Account page (the nav stays narrow enough for a phone).
    await page.getByRole("link", { name: "self@forage.test" }).click();
    await page.waitForURL(`${app.baseUrl}/account`);
    await page.waitForLoadState("networkidle");
    const fill = async (current: string, next: string, repeat = next) => {
      await page.getByLabel("Current password").fill(current);
      await page.getByLabel("New password", { exact: true }).fill(next);
      await page.getByLabel("Repeat the new password").fill(repeat);
      await page.getByRole("button", { name: "Change password" }).click();
    };
    await fill("amber meadow piano 6", "granite lantern opal 5", "granite lantern opal 6");
    await expect(page.getByTestId("error-repeatPassword").textContent()).resolves.toMatch(/does not match/);
    await fill("not my password at all", "granite lantern opal 5");
    await expect(page.getByTestId("error-currentPassword").textContent()).resolves.toMatch(/Current password is not your current password/);
    await fill("amber meadow piano 6", "selfself1");
    await expect(page.getByTestId("error-newPassword").textContent()).resolves.toMatch(/New password is too easy to guess/);
    await fill("amber meadow piano 6", "granite lantern opal 5");
    await page.getByRole("status").filter({ hasText: "Password changed. 1 other session signed out." }).waitFor();

    // The other browser was signed out by the change; this one stays.
    await expectSignedOut(elsewhere.page);
    await elsewhere.context.close();
    const third = await signedInAs("self@forage.test", "granite lantern opal 5");

    await page.reload({ waitUntil: "networkidle" });
    await page.getByRole("button", { name: "Sign out everywhere" }).click();
    await page.waitForURL(/\/sign-in$/);
    await expectSignedOut(third.page);
    expect(await database.db.session.count({ where: { user: { email: "self@forage.test" } } })).toBe(0);
    await third.context.close();
    await context.close();
  });
});
