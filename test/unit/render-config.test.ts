import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../lib/config";
import { INSTALL_CHROMIUM_HINT } from "../../lib/render/chromium-path";
import { ChromiumRenderer, createRenderer } from "../../lib/render/chromium-renderer";

describe("render settings", () => {
  it("default to 2 contexts, 15 s a page, and the usual install paths", () => {
    expect(loadConfig()).toMatchObject({ renderContexts: 2, renderPageMs: 15_000, chromiumPath: null });
  });

  it("read FORAGE_RENDER_CONTEXTS, FORAGE_RENDER_PAGE_MS and FORAGE_CHROMIUM_PATH (relative paths from the working folder)", () => {
    expect(loadConfig({ FORAGE_RENDER_CONTEXTS: "8", FORAGE_RENDER_PAGE_MS: "500", FORAGE_CHROMIUM_PATH: "bin/chrome" }, "/opt/forage")).toMatchObject({
      renderContexts: 8,
      renderPageMs: 500,
      chromiumPath: "/opt/forage/bin/chrome",
    });
  });

  it.each([
    ["FORAGE_RENDER_CONTEXTS", "0", "must be 1 to 8"],
    ["FORAGE_RENDER_CONTEXTS", "9", "must be 1 to 8"],
    ["FORAGE_RENDER_CONTEXTS", "two", "expected number"],
    ["FORAGE_RENDER_PAGE_MS", "100", "must be 500 to 600000 ms"],
    ["FORAGE_RENDER_PAGE_MS", "1.5", "expected int"],
  ])("refuse %s=%s with a message naming the variable", (name, value, message) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(`^Invalid environment: ${name}: .*${message}`, "i"));
  });
});

describe("createRenderer", () => {
  it("says why there is no renderer when FORAGE_CHROMIUM_PATH names no executable", () => {
    const created = createRenderer(loadConfig({ FORAGE_CHROMIUM_PATH: "/nonexistent" }));
    expect(created).toEqual({ renderer: null, why: `no Chromium at /nonexistent (FORAGE_CHROMIUM_PATH): ${INSTALL_CHROMIUM_HINT}` });
  });

  it("makes a renderer without starting the browser (that waits for the first page)", async () => {
    const created = createRenderer(loadConfig({ FORAGE_CHROMIUM_PATH: "/usr/bin/chromium", FORAGE_RENDER_CONTEXTS: "3" }));
    expect(created.renderer).toBeInstanceOf(ChromiumRenderer);
    expect(created.renderer!.pool.browserPid()).toBeNull();
    expect(created.renderer!.pool.memoryBytes()).toBe(0);
    await created.renderer!.close();
  });
});
