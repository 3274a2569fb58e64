/**
 * Shared fixtures of the crawl-engine integration tests (test/integration/crawler-*.test.ts):
 * small hand-written node:http sites that log every request they receive, and a one-call
 * crawl through the real engine (real HttpFetcher over 127.0.0.1, MemorySink).
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { parseCrawlConfig, type CrawlConfig } from "../../lib/crawl-config";
import { createCrawlEngine, type CreateEngineOptions } from "../../lib/crawler/engine/create-engine";
import { MemorySink } from "../../lib/crawler/engine/memory-sink";
import type { CrawlCounters, CrawlEnd, RequestRow } from "../../lib/crawler/engine/types";
import { HostPoliteness } from "../../lib/crawler/fetch/host-politeness";
import { SIM_TARGET_MIME_TYPES, type SimulatedSite } from "../../lib/sitesim";
import { listenOnFreePort } from "./ports";

/** One request as the server saw it. */
export interface LoggedRequest {
  method: string;
  /** Path + query, as sent on the request line. */
  path: string;
}

export interface TestSite {
  /** "http://127.0.0.1:PORT" */
  origin: string;
  /** origin + "/" */
  rootUrl: string;
  /** Every request received, in arrival order (robots.txt included). */
  log: LoggedRequest[];
  /** Paths requested with `method` (any method when omitted), in arrival order. */
  paths(method?: string): string[];
  /** Whether `path` was ever requested (by any method). */
  saw(path: string): boolean;
  /** TCP connections accepted so far. */
  connections(): number;
  close(): Promise<void>;
}

export type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void;

/**
 * A route of a hand-written site: an HTML string (200 text/html), a response description,
 * or a raw handler for odd behaviour (resets, slow or endless bodies).
 */
export type Route =
  | string
  | { status?: number; type?: string; body?: string | Buffer; headers?: Record<string, string> }
  | Handler;

/** Starts a logging node:http server on 127.0.0.1 (a free port). */
export async function startTestSite(handler: Handler): Promise<TestSite> {
  const log: LoggedRequest[] = [];
  const server = http.createServer((req, res) => {
    log.push({ method: req.method ?? "?", path: req.url ?? "" });
    handler(req, res);
  });
  server.keepAliveTimeout = 5_000;
  let connections = 0;
  server.on("connection", () => void (connections += 1));
  await listenOnFreePort(server);
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    rootUrl: `${origin}/`,
    log,
    paths: (method) => log.filter((r) => method === undefined || r.method === method).map((r) => r.path),
    saw: (path) => log.some((r) => r.path === path),
    connections: () => connections,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** Sends one route's response (HEAD gets the headers only). */
export function sendRoute(route: Exclude<Route, Handler>, req: http.IncomingMessage, res: http.ServerResponse): void {
  const description = typeof route === "string" ? { body: route } : route;
  const body = typeof description.body === "string" ? Buffer.from(description.body) : (description.body ?? Buffer.alloc(0));
  res.writeHead(description.status ?? 200, {
    "content-type": description.type ?? "text/html; charset=utf-8",
    "content-length": String(body.length),
    ...description.headers,
  });
  res.end(req.method === "HEAD" ? undefined : body);
}

/**
 * A site made of fixed routes, keyed by path + query. Unknown paths are 404 (an HTML page
 * without links); robots.txt is 404 (allow all) unless routed.
 */
export async function startRouteSite(routes: Record<string, Route>): Promise<TestSite> {
  return startTestSite((req, res) => {
    const route = routes[req.url ?? ""];
    if (typeof route === "function") return route(req, res);
    sendRoute(route ?? { status: 404, body: "<html><body><p>Not found</p></body></html>" }, req, res);
  });
}

/** Serves a simulated site (lib/sitesim) through a logging test server. */
export function startSimulatedSite(site: SimulatedSite): Promise<TestSite> {
  return startTestSite((req, res) => {
    const method = req.method === "HEAD" ? "HEAD" : "GET";
    const out = site.respond(method, req.url ?? "/", { host: req.headers.host });
    res.writeHead(out.status, out.headers);
    res.end(method === "HEAD" ? undefined : out.body);
  });
}

/** An HTML page listing `links` as `<ul class="links"><li><a>` items (plus optional raw HTML). */
export function page(links: readonly string[], extra = ""): string {
  const items = links.map((href) => `<li><a href="${href}">${href}</a></li>`).join("");
  return `<!DOCTYPE html><html><head><title>t</title></head><body><ul class="links">${items}</ul>${extra}</body></html>`;
}

/** Settings input of a test crawl; nested objects are merged with the test defaults. */
export interface TestCrawlInput {
  rootUrl: string;
  strategy?: CrawlConfig["strategy"];
  seed?: number;
  targetMimeTypes?: string[];
  budget?: Record<string, unknown>;
  politeness?: Record<string, unknown>;
  blocklist?: Record<string, unknown>;
  params?: Record<string, unknown>;
  applications?: Record<string, unknown>;
  render?: CrawlConfig["render"];
  /** @default true */
  allowPrivateNetwork?: boolean;
}

/** The parsed settings of a test crawl: 0 ms politeness, private network allowed, the simulator's target types. */
export function testCrawlConfig(input: TestCrawlInput): CrawlConfig {
  return parseCrawlConfig({
    rootUrl: input.rootUrl,
    strategy: input.strategy ?? "sb",
    seed: input.seed ?? 1,
    targetMimeTypes: input.targetMimeTypes ?? [...SIM_TARGET_MIME_TYPES],
    budget: { requests: 500, ...input.budget },
    politeness: { delayMs: 0, ...input.politeness },
    blocklist: input.blocklist ?? {},
    params: input.params ?? {},
    ...(input.applications ? { applications: input.applications } : {}),
    ...(input.render ? { render: input.render } : {}),
    allowPrivateNetwork: input.allowPrivateNetwork ?? true,
  });
}

export interface TestCrawlResult {
  end: CrawlEnd;
  /** `end.reason` for a stopped crawl, "paused" otherwise. */
  stopReason: string;
  /** The cause of a failed end, if any. */
  stopDetail: string | null;
  config: CrawlConfig;
  sink: MemorySink;
  counters: CrawlCounters;
  /** Every request row (robots.txt and robots skips included). */
  rows: RequestRow[];
  /** Counted rows (seq > 0), in order. */
  counted: RequestRow[];
  /** "METHOD url" of every counted request, in order. */
  sequence: string[];
  /** Groups of the strategy at the end. */
  groups: ReturnType<ReturnType<typeof createCrawlEngine>["engine"]["groupRows"]>;
  wallMs: number;
}

export interface TestCrawlOptions extends Partial<Pick<CreateEngineOptions, "keepPageBodies" | "live" | "exchangeRecorder" | "stepWatch" | "applications" | "recrawl" | "rendering" | "privateNetworks">> {
  /** Checked after every page: true pauses the crawl there (`end.kind === "paused"`). */
  stopWhen?: (counters: CrawlCounters) => boolean;
}

/** Runs one crawl to its end (or to `stopWhen`) through the real engine and HttpFetcher. */
export async function runTestCrawl(input: TestCrawlInput, options: TestCrawlOptions = {}): Promise<TestCrawlResult> {
  const config = testCrawlConfig(input);
  const sink = new MemorySink();
  const started = performance.now();
  const stop = new AbortController();
  const run = createCrawlEngine({
    config,
    sink,
    signal: stop.signal,
    politeness: new HostPoliteness(),
    keepPageBodies: options.keepPageBodies ?? false,
    live: options.live,
    exchangeRecorder: options.exchangeRecorder,
    stepWatch: options.stepWatch,
    applications: options.applications,
    recrawl: options.recrawl,
    rendering: options.rendering,
    privateNetworks: options.privateNetworks,
    afterPage: async () => {
      if (options.stopWhen?.(run.counters)) stop.abort();
    },
  });
  let end: CrawlEnd;
  try {
    end = await run.engine.run();
  } finally {
    await run.close();
  }
  const counted = sink.requests.filter((row) => row.seq > 0);
  return {
    end,
    stopReason: end.kind === "stopped" ? end.reason : "paused",
    stopDetail: end.kind === "stopped" ? (end.detail ?? null) : null,
    config,
    sink,
    counters: run.counters,
    rows: sink.requests,
    counted,
    sequence: counted.map((row) => `${row.method} ${row.url}`),
    groups: run.engine.groupRows(),
    wallMs: performance.now() - started,
  };
}

/** Path + query of an absolute URL. */
export function pathOf(url: string): string {
  const u = new URL(url);
  return u.pathname + u.search;
}
