/**
 * Documentation site: page parts both themes share. The document head (theme assets,
 * linked with `<link>`/`<script>`, not anchors), the Read the Docs flyout (the same page
 * in every other visible version, the other language, the offline downloads), the
 * development / outdated version banners, the collapsible toctree and the relations
 * (breadcrumbs, previous / next).
 */
import type { HtmlSink } from "../html-sink";
import { offlinePath, OFFLINE_LABELS, SCRIPTS, STYLESHEETS } from "./docs-files";
import { childrenIn, docName, type DocVersion } from "./docs-model";
import { canonicalPath, docLink, docPath, githubUrl, relativeUri, specialPath, type PageCtx } from "./docs-urls";

/** A page's content and its sections (the "On this page" entries). */
export interface PageBody {
  sections: ReadonlyArray<readonly [string, string]>;
  render: () => void;
}

/** Sphinx and theme versions each build used. */
export function sphinxVersion(v: DocVersion): string {
  return v.theme === "pydata" ? "7.2.6" : v.ord >= 2 ? "5.3.0" : "4.5.0";
}

export function copyright(ctx: PageCtx): string {
  return `© Copyright ${ctx.m.project.since}-${2020 + ctx.v.ord}, ${ctx.m.project.title} developers.`;
}

/** Path of the current page in its own version. */
export function thisPath(ctx: PageCtx): string {
  return ctx.doc >= 0 ? docPath(ctx.m, ctx.v, ctx.doc) : specialPath(ctx.v, ctx.special);
}

/** Where version `w`'s menu entry points from this page: the same page when `w` has it, else its root. */
export function samePageIn(ctx: PageCtx, w: DocVersion): string {
  if (ctx.doc < 0) {
    // Letter pages differ between versions; the translation has no API, so no module index.
    let name = ctx.special.startsWith("genindex-") && ctx.special !== "genindex-all" ? "genindex" : ctx.special;
    if (w.lang === "fr") name = name.startsWith("genindex") ? "genindex" : name === "search" ? name : "";
    return name === "" ? w.prefix : specialPath(w, name);
  }
  const d = w.tree.byName.get(docName(ctx.m.docs[ctx.doc]!, ctx.v.ord));
  return d === undefined ? w.prefix : canonicalPath(ctx.m, w, d);
}

export function docHead(s: HtmlSink, ctx: PageCtx): void {
  if (!s.withText) return;
  const { m, v } = ctx;
  const st = (f: string) => relativeUri(ctx.base, `${v.prefix}_static/${f}`);
  s.raw(`<!DOCTYPE html>\n<html lang="${v.lang}" data-content_root="${relativeUri(ctx.base, v.prefix) || "./"}"><head><meta charset="utf-8">`);
  s.raw(`<meta name="viewport" content="width=device-width, initial-scale=1">`);
  s.el("title", undefined, `${ctx.title} — ${m.project.title} ${v.release} documentation`);
  s.raw(`<link rel="canonical" href="https://${m.project.name}.readthedocs.io${thisPath(ctx)}">`);
  for (const css of STYLESHEETS[v.theme]) s.raw(`<link rel="stylesheet" type="text/css" href="${st(css)}">`);
  for (const js of SCRIPTS[v.theme]) s.raw(`<script src="${st(js)}"></script>`);
  s.raw(`<link rel="icon" href="${st("favicon.png")}"><link rel="search" title="Search" href="${relativeUri(ctx.base, specialPath(v, "search"))}">`);
  s.raw(`<meta name="readthedocs-version-slug" content="${v.slug}"></head>\n`);
}

/** The Read the Docs version menu, at the bottom of every page. */
export function flyout(s: HtmlSink, ctx: PageCtx): void {
  const { m, v } = ctx;
  s.open("div", "rst-versions", undefined, `data-toggle="rst-versions" role="note" aria-label="Versions"`);
  s.el("span", "rst-current-version", `Read the Docs v: ${v.slug}`);
  s.open("div", "rst-other-versions");
  s.open("dl");
  s.el("dt", undefined, "Versions");
  for (const w of m.versions) {
    if (w.hidden || w.lang !== v.lang) continue;
    s.open("dd", w === v ? "rtd-current-item" : undefined);
    s.siteA(samePageIn(ctx, w), w.slug, "absolute");
    s.close("dd");
  }
  s.close("dl");
  if (v.slug === "latest") {
    s.open("dl");
    s.el("dt", undefined, "Languages");
    for (const w of m.versions) {
      if (w.slug !== "latest") continue;
      s.open("dd", w === v ? "rtd-current-item" : undefined);
      s.siteA(samePageIn(ctx, w), w.lang, "absolute");
      s.close("dd");
    }
    s.close("dl");
  }
  s.open("dl");
  s.el("dt", undefined, "Downloads");
  for (const f of v.formats) {
    s.open("dd");
    s.siteA(offlinePath(v.lang, v.slug, f), OFFLINE_LABELS[f], "absolute");
    s.close("dd");
  }
  s.close("dl");
  const rtdProject = v.lang === "en" ? m.project.name : `${m.project.name}-${v.lang}`;
  s.open("dl");
  s.el("dt", undefined, "On Read the Docs");
  s.open("dd");
  s.a(`https://readthedocs.org/projects/${rtdProject}/?fromdocs=${rtdProject}`, "Project Home");
  s.close("dd");
  s.open("dd");
  s.a(`https://readthedocs.org/builds/${rtdProject}/?fromdocs=${rtdProject}`, "Builds");
  s.close("dd");
  s.close("dl");
  s.raw("<hr>");
  s.text("Free document hosting provided by ");
  s.a("https://readthedocs.org", "Read the Docs");
  s.text(".");
  s.close("div");
  s.close("div");
}

/** Development-version or outdated-version warning (an outdated page links the same path on stable, unchecked). */
export function versionBanner(s: HtmlSink, ctx: PageCtx, cls: string): void {
  const { v } = ctx;
  if (v.banner === null) return;
  s.open("div", cls, undefined, `role="note"`);
  if (v.banner === "dev") {
    s.text("This is documentation for the unstable development version. ");
    s.siteA(`/${v.lang}/stable/`, "Switch to the stable version", "absolute");
  } else {
    s.text(`You are reading the documentation of ${ctx.m.project.title} ${v.release}, an old release. The latest stable release is documented `);
    s.siteA(`/${v.lang}/stable/${thisPath(ctx).slice(v.prefix.length)}`, "here", "absolute");
    s.text(".");
  }
  s.close("div");
}

/** The current document's ancestors, root first. */
export function ancestors(ctx: PageCtx): number[] {
  const out: number[] = [];
  for (let d = ctx.doc >= 0 ? ctx.m.docs[ctx.doc]!.parent : -1; d >= 0; d = ctx.m.docs[d]!.parent) out.unshift(d);
  return out;
}

/** Previous and next documents in toctree order (-1 when none). */
export function prevNext(ctx: PageCtx): [number, number] {
  if (ctx.doc < 0) return [-1, -1];
  const { order, pos } = ctx.v.tree;
  const p = pos[ctx.doc]!;
  return [p > 0 ? order[p - 1]! : -1, p + 1 < order.length ? order[p + 1]! : -1];
}

/**
 * Toctree below `start` in Sphinx's collapsed mode: every child, and the children of the
 * current document and of its ancestors, down to level `depth`; `local` lists the current
 * page's sections under it.
 */
export function toctree(s: HtmlSink, ctx: PageCtx, start: number, level: number, depth: number, local?: PageBody["sections"], path = ancestors(ctx)): void {
  const kids = childrenIn(ctx.m, ctx.v.tree, start);
  if (kids.length === 0) return;
  s.open("ul", level === 1 ? "current" : undefined);
  for (const c of kids) {
    const on = c === ctx.doc || path.includes(c);
    if (s.withText) s.open("li", `toctree-l${level}${on ? " current" : ""}`);
    if (c === ctx.doc) s.a("#", ctx.m.docs[c]!.title, "current reference internal");
    else docLink(s, ctx, c, ctx.m.docs[c]!.title);
    if (c === ctx.doc && local && local.length > 0) {
      s.open("ul");
      for (const [id, title] of local) {
        s.open("li", `toctree-l${level + 1}`);
        s.a(`#${id}`, title, "reference internal");
        s.close("li");
      }
      s.close("ul");
    }
    if (on && level < depth) toctree(s, ctx, c, level + 1, depth, undefined, path);
    s.close("li");
  }
  s.close("ul");
}

/** GitHub address of the page's source ("Edit on GitHub"); null for generated pages. */
export function editUrl(ctx: PageCtx): string | null {
  if (ctx.doc < 0) return null;
  const doc = ctx.m.docs[ctx.doc]!;
  const branch = ctx.v.ord === 4 ? "main" : `v${ctx.v.release}`;
  const action = ctx.v.ord === 4 ? "edit" : "blob";
  // The translation lives in its own repository.
  const repo = ctx.v.lang === "en" ? githubUrl(ctx.m) : `${githubUrl(ctx.m)}-docs-${ctx.v.lang}`;
  // Gallery pages are generated from the example scripts.
  if (doc.kind === "example") return `${repo}/${action}/${branch}/examples/${docName(doc, ctx.v.ord).slice(14)}.py`;
  return `${repo}/${action}/${branch}/doc/source/${docName(doc, ctx.v.ord)}.${doc.kind === "tutorial" ? "ipynb" : "rst"}`;
}
