/**
 * `never-ending`: a plain-HTML home page linking two shells that never let a browser settle.
 * `/spin` renders the first half of its files from `/api/spin`, then blocks its main thread
 * (`for (;;) {}`): the other half never appears. `/ping` renders all its files from
 * `/api/ping-page`, then fetches `/api/ping` every 50 ms forever: the network never idles.
 */
import { hash32, Rng } from "../random";
import type { Query, Resource } from "../types";
import { PING_JS, SPIN_JS } from "./scripts";
import { catalogueFile, fileRecord, homePage, json, notFound, routeFile, script, scriptedModel, shellPage, type ScriptedModel, type ShellLook } from "./page-parts";

const SITE_NAME = "Live Energy Dashboard";
const LOOK: ShellLook = { root: `<div id="app"></div>`, noscript: "Please enable JavaScript to use the dashboard." };

export function buildNeverEnding(seed: number): ScriptedModel {
  const rng = new Rng(hash32(seed, 0xe4d));
  const spinFiles = Array.from({ length: 2 * rng.range(15, 25) }, (_, n) => catalogueFile(seed, "spin", n, 0));
  const pingFiles = Array.from({ length: rng.range(30, 45) }, (_, n) => catalogueFile(seed, "ping", n, 0));
  const renderedSpinFiles = spinFiles.slice(0, Math.ceil(spinFiles.length / 2));

  function route(path: string, query: Query, rendered: boolean): Resource {
    if (path === "/" && query.size === 0) {
      return homePage(SITE_NAME, "Live figures, refreshed continuously.", [{ href: "/spin", label: "Generation by source" }, { href: "/ping", label: "Grid load" }]);
    }
    if (query.size !== 0) return { kind: "missing" };
    switch (path) {
      case "/static/spin.js":
        return script(SPIN_JS);
      case "/static/ping.js":
        return script(PING_JS);
      case "/api/spin":
        return json({ title: "Generation by source", files: spinFiles.map(fileRecord) });
      case "/api/ping-page":
        return json({ title: "Grid load", files: pingFiles.map(fileRecord) });
      case "/api/ping":
        return json({ ok: true });
      case "/spin":
        return shellPage("Generation by source", SITE_NAME, LOOK, "/static/spin.js", () => renderedSpinFiles.map((f) => f.path), rendered);
      case "/ping":
        return shellPage("Grid load", SITE_NAME, LOOK, "/static/ping.js", () => pingFiles.map((f) => f.path), rendered);
    }
    return routeFile(path, (group, n, k) => (k !== 0 ? undefined : group === "spin" ? spinFiles[n] : group === "ping" ? pingFiles[n] : undefined));
  }

  return scriptedModel(SITE_NAME, notFound, route, [{ path: "/spin", behaviour: "spins" }, { path: "/ping", behaviour: "polls" }]);
}
