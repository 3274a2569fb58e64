/**
 * Settings → Network in real Chromium against the built app: an admin limits a private range to
 * ports, a bad port is named next to the field, and the saved list is canonical.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startAppInBrowser, stopAppInBrowser, type AppInBrowser } from "../helpers/app-in-browser";

let parts: AppInBrowser;

beforeAll(async () => {
  parts = await startAppInBrowser();
});
afterAll(() => stopAppInBrowser(parts ?? {}));

describe("Settings → Network with ports", () => {
  it("saves entries limited to ports, and names a bad port next to the field", async () => {
    const { app, browser } = parts;
    const page = await browser.newPage(app.signedIn);
    await page.goto(`${app.baseUrl}/settings`);
    const field = page.getByLabel("Private networks crawls may reach");
    await page.waitForFunction(() => !(document.querySelector("textarea[name=privateNetworks]") as HTMLTextAreaElement | null)?.disabled);
    await field.fill("10.0.0.0/8\n192.168.1.10/32:8080,70000");
    await page.getByRole("button", { name: "Save network policy" }).click();
    await expect(page.getByTestId("error-privateNetworks").textContent()).resolves.toContain('"192.168.1.10/32:8080,70000" has an invalid port "70000"');
    // Commas and spaces as typed: the bare 8443 continues the entry's ports.
    await field.fill("10.0.0.0/8\n192.168.1.10:8443, 8080\n[fd00::/8]:443");
    await page.getByRole("button", { name: "Save network policy" }).click();
    await page.getByRole("status").filter({ hasText: "Saved" }).waitFor();
    const saved = (await (await app.api("/api/settings/network")).json()) as { privateNetworks: string[] };
    expect(saved.privateNetworks).toEqual(["10.0.0.0/8", "192.168.1.10/32:8080,8443", "[fd00::/8]:443"]);
    await page.close();
  });
});
