import type { BrowserContext, BrowserContextOptions, CDPSession, Page, Request, Route } from "playwright-core";
import type { ForageConfig } from "../config";
import type { PageRenderer, RenderAnswer, RenderInput, RenderResult, RenderSubrequest } from "../crawler/engine/page-renderer";
import { BrowserLaunchError, BrowserPool } from "./browser-pool";
import { findChromium, INSTALL_CHROMIUM_HINT } from "./chromium-path";
import { DataLinkCollector } from "./json-data-links";
import { clickLoadMore, countLinks, scrollToBottom } from "./page-interactions";
import { gateRequest, isPageUrl } from "./request-gate";
import { RequestActivity } from "./request-activity";
import { settleWithin } from "./settle-within";

export interface ChromiumRendererOptions {
  /** Time limit of one page (FORAGE_RENDER_PAGE_MS), from the moment it has a browser context. */
  pageTimeLimitMs: number;
  /** "Load more" clicks and scrolls at most per page. @default 5 */
  maxInteractions?: number;
  /** A page is quiet after this long without a request in flight. @default 300 */
  quietMs?: number;
  /** Told what became of each request of the browser (for logs and tests). */
  onSubrequest?: (outcome: SubrequestOutcome) => void;
}

/** What became of one request of the browser. */
export interface SubrequestOutcome {
  url: string;
  method: string;
  resourceType: string;
  /** `page`: the page's own HTML; `local`: a data:/blob: URL the browser reads itself; the rest as counted in `subrequests`. */
  outcome: "page" | "local" | "answered" | "refused" | "blocked";
  /** Why it was blocked or refused. */
  reason?: string;
}

/** Every page's context: no service workers (they could answer or send requests outside the page's interception), no downloads. */
const CONTEXT_OPTIONS: BrowserContextOptions = { serviceWorkers: "block", acceptDownloads: false, viewport: { width: 1280, height: 800 } };

/** At the time limit: how long reading the DOM may take, before and after stopping the page's scripts. */
const SNAPSHOT_MS = { running: 500, afterStop: 1_000 };

/** Response headers the browser must not see: the engine's body is already decoded and whole. */
const DROPPED_HEADERS: ReadonlySet<string> = new Set(["content-encoding", "content-length", "transfer-encoding", "connection", "keep-alive"]);

/**
 * Renders a script-built page in Chromium (see `PageRenderer`). The browser never reaches the
 * network: the page's own HTML comes from `input.html`, every other request is blocked here or
 * answered by `input.fetch` (the engine's policies), WebSockets are closed, and the launch flags
 * send anything that could slip past interception to a proxy where nothing listens.
 */
export class ChromiumRenderer implements PageRenderer {
  private readonly maxInteractions: number;
  private readonly quietMs: number;

  constructor(
    readonly pool: BrowserPool,
    private readonly options: ChromiumRendererOptions,
  ) {
    this.maxInteractions = options.maxInteractions ?? 5;
    this.quietMs = options.quietMs ?? 300;
  }

  async render(input: RenderInput): Promise<RenderResult> {
    const started = performance.now();
    const run = new RenderRun(input, this.options.onSubrequest);
    const finish = (html: string | null, error?: string): RenderResult => ({
      html,
      dataLinks: run.dataLinks.list(),
      subrequests: { ...run.tally },
      interactions: run.interactions,
      durationMs: Math.round(performance.now() - started),
      ...(error === undefined ? {} : { error }),
    });
    if (!run.pageUrl) return finish(null, `not an http(s) URL: ${input.url.slice(0, 200)}`);
    if (input.signal?.aborted) return finish(null, "aborted");
    try {
      // One site's pages share a context and its page, as a user's tab would: cookies and storage
      // live on between them (for as long as the pool keeps the context idle); never across sites.
      const { html, error } = await this.pool.withContext(
        async (context, lease) => {
          const rendered = await this.renderIn(context, run);
          if (!rendered.fit) lease.discard();
          return rendered;
        },
        { key: run.pageUrl.origin, contextOptions: CONTEXT_OPTIONS, signal: input.signal },
      );
      return finish(html, error);
    } catch (error) {
      if (input.signal?.aborted) return finish(null, "aborted");
      return finish(null, describeFailure(error));
    }
  }

  /** Shuts the browser down (the worker's shutdown). */
  close(): Promise<void> {
    return this.pool.close();
  }

  /** Renders `run` in the context's tab (set up on the context's first render); `fit` says whether the context may be reused. */
  private async renderIn(context: BrowserContext, run: RenderRun): Promise<{ html: string | null; error?: string; fit: boolean }> {
    const stop = new AbortController();
    const held: { tab: RenderTab | null } = { tab: null };
    // The time limit covers the tab's setup too: a browser that stops answering holds no worker.
    const work = (async () => {
      const tab = await tabOf(context);
      held.tab = tab;
      tab.current = { run, stop: stop.signal };
      run.page = tab.page;
      return this.load(tab.page, run, stop.signal);
    })();
    try {
      const outcome = await settleWithin(work, this.options.pageTimeLimitMs, run.input.signal);
      if (outcome.kind === "done") return { html: outcome.value, fit: !run.page?.isClosed() };
      if (outcome.kind === "failed") return { html: null, error: describeFailure(outcome.error), fit: false };
      if (outcome.kind === "aborted") return { html: null, error: "aborted", fit: false };
      stop.abort();
      const devtools = held.tab?.devtools;
      return { html: devtools ? await snapshot(devtools) : null, error: `time limit of ${this.options.pageTimeLimitMs} ms`, fit: false };
    } finally {
      stop.abort();
      if (held.tab?.current?.run === run) held.tab.current = null;
    }
  }

  /**
   * Waits until the page is quiet. A request the page made is heard here some time after the
   * browser made it (later still on a busy machine), so a quiet spell is confirmed by a round trip
   * to the page: what the page sent before answering has then had the same way to travel, and
   * the wait goes on if anything arrived meanwhile.
   */
  private async settle(page: Page, run: RenderRun, stop: AbortSignal): Promise<void> {
    for (;;) {
      await run.activity.quiet(this.quietMs, stop);
      const changes = run.activity.changes;
      await page.evaluate("0");
      if (run.activity.changes === changes && run.activity.isQuiet(this.quietMs)) return;
    }
  }

  /** Loads the page, lets it settle, performs its "Load more" steps, and serialises the DOM. */
  private async load(page: Page, run: RenderRun, stop: AbortSignal): Promise<string> {
    // The tab still shows this URL, give or take a fragment: going there would only move within the
    // document, without a request for the page, so the tab is emptied first.
    if (page.url() !== "about:blank" && withoutFragment(page.url()) === withoutFragment(run.input.url)) await page.goto("about:blank", { waitUntil: "commit", timeout: 0 });
    // Waiting for "load" through goto fails when the page starts a navigation of its own before
    // its load event (one answered 204 and dropped leaves goto waiting): the document's own
    // readiness is read instead.
    await page.goto(run.input.url, { waitUntil: "commit", timeout: 0 });
    await page.waitForFunction(`document.readyState === "complete"`, undefined, { polling: 50, timeout: 0 });
    await this.settle(page, run, stop);
    let links = await countLinks(page);
    while (run.interactions < this.maxInteractions) {
      const acted = (await clickLoadMore(page)) || (await scrollToBottom(page));
      if (!acted) break;
      run.interactions++;
      run.activity.touch();
      await this.settle(page, run, stop);
      const now = await countLinks(page);
      if (now <= links) break;
      links = now;
    }
    return page.content();
  }
}

/**
 * A context set up for rendering, once, and reused for the pages of one site: its page (a tab that
 * navigates from page to page), the DevTools session to it, and the render using it now. Every
 * request of the context is answered for that render; one arriving between renders is aborted.
 */
class RenderTab {
  current: { run: RenderRun; stop: AbortSignal } | null = null;

  constructor(
    readonly page: Page,
    readonly devtools: CDPSession,
  ) {}
}

/** Each context's tab, shared by every renderer on the pool (a kept context goes to whichever renders next). */
const tabs = new WeakMap<BrowserContext, Promise<RenderTab>>();

function tabOf(context: BrowserContext): Promise<RenderTab> {
  let tab = tabs.get(context);
  if (!tab) {
    tab = setUpTab(context);
    tabs.set(context, tab);
  }
  return tab;
}

async function setUpTab(context: BrowserContext): Promise<RenderTab> {
  let tab: RenderTab | null = null;
  await context.routeWebSocket(/.*/, (socket) => {
    tab?.current?.run.tell({ url: socket.url(), method: "GET", resourceType: "websocket", outcome: "refused", reason: "the crawler opens no WebSockets" });
    void socket.close({ code: 1008, reason: "the crawler opens no WebSockets" }).catch(() => undefined);
  });
  await context.route("**/*", (route, request) => {
    const current = tab?.current;
    if (!current) return route.abort("aborted").catch(() => undefined);
    return current.run.answer(route, request, current.stop);
  });
  const page = await context.newPage();
  // Pop-ups (window.open, target=_blank) are no part of the page: closed at once (their requests are blocked too).
  context.on("page", (opened) => {
    if (opened !== page) void opened.close().catch(() => undefined);
  });
  // Opened before any script runs: a session to a page whose script never yields could not be opened later.
  const devtools = await context.newCDPSession(page);
  tab = new RenderTab(page, devtools);
  return tab;
}

/** One page's render: what its requests were told, and what the JSON answers held. */
class RenderRun {
  readonly pageUrl: URL | null;
  readonly tally = { answered: 0, refused: 0, blocked: 0 };
  readonly dataLinks = new DataLinkCollector();
  readonly activity = new RequestActivity();
  interactions = 0;
  page: Page | null = null;
  private pageServed = false;

  constructor(
    readonly input: RenderInput,
    private readonly onSubrequest?: (outcome: SubrequestOutcome) => void,
  ) {
    this.pageUrl = httpUrl(input.url);
  }

  /** Counts an outcome and tells the watcher, whose failure is not the render's. */
  tell(outcome: SubrequestOutcome): void {
    if (outcome.outcome === "answered" || outcome.outcome === "refused" || outcome.outcome === "blocked") this.tally[outcome.outcome]++;
    try {
      this.onSubrequest?.(outcome);
    } catch {
      // a watcher's bug must not fail the page
    }
  }

  /** Every request of the browser: the page's own HTML, a block or refusal here, or the engine's answer. */
  async answer(route: Route, request: Request, stop: AbortSignal): Promise<void> {
    this.activity.started();
    try {
      const url = request.url();
      const method = request.method();
      const resourceType = request.resourceType();
      const seen = { url, method, resourceType };
      const frame = frameOf(request);
      const isPageDocument = resourceType === "document" && this.page !== null && frame === this.page.mainFrame() && isPageUrl(url, this.pageUrl!);
      // Before the page's own document, a request can only come from the tab's previous page, on its way out.
      if (!this.pageServed && !isPageDocument) return await route.abort("aborted");
      if (!this.pageServed && isPageDocument) {
        this.pageServed = true;
        this.tell({ ...seen, outcome: "page" });
        await route.fulfill({ status: 200, contentType: pageContentType(this.input.headers), body: this.input.html });
        return;
      }
      const decision = gateRequest(seen, this.pageUrl!);
      if (decision.kind === "local") {
        this.tell({ ...seen, outcome: "local" });
        return await route.continue();
      }
      if (decision.kind === "block" || decision.kind === "refuse") {
        this.tell({ ...seen, outcome: decision.kind === "block" ? "blocked" : "refused", reason: decision.reason });
        // A failed navigation would replace the page with the browser's error page; a navigation
        // answered "204 No Content" is dropped, and the page stays as it is.
        if (resourceType === "document" && /^https?:/i.test(url)) return await route.fulfill({ status: 204, body: "" });
        return await route.abort(decision.kind === "block" ? "blockedbyclient" : "accessdenied");
      }
      const reply = await askEngine(this.input, { url, method, resourceType, documentUrl: frame?.url() || this.input.url });
      // The render is over (its tab may live on for the next page): the request fails.
      if (stop.aborted) return await route.abort("aborted");
      if (reply.kind === "refused") {
        this.tell({ ...seen, outcome: "refused", reason: reply.reason });
        return await route.abort("accessdenied");
      }
      this.tell({ ...seen, outcome: "answered" });
      if (method === "GET") this.dataLinks.add(url, headerValue(reply.headers, "content-type"), reply.body);
      await route.fulfill({ status: reply.status, headers: browserHeaders(reply.headers), body: reply.body });
    } catch {
      // The context closed while this request waited (time limit, abort, end of the render): no one to answer.
    } finally {
      this.activity.finished();
    }
  }
}

/** The engine's answer; `fetch` promises never to throw, and a broken promise is a refusal all the same. */
async function askEngine(input: RenderInput, request: RenderSubrequest): Promise<RenderAnswer> {
  try {
    return await input.fetch(request);
  } catch (error) {
    return { kind: "refused", reason: describeFailure(error) };
  }
}

/** The DOM serialised as `page.content()` does, evaluated through DevTools directly (no Playwright helper script to inject first). */
const SERIALISE_DOM = `(document.doctype ? new XMLSerializer().serializeToString(document.doctype) : "") + (document.documentElement ? document.documentElement.outerHTML : "")`;

/** The DOM as far as rendered at the time limit: read at once, or after stopping a script that never yields; null when neither works. */
async function snapshot(devtools: CDPSession): Promise<string | null> {
  const read = async () => {
    const reply = await devtools.send("Runtime.evaluate", { expression: SERIALISE_DOM, returnByValue: true });
    // An empty string: no document yet (the page had not been committed).
    return typeof reply.result.value === "string" && reply.result.value !== "" ? reply.result.value : null;
  };
  const running = await within(read(), SNAPSHOT_MS.running);
  if (running !== null) return running;
  await within(devtools.send("Runtime.terminateExecution"), SNAPSHOT_MS.afterStop);
  return within(read(), SNAPSHOT_MS.afterStop);
}

/** `work`'s value, or null when it fails or takes longer than `ms` (it is left to fail on its own when its context closes). */
async function within<T>(work: Promise<T>, ms: number): Promise<T | null> {
  const outcome = await settleWithin(work, ms);
  return outcome.kind === "done" ? outcome.value : null;
}

function frameOf(request: Request) {
  try {
    return request.frame();
  } catch {
    return null; // a service worker's request (none are allowed to run)
  }
}

function withoutFragment(text: string): string {
  const at = text.indexOf("#");
  return at < 0 ? text : text.slice(0, at);
}

function httpUrl(text: string): URL | null {
  try {
    const url = new URL(text);
    return url.protocol === "http:" || url.protocol === "https:" ? url : null;
  } catch {
    return null;
  }
}

/** The page's type with UTF-8: `input.html` is already decoded text, whatever charset the site sent. */
function pageContentType(headers: Record<string, string>): string {
  const type = headerValue(headers, "content-type")?.split(";")[0]?.trim().toLowerCase();
  return `${type && /^[a-z0-9.+-]+\/[a-z0-9.+-]+$/.test(type) ? type : "text/html"}; charset=utf-8`;
}

function headerValue(headers: Record<string, string>, name: string): string | undefined {
  for (const [key, value] of Object.entries(headers)) if (key.toLowerCase() === name) return value;
  return undefined;
}

function browserHeaders(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !DROPPED_HEADERS.has(name.toLowerCase())));
}

/** One line for the crawl's events: never a stack trace. */
function describeFailure(error: unknown): string {
  if (error instanceof BrowserLaunchError) return error.message;
  const text = error instanceof Error ? error.message : String(error);
  const line = text.split("\n").find((part) => part.trim() !== "")?.trim() ?? "unknown error";
  return `rendering failed: ${line.slice(0, 300)}`;
}

/**
 * The process's renderer from its settings, or why there is none (no Chromium installed, or none
 * at FORAGE_CHROMIUM_PATH). The browser starts with the first page, not here.
 */
export function createRenderer(
  config: Pick<ForageConfig, "chromiumPath" | "renderContexts" | "renderPageMs">,
  options: { maxInteractions?: number } = {},
): { renderer: ChromiumRenderer } | { renderer: null; why: string } {
  const executablePath = findChromium(config.chromiumPath);
  if (!executablePath) {
    const where = config.chromiumPath ? `no Chromium at ${config.chromiumPath} (FORAGE_CHROMIUM_PATH)` : "no Chromium found";
    return { renderer: null, why: `${where}: ${INSTALL_CHROMIUM_HINT}` };
  }
  const pool = new BrowserPool({ executablePath, maxContexts: config.renderContexts });
  return { renderer: new ChromiumRenderer(pool, { pageTimeLimitMs: config.renderPageMs, maxInteractions: options.maxInteractions }) };
}
