import { randomUUID } from "node:crypto";
import http, { type IncomingMessage, type ServerResponse } from "node:http";
import { CLIENT_ADDRESS_HEADER } from "../api/client-address";
import { requestLog, silentLogger, type Logger } from "../log/logger";
import { processMetrics } from "../observability/process-metrics";
import { ClientAddressResolver } from "./request-client-address";
import { SignInHold, type SignInHoldOptions } from "./sign-in-hold";

/**
 * The dashboard's HTTP server, in front of the app's request handler (Next.js's, passed in by
 * scripts/dashboard.mjs, so lib/ stays framework-free). Before the app sees a request it
 * replaces any `x-forage-client-address` the client sent with the address the server decided
 * on (lib/server/request-client-address.ts), and holds sign-in requests per address
 * (lib/server/sign-in-hold.ts). When each answer ends, it writes one log line (method, path
 * without its query, status, duration, client address: never headers, so no token or cookie)
 * and observes the latency histogram of GET /api/metrics (lib/observability/process-metrics.ts).
 */
export interface DashboardServerOptions {
  /** FORAGE_TRUSTED_PROXIES as CIDRs. */
  trustedProxies: readonly string[];
  /** The app: Next.js's `getRequestHandler()`. */
  handle: (req: IncomingMessage, res: ServerResponse) => Promise<void> | void;
  hold?: Partial<SignInHoldOptions>;
  /** Where a request the app failed on is reported. @default the log at error level (console.error without a log) */
  onError?: (error: unknown) => void;
  /** The request log. @default none */
  log?: Logger;
  /** Told each answered request. @default the process's latency histogram */
  observe?: (method: string, path: string, status: number, seconds: number) => void;
}

export interface DashboardServer {
  server: http.Server;
  hold: SignInHold;
  /** Stops accepting, ends idle keep-alive connections, and resolves once the last request ended (or `graceMs` passed). */
  close(graceMs?: number): Promise<void>;
}

export function createDashboardServer(options: DashboardServerOptions): DashboardServer {
  const resolver = new ClientAddressResolver(options.trustedProxies);
  const hold = new SignInHold(options.hold);
  const log = options.log ?? silentLogger();
  const onError = options.onError ?? (options.log ? (error: unknown) => log.error({ err: error }, "request failed in the app") : (error: unknown) => console.error(error));
  const observe = options.observe ?? processMetrics().observeRequest;

  const pass = (req: IncomingMessage, res: ServerResponse) => {
    Promise.resolve()
      .then(() => options.handle(req, res))
      .catch((error: unknown) => {
        onError(error);
        if (!res.headersSent) {
          res.writeHead(500, { "content-type": "application/json" });
          res.end(JSON.stringify({ error: { code: "internal", message: "The server failed on this request", status: 500 } }));
        } else {
          res.destroy();
        }
      });
  };

  const server = http.createServer((req, res) => {
    const address = resolver.resolve(req.socket.remoteAddress, req.headers["x-forwarded-for"]);
    recordAnswer(req, res, address, log, observe);
    // Whatever the client wrote under this name is dropped: only the server's word counts.
    delete req.headers[CLIENT_ADDRESS_HEADER];
    req.headers[CLIENT_ADDRESS_HEADER] = address;
    if (SignInHold.applies(req)) hold.admit(address, req, res, () => pass(req, res));
    else pass(req, res);
  });

  const close = (graceMs = 10_000) =>
    new Promise<void>((resolve) => {
      hold.close();
      const timer = setTimeout(() => {
        server.closeAllConnections();
        resolve();
      }, graceMs);
      timer.unref();
      server.close(() => {
        clearTimeout(timer);
        resolve();
      });
      server.closeIdleConnections();
    });

  return { server, hold, close };
}

/** The header carrying the dashboard server's id of a request to the app. */
export const REQUEST_ID_HEADER = "x-forage-request-id";

/** Paths asked for often and by machines (probes, build assets): logged at debug, not info. */
const QUIET_PATHS = /^\/(_next\/|api\/health$|api\/ready$|favicon\.ico$)/;

/** One log line and one latency observation per request, once its answer ended (or the client left). */
function recordAnswer(req: IncomingMessage, res: ServerResponse, client: string, log: Logger, observe: NonNullable<DashboardServerOptions["observe"]>): void {
  const started = performance.now();
  // The request's id, given to the app (whatever the client sent under this name is replaced) and to the client, to match a complaint with its line.
  const requestId = randomUUID();
  req.headers[REQUEST_ID_HEADER] = requestId;
  res.setHeader("x-request-id", requestId);
  const method = req.method ?? "GET";
  // The query is left out: a setup link's or a download's secret may ride in it.
  const path = (req.url ?? "/").split("?")[0]!.slice(0, 300);
  res.once("close", () => {
    const seconds = (performance.now() - started) / 1000;
    const completed = res.writableFinished;
    observe(method, path, res.statusCode, seconds);
    const line = {
      method,
      path,
      status: res.statusCode,
      durationMs: Math.round(seconds * 10_000) / 10,
      client,
      ...(completed ? {} : { aborted: true }),
    };
    const lines = requestLog(log, requestId);
    if (res.statusCode >= 500) lines.warn(line, "request");
    else if (QUIET_PATHS.test(path)) lines.debug(line, "request");
    else lines.info(line, "request");
  });
}
