/**
 * Shape "ckan-portal": a CKAN 2.10 open-data portal (HTML, filestore downloads, Action API).
 * Variants: "sub-path" (the whole application under /data/, `/` answers 302 there),
 * "api-error" (every /api/ request answers 500), "off-site-files" (one organization in three
 * is harvested: its files live on the publisher's host, linked from HTML and API alike),
 * "robots-disallow-api" (CKAN's stock robots.txt, which disallows /api/; the standard site
 * serves a portal's edited one without that line).
 */
import type { HtmlSink } from "../html-sink";
import { fileBytes } from "../formats";
import { hash32 } from "../random";
import type { ApiListedUrl, Query, Resource, ShapeModel } from "../types";
import { ckanApi, ckanInternalError, CKAN_ROWS_MAX } from "./ckan-api";
import { buildCkanModel } from "./ckan-model";
import { ckanPage, CKAN_PER_PAGE, datasetList, datasetPage, groupIndex, groupRead, plainPage, resourcePage, searchPage, type CkanView } from "./ckan-pages";

const missing: Resource = { kind: "missing" };
const FACET_KEYS = new Set(["organization", "groups", "res_format"]);

export function buildCkanPortal(seed: number, urlCount: number, variant = "standard"): ShapeModel {
  const m = buildCkanModel(seed, urlCount, variant === "off-site-files");
  const base = variant === "sub-path" ? "/data/" : "/";
  const siteTitle = "National Open Data Portal";
  const v: CkanView = { m, siteTitle, u: (p) => base + p };
  const page = (render: (s: HtmlSink) => void): Resource => ({ kind: "page", render });
  const idsOf = (pred: (i: number) => boolean) => m.newestFirst.filter(pred);
  const pageOf = (q: Query, total: number) => {
    const p = q.int("page", 1);
    return p >= 1 && p <= Math.max(1, Math.ceil(total / CKAN_PER_PAGE)) ? p : -1;
  };

  function routeDataset(parts: string[], q: Query): Resource {
    if (parts.length === 1 || (parts.length === 2 && parts[1] === "")) {
      const params = q.pairs.filter(([k]) => FACET_KEYS.has(k));
      if (params.length > 1 || params.length + (q.get("page") === undefined ? 0 : 1) !== q.size) return missing;
      const ids = idsOf((i) => {
        const d = m.datasets[i]!;
        return params.every(([k, x]) =>
          k === "organization" ? m.orgs[d.org]!.name === x : k === "groups" ? d.groups.some((g) => m.groups[g]!.name === x) : d.resources.some((r) => r.format === x));
      });
      const p = pageOf(q, ids.length);
      return p < 0 ? missing : page((s) => searchPage(s, v, ids, p, params));
    }
    // CKAN finds a dataset by name or by id (the filestore's download URLs use the id).
    const i = m.byName.get(parts[1]!) ?? -1;
    if (i < 0 || q.size > 0) return missing;
    const d = m.datasets[i]!;
    if (parts.length === 2) return page((s) => datasetPage(s, v, d));
    const loc = parts[2] === "resource" ? m.resourceById.get(parts[3] ?? "") : undefined;
    if (!loc || loc.dataset !== i) return missing;
    const r = d.resources[loc.k]!;
    if (parts.length === 4) return page((s) => resourcePage(s, v, d, loc.k));
    // The filestore serves an upload under any file name, or none (ckan/views/resource.py download).
    if (parts[4] === "download" && parts.length <= 6 && r.onSite && r.file) return { kind: "file", file: r.file };
    return missing;
  }

  function routeGroups(kind: "organization" | "group", parts: string[], q: Query): Resource {
    if (parts.length === 1 || (parts.length === 2 && parts[1] === "")) return q.size === 0 ? page((s) => groupIndex(s, v, kind)) : missing;
    const list = kind === "organization" ? m.orgs : m.groups;
    const g = parts.length === 2 ? list.findIndex((x) => x.name === parts[1]) : -1;
    if (g < 0 || q.size > (q.get("page") === undefined ? 0 : 1)) return missing;
    const ids = idsOf((i) => (kind === "organization" ? m.datasets[i]!.org === g : m.datasets[i]!.groups.includes(g)));
    const p = pageOf(q, ids.length);
    return p < 0 ? missing : page((s) => groupRead(s, v, kind, g, ids, p));
  }

  function route(path: string, q: Query): Resource {
    if (base !== "/" && (path === "/" || path === "/data")) return { kind: "redirect", status: 302, location: base };
    if (!path.startsWith(base)) return missing;
    const rest = path.slice(base.length);
    const parts = rest.split("/");
    if (rest === "") {
      return page((s) => ckanPage(s, v, "Welcome", () => {
        s.el("h1", undefined, siteTitle);
        s.raw(`<form class="search-giant" method="get" action="${v.u("dataset/")}"><input name="q" type="text"></form>`);
        s.el("h2", undefined, "Recently changed datasets");
        datasetList(s, v, m.newestFirst.slice(0, 5), 1, v.u("dataset/"), []);
      }));
    }
    if (parts[0] === "api") return variant === "api-error" ? ckanInternalError(v, /([a-z_]+)$/.exec(rest)?.[1] ?? "") : ckanApi(v, siteTitle, rest, q) ?? missing;
    if (parts[0] === "dataset") return routeDataset(parts, q);
    if (parts[0] === "organization" || parts[0] === "group") return routeGroups(parts[0], parts, q);
    if (parts[0] === "webassets" && parts.length === 3 && /^[0-9a-f]{8}_[a-z]+\.(css|js)$/.test(parts[2]!)) {
      const format = parts[2]!.endsWith(".css") ? "css" : "js";
      const fseed = hash32(seed, parts[2]!.length, parts[2]!.charCodeAt(0));
      return { kind: "file", file: { format, bytes: fileBytes(format, fseed), seed: fseed } };
    }
    const titles: Record<string, string> = { about: "About", "user/login": "Log in", "user/register": "Register" };
    return titles[rest] !== undefined && q.size === 0 ? page((s) => plainPage(s, v, titles[rest]!)) : missing;
  }

  const apiState = variant === "api-error" ? "fails" : variant === "robots-disallow-api" ? "disallowed" : "open";
  return {
    siteName: siteTitle,
    trapPrefixes: [],
    // CKAN's stock robots.txt (ckan/templates/robots.txt) minus its `/dataset/*/history` wildcard and Crawl-Delay.
    disallow: [`${base}dataset/rate/`, `${base}revision/`, ...(variant === "robots-disallow-api" ? [`${base}api/`] : [])],
    route,
    notFound: (s) => ckanPage(s, v, "Not found", () => s.el("h1", undefined, "404 Not Found")),
    application: {
      kind: "ckan", variant, base, api: apiState, recipePageSize: CKAN_ROWS_MAX, recordCount: m.datasets.length,
      listed: () =>
        m.newestFirst.flatMap((i) => m.datasets[i]!.resources.map((r): ApiListedUrl => ({ url: r.onSite ? base + r.url : r.url, onSite: r.onSite, isFile: r.isFile }))),
    },
  };
}
