/**
 * Documentation site: generated pages and the pages that list versions. The general
 * index (`genindex`, split per letter on large projects with `genindex-all` beside it),
 * the Python module index, the search page (filled by JavaScript: no results in the
 * HTML), release notes (cross-references to new objects, GitHub issues on another host)
 * and the offline documentation page (offline formats of this and older versions; the
 * files of deleted versions are gone).
 */
import type { HtmlSink } from "../html-sink";
import { Rng } from "../random";
import type { PageBody } from "./docs-chrome";
import { downloadLink, heading, issue, objectHref, pageSeed, para, xref } from "./docs-content";
import { DELETED_VERSIONS, offlinePath, OFFLINE_LABELS } from "./docs-files";
import { objectIn, type DocsModel, type DocVersion } from "./docs-model";
import { contributorName } from "./docs-text";
import { docPath, rel, relativeUri, specialPath, type PageCtx } from "./docs-urls";

const letterCache = new WeakMap<DocsModel, Map<number, string[]>>();
const initialCache = new WeakMap<DocsModel, string[]>();

/** Upper-case initial of every object's short name. */
function initials(m: DocsModel): string[] {
  let out = initialCache.get(m);
  if (!out) initialCache.set(m, (out = m.objects.map((o) => o.short[0]!.toUpperCase())));
  return out;
}

/** Initial letters of the general index of version `ord`, sorted. */
export function indexLetters(m: DocsModel, ord: number): string[] {
  let perOrd = letterCache.get(m);
  if (!perOrd) letterCache.set(m, (perOrd = new Map()));
  let letters = perOrd.get(ord);
  if (!letters) {
    const set = new Set<string>();
    const first = initials(m);
    for (const id of m.indexOrder) if (objectIn(m, id, ord)) set.add(first[id]!);
    if (m.modules.some((mod) => mod.since <= ord && ord < mod.until)) set.add(m.project.name[0]!.toUpperCase());
    letters = [...set].sort();
    perOrd.set(ord, letters);
  }
  return letters;
}

/** Whether the general index of this version is split per letter (the translation has no API to split). */
export function splitIndex(m: DocsModel, v: DocVersion): boolean {
  return m.splitIndex && v.lang === "en";
}

function entryLabel(m: DocsModel, id: number): string {
  const o = m.objects[id]!;
  const parent = o.full.slice(0, o.full.length - o.short.length - 1);
  return o.kind === "function" ? `${o.short}() (in module ${parent})` : o.kind === "class" ? `${o.short} (class in ${parent})` : `${o.short}() (${parent} method)`;
}

function entries(s: HtmlSink, ctx: PageCtx, letter: string): void {
  const { m, v } = ctx;
  s.open("table", "indextable genindextable");
  s.open("tr");
  s.open("td");
  s.open("ul");
  const first = initials(m);
  for (const id of m.indexOrder) {
    if (first[id] !== letter || !objectIn(m, id, v.ord)) continue;
    s.open("li");
    const o = m.objects[id]!;
    rel(s, ctx, objectHref(ctx, id)!, s.withText ? entryLabel(m, id) : "", "reference internal", undefined, s.withText ? `#${o.full}` : "");
    s.close("li");
  }
  if (letter === m.project.name[0]!.toUpperCase()) {
    for (const mod of m.modules) {
      if (mod.since > v.ord || v.ord >= mod.until) continue;
      s.open("li");
      rel(s, ctx, docPath(m, v, mod.doc), mod.full, "reference internal", undefined, `#module-${mod.full}`);
      s.text(" (module)");
      s.close("li");
    }
  }
  s.close("ul");
  s.close("td");
  s.close("tr");
  s.close("table");
}

/** `genindex`, `genindex-all` or `genindex-<letter>`. */
export function genindexBody(s: HtmlSink, ctx: PageCtx): PageBody {
  const letters = ctx.v.lang === "en" ? indexLetters(ctx.m, ctx.v.ord) : [];
  const split = splitIndex(ctx.m, ctx.v);
  const page = ctx.special;
  const shown = page === "genindex" ? (split ? [] : letters) : page === "genindex-all" ? letters : [page.slice(9)];
  return {
    sections: [],
    render: () => {
      s.el("h1", undefined, page.length === 10 ? `Index – ${page.slice(9)}` : "Index", "index");
      s.open("div", "genindex-jumpbox");
      for (const l of letters) {
        if (split && page !== "genindex-all") rel(s, ctx, specialPath(ctx.v, `genindex-${l}`), l, "reference internal");
        else s.a(`#${l}`, l);
        s.text(" | ");
      }
      if (split) rel(s, ctx, specialPath(ctx.v, "genindex-all"), "Full index on one page", "reference internal");
      s.close("div");
      for (const l of shown) {
        s.el("h2", undefined, l, l);
        entries(s, ctx, l);
      }
    },
  };
}

export function modindexBody(s: HtmlSink, ctx: PageCtx): PageBody {
  const { m, v } = ctx;
  return {
    sections: [],
    render: () => {
      s.el("h1", undefined, "Python Module Index");
      s.open("div", "modindex-jumpbox");
      s.a(`#cap-${m.project.name[0]}`, m.project.name[0]!);
      s.close("div");
      s.open("table", "indextable modindextable");
      s.el("tr", "cap", m.project.name[0]!, `cap-${m.project.name[0]}`);
      for (const mod of m.modules) {
        if (mod.since > v.ord || v.ord >= mod.until) continue;
        s.open("tr");
        s.open("td");
        rel(s, ctx, docPath(m, v, mod.doc), mod.full, "reference internal", undefined, `#module-${mod.full}`);
        s.close("td");
        s.close("tr");
      }
      s.close("table");
    },
  };
}

export function searchBody(s: HtmlSink, ctx: PageCtx): PageBody {
  return {
    sections: [],
    render: () => {
      s.el("h1", undefined, "Search", "search-documentation");
      s.raw(`<noscript><div class="admonition warning"><p>Please activate JavaScript to enable the search functionality.</p></div></noscript>`);
      s.raw(`<form class="bd-search" action="" method="get"><input type="search" name="q" aria-label="Search the docs"><input type="submit" value="search"></form>`);
      s.raw(`<div id="search-results"></div><script src="${relativeUri(ctx.base, `${ctx.v.prefix}searchindex.js`)}" defer></script>`);
    },
  };
}

/** What's new in one release. */
export function releaseBody(s: HtmlSink, ctx: PageCtx): PageBody {
  const { m } = ctx;
  const k = m.docs[ctx.doc]!.ref;
  const release = m.releases[k]!;
  const r = new Rng(pageSeed(ctx, 0x4e1));
  const minor = release.version.endsWith(".0");
  const fresh = minor && release.ord > 0 ? m.objects.map((o, i) => (o.since === release.ord ? i : -1)).filter((i) => i >= 0) : [];
  const features = Array.from({ length: minor ? 3 + r.int(6) : r.int(2) }, (_, j) => (j < fresh.length ? fresh[j]! : r.int(m.objects.length)));
  const fixes = Array.from({ length: 3 + r.int(12) }, () => ({ issue: 1000 + (m.releases.length - k) * 300 + r.int(300), ref: r.chance(0.5) ? r.int(m.objects.length) : -1 }));
  const contributors = 4 + r.int(12);
  const deprecation = release.version === "2.1.0" ? m.modules.find((mod) => mod.until < 5) : undefined;
  const sections: Array<readonly [string, string]> = [["enhancements", "Enhancements"], ["bug-fixes", "Bug fixes"]];
  if (deprecation) sections.splice(1, 0, ["deprecations", "Deprecations"]);
  sections.push(["contributors", "Contributors"]);
  return {
    sections,
    render: () => {
      heading(s, ctx, 1, `whatsnew-${release.version.replace(/\./g, "")}`, `${ctx.title} (${release.year})`);
      para(s, pageSeed(ctx, 0x4e2), 30);
      heading(s, ctx, 2, "enhancements", "Enhancements");
      s.open("ul");
      for (const o of features) {
        s.open("li");
        xref(s, ctx, o);
        s.text(" is new. ");
        issue(s, ctx, 900 + ((o * 7919) % 4000));
        s.close("li");
      }
      s.close("ul");
      s.close("section");
      if (deprecation) {
        heading(s, ctx, 2, "deprecations", "Deprecations");
        s.open("p");
        s.text(`The ${deprecation.full} module is deprecated and will be removed in 2.2 (`);
        s.siteA(`/en/latest/${m.docs[deprecation.doc]!.name}.html`, "details", "absolute");
        s.text(").");
        s.close("p");
        s.close("section");
      }
      heading(s, ctx, 2, "bug-fixes", "Bug fixes");
      s.open("ul");
      for (const f of fixes) {
        s.open("li");
        if (f.ref >= 0) {
          s.text("Fixed a bug in ");
          xref(s, ctx, f.ref);
          s.text(" ");
        } else s.text("Fixed a regression ");
        issue(s, ctx, f.issue);
        s.close("li");
      }
      s.close("ul");
      s.close("section");
      heading(s, ctx, 2, "contributors", "Contributors");
      if (s.withText) s.el("p", undefined, Array.from({ length: contributors }, (_, j) => contributorName(pageSeed(ctx, 0x4e3 + j))).join(", "));
      s.close("section");
      s.close("section");
    },
  };
}

/** "Offline documentation": this version's formats, the dataset bundle, older versions' PDFs. */
export function offlineBody(s: HtmlSink, ctx: PageCtx): PageBody {
  const { m, v } = ctx;
  const older = m.versions.filter((w) => w.lang === "en" && w.ord < v.ord && w.slug !== "stable").map((w) => w.slug);
  return {
    sections: [["this-version", "This version"], ["older-versions", "Older versions"]],
    render: () => {
      heading(s, ctx, 1, "offline-documentation", ctx.title);
      heading(s, ctx, 2, "this-version", "This version");
      s.open("ul");
      for (const f of v.formats) {
        s.open("li");
        s.a(offlinePath(v.lang, v.slug, f), `${OFFLINE_LABELS[f]} (${v.release})`, "reference external");
        s.close("li");
      }
      s.close("ul");
      s.open("p");
      downloadLink(s, ctx, m.datasetBundle, "All example datasets (zip)");
      s.close("p");
      s.close("section");
      heading(s, ctx, 2, "older-versions", "Older versions");
      s.open("ul");
      for (const slug of [...older, ...DELETED_VERSIONS]) {
        s.open("li");
        s.a(offlinePath("en", slug, "pdf"), `${slug} (PDF)`, "reference external");
        s.close("li");
      }
      s.close("ul");
      s.close("section");
      s.close("section");
    },
  };
}
