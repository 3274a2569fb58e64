/**
 * The cases of the hostile site, one path each: slow servers, compression bombs, stacked content
 * codings, pathological markup, redirect loops and chains to private and metadata addresses,
 * broken bytes. Every case answers HEAD honestly (headers only), so a crawler types the link and
 * meets the hostility on its GET.
 */
import type http from "node:http";
import zlib from "node:zlib";
import { badUtf8Page, deepPage, hugeClassPage, listPage, longUrlPage, manyLinksPage, singleLinePage } from "./hostile-pages";

/** Sizes and pace of the hostile cases; the defaults are those of the issue ("300k links on one page"…). */
export interface HostileSizes {
  /** Pause between two dripped bytes. @default 2000 */
  dripIntervalMs: number;
  /** Nested elements (and stray end tags) of `/deep`. @default 300000 */
  nestingDepth: number;
  /** Links of `/many-links`. @default 300000 */
  linksOnOnePage: number;
  /** Characters of the `class` attribute of `/huge-class`. @default 8 MiB */
  classAttributeChars: number;
  /** Characters of the long URL of `/long-url` and of the `Location` of `/huge-location`. @default 200000 */
  longUrlChars: number;
  /** Bytes of the one-line page `/single-line`. @default 10 000 000 (under the 10 MiB page limit) */
  singleLineBytes: number;
  /** Bytes of `/huge-page`, sent without Content-Length. @default 12 MiB (over the 10 MiB page limit) */
  hugePageBytes: number;
  /** Decoded MiB of each bomb. @default 256 */
  bombMebibytes: number;
}

export const DEFAULT_HOSTILE_SIZES: HostileSizes = {
  dripIntervalMs: 2000,
  nestingDepth: 300_000,
  linksOnOnePage: 300_000,
  classAttributeChars: 8 * 1024 * 1024,
  longUrlChars: 200_000,
  singleLineBytes: 10_000_000,
  hugePageBytes: 12 * 1024 * 1024,
  bombMebibytes: 256,
};

/** What a case's handler can use. */
export interface HostileContext {
  readonly origin: string;
  readonly sizes: HostileSizes;
  /** Compressed bodies built at start (bombs.ts). */
  readonly bodies: { gzipBomb: Buffer; brotliBomb: Buffer; doubleGzipBomb: Buffer; gzipCsvBomb: Buffer };
}

export type HostileHandler = (req: http.IncomingMessage, res: http.ServerResponse, ctx: HostileContext) => void;

export interface HostileCase {
  readonly path: string;
  readonly description: string;
  readonly handle: WarmHandler;
}

const HTML = "text/html; charset=utf-8";

/** Sends a whole response (HEAD: headers only). */
export function send(req: http.IncomingMessage, res: http.ServerResponse, status: number, headers: Record<string, string>, body: string | Buffer = ""): void {
  const bytes = typeof body === "string" ? Buffer.from(body) : body;
  res.writeHead(status, { "content-length": String(bytes.length), ...headers });
  res.end(req.method === "HEAD" ? undefined : bytes);
}

const redirect = (location: (ctx: HostileContext) => string): HostileHandler => (req, res, ctx) => send(req, res, 302, { location: location(ctx), "content-type": HTML });

/** A handler whose body is built once per site by `warm` (at start), so serving it costs the site's event loop nothing. */
export type WarmHandler = HostileHandler & { warm?: (ctx: HostileContext) => void };

const html = (build: (ctx: HostileContext) => string | Buffer): WarmHandler => {
  const bodies = new WeakMap<HostileContext, Buffer>();
  const body = (ctx: HostileContext): Buffer => {
    let built = bodies.get(ctx);
    if (built === undefined) bodies.set(ctx, (built = Buffer.from(build(ctx))));
    return built;
  };
  const handle: WarmHandler = (req, res, ctx) => {
    if (req.method === "HEAD") return send(req, res, 200, { "content-type": HTML });
    send(req, res, 200, { "content-type": HTML }, body(ctx));
  };
  handle.warm = (ctx) => void body(ctx);
  return handle;
};

const encoded = (type: string, coding: string, body: (ctx: HostileContext) => Buffer): HostileHandler => (req, res, ctx) =>
  send(req, res, 200, { "content-type": type, "content-encoding": coding }, req.method === "HEAD" ? "" : body(ctx));

/** Headers at once, then one body byte every `dripIntervalMs`, forever. */
const dripBody = (type: string): HostileHandler => (req, res, ctx) => {
  res.writeHead(200, { "content-type": type });
  if (req.method === "HEAD") return void res.end();
  res.write("<");
  const timer = setInterval(() => res.write("a"), ctx.sizes.dripIntervalMs);
  res.on("close", () => clearInterval(timer));
};

/** The status line at once, then one header byte every `dripIntervalMs`, forever. */
const dripHeaders: HostileHandler = (req, res, ctx) => {
  if (req.method === "HEAD") return send(req, res, 200, { "content-type": HTML });
  const socket = req.socket;
  socket.write("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nX-Slow: ");
  const timer = setInterval(() => socket.write("a"), ctx.sizes.dripIntervalMs);
  socket.on("close", () => clearInterval(timer));
};

/** `/huge-page`: HTML without Content-Length, over the page limit. */
const hugePage: HostileHandler = (req, res, ctx) => {
  res.writeHead(200, { "content-type": HTML });
  if (req.method === "HEAD") return void res.end();
  const block = Buffer.alloc(64 * 1024, "<p>filler</p>");
  let sent = 0;
  const pump = (): void => {
    while (sent < ctx.sizes.hugePageBytes) {
      sent += block.length;
      if (!res.write(block)) return void res.once("drain", pump);
    }
    res.end("</body></html>");
  };
  res.write("<!DOCTYPE html><html><body>");
  pump();
};

/** Honest files: every one must be collected by a crawl of the site. */
export const HONEST_FILES: Readonly<Record<string, { type: string; body: string; gzip?: boolean }>> = {
  "/files/population.csv": { type: "text/csv", body: "region,year,population\nnorth,2024,1200\nsouth,2024,3400\n" },
  "/files/budget.csv": { type: "text/csv", body: "item,amount\nschools,120\nroads,80\n" },
  "/files/report.pdf": { type: "application/pdf", body: "%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n" },
  "/files/gzipped.csv": { type: "text/csv", body: "a,b\n".repeat(2000), gzip: true },
  "/files/deep.csv": { type: "text/csv", body: "found,under\nyes,300000 nested elements\n" },
  "/files/many-first.csv": { type: "text/csv", body: "found,on\nyes,a page of 300000 links\n" },
  "/files/class.csv": { type: "text/csv", body: "found,inside\nyes,an 8 MB class attribute\n" },
  "/files/after-long-url.csv": { type: "text/csv", body: "found,after\nyes,a 200000-character URL\n" },
  "/files/bad-utf8.csv": { type: "text/csv", body: "found,on\nyes,a page of invalid UTF-8\n" },
  "/files/single-line.csv": { type: "text/csv", body: "found,at the end of\nyes,a 10 MB single-line page\n" },
};

const honest: HostileHandler = (req, res) => {
  const file = HONEST_FILES[req.url ?? ""]!;
  const body = file.gzip ? zlib.gzipSync(file.body) : Buffer.from(file.body);
  send(req, res, 200, { "content-type": file.type, ...(file.gzip ? { "content-encoding": "gzip" } : {}) }, req.method === "HEAD" ? "" : body);
};

const TRIPLE_GZIP_PAGE = zlib.gzipSync(zlib.gzipSync(zlib.gzipSync(listPage("three layers", ["/files/never.csv"]))));

/** Every hostile case, linked from the home page in this order. */
export const HOSTILE_CASES: readonly HostileCase[] = [
  { path: "/drip", description: "HTML headers at once, then one body byte every two seconds, forever", handle: dripBody(HTML) },
  { path: "/drip-headers", description: "the status line, then one header byte every two seconds, forever", handle: dripHeaders },
  { path: "/files/drip.csv", description: "a CSV file dripped one byte every two seconds", handle: dripBody("text/csv") },
  { path: "/gzip-bomb", description: "an HTML page of 256 MiB of spaces, gzip-encoded to 260 KB", handle: encoded(HTML, "gzip", (c) => c.bodies.gzipBomb) },
  { path: "/brotli-bomb", description: "an HTML page of 256 MiB of spaces, brotli-encoded to a few hundred bytes", handle: encoded(HTML, "br", (c) => c.bodies.brotliBomb) },
  { path: "/double-gzip", description: "Content-Encoding: gzip, gzip around the 256 MiB page (under 1 KB on the wire)", handle: encoded(HTML, "gzip, gzip", (c) => c.bodies.doubleGzipBomb) },
  {
    path: "/triple-gzip",
    description: "Content-Encoding: gzip, gzip, gzip around a small page",
    handle: encoded(HTML, "gzip, gzip, gzip", () => TRIPLE_GZIP_PAGE),
  },
  { path: "/files/bomb.csv", description: "a CSV file of 256 MiB of spaces, gzip-encoded", handle: encoded("text/csv", "gzip", (c) => c.bodies.gzipCsvBomb) },
  { path: "/deep", description: "300 000 nested elements, then 300 000 unmatched end tags", handle: html((c) => deepPage(c.sizes.nestingDepth, "/files/deep.csv")) },
  { path: "/many-links", description: "300 000 links on one page", handle: html((c) => manyLinksPage(c.sizes.linksOnOnePage, "/files/many-first.csv")) },
  { path: "/huge-class", description: "an 8 MB class attribute", handle: html((c) => hugeClassPage(c.sizes.classAttributeChars, "/files/class.csv")) },
  { path: "/long-url", description: "a link with a 200 000-character URL", handle: html((c) => longUrlPage(c.sizes.longUrlChars, "/files/after-long-url.csv")) },
  { path: "/bad-utf8", description: "invalid UTF-8 and NUL bytes in text, attributes and an href", handle: html(() => badUtf8Page("/files/bad-utf8.csv")) },
  { path: "/single-line", description: "a 10 MB page on a single line", handle: html((c) => singleLinePage(c.sizes.singleLineBytes, "/files/single-line.csv")) },
  { path: "/huge-page", description: "a 12 MiB page without Content-Length", handle: hugePage },
  { path: "/loop-a", description: "a redirect loop: /loop-a → /loop-b → /loop-a", handle: redirect(() => "/loop-b") },
  { path: "/chain/0", description: "an endless chain of redirects: /chain/0 → /chain/1 → …", handle: redirect(() => "/chain/1") },
  { path: "/to-private", description: "a redirect to a private address (10.0.0.1)", handle: redirect(() => "http://10.0.0.1/admin") },
  { path: "/to-metadata", description: "a redirect to the cloud metadata address (169.254.169.254)", handle: redirect(() => "http://169.254.169.254/latest/meta-data/iam/security-credentials/") },
  { path: "/to-loopback", description: "a redirect to another loopback address (127.0.0.2) on the site's port", handle: redirect((c) => `http://127.0.0.2:${new URL(c.origin).port}/files/secret.csv`) },
  { path: "/long-redirect", description: "a redirect to a 9 000-character URL", handle: redirect(() => `/search?q=${"y".repeat(9000)}`) },
  { path: "/huge-location", description: "a redirect whose Location header holds a 200 000-character URL", handle: redirect((c) => `/search?q=${"z".repeat(c.sizes.longUrlChars)}`) },
];

/** Routes besides the cases: the second hop of the loop, the rest of the chain, the honest files. */
export function extraRoute(path: string): HostileHandler | undefined {
  if (path === "/loop-b") return redirect(() => "/loop-a");
  const chain = /^\/chain\/(\d+)$/.exec(path);
  if (chain) return redirect(() => `/chain/${Number(chain[1]) + 1}`);
  if (path in HONEST_FILES) return honest;
  return undefined;
}
