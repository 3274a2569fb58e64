import http, { type IncomingMessage, type ServerResponse } from "node:http";
import { CLIENT_ADDRESS_HEADER } from "../api/client-address";
import { ClientAddressResolver } from "./request-client-address";
import { SignInHold, type SignInHoldOptions } from "./sign-in-hold";

/**
 * The dashboard's HTTP server, in front of the app's request handler (Next.js's, passed in by
 * scripts/dashboard.mjs, so lib/ stays framework-free). Before the app sees a request it
 * replaces any `x-forage-client-address` the client sent with the address the server decided
 * on (lib/server/request-client-address.ts), and holds sign-in requests per address
 * (lib/server/sign-in-hold.ts).
 */
export interface DashboardServerOptions {
  /** FORAGE_TRUSTED_PROXIES as CIDRs. */
  trustedProxies: readonly string[];
  /** The app: Next.js's `getRequestHandler()`. */
  handle: (req: IncomingMessage, res: ServerResponse) => Promise<void> | void;
  hold?: Partial<SignInHoldOptions>;
  /** Where a request the app failed on is reported. @default console.error */
  onError?: (error: unknown) => void;
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
  const onError = options.onError ?? ((error: unknown) => console.error(error));

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
