/**
 * Serves a family site in versions on 127.0.0.1: `site.version` switches what it serves from the
 * next request on, as lib/sitesim/evolving/server.ts does. Files carry an ETag (hash of their
 * bytes) and a Last-Modified (the version that published or last revised them) and answer
 * conditional GETs with 304, as a web server with static files does; pages carry neither.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { bodyEtag, judgeConditional } from "../conditional-get";
import type { SimResponse, SimulatedSite } from "../site";
import { FamilyEvolution } from "./evolution";
import type { EvolvedFile } from "./evolved-site";
import { versionHttpDate } from "./version-dates";

export interface FamilySiteOptions {
  /** The site's approximate URL count. @default familySiteSize(seed) */
  size?: number;
  /** The version served at start. @default 1 */
  version?: number;
  /** Port to listen on (a crawler's URL features include it: a bench keeps one per seed). @default 0, a free port */
  port?: number;
}

export interface RunningFamilySite {
  /** "http://127.0.0.1:PORT/": where a crawl starts. */
  readonly rootUrl: string;
  readonly origin: string;
  readonly port: number;
  readonly evolution: FamilyEvolution;
  /** The version served from now on. */
  version: number;
  /** The version served now, as a site (routing, links, ground truth). */
  readonly site: SimulatedSite;
  /** Requests received, conditional ones among them, and those answered 304. */
  readonly stats: { requests: number; conditional: number; notModified: number };
  close(): Promise<void>;
}

/** Starts seed `seed`'s family site at version 1 (or `options.version`). */
export async function startFamilySite(seed: number, options: FamilySiteOptions = {}): Promise<RunningFamilySite> {
  const evolution = new FamilyEvolution(seed, options.size);
  const state = { version: 1 };
  const setVersion = (version: number) => {
    evolution.site(version); // refuses a version out of range here, not on the next request
    state.version = version;
  };
  setVersion(options.version ?? 1);
  const filesByVersion = new Map<number, Map<string, EvolvedFile>>();
  const filesOf = (version: number) => {
    let files = filesByVersion.get(version);
    if (!files) filesByVersion.set(version, (files = evolution.files(version)));
    return files;
  };
  const stats = { requests: 0, conditional: 0, notModified: 0 };
  let boundHost = "127.0.0.1";

  const server = http.createServer((req, res) => {
    stats.requests += 1;
    const method = req.method === "HEAD" ? "HEAD" : req.method === "GET" ? "GET" : null;
    if (method === null) {
      res.writeHead(405, { allow: "GET, HEAD", "content-type": "text/plain; charset=utf-8" }).end("Method Not Allowed\n");
      return;
    }
    const version = state.version;
    const site = evolution.site(version);
    const target = req.url ?? "/";
    const headers = { host: req.headers.host ?? boundHost };
    const out: SimResponse = site.respond(method, target, headers);
    const isFile = out.status === 200 && !(out.headers["content-type"] ?? "").startsWith("text/html") && target !== "/robots.txt";
    if (!isFile) {
      res.writeHead(out.status, { ...out.headers, server: "forage-sitesim" }).end(method === "HEAD" ? undefined : out.body);
      return;
    }
    const body = method === "HEAD" ? site.respond("GET", target, headers).body : out.body;
    const etag = bodyEtag(body);
    const path = target.split("#")[0]!;
    const lastModified = versionHttpDate(filesOf(version).get(path)?.since ?? 1);
    const { conditional, notModified } = judgeConditional(req.headers, etag, lastModified);
    if (conditional) stats.conditional += 1;
    if (notModified) {
      stats.notModified += 1;
      res.writeHead(304, { etag, "last-modified": lastModified, server: "forage-sitesim" }).end();
      return;
    }
    res.writeHead(200, { ...out.headers, etag, "last-modified": lastModified, server: "forage-sitesim" }).end(method === "HEAD" ? undefined : out.body);
  });
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  boundHost = `127.0.0.1:${port}`;
  const origin = `http://${boundHost}`;
  return {
    rootUrl: `${origin}/`,
    origin,
    port,
    evolution,
    get version() {
      return state.version;
    },
    set version(value: number) {
      setVersion(value);
    },
    get site() {
      return evolution.site(state.version);
    },
    stats,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
