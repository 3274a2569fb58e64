/**
 * Documentation site: the Read the Docs Sphinx theme frame (versions up to 2.0). A side
 * navigation with the project link, the release and the global toctree (top level plus
 * the current branch, and the current page's sections as `#fragment` links); breadcrumbs
 * with "View page source" (`_sources/…rst.txt`, when the build keeps sources) or
 * "Edit on GitHub"; the outdated-version banner; Previous / Next buttons; the footer and
 * the Read the Docs flyout.
 */
import type { HtmlSink } from "../html-sink";
import {
  ancestors, copyright, docHead, editUrl, flyout, prevNext, sphinxVersion, toctree, versionBanner, type PageBody,
} from "./docs-chrome";
import { sourcePath } from "./docs-files";
import { docLink, rel, relativeUri, specialPath, type PageCtx } from "./docs-urls";

function homeLink(s: HtmlSink, ctx: PageCtx, label: string, cls: string): void {
  if (ctx.doc === 0) s.a("#", label, cls);
  else docLink(s, ctx, 0, label, cls);
}

function sideNav(s: HtmlSink, ctx: PageCtx, body: PageBody): void {
  s.open("nav", "wy-nav-side", undefined, `data-toggle="wy-nav-shift"`);
  s.open("div", "wy-side-scroll");
  s.open("div", "wy-side-nav-search");
  homeLink(s, ctx, ctx.m.project.title, "icon icon-home");
  s.el("div", "version", ctx.v.release);
  if (s.withText) s.raw(`<div role="search"><form id="rtd-search-form" class="wy-form" action="${relativeUri(ctx.base, specialPath(ctx.v, "search"))}" method="get"><input type="text" name="q" placeholder="Search docs" aria-label="Search docs"></form></div>`);
  s.close("div");
  s.open("div", "wy-menu wy-menu-vertical", undefined, `data-spy="affix" role="navigation" aria-label="Navigation menu"`);
  s.el("p", "caption", "Contents");
  toctree(s, ctx, 0, 1, 4, body.sections);
  s.close("div");
  s.close("div");
  s.close("nav");
}

function breadcrumbs(s: HtmlSink, ctx: PageCtx): void {
  s.open("div", undefined, undefined, `role="navigation" aria-label="Page navigation"`);
  s.open("ul", "wy-breadcrumbs");
  s.open("li");
  homeLink(s, ctx, "Docs", "icon icon-home");
  s.close("li");
  for (const d of ancestors(ctx).slice(1)) {
    s.open("li", "breadcrumb-item");
    docLink(s, ctx, d, ctx.m.docs[d]!.title, "");
    s.close("li");
  }
  if (ctx.doc !== 0) s.el("li", "breadcrumb-item active", ctx.title);
  s.open("li", "wy-breadcrumbs-aside");
  if (ctx.doc >= 0 && ctx.v.sources) rel(s, ctx, sourcePath(ctx.m, ctx.v, ctx.doc), "View page source", undefined, `rel="nofollow"`);
  else {
    const edit = editUrl(ctx);
    if (edit !== null) s.a(edit, "Edit on GitHub", "fa fa-github");
  }
  s.close("li");
  s.close("ul");
  s.raw("<hr/>");
  s.close("div");
}

function footer(s: HtmlSink, ctx: PageCtx): void {
  const [prev, next] = prevNext(ctx);
  s.open("footer");
  s.open("div", "rst-footer-buttons", undefined, `role="navigation" aria-label="Footer"`);
  if (prev >= 0) docLink(s, ctx, prev, "Previous", "btn btn-neutral float-left");
  if (next >= 0) docLink(s, ctx, next, "Next", "btn btn-neutral float-right");
  s.close("div");
  s.raw("<hr/>");
  s.open("div", undefined, undefined, `role="contentinfo"`);
  s.el("p", undefined, copyright(ctx));
  s.close("div");
  s.text("Built with ");
  s.a("https://www.sphinx-doc.org/", "Sphinx");
  s.text(` ${sphinxVersion(ctx.v)} using a `);
  s.a("https://github.com/readthedocs/sphinx_rtd_theme", "theme");
  s.text(" provided by ");
  s.a("https://readthedocs.org", "Read the Docs");
  s.text(".");
  s.close("footer");
}

export function rtdPage(s: HtmlSink, ctx: PageCtx, body: PageBody): void {
  docHead(s, ctx);
  s.raw(`<body class="wy-body-for-nav">`);
  s.open("div", "wy-grid-for-nav");
  sideNav(s, ctx, body);
  s.open("section", "wy-nav-content-wrap", undefined, `data-toggle="wy-nav-shift"`);
  s.open("nav", "wy-nav-top", undefined, `aria-label="Mobile navigation menu"`);
  homeLink(s, ctx, ctx.m.project.title, "");
  s.close("nav");
  s.open("div", "wy-nav-content");
  s.open("div", "rst-content");
  breadcrumbs(s, ctx);
  versionBanner(s, ctx, "admonition warning version-warning");
  s.open("div", "document", undefined, `role="main" itemscope="itemscope" itemtype="http://schema.org/Article"`);
  s.open("div", undefined, undefined, `itemprop="articleBody"`);
  body.render();
  s.close("div");
  s.close("div");
  footer(s, ctx);
  s.close("div");
  s.close("div");
  s.close("section");
  s.close("div");
  flyout(s, ctx);
  s.raw(`</body></html>\n`);
}
