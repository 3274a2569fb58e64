import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BrowserPool } from "../../lib/render/browser-pool";
import { ChromiumRenderer } from "../../lib/render/chromium-renderer";
import { pollUntil } from "../helpers/poll-until";
import { engineSide, SHELL_PAGE, startRenderSite, type RenderSite } from "../helpers/render-site";

// What keeps a worker's renderer healthy: pages that never finish end at the time limit, a
// crashed browser is started again, and no more contexts are open than the pool allows.

/** Long enough for a page's setup and load on a busy two-core machine (the limit covers both). */
const TIME_LIMIT_MS = 3_000;
/** Reading what was rendered past the limit (at most 1.5 s when a script must be stopped first), on a busy machine. */
const MARGIN_MS = 3_000;

let site: RenderSite;
let pool: BrowserPool;

beforeAll(async () => {
  site = await startRenderSite();
  pool = new BrowserPool({ executablePath: "/usr/bin/chromium", maxContexts: 2 });
  // The browser's start is no part of any page's time limit below.
  await renderShell(new ChromiumRenderer(pool, { pageTimeLimitMs: 30_000 }));
});

afterAll(async () => {
  await pool?.close();
  await site?.close();
});

async function renderShell(renderer: ChromiumRenderer) {
  return renderer.render({ url: `${site.origin}/datasets`, html: SHELL_PAGE, headers: {}, fetch: engineSide(site.origin).fetch });
}

describe("render time limits", () => {
  const renderer = () => new ChromiumRenderer(pool, { pageTimeLimitMs: TIME_LIMIT_MS });

  it("ends a script that never yields at the time limit, keeping what was parsed before it", async () => {
    const html = `<!doctype html><body><p id="before">parsed before the loop</p><script>while (true) {}</script><p>never parsed</p></body>`;
    const result = await renderer().render({ url: `${site.origin}/spin`, html, headers: {}, fetch: engineSide(site.origin).fetch });

    expect(result.error).toBe(`time limit of ${TIME_LIMIT_MS} ms`);
    expect(result.durationMs).toBeGreaterThanOrEqual(TIME_LIMIT_MS);
    expect(result.durationMs).toBeLessThan(TIME_LIMIT_MS + MARGIN_MS);
    // The loop is stopped (DevTools' terminateExecution) and the DOM read; the parser may then go on.
    expect(result.html).toContain("parsed before the loop");
    await pollUntil("the spinning page's context to close", () => pool.openContexts(), (open) => open === 0, { timeoutMs: 10_000, pollMs: 50 });

    // The browser is fine afterwards.
    const next = await renderShell(renderer());
    expect(next.error).toBeUndefined();
    expect(next.html).toContain("/datasets/p1-0");
  });

  it("ends a page that never goes quiet at the time limit, with the DOM as rendered by then", async () => {
    const html = `<!doctype html><body><p id="polls">0</p><script>
      let polls = 0;
      setInterval(() => fetch("/api/poll").then(() => { document.getElementById("polls").textContent = String(++polls); }), 100);
    </script></body>`;
    const result = await renderer().render({ url: `${site.origin}/poll`, html, headers: {}, fetch: engineSide(site.origin).fetch });

    expect(result.error).toBe(`time limit of ${TIME_LIMIT_MS} ms`);
    expect(result.durationMs).toBeLessThan(TIME_LIMIT_MS + MARGIN_MS);
    const polls = Number(/<p id="polls">(\d+)<\/p>/.exec(result.html ?? "")?.[1]);
    expect(polls).toBeGreaterThan(3);
    expect(result.subrequests.answered).toBeGreaterThan(3);
  });

  it("ends a script that never yields inside a timer, and one that blocks the load event with a pending request", async () => {
    const spinning = `<!doctype html><body><p>before</p><script>setTimeout(() => { for (;;) {} }, 0); setInterval(() => { for (;;) {} }, 10);</script></body>`;
    const pending = `<!doctype html><body><p>waiting</p><script src="/api/slow?ms=60000"></script></body>`;
    const [first, second] = await Promise.all([
      renderer().render({ url: `${site.origin}/spin-timer`, html: spinning, headers: {}, fetch: engineSide(site.origin).fetch }),
      renderer().render({ url: `${site.origin}/pending`, html: pending, headers: {}, fetch: engineSide(site.origin).fetch }),
    ]);
    for (const result of [first, second]) {
      expect(result.error).toBe(`time limit of ${TIME_LIMIT_MS} ms`);
      expect(result.durationMs).toBeLessThan(TIME_LIMIT_MS + MARGIN_MS);
    }
    expect(second.html).toContain("waiting");
  });

  it("ends a render when its signal aborts", async () => {
    const html = `<!doctype html><body><script>setInterval(() => fetch("/api/poll"), 50);</script></body>`;
    const controller = new AbortController();
    const engine = engineSide(site.origin);
    const rendering = new ChromiumRenderer(pool, { pageTimeLimitMs: 30_000 }).render({ url: `${site.origin}/abort`, html, headers: {}, fetch: engine.fetch, signal: controller.signal });
    await pollUntil("the page's first polls", () => engine.asked.length, (asked) => asked >= 2, { timeoutMs: 10_000, pollMs: 20 });
    const abortedAt = performance.now();
    controller.abort();
    const result = await rendering;

    expect(result).toMatchObject({ html: null, error: "aborted" });
    expect(performance.now() - abortedAt).toBeLessThan(2_000);
    // An already aborted signal: no context at all.
    expect(await new ChromiumRenderer(pool, { pageTimeLimitMs: 30_000 }).render({ url: `${site.origin}/abort`, html, headers: {}, fetch: engine.fetch, signal: controller.signal })).toMatchObject({
      html: null,
      error: "aborted",
      subrequests: { answered: 0, refused: 0, blocked: 0 },
    });
  });
});

describe("the browser pool", () => {
  it("starts the browser again after it crashed", async () => {
    const renderer = new ChromiumRenderer(pool, { pageTimeLimitMs: 10_000 });
    expect((await renderShell(renderer)).error).toBeUndefined();
    const crashed = pool.browserPid();
    expect(crashed).toBeGreaterThan(0);
    expect(pool.memoryBytes()).toBeGreaterThan(10 * 1024 * 1024);
    expect(pool.cpuMs()).toBeGreaterThan(0);

    process.kill(crashed!, "SIGKILL");
    const result = await renderShell(renderer);

    expect(result.error).toBeUndefined();
    expect(result.html).toContain("/datasets/p1-0");
    expect(pool.browserPid()).not.toBe(crashed);
    expect(pool.browserPid()).toBeGreaterThan(0);
  });

  it("keeps at most maxContexts contexts open while rendering 6 pages, the others waiting in order", async () => {
    const engine = engineSide(site.origin);
    // Each page waits on a slow answer, so that pages would overlap if the pool let them.
    const html = `<!doctype html><body><script>fetch("/api/slow?ms=1000").then(() => document.body.append("done"));</script></body>`;
    const renderer = new ChromiumRenderer(pool, { pageTimeLimitMs: 15_000 });
    const createdBefore = pool.contextsCreated();
    let mostOpen = 0;
    let mostInFlight = 0;
    const watching = setInterval(() => {
      mostOpen = Math.max(mostOpen, pool.openContexts());
      mostInFlight = Math.max(mostInFlight, engine.inFlight());
    }, 5);
    const finished: number[] = [];
    try {
      await Promise.all(
        Array.from({ length: 6 }, async (_, index) => {
          const result = await renderer.render({ url: `${site.origin}/slow-${index}`, html, headers: {}, fetch: engine.fetch });
          expect(result.error).toBeUndefined();
          expect(result.html).toContain("done");
          finished.push(index);
        }),
      );
    } finally {
      clearInterval(watching);
    }
    expect(mostOpen).toBe(2);
    expect(mostInFlight).toBe(2);
    expect(finished.sort()).toEqual([0, 1, 2, 3, 4, 5]);
    // First come, first served: pages reach their slow request in the order they asked for a context (two at a time).
    const started = [...new Set(engine.asked.map((asked) => Number(/slow-(\d)/.exec(asked.documentUrl)?.[1])))];
    expect(started.slice(0, 2).sort()).toEqual([0, 1]);
    expect(started.slice(2, 4).sort()).toEqual([2, 3]);
    expect(started.slice(4).sort()).toEqual([4, 5]);
    // One site's pages: the two contexts are kept idle for its next pages, never more opened than two.
    expect(pool.contextsCreated() - createdBefore).toBeLessThanOrEqual(2);
    await pollUntil("only the idle contexts open", () => ({ open: pool.openContexts(), idle: pool.idleContexts() }), ({ open, idle }) => open === idle && idle <= 2, { timeoutMs: 10_000, pollMs: 20 });
  });

  it("says why when the executable is no browser, and tries again for the next page", async () => {
    const broken = new BrowserPool({ executablePath: "/bin/false", maxContexts: 1 });
    const renderer = new ChromiumRenderer(broken, { pageTimeLimitMs: 5_000 });
    try {
      for (let attempt = 0; attempt < 2; attempt++) {
        const result = await renderShell(renderer);
        expect(result.html).toBeNull();
        expect(result.error).toMatch(/^Chromium \(\/bin\/false\) did not start: /);
        expect(result.error).not.toContain("\n");
      }
    } finally {
      await broken.close();
    }
  });
});
