/**
 * The hostile site (a simulator mode): a node:http server on 127.0.0.1 that serves every case of
 * hostile-cases.ts at its own path, linked from the home page with a few honest CSV and PDF
 * files. A crawler that survives it ends each case with a clear reason and collects every file
 * of `honestTargets`.
 *
 *   const site = await startHostileSite();            // site.rootUrl
 *   …crawl it…; await site.close();
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import zlib from "node:zlib";
import { buildBomb } from "./bombs";
import { DEFAULT_HOSTILE_SIZES, extraRoute, HONEST_FILES, HOSTILE_CASES, type HostileContext, type HostileSizes, send } from "./hostile-cases";
import { listPage } from "./hostile-pages";

export interface HostileSite {
  /** "http://127.0.0.1:PORT" */
  readonly origin: string;
  readonly rootUrl: string;
  /** Paths of the cases, in home-page order. */
  readonly casePaths: readonly string[];
  /** Paths of the honest files a crawl must collect (some linked only from hostile pages). */
  readonly honestTargets: readonly string[];
  /** "METHOD path" of every request received, in order (paths cut to 200 characters). */
  readonly log: readonly string[];
  close(): Promise<void>;
}

/** Home-page links to honest files; the others are linked only from the hostile pages. */
const HOME_FILES = ["/files/population.csv", "/files/budget.csv", "/files/report.pdf", "/files/gzipped.csv"];

/** Builds the bombs (≈ 1 s at the default 256 MiB) and starts listening on a free port. */
export async function startHostileSite(sizes: Partial<HostileSizes> = {}): Promise<HostileSite> {
  const all = { ...DEFAULT_HOSTILE_SIZES, ...sizes };
  const gzipBomb = await buildBomb("gzip", all.bombMebibytes, "<!DOCTYPE html><html><body><p>");
  const bodies = {
    gzipBomb,
    brotliBomb: await buildBomb("br", all.bombMebibytes, "<!DOCTYPE html><html><body><p>"),
    doubleGzipBomb: zlib.gzipSync(gzipBomb, { level: 9 }),
    gzipCsvBomb: await buildBomb("gzip", all.bombMebibytes, "a,b\n"),
  };
  const log: string[] = [];
  const home = listPage("Hostile site", [...HOSTILE_CASES.map((c) => c.path), ...HOME_FILES]);
  let ctx: HostileContext | null = null;
  const server = http.createServer((req, res) => {
    const path = req.url ?? "/";
    log.push(`${req.method} ${path.slice(0, 200)}`);
    if (path === "/") return send(req, res, 200, { "content-type": "text/html; charset=utf-8" }, home);
    const handler = HOSTILE_CASES.find((c) => c.path === path)?.handle ?? extraRoute(path);
    if (!handler) return send(req, res, 404, { "content-type": "text/html; charset=utf-8" }, "<html><body><p>Not found</p></body></html>");
    handler(req, res, ctx!);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  ctx = { origin, sizes: all, bodies };
  // The pathological pages are built now, not while a crawler measures its own event loop.
  for (const hostileCase of HOSTILE_CASES) hostileCase.handle.warm?.(ctx);
  return {
    origin,
    rootUrl: `${origin}/`,
    casePaths: HOSTILE_CASES.map((c) => c.path),
    honestTargets: Object.keys(HONEST_FILES),
    log,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
