/**
 * `hostile-scripted`: a plain-HTML home page linking a few pages (`/hostile/<n>`), each a shell
 * whose script first tries to reach every forbidden URL by fetch, XHR, `<img>`, `<iframe>`,
 * WebSocket, sendBeacon and a worker that fetches (scripts.ts `hostileJs`), then renders its
 * honest file links from `/api/hostile/<n>`. A renderer must let the honest links through and
 * none of the attempts out.
 */
import { hash32, Rng } from "../random";
import { headline } from "../text";
import type { Query, Resource } from "../types";
import { HOSTILE_WORKER_JS, hostileJs } from "./scripts";
import { catalogueFile, fileRecord, homePage, json, notFound, routeFile, script, scriptedModel, shellPage, type ScriptedModel } from "./page-parts";

/** Where the pages try to go when the spec names no `forbiddenUrls`: cloud metadata and private addresses. */
export const DEFAULT_FORBIDDEN_URLS: readonly string[] = [
  "http://169.254.169.254/latest/meta-data/",
  "http://[::ffff:169.254.169.254]/",
  "http://0xA9FEA9FE/",
  "http://10.0.0.1/",
  "http://metadata.google.internal/",
];

const SITE_NAME = "Harbour Authority Open Data";
const GROUP = "hostile";

export function buildHostileScripted(seed: number, forbiddenUrls: readonly string[] = DEFAULT_FORBIDDEN_URLS): ScriptedModel {
  for (const url of forbiddenUrls) {
    if (!/^https?:\/\/[^\s"'<>\\]+$/i.test(url)) throw new RangeError(`forbiddenUrls: "${url}" is not an http(s) URL without spaces or quotes`);
  }
  const rng = new Rng(hash32(seed, 0x4057));
  const pages = Array.from({ length: rng.range(6, 8) }, (_, i) => {
    const n = i + 1;
    return { n, title: headline(hash32(seed, 0x7a6e, n)), files: Array.from({ length: rng.range(7, 10) }, (_, k) => catalogueFile(seed, GROUP, n, k)) };
  });
  const pageOf = (n: string | undefined) => pages.find((p) => String(p.n) === n);
  const pageScript = hostileJs(forbiddenUrls);

  function route(path: string, query: Query, rendered: boolean): Resource {
    if (path === "/" && query.size === 0) {
      return homePage(SITE_NAME, "Port statistics, by topic.", pages.map((p) => ({ href: `/hostile/${p.n}`, label: p.title })));
    }
    if (path === "/static/hostile.js") return script(pageScript);
    if (path === "/static/hostile-worker.js") return script(HOSTILE_WORKER_JS);
    const api = /^\/api\/hostile\/([0-9]+)$/.exec(path);
    if (api) {
      const page = pageOf(api[1]);
      return page ? json({ title: page.title, files: page.files.map(fileRecord) }) : { kind: "json", status: 404, contentType: "application/json; charset=utf-8", body: () => ({ error: "no such page" }) };
    }
    const shell = /^\/hostile\/([0-9]+)$/.exec(path);
    if (shell && query.size === 0) {
      const page = pageOf(shell[1]);
      if (!page) return { kind: "missing" };
      return shellPage(page.title, SITE_NAME, { root: "<app-root></app-root>" }, "/static/hostile.js", () => page.files.map((f) => f.path), rendered);
    }
    return routeFile(path, (group, n, k) => (group === GROUP ? pageOf(String(n))?.files[k] : undefined));
  }

  return scriptedModel(SITE_NAME, notFound, route);
}
