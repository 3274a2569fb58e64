/**
 * Documentation site: the PyData Sphinx Theme frame (versions 2.1 on and the French
 * translation). A navbar with the top-level sections and the project's accounts on other
 * hosts; a "Section Navigation" sidebar with the current section's toctree (the current
 * branch expanded, two levels deep); breadcrumbs; the article; previous / next; an "On this page" list of
 * `#fragment` links and "Edit on GitHub"; the footer and the Read the Docs flyout.
 */
import type { HtmlSink } from "../html-sink";
import {
  ancestors, copyright, docHead, editUrl, flyout, prevNext, sphinxVersion, toctree, versionBanner, type PageBody,
} from "./docs-chrome";
import { childrenIn } from "./docs-model";
import { docLink, githubUrl, type PageCtx } from "./docs-urls";

const FR_SECTION_TITLES: Readonly<Record<string, string>> = {
  "getting_started/index": "Premiers pas",
  "user_guide/index": "Guide de l'utilisateur",
  "tutorials/index": "Tutoriels",
};

/** Section title in the page's language. */
export function sectionTitle(ctx: PageCtx, d: number): string {
  const doc = ctx.m.docs[d]!;
  return (ctx.v.lang === "fr" ? FR_SECTION_TITLES[doc.name] : undefined) ?? doc.title;
}

function navbar(s: HtmlSink, ctx: PageCtx): void {
  const { m, v } = ctx;
  const path = ancestors(ctx);
  s.open("header", "bd-header navbar navbar-expand-lg bd-navbar");
  s.open("div", "bd-header__inner bd-page-width");
  s.open("div", "navbar-header-items__start");
  s.open("div", "navbar-item");
  if (ctx.doc === 0) s.a("#", m.project.title, "navbar-brand logo");
  else docLink(s, ctx, 0, m.project.title, "navbar-brand logo");
  s.close("div");
  s.close("div");
  s.open("div", "col-lg-9 navbar-header-items");
  s.open("nav", "navbar-nav");
  s.open("ul", "bd-navbar-elements navbar-nav");
  for (const sec of childrenIn(m, v.tree, 0)) {
    const current = sec === ctx.doc || path.includes(sec);
    s.open("li", current ? "nav-item current active" : "nav-item");
    if (sec === ctx.doc) s.a("#", sectionTitle(ctx, sec), "nav-link nav-internal");
    else docLink(s, ctx, sec, sectionTitle(ctx, sec), "nav-link nav-internal");
    s.close("li");
  }
  s.close("ul");
  s.close("nav");
  s.el("div", "navbar-item version-switcher__button", v.release);
  s.open("ul", "navbar-icon-links", undefined, `aria-label="Icon Links"`);
  for (const [label, href] of [
    ["GitHub", githubUrl(m)],
    ["PyPI", `https://pypi.org/project/${m.project.name}/`],
    ["Discourse", `https://${m.project.name}.discourse.group/`],
    ["Mastodon", `https://fosstodon.org/@${m.project.name}`],
  ] as const) {
    s.open("li", "nav-item");
    s.a(href, label, "nav-link pst-navbar-icon", `title="${label}" rel="noopener" target="_blank"`);
    s.close("li");
  }
  s.close("ul");
  s.close("div");
  s.close("div");
  s.close("header");
}

function breadcrumbs(s: HtmlSink, ctx: PageCtx): void {
  s.open("nav", undefined, undefined, `aria-label="Breadcrumb" class="d-print-none"`);
  s.open("ul", "bd-breadcrumbs");
  s.open("li", "breadcrumb-item breadcrumb-home");
  if (ctx.doc === 0) s.a("#", "Home", "nav-link");
  else docLink(s, ctx, 0, "Home", "nav-link");
  s.close("li");
  for (const d of ancestors(ctx).slice(1)) {
    s.open("li", "breadcrumb-item");
    docLink(s, ctx, d, d === ctx.m.docs[d]!.section ? sectionTitle(ctx, d) : ctx.m.docs[d]!.title, "nav-link");
    s.close("li");
  }
  if (ctx.doc !== 0) s.el("li", "breadcrumb-item active", ctx.title);
  s.close("ul");
  s.close("nav");
}

function prevNextFooter(s: HtmlSink, ctx: PageCtx): void {
  const [prev, next] = prevNext(ctx);
  s.open("footer", "prev-next-footer d-print-none");
  s.open("div", "prev-next-area");
  if (prev >= 0) docLink(s, ctx, prev, `previous: ${ctx.m.docs[prev]!.title}`, "left-prev");
  if (next >= 0) docLink(s, ctx, next, `next: ${ctx.m.docs[next]!.title}`, "right-next");
  s.close("div");
  s.close("footer");
}

function secondarySidebar(s: HtmlSink, ctx: PageCtx, body: PageBody): void {
  s.open("div", "bd-sidebar-secondary bd-toc");
  if (body.sections.length > 0) {
    s.el("div", "page-toc tocsection onthispage", "On this page");
    s.open("nav", "bd-toc-nav page-toc");
    s.open("ul", "visible nav section-nav flex-column");
    for (const [id, title] of body.sections) {
      s.open("li", "toc-h2 nav-item toc-entry");
      s.a(`#${id}`, title, "reference internal nav-link");
      s.close("li");
    }
    s.close("ul");
    s.close("nav");
  }
  const edit = editUrl(ctx);
  if (edit !== null) {
    s.open("div", "tocsection editthispage");
    s.a(edit, "Edit on GitHub");
    s.close("div");
  }
  s.close("div");
}

export function pydataPage(s: HtmlSink, ctx: PageCtx, body: PageBody): void {
  const { m, v } = ctx;
  docHead(s, ctx);
  s.raw(`<body data-bs-spy="scroll" data-bs-target=".bd-toc-nav" data-offset="180" data-default-mode="">`);
  s.a("#main-content", "Skip to main content", "skip-link d-print-none", `id="pst-skip-link"`);
  versionBanner(s, ctx, "bd-header-version-warning");
  navbar(s, ctx);
  s.open("div", "bd-container");
  s.open("div", "bd-container__inner bd-page-width");
  const section = ctx.doc > 0 ? m.docs[ctx.doc]!.section : -1;
  if (section >= 0) {
    s.open("div", "bd-sidebar-primary bd-sidebar");
    s.open("nav", "bd-docs-nav bd-links", undefined, `aria-label="Section Navigation"`);
    s.el("p", "bd-links__title", "Section Navigation");
    s.open("div", "bd-toc-item navbar-nav");
    // navigation_depth 2, as large projects set it: no method lists under classes.
    toctree(s, ctx, section, 1, 2);
    s.close("div");
    s.close("nav");
    s.close("div");
  }
  s.open("main", "bd-main", "main-content");
  s.open("div", "bd-content");
  s.open("div", "bd-article-container");
  s.open("div", "bd-header-article d-print-none");
  breadcrumbs(s, ctx);
  s.close("div");
  s.open("article", "bd-article");
  body.render();
  s.close("article");
  prevNextFooter(s, ctx);
  s.close("div");
  secondarySidebar(s, ctx, body);
  s.close("div");
  s.close("main");
  s.close("div");
  s.close("div");
  s.open("footer", "bd-footer");
  s.open("div", "bd-footer__inner bd-page-width");
  s.el("p", "copyright", copyright(ctx));
  s.open("p", "sphinx-version");
  s.text("Created using ");
  s.a("https://www.sphinx-doc.org/", "Sphinx");
  s.text(` ${sphinxVersion(v)}.`);
  s.close("p");
  s.open("p", "theme-version");
  s.text("Built with the ");
  s.a("https://pydata-sphinx-theme.readthedocs.io/en/stable/index.html", "PyData Sphinx Theme");
  s.text(" 0.15.2.");
  s.close("p");
  s.close("div");
  s.close("footer");
  flyout(s, ctx);
  s.raw(`</body></html>\n`);
}
