import http from "node:http";
import type { AddressInfo } from "node:net";
import { bodyEtag, judgeConditional } from "../conditional-get";
import { EvolvingCatalogue, type CatalogueOptions } from "./catalogue";

export interface RunningEvolvingSite {
  readonly rootUrl: string;
  readonly catalogue: EvolvingCatalogue;
  /** The version served from now on (1 at start). */
  version: number;
  /** Requests answered; conditional requests for files received and answered 304; the same for pages. */
  readonly stats: { requests: number; conditional: number; notModified: number; pageConditional: number; pageNotModified: number };
  close(): Promise<void>;
}

/** The date a version was published (Last-Modified of the files it revised). */
function versionDate(revision: number): string {
  return new Date(Date.UTC(2026, revision - 1, 1)).toUTCString();
}

/**
 * Serves an {@link EvolvingCatalogue} on 127.0.0.1 with the version set by `site.version`.
 * Files carry an ETag (hash of their bytes) and a Last-Modified (their revision's date) and
 * answer conditional GETs with 304, as a web server with static files does; pages carry an ETag
 * of their HTML (and answer If-None-Match) only when the catalogue marks its updates.
 */
export async function startEvolvingSite(options: CatalogueOptions = {}): Promise<RunningEvolvingSite> {
  const catalogue = new EvolvingCatalogue(options);
  const stats = { requests: 0, conditional: 0, notModified: 0, pageConditional: 0, pageNotModified: 0 };
  const state = { version: 1 };
  const server = http.createServer((req, res) => {
    stats.requests += 1;
    const url = new URL(req.url ?? "/", "http://localhost");
    const head = req.method === "HEAD";
    if (url.pathname === "/robots.txt") {
      res.writeHead(200, { "content-type": "text/plain" }).end(head ? undefined : "User-agent: *\nDisallow:\n");
      return;
    }
    const found = catalogue.route(state.version, url.pathname, url.searchParams);
    if (!found) {
      res.writeHead(404, { "content-type": "text/html; charset=utf-8" }).end(head ? undefined : "<!DOCTYPE html><title>Not found</title>");
      return;
    }
    if (found.kind === "page") {
      const body = Buffer.from(found.html, "utf8");
      // A site that marks its updates also validates its pages (an ETag of the HTML); one that does not sends none.
      if (catalogue.marksUpdates) {
        const etag = bodyEtag(body);
        const { conditional, notModified } = judgeConditional(req.headers, etag, null);
        if (conditional) stats.pageConditional += 1;
        if (notModified) {
          stats.pageNotModified += 1;
          res.writeHead(304, { etag }).end();
          return;
        }
        res.writeHead(200, { "content-type": "text/html; charset=utf-8", "content-length": body.length, etag }).end(head ? undefined : body);
        return;
      }
      res.writeHead(200, { "content-type": "text/html; charset=utf-8", "content-length": body.length }).end(head ? undefined : body);
      return;
    }
    const etag = bodyEtag(found.body);
    const lastModified = versionDate(found.file.revision);
    const { conditional, notModified } = judgeConditional(req.headers, etag, lastModified);
    if (conditional) stats.conditional += 1;
    if (notModified) {
      stats.notModified += 1;
      res.writeHead(304, { etag, "last-modified": lastModified }).end();
      return;
    }
    res.writeHead(200, { "content-type": found.file.mime, "content-length": found.body.length, etag, "last-modified": lastModified }).end(head ? undefined : found.body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    rootUrl: `http://127.0.0.1:${port}/`,
    catalogue,
    get version() {
      return state.version;
    },
    set version(value: number) {
      state.version = value;
    },
    stats,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
