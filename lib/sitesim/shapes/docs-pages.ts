/**
 * Documentation site: narrative page bodies. The root page (useful links, section cards,
 * "Indices and tables"), section indexes (toctree lists), user guide / getting started /
 * development pages, nbsphinx tutorials (notebook download, the datasets they use) and
 * how-to guides. Every choice comes from the document's seed, so a page reads the same in
 * every version except where the version lacks what it links (then the reference is
 * plain text, as in an unresolved Sphinx reference).
 */
import type { HtmlSink } from "../html-sink";
import { Rng } from "../random";
import { guideFigures } from "./docs-build-narrative";
import type { PageBody } from "./docs-chrome";
import { code, downloadLink, figure, heading, pageSeed, para, sectionTitles, toctreeList, xref } from "./docs-content";
import { childrenIn, downloadIn, type DocsModel } from "./docs-model";
import { docLink, githubUrl, rel, specialPath, type PageCtx } from "./docs-urls";

/** What a narrative page links besides its text, drawn once from its seed. */
interface Plan {
  sections: Array<readonly [string, string]>;
  /** API objects referenced in each section. */
  refs: number[][];
  /** Download ids of dataset files it offers. */
  files: number[];
  /** Hand-written absolute link to an old address, or null. */
  legacy: string | null;
}

function plan(m: DocsModel, r: Rng, sectionCount: number, refsPer: number, fileChance: number, maxFiles: number, legacyChance: number): Plan {
  const sections = sectionTitles(r, sectionCount);
  const refs = sections.map(() => Array.from({ length: 1 + r.int(refsPer) }, () => r.int(m.objects.length)));
  const files: number[] = [];
  if (m.datasets.length > 0 && r.chance(fileChance)) {
    for (let k = 0, n = 1 + r.int(maxFiles); k < n; k++) {
      const ds = m.datasets[r.int(m.datasets.length)]!;
      const f = ds.files[r.chance(0.7) ? 0 : r.int(ds.files.length)]!;
      if (!files.includes(f)) files.push(f);
    }
  }
  const legacy = m.legacy.length > 0 && r.chance(legacyChance) ? m.legacy[r.int(m.legacy.length)]! : null;
  return { sections, refs, files, legacy };
}

function legacyNote(s: HtmlSink, ctx: PageCtx, href: string | null): void {
  if (href === null || ctx.v.lang !== "en") return;
  s.open("p");
  s.text("This material was first published in an earlier edition of the guide; see also ");
  s.siteA(href, href, "absolute", "reference external");
  s.text(".");
  s.close("p");
}

function renderSections(s: HtmlSink, ctx: PageCtx, p: Plan, seed: number, between?: (k: number) => void): void {
  p.sections.forEach(([id, title], k) => {
    heading(s, ctx, 2, id, title);
    para(s, seed + k, 60);
    s.open("p");
    for (const o of p.refs[k]!) {
      s.text("See ");
      xref(s, ctx, o);
      s.text(". ");
    }
    s.close("p");
    code(s, seed + 100 + k, 3);
    between?.(k);
    s.close("section");
  });
}

function dataFiles(s: HtmlSink, ctx: PageCtx, planned: readonly number[], title: string): void {
  // Files added in later versions are not in this build.
  const files = planned.filter((f) => downloadIn(ctx.m, f, ctx.v.ord));
  if (files.length === 0) return;
  s.open("div", "admonition note");
  s.el("p", "admonition-title", title);
  s.open("ul");
  for (const f of files) {
    s.open("li");
    downloadLink(s, ctx, f);
    s.close("li");
  }
  s.close("ul");
  s.close("div");
}

/** User guide, getting started and development pages. */
export function narrativeBody(s: HtmlSink, ctx: PageCtx): PageBody {
  const seed = pageSeed(ctx, 0x9a6);
  const r = new Rng(seed);
  const doc = ctx.m.docs[ctx.doc]!;
  const guide = doc.name.startsWith("user_guide/");
  const p = plan(ctx.m, r, 3 + r.int(4), guide ? 4 : 2, guide ? 0.3 : 0.05, 2, guide ? 0.15 : 0.05);
  const figures = guide ? guideFigures(ctx.m.seed, ctx.doc) : 0;
  const stem = doc.name.split("/").pop()!;
  return {
    sections: p.sections,
    render: () => {
      heading(s, ctx, 1, stem.replace(/_/g, "-"), ctx.title);
      para(s, seed, 80);
      dataFiles(s, ctx, p.files, "The examples on this page use these files");
      renderSections(s, ctx, p, seed, (k) => {
        if (k < figures) figure(s, ctx, `${stem}_${k + 1}.png`, `Figure ${k + 1}`);
      });
      legacyNote(s, ctx, p.legacy);
      s.close("section");
    },
  };
}

/** An nbsphinx tutorial: notebook download, the data it uses, cells. */
export function tutorialBody(s: HtmlSink, ctx: PageCtx): PageBody {
  const seed = pageSeed(ctx, 0x717);
  const r = new Rng(seed);
  const p = plan(ctx.m, r, 3 + r.int(3), 3, 1, 3, 0.3);
  const nb = ctx.m.notebooks.get(ctx.doc)!;
  return {
    sections: p.sections,
    render: () => {
      s.open("div", "admonition note nbinfo");
      s.text("This page was generated from a Jupyter notebook. ");
      downloadLink(s, ctx, nb, "Download this notebook");
      s.text(" or ");
      s.a(`https://mybinder.org/v2/gh/${ctx.m.project.org}/${ctx.m.project.name}/main?filepath=doc/source/${ctx.m.docs[ctx.doc]!.name}.ipynb`, "run it on Binder", "reference external");
      s.close("div");
      heading(s, ctx, 1, "tutorial", ctx.title);
      dataFiles(s, ctx, p.files, "Data used in this tutorial");
      renderSections(s, ctx, p, seed);
      legacyNote(s, ctx, p.legacy);
      s.close("section");
    },
  };
}

export function howtoBody(s: HtmlSink, ctx: PageCtx): PageBody {
  const seed = pageSeed(ctx, 0x407);
  const r = new Rng(seed);
  const p = plan(ctx.m, r, 2 + r.int(3), 3, 0.3, 1, 0.2);
  return {
    sections: p.sections,
    render: () => {
      heading(s, ctx, 1, "how-to", ctx.title);
      para(s, seed, 40);
      dataFiles(s, ctx, p.files, "Sample data");
      renderSections(s, ctx, p, seed);
      legacyNote(s, ctx, p.legacy);
      s.close("section");
    },
  };
}

/** A section index: its toctree, and on the release notes index the archived documentation. */
export function sectionBody(s: HtmlSink, ctx: PageCtx): PageBody {
  const doc = ctx.m.docs[ctx.doc]!;
  return {
    sections: [],
    render: () => {
      heading(s, ctx, 1, doc.name.split("/")[0]!.replace(/_/g, "-"), ctx.title);
      para(s, pageSeed(ctx, 0x5ec), 50);
      toctreeList(s, ctx, childrenIn(ctx.m, ctx.v.tree, ctx.doc));
      if (doc.name === "whatsnew/index") {
        s.open("p");
        s.text("Release notes of older versions are part of their own documentation: ");
        s.siteA("/en/v1.8/", "1.8 (archived)", "absolute");
        s.text(". Every release is also listed on ");
        s.a(`${githubUrl(ctx.m)}/releases`, "GitHub", "reference external");
        s.text(".");
        s.close("p");
      }
      if (doc.name === "development/index") s.a(`${githubUrl(ctx.m)}/blob/main/CONTRIBUTING.md`, "CONTRIBUTING.md on GitHub", "reference external");
      s.close("section");
    },
  };
}

/** The root document: useful links, a card per section, indices. */
export function rootBody(s: HtmlSink, ctx: PageCtx): PageBody {
  const { m, v } = ctx;
  const p = m.project;
  return {
    sections: [["indices-and-tables", "Indices and tables"]],
    render: () => {
      heading(s, ctx, 1, `${p.name}-documentation`, `${p.title} documentation`);
      s.open("p");
      s.text(`Version: ${v.release}. Useful links: `);
      s.a(`https://pypi.org/project/${p.name}/`, "Binary Installers", "reference external");
      s.text(" | ");
      s.a(githubUrl(m), "Source Repository", "reference external");
      s.text(" | ");
      s.a(`${githubUrl(m)}/issues`, "Issues & Ideas", "reference external");
      s.text(" | ");
      s.a(`https://stackoverflow.com/questions/tagged/${p.name}`, "Q&A Support", "reference external");
      s.text(" | ");
      s.a(`https://groups.google.com/g/${p.name}`, "Mailing List", "reference external");
      s.close("p");
      s.el("p", undefined, `${p.title} is an open source, BSD-licensed library providing ${p.tagline}.`);
      s.open("div", "sd-container-fluid sd-row");
      for (const sec of childrenIn(m, v.tree, 0)) {
        s.open("div", "sd-card sd-col");
        s.el("div", "sd-card-title", m.docs[sec]!.title);
        para(s, pageSeed(ctx, sec), 25);
        docLink(s, ctx, sec, `To the ${m.docs[sec]!.title.toLowerCase()}`, "sd-btn sd-btn-secondary reference internal");
        s.close("div");
      }
      s.close("div");
      toctreeList(s, ctx, childrenIn(m, v.tree, 0), "Contents");
      heading(s, ctx, 2, "indices-and-tables", "Indices and tables");
      s.open("ul");
      s.open("li");
      rel(s, ctx, specialPath(v, "genindex"), "Index", "reference internal");
      s.close("li");
      if (v.lang === "en") {
        s.open("li");
        rel(s, ctx, specialPath(v, "py-modindex"), "Module Index", "reference internal");
        s.close("li");
      }
      s.open("li");
      rel(s, ctx, specialPath(v, "search"), "Search Page", "reference internal");
      s.close("li");
      s.close("ul");
      s.close("section");
      s.close("section");
    },
  };
}
