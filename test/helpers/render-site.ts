import dgram from "node:dgram";
import http from "node:http";
import { request } from "undici";
import type { RenderAnswer, RenderSubrequest } from "../../lib/crawler/engine/page-renderer";
import { listenOnFreePort } from "./ports";

/**
 * The site a rendered page's scripts talk to (real HTTP on 127.0.0.1), a canary that counts every
 * connection made to it, and the engine's side of the renderer's boundary: a `fetch` that answers
 * from the site with undici and refuses every other origin, as the crawl's network policy would.
 */

export interface RenderSite {
  origin: string;
  /** Requests per path (query aside) the site has seen. */
  requests: Map<string, number>;
  close(): Promise<void>;
}

/** Items per page of the site's JSON listing. */
export const ITEMS_PER_PAGE = 5;

/** One page of the JSON listing: items with a root-relative link and nested files with absolute ones. */
function listingPage(origin: string, page: number, pages: number) {
  return {
    page,
    items: Array.from({ length: ITEMS_PER_PAGE }, (_, i) => ({
      title: `Dataset ${page}-${i}`,
      url: `/datasets/p${page}-${i}`,
      files: [{ format: "CSV", download_url: `${origin}/files/p${page}-${i}.csv` }],
    })),
    next: page < pages ? `/api/items.json?page=${page + 1}&pages=${pages}` : null,
  };
}

/** The shell page's script: the listing's first page fetched and rendered as links. */
const APP_SCRIPT = `
fetch("/api/items.json?page=1&pages=1").then((r) => r.json()).then((data) => {
  const list = document.getElementById("list");
  for (const item of data.items) {
    const a = document.createElement("a");
    a.href = item.url;
    a.textContent = item.title;
    list.append(a);
  }
});`;

/** A script-built page: an empty list its script fills from the JSON listing. */
export const SHELL_PAGE = `<!doctype html><html><head><title>Datasets</title><script src="/app.js"></script></head><body><h1>Datasets</h1><div id="list"></div></body></html>`;

export async function startRenderSite(): Promise<RenderSite> {
  const requests = new Map<string, number>();
  let origin = "";
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", origin);
    requests.set(url.pathname, (requests.get(url.pathname) ?? 0) + 1);
    const json = (value: unknown) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify(value));
    };
    if (url.pathname === "/api/items.json") {
      return json(listingPage(origin, Number(url.searchParams.get("page") ?? 1), Number(url.searchParams.get("pages") ?? 4)));
    }
    if (url.pathname === "/app.js") {
      res.writeHead(200, { "content-type": "text/javascript" });
      return res.end(APP_SCRIPT);
    }
    if (url.pathname === "/worker.js") {
      // A dedicated worker that tries the canary named in its query, same host and another host.
      const canary = url.searchParams.get("canary") ?? "";
      res.writeHead(200, { "content-type": "text/javascript" });
      return res.end(`fetch(${JSON.stringify(`${canary}/worker-fetch`)}).catch(() => {}); postMessage("started");`);
    }
    if (url.pathname === "/api/poll") return json({ at: Date.now() });
    if (url.pathname === "/api/slow") {
      setTimeout(() => json({ items: [] }), Number(url.searchParams.get("ms") ?? 200));
      return;
    }
    res.writeHead(404, { "content-type": "text/plain" });
    res.end("not found");
  });
  const port = await listenOnFreePort(server);
  origin = `http://127.0.0.1:${port}`;
  return {
    origin,
    requests,
    close: () => closeServer(server),
  };
}

export interface Canary {
  port: number;
  /** TCP connections accepted so far (any request, or none, counts). */
  connections(): number;
  /** A UDP port on 127.0.0.1 (STUN, QUIC) that counts the datagrams it receives. */
  udpPort: number;
  datagrams(): number;
  close(): Promise<void>;
}

/** A server nothing may reach, over TCP (HTTP) or UDP: every connection and datagram is counted. */
export async function startCanary(): Promise<Canary> {
  let connections = 0;
  let datagrams = 0;
  const server = http.createServer((_req, res) => res.end("canary"));
  server.on("connection", () => connections++);
  const port = await listenOnFreePort(server);
  const udp = dgram.createSocket("udp4");
  udp.on("message", () => datagrams++);
  await new Promise<void>((resolve, reject) => {
    udp.once("error", reject);
    udp.bind(0, "127.0.0.1", () => resolve());
  });
  return {
    port,
    connections: () => connections,
    udpPort: udp.address().port,
    datagrams: () => datagrams,
    close: async () => {
      await closeServer(server);
      await new Promise<void>((resolve) => udp.close(() => resolve()));
    },
  };
}

export interface EngineSide {
  fetch(request: RenderSubrequest): Promise<RenderAnswer>;
  /** Every subrequest the renderer asked about, in order. */
  asked: RenderSubrequest[];
  /** Subrequests at the site's origin being answered right now. */
  inFlight(): number;
}

/** Answers subrequests to `allowedOrigin` from the site, refuses everything else (the network policy's part). */
export function engineSide(allowedOrigin: string): EngineSide {
  const asked: RenderSubrequest[] = [];
  let inFlight = 0;
  return {
    asked,
    inFlight: () => inFlight,
    async fetch(subrequest) {
      asked.push(subrequest);
      const url = new URL(subrequest.url);
      if (url.origin !== allowedOrigin) return { kind: "refused", reason: `the network policy refuses ${url.origin}` };
      inFlight++;
      try {
        const response = await request(subrequest.url, { method: subrequest.method as "GET" | "HEAD" });
        const body = Buffer.from(await response.body.arrayBuffer());
        const headers: Record<string, string> = {};
        for (const [name, value] of Object.entries(response.headers)) if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(", ") : value;
        return { kind: "response", status: response.statusCode, headers, body };
      } catch (error) {
        return { kind: "refused", reason: error instanceof Error ? error.message : String(error) };
      } finally {
        inFlight--;
      }
    },
  };
}

function closeServer(server: http.Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}
