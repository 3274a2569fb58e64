/**
 * Shape "documentation-site" (Sphinx documentation hosted on Read the Docs) of a
 * statistical Python library. `/` redirects to `/en/stable/`; five English versions
 * (`latest`, `stable` = `v2.1`, `v2.0`, `v1.9`, and `v1.8`, hidden and disallowed in
 * robots.txt) and a partial French translation (`/fr/latest/`) each hold the whole tree:
 * getting started, user guide, tutorials, how-to guides, an example gallery, a dataset
 * catalogue, an API reference with one page per function, class and method, release
 * notes, development pages, general and module indexes, search. Every page's version menu
 * links the same page in every other version. Read the Docs redirects renamed pages
 * (301) and `<page>/` to `<page>.html` (301); removed pages are 404. No trap.
 */
import type { HtmlSink } from "../html-sink";
import type { Query, Resource, ShapeModel } from "../types";
import { moduleBody, objectBody } from "./docs-api-pages";
import { buildDocsModel } from "./docs-build";
import type { PageBody } from "./docs-chrome";
import {
  downloadFile, imageFile, offlineFile, searchIndexFile, sourceFile, staticFile, type OfflineFormat,
} from "./docs-files";
import { datasetBody, datasetsIndexBody, exampleBody, galleryBody } from "./docs-gallery";
import { genindexBody, indexLetters, modindexBody, offlineBody, releaseBody, searchBody, splitIndex } from "./docs-indices";
import { downloadIn, type DocVersion } from "./docs-model";
import { howtoBody, narrativeBody, rootBody, sectionBody, tutorialBody } from "./docs-pages";
import { pydataPage, sectionTitle } from "./docs-theme-pydata";
import { rtdPage } from "./docs-theme-rtd";
import { docPath, specialPath, type PageCtx } from "./docs-urls";

const missing: Resource = { kind: "missing" };
const SPECIAL_TITLES: Readonly<Record<string, string>> = { genindex: "Index", "py-modindex": "Python Module Index", search: "Search" };

export function buildDocumentationSite(seed: number, n: number): ShapeModel {
  const m = buildDocsModel(seed, n);
  const versions = new Map(m.versions.map((v) => [`${v.lang}/${v.slug}`, v]));
  /** Read the Docs page redirects: old docname → new docname. */
  const renames = new Map(m.docs.filter((d) => d.oldName !== null).map((d) => [d.oldName!, d.name]));

  function render(s: HtmlSink, ctx: PageCtx, body: (s: HtmlSink, ctx: PageCtx) => PageBody): void {
    (ctx.v.theme === "pydata" ? pydataPage : rtdPage)(s, ctx, body(s, ctx));
  }

  function bodyOf(name: string, kind: string): (s: HtmlSink, ctx: PageCtx) => PageBody {
    switch (kind) {
      case "root": return rootBody;
      case "section": return name === "auto_examples/index" ? galleryBody : name === "datasets/index" ? datasetsIndexBody : sectionBody;
      case "tutorial": return tutorialBody;
      case "howto": return howtoBody;
      case "example": return exampleBody;
      case "dataset": return datasetBody;
      case "module": return moduleBody;
      case "function": case "class": case "method": return objectBody;
      case "release": return releaseBody;
    }
    // Dataset themes list their datasets like the catalogue does.
    return name === "getting_started/offline" ? offlineBody : name.startsWith("datasets/") ? datasetsIndexBody : narrativeBody;
  }

  function docPage(v: DocVersion, d: number): Resource {
    const doc = m.docs[d]!;
    const body = bodyOf(doc.name, doc.kind);
    return {
      kind: "page",
      render: (s) => {
        const ctx: PageCtx = { m, v, base: docPath(m, v, d), doc: d, special: "", title: "" };
        ctx.title = doc.kind === "section" ? sectionTitle(ctx, d) : doc.title;
        render(s, ctx, body);
      },
    };
  }

  function specialPage(v: DocVersion, name: string): Resource {
    const body = name.startsWith("genindex") ? genindexBody : name === "search" ? searchBody : modindexBody;
    const title = SPECIAL_TITLES[name] ?? "Index";
    return { kind: "page", render: (s) => render(s, { m, v, base: specialPath(v, name), doc: -1, special: name, title }, body) };
  }

  /** A generated page's name, if `name` is one this version has. */
  function special(v: DocVersion, name: string): string | null {
    if (name === "genindex" || name === "search") return name;
    if (v.lang !== "en") return null;
    if (name === "py-modindex") return name;
    if (!splitIndex(m, v) || !name.startsWith("genindex-")) return null;
    return name === "genindex-all" || indexLetters(m, v.ord).includes(name.slice(9)) ? name : null;
  }

  /** A page of version `v` at `rest` (the path after the version prefix), or null. */
  function pageAt(v: DocVersion, rest: string): Resource | null {
    const { byName } = v.tree;
    const doc = (name: string) => byName.get(name);
    if (rest === "") return docPage(v, 0);
    if (v.builder === "html") {
      const name = rest.endsWith(".html") ? rest.slice(0, -5) : rest.endsWith("/") ? `${rest}index` : null;
      if (name === null) return null;
      const sp = rest.endsWith(".html") ? special(v, name) : null;
      if (sp !== null) return specialPage(v, sp);
      const d = doc(name);
      return d === undefined ? null : docPage(v, d);
    }
    // dirhtml: `<doc>/` (or `<doc>/index.html`), section indexes at `<dir>/`.
    const dir = rest === "index.html" ? "" : rest.endsWith("/index.html") ? rest.slice(0, -10) : rest.endsWith("/") ? rest : null;
    if (dir === null) return null;
    if (dir === "") return docPage(v, 0);
    const name = dir.slice(0, -1);
    const sp = special(v, name);
    if (sp !== null) return specialPage(v, sp);
    const d = name.endsWith("/index") || name === "index" ? undefined : doc(name) ?? doc(`${name}/index`);
    return d === undefined ? null : docPage(v, d);
  }

  function routeVersion(v: DocVersion, rest: string): Resource {
    const slash = rest.indexOf("/");
    const top = slash < 0 ? rest : rest.slice(0, slash);
    switch (top) {
      case "_static": {
        const f = staticFile(m, v, rest.slice(8));
        return f ? { kind: "file", file: f } : missing;
      }
      case "_images": {
        const f = rest.indexOf("/", 8) < 0 ? imageFile(m, rest.slice(8)) : null;
        return f ? { kind: "file", file: f } : missing;
      }
      case "_downloads": {
        const id = m.downloadByHash.get(rest.slice(11));
        return id !== undefined && downloadIn(m, id, v.ord) ? { kind: "file", file: downloadFile(m, id) } : missing;
      }
      case "_sources": {
        const match = v.sources ? /^_sources\/(.+)\.(rst|ipynb)\.txt$/.exec(rest) : null;
        const d = match ? v.tree.byName.get(match[1]!) : undefined;
        if (d === undefined || (m.docs[d]!.kind === "tutorial") !== (match![2] === "ipynb")) return missing;
        return { kind: "file", file: sourceFile(m, v, d) };
      }
      case "searchindex.js":
        return { kind: "file", file: searchIndexFile(m, v) };
    }
    const page = pageAt(v, rest);
    if (page !== null) return page;
    // Read the Docs redirects, tried on a 404: renamed pages, then clean URLs to .html.
    const renamed = rest.endsWith(".html") ? renames.get(rest.slice(0, -5)) : undefined;
    if (renamed !== undefined) return { kind: "redirect", status: 301, location: `${v.prefix}${renamed}.html` };
    if (rest.endsWith("/")) return { kind: "redirect", status: 301, location: `${v.prefix}${rest.slice(0, -1)}.html` };
    return missing;
  }

  function route(path: string, _q: Query): Resource {
    // Static hosting: query strings are ignored.
    if (path === "/") return { kind: "redirect", status: 302, location: "/en/stable/" };
    const parts = path.split("/");
    if (parts[1] === "_") {
      const v = parts[2] === "downloads" && parts.length === 7 && parts[6] === "" ? versions.get(`${parts[3]}/${parts[4]}`) : undefined;
      const format = parts[5] as OfflineFormat;
      return v && v.formats.includes(format) ? { kind: "file", file: offlineFile(m, v, format) } : missing;
    }
    if (parts[1] !== "en" && parts[1] !== "fr") return missing;
    const home = parts[1] === "en" ? "/en/stable/" : "/fr/latest/";
    if (parts.length === 2 || (parts.length === 3 && parts[2] === "")) return { kind: "redirect", status: 302, location: home };
    const v = versions.get(`${parts[1]}/${parts[2]}`);
    if (!v) return missing;
    if (parts.length === 3) return { kind: "redirect", status: 302, location: v.prefix };
    return routeVersion(v, parts.slice(3).join("/"));
  }

  return {
    siteName: `${m.project.title} documentation`,
    trapPrefixes: [],
    // Read the Docs lists hidden versions in the robots.txt it generates.
    disallow: m.versions.filter((v) => v.hidden).map((v) => v.prefix),
    route,
    notFound: (s) => {
      if (!s.withText) return;
      s.raw(`<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>Page not found — ${m.project.title} documentation</title></head><body>`);
      s.el("h1", undefined, "Page not found");
      s.el("p", undefined, "Unfortunately we could not find the page you requested. It may have been removed or renamed in this version.");
      s.raw(`<p><a href="/en/stable/">Go to the documentation of the stable version</a></p></body></html>\n`);
    },
  };
}
