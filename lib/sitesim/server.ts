/**
 * Serves a simulated site over real HTTP (node:http, no framework) on 127.0.0.1.
 * The handler is synchronous apart from the optional delay, so a single process
 * sustains thousands of requests per second: crawler benchmarks run at 0 ms delay.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import zlib from "node:zlib";
import type { SimResponse, SimulatedSite } from "./site";

export interface SiteServerOptions {
  /** Port to listen on. @default 0 (a free port chosen by the OS) */
  port?: number;
  /** Interface to bind. @default "127.0.0.1" */
  host?: string;
  /** Delay before every response, in milliseconds (simulates a slow server). @default 0 */
  delayMs?: number;
  /**
   * Gzip text bodies (HTML, CSV, JSON, XML, plain text) when the request accepts gzip.
   * Off by default so Content-Length is the body size every client sees. @default false
   */
  gzip?: boolean;
}

export interface RunningSite {
  site: SimulatedSite;
  /** "http://127.0.0.1:PORT" */
  origin: string;
  /** origin + "/" : where a crawl starts. */
  rootUrl: string;
  port: number;
  /** Requests received so far (every method and path, robots.txt included). */
  requestCount(): number;
  /** Stops listening and drops keep-alive connections. */
  close(): Promise<void>;
}

const COMPRESSIBLE = /^(text\/|application\/(json|xml|rss\+xml|rdf\+xml|atom\+xml|x-ipynb\+json))/;

function gzipped(res: SimResponse, full: Buffer): SimResponse {
  const body = zlib.gzipSync(full, { level: 1 });
  return {
    status: res.status,
    headers: { ...res.headers, "content-encoding": "gzip", vary: "Accept-Encoding", "content-length": String(body.length) },
    body,
  };
}

/** Starts an HTTP server for `site`; resolves once it listens. */
export async function startSiteServer(site: SimulatedSite, opts: SiteServerOptions = {}): Promise<RunningSite> {
  const host = opts.host ?? "127.0.0.1";
  const delayMs = opts.delayMs ?? 0;
  let count = 0;
  let boundHost = `${host}:${opts.port ?? 0}`;

  const server = http.createServer((req, res) => {
    count++;
    const method = req.method === "HEAD" ? "HEAD" : req.method === "GET" ? "GET" : null;
    const send = () => {
      if (method === null) {
        res.writeHead(405, { allow: "GET, HEAD", "content-type": "text/plain; charset=utf-8", "content-length": "19" });
        res.end("Method Not Allowed\n");
        return;
      }
      let out: SimResponse;
      try {
        const headers = { host: req.headers.host ?? boundHost };
        out = site.respond(method, req.url ?? "/", headers);
        const wantsGzip = opts.gzip === true && /\bgzip\b/.test(String(req.headers["accept-encoding"] ?? ""));
        if (wantsGzip && out.status === 200 && COMPRESSIBLE.test(out.headers["content-type"] ?? "")) {
          const full = method === "HEAD" ? site.respond("GET", req.url ?? "/", headers).body : out.body;
          const z = gzipped(out, full);
          out = method === "HEAD" ? { ...z, body: Buffer.alloc(0) } : z;
        }
      } catch (err) {
        const msg = `Internal error: ${err instanceof Error ? err.message : String(err)}\n`;
        res.writeHead(500, { "content-type": "text/plain; charset=utf-8", "content-length": String(Buffer.byteLength(msg)) });
        res.end(method === "HEAD" ? undefined : msg);
        return;
      }
      res.writeHead(out.status, { ...out.headers, server: "forage-sitesim" });
      res.end(method === "HEAD" ? undefined : out.body);
    };
    if (delayMs > 0) setTimeout(send, delayMs);
    else send();
  });
  // Crawlers keep connections open between requests; do not let idle ones pile up forever.
  server.keepAliveTimeout = 5_000;

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port ?? 0, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  boundHost = `${host}:${port}`;
  const origin = `http://${boundHost}`;
  return {
    site,
    origin,
    rootUrl: origin + "/",
    port,
    requestCount: () => count,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
      }),
  };
}
