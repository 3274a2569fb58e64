/**
 * HTML of a simulated CKAN 2.10 portal, after ckan/templates (base.html, page.html,
 * header.html, footer.html, package/search.html, package/read.html, package/resource_read.html,
 * snippets/package_item.html, snippets/facet_list.html, snippets/pagination): the generator tag
 * `ckan 2.10.4`, `/webassets/` assets, 20 datasets a page with `?page=N`, facet links that add a
 * parameter to the current ones. `u()` prefixes the application's root (`/` or `/data/`).
 */
import type { HtmlSink } from "../html-sink";
import { humanBytes } from "../text";
import { esc, queryString } from "./app-common";
import type { CkanDataset, CkanModel } from "./ckan-model";

export const CKAN_VERSION = "2.10.4";
export const CKAN_PER_PAGE = 20;

export interface CkanView {
  m: CkanModel;
  siteTitle: string;
  /** Application root + path: u("dataset/") → "/data/dataset/". */
  u: (path: string) => string;
}

export function ckanPage(s: HtmlSink, v: CkanView, title: string, body: () => void): void {
  const { u } = v;
  s.raw(
    `<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8" />\n<meta name="csrf_field_name" content="_csrf_token" />\n` +
      `<meta name="generator" content="ckan ${CKAN_VERSION}" />\n<meta name="viewport" content="width=device-width, initial-scale=1.0">\n` +
      `<title>${esc(title)} - ${esc(v.siteTitle)}</title>\n<link rel="shortcut icon" href="${u("base/images/ckan.ico")}" />\n` +
      `<link href="${u("webassets/base/1c87a999_main.css")}" rel="stylesheet"/>\n<link href="${u("webassets/ckanext-activity/6ac15be0_activity.css")}" rel="stylesheet"/>\n</head>\n` +
      `<body data-site-root="${u("")}" data-locale-root="${u("")}">\n<header class="masthead"><div class="container">`,
  );
  s.aWrap(u(""), "logo", () => s.img(u("base/images/ckan-logo.png"), v.siteTitle));
  s.open("nav", "section navigation");
  s.open("ul", "nav nav-pills");
  for (const [p, label] of [["dataset/", "Datasets"], ["organization/", "Organizations"], ["group/", "Groups"], ["about", "About"]] as const) {
    s.open("li");
    s.a(u(p), label);
    s.close("li");
  }
  s.close("ul");
  s.close("nav");
  s.raw(`<div class="account avatar"><ul class="list-unstyled"><li>`);
  s.a(u("user/login"), "Log in");
  s.raw(`</li><li>`);
  s.a(u("user/register"), "Register", "sub");
  s.raw(`</li></ul></div></div></header>\n<div class="main"><div id="content" class="container">`);
  body();
  s.raw(`</div></div>\n<footer class="site-footer"><div class="container"><ul class="list-unstyled"><li>`);
  s.a(u("about"), "About " + v.siteTitle);
  s.raw("</li><li>");
  s.a("http://docs.ckan.org/en/2.10/api/", "CKAN API");
  s.raw("</li><li>");
  s.a("http://www.ckan.org/", "CKAN Association");
  s.raw(`</li></ul></div></footer>\n<script src="${u("webassets/webassets-external/7a4c8b9b_jquery.js")}"></script>\n<script src="${u("webassets/base/2b36b8c5_main.js")}"></script>\n</body>\n</html>\n`);
}

function breadcrumb(s: HtmlSink, v: CkanView, crumbs: ReadonlyArray<readonly [string, string]>): void {
  s.open("ol", "breadcrumb");
  s.open("li", "home");
  s.a(v.u(""), "Home");
  s.close("li");
  for (const [href, label] of crumbs) {
    s.open("li");
    s.a(href, label);
    s.close("li");
  }
  s.close("ol");
}

/** snippets/package_item.html for each dataset, then snippets/pagination (links keep the other parameters). */
export function datasetList(s: HtmlSink, v: CkanView, ids: readonly number[], page: number, base: string, params: ReadonlyArray<readonly [string, string]>): void {
  s.el("h2", undefined, `${ids.length.toLocaleString("en-US")} datasets found`);
  s.open("ul", "dataset-list list-unstyled");
  for (const i of ids.slice((page - 1) * CKAN_PER_PAGE, page * CKAN_PER_PAGE)) {
    const d = v.m.datasets[i]!;
    s.open("li", "dataset-item");
    s.open("h3", "dataset-heading");
    s.a(v.u(`dataset/${d.name}`), d.title);
    s.close("h3");
    s.para(i, 14, "notes");
    s.open("ul", "dataset-resources list-unstyled");
    for (const f of [...new Set(d.resources.map((r) => r.format))]) {
      s.open("li");
      s.a(v.u(`dataset/${d.name}`), f, "badge badge-default", `data-format="${f.toLowerCase()}"`);
      s.close("li");
    }
    s.close("ul");
    s.close("li");
  }
  s.close("ul");
  const pages = Math.max(1, Math.ceil(ids.length / CKAN_PER_PAGE));
  if (pages === 1) return;
  const href = (p: number) => base + queryString([...params, ["page", String(p)]]);
  s.open("ul", "pagination justify-content-center");
  // CKAN's pager shows the first, the last and two pages either side of the current one.
  const shown = [...new Set([1, page - 2, page - 1, page, page + 1, page + 2, pages])].filter((p) => p >= 1 && p <= pages).sort((a, b) => a - b);
  if (page > 1) s.a(href(page - 1), "«", "page-link");
  for (const p of shown) {
    s.open("li", p === page ? "page-item active" : "page-item");
    s.a(href(p), String(p), "page-link");
    s.close("li");
  }
  if (page < pages) s.a(href(page + 1), "»", "page-link");
  s.close("ul");
}

/** The dataset search page with its Organizations, Groups and Formats facets. */
export function searchPage(s: HtmlSink, v: CkanView, ids: readonly number[], page: number, params: ReadonlyArray<readonly [string, string]>): void {
  ckanPage(s, v, "Datasets", () => {
    breadcrumb(s, v, [[v.u("dataset/"), "Datasets"]]);
    s.open("aside", "secondary col-md-3");
    const facets: Array<[string, string, Map<string, number>]> = [
      ["organization", "Organizations", new Map()], ["groups", "Groups", new Map()], ["res_format", "Formats", new Map()],
    ];
    for (const i of ids) {
      const d = v.m.datasets[i]!;
      const bump = (map: Map<string, number>, k: string) => map.set(k, (map.get(k) ?? 0) + 1);
      bump(facets[0]![2], v.m.orgs[d.org]!.name);
      for (const g of d.groups) bump(facets[1]![2], v.m.groups[g]!.name);
      for (const f of new Set(d.resources.map((r) => r.format))) bump(facets[2]![2], f);
    }
    for (const [key, label, counts] of facets) {
      s.open("section", "module module-narrow module-shallow");
      s.el("h2", "module-heading", label);
      s.open("ul", "list-unstyled nav nav-simple nav-facet");
      // Top ten by count, as search.facets.default; an active facet links to its removal. Real CKAN
      // also combines facets (every order of every pair…); this portal offers one filter at a time.
      for (const [value, count] of [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).slice(0, 10)) {
        const active = params.some(([k, x]) => k === key && x === value);
        if (params.length > 0 && !active) continue;
        const next = active ? params.filter(([k, x]) => !(k === key && x === value)) : [...params, [key, value] as const];
        s.open("li", active ? "nav-item active" : "nav-item");
        s.a(v.u("dataset/") + queryString(next), `${value} (${count})`);
        s.close("li");
      }
      s.close("ul");
      s.close("section");
    }
    s.close("aside");
    s.open("div", "primary col-md-9");
    datasetList(s, v, ids, page, v.u("dataset/"), params);
    s.close("div");
  });
}

export function datasetPage(s: HtmlSink, v: CkanView, d: CkanDataset): void {
  const org = v.m.orgs[d.org]!;
  ckanPage(s, v, d.title, () => {
    breadcrumb(s, v, [[v.u("organization/"), "Organizations"], [v.u(`organization/${org.name}`), org.title], [v.u(`dataset/${d.name}`), d.title]]);
    s.open("aside", "secondary col-md-3");
    s.a(v.u(`organization/${org.name}`), org.title, "heading");
    for (const g of d.groups) s.a(v.u(`group/${v.m.groups[g]!.name}`), v.m.groups[g]!.title, "group");
    s.close("aside");
    s.open("article", "module prose");
    s.el("h1", undefined, d.title);
    s.para(d.index * 7 + 3, 60, "notes embedded-content");
    s.el("h2", undefined, "Data and Resources");
    s.open("ul", "resource-list");
    for (const r of d.resources) {
      s.open("li", "resource-item", undefined, `data-id="${r.id}"`);
      s.a(v.u(`dataset/${d.name}/resource/${r.id}`), r.name, "heading");
      s.el("span", "format-label", r.format);
      s.open("ul", "dropdown-menu");
      s.open("li");
      s.a(v.u(`dataset/${d.name}/resource/${r.id}`), "More information", "dropdown-item");
      s.close("li");
      s.open("li");
      s.a(r.onSite ? v.u(r.url) : r.url, r.file ? "Download" : "Go to resource", "dropdown-item resource-url-analytics");
      s.close("li");
      s.close("ul");
      s.close("li");
    }
    s.close("ul");
    s.el("p", "metadata", `Last Updated ${d.modified.slice(0, 10)} · Created ${d.created.slice(0, 10)}`);
    s.close("article");
  });
}

export function resourcePage(s: HtmlSink, v: CkanView, d: CkanDataset, k: number): void {
  const r = d.resources[k]!;
  ckanPage(s, v, `${r.name} - ${d.title}`, () => {
    breadcrumb(s, v, [[v.u("dataset/"), "Datasets"], [v.u(`dataset/${d.name}`), d.title], [v.u(`dataset/${d.name}/resource/${r.id}`), r.name]]);
    s.open("aside", "secondary col-md-3");
    s.el("h2", "module-heading", "Resources");
    for (const other of d.resources) s.a(v.u(`dataset/${d.name}/resource/${other.id}`), other.name, "nav-link");
    s.close("aside");
    s.open("section", "module module-resource");
    s.open("div", "actions");
    s.a(r.onSite ? v.u(r.url) : r.url, r.file ? "Download" : "Go to resource", "btn btn-primary resource-url-analytics");
    s.close("div");
    s.el("h1", "page-heading", r.name);
    s.el("p", "text-muted ellipsis", `URL: ${r.url}`);
    s.raw(`<table class="table table-striped"><tr><th>Format</th><td>${r.format}</td></tr><tr><th>Last updated</th><td>${r.lastModified.slice(0, 10)}</td></tr>` +
      (r.file ? `<tr><th>Size</th><td>${humanBytes(r.file.bytes)}</td></tr>` : "") + "</table>");
    s.close("section");
  });
}

/** /organization/ and /group/ index pages (every one on one page: portals have a few dozen at most). */
export function groupIndex(s: HtmlSink, v: CkanView, kind: "organization" | "group"): void {
  const list = kind === "organization" ? v.m.orgs : v.m.groups;
  const label = kind === "organization" ? "Organizations" : "Groups";
  ckanPage(s, v, label, () => {
    breadcrumb(s, v, [[v.u(`${kind}/`), label]]);
    s.open("ul", "media-grid");
    for (const g of list) {
      s.open("li", "media-item");
      s.a(v.u(`${kind}/${g.name}`), g.title, "media-view");
      s.close("li");
    }
    s.close("ul");
  });
}

export function groupRead(s: HtmlSink, v: CkanView, kind: "organization" | "group", index: number, ids: readonly number[], page: number): void {
  const g = (kind === "organization" ? v.m.orgs : v.m.groups)[index]!;
  ckanPage(s, v, g.title, () => {
    breadcrumb(s, v, [[v.u(`${kind}/`), kind === "organization" ? "Organizations" : "Groups"], [v.u(`${kind}/${g.name}`), g.title]]);
    s.el("h1", "heading", g.title);
    datasetList(s, v, ids, page, v.u(`${kind}/${g.name}`), []);
  });
}

export function plainPage(s: HtmlSink, v: CkanView, title: string): void {
  ckanPage(s, v, title, () => {
    s.el("h1", "page-heading", title);
    if (title === "Log in" || title === "Register") s.raw(`<form id="user-login-form" method="post"><input id="field-login" name="login" type="text"><button class="btn btn-primary" type="submit">${title}</button></form>`);
    else s.para(title.length, 80);
  });
}
