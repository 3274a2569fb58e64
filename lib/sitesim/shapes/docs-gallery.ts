/**
 * Documentation site: the sphinx-gallery example gallery and the example dataset
 * catalogue (both from 2.0 on). The gallery index shows a thumbnail per example (images,
 * not links) and offers every example as a zip of scripts and of notebooks; an example
 * page shows its figures and offers its `.py` and `.ipynb` (not targets). A dataset page
 * documents one example dataset and links its files (CSV, Excel, JSON, shapefile zip,
 * codebook), the main targets of the site.
 */
import type { HtmlSink } from "../html-sink";
import { hash32, Rng } from "../random";
import { humanBytes } from "../text";
import type { PageBody } from "./docs-chrome";
import { code, downloadLink, heading, pageSeed, para, xref } from "./docs-content";
import { downloadFile } from "./docs-files";
import { childrenIn, downloadIn } from "./docs-model";
import { GALLERY_GROUPS } from "./docs-text";
import { docPath, githubUrl, rel, relativeUri, type PageCtx } from "./docs-urls";

/** Sphinx-gallery's reference label of an example, used as the link's fragment. */
function exampleAnchor(ctx: PageCtx, e: number): string {
  const doc = ctx.m.docs[ctx.m.examples[e]!.doc]!;
  return `sphx-glr-${doc.name.replace(/[/_]/g, "-")}-py`;
}

/** A thumbnail container linking example `e` (nothing when this version lacks it). */
export function exampleLink(s: HtmlSink, ctx: PageCtx, e: number): void {
  const ex = ctx.m.examples[e]!;
  if (ctx.v.tree.pos[ex.doc]! < 0) return;
  s.open("div", "sphx-glr-thumbcontainer", undefined, `tooltip="${ctx.m.docs[ex.doc]!.title}"`);
  if (s.withText) s.img(relativeUri(ctx.base, `${ctx.v.prefix}_images/sphx_glr_${ex.stem}_thumb.png`), "", "sphx-glr-thumbnail");
  s.open("p");
  rel(s, ctx, docPath(ctx.m, ctx.v, ex.doc), ctx.m.docs[ex.doc]!.title, "reference internal", undefined, `#${exampleAnchor(ctx, e)}`);
  s.close("p");
  s.close("div");
}

export function galleryBody(s: HtmlSink, ctx: PageCtx): PageBody {
  const { m } = ctx;
  const shown = childrenIn(m, ctx.v.tree, ctx.doc).map((d) => m.docs[d]!.ref);
  const groups = GALLERY_GROUPS.map((_, g) => shown.filter((e) => m.examples[e]!.group === g));
  const sections = groups.flatMap((g, k) => (g.length > 0 ? [[GALLERY_GROUPS[k]![0], GALLERY_GROUPS[k]![1]] as const] : []));
  return {
    sections,
    render: () => {
      heading(s, ctx, 1, "examples", ctx.title);
      para(s, pageSeed(ctx, 0x6a1), 40);
      groups.forEach((g, k) => {
        if (g.length === 0) return;
        heading(s, ctx, 2, GALLERY_GROUPS[k]![0], GALLERY_GROUPS[k]![1]);
        s.open("div", "sphx-glr-thumbnails");
        for (const e of g) exampleLink(s, ctx, e);
        s.close("div");
        s.close("section");
      });
      galleryFooter(s, ctx, "sphx-glr-footer-gallery", undefined, [
        ["python", m.galleryZips[0], "Download all examples in Python source code: auto_examples_python.zip"],
        ["jupyter", m.galleryZips[1], "Download all examples in Jupyter notebooks: auto_examples_jupyter.zip"],
      ]);
    },
  };
}

export function exampleBody(s: HtmlSink, ctx: PageCtx): PageBody {
  const { m } = ctx;
  const e = m.docs[ctx.doc]!.ref;
  const ex = m.examples[e]!;
  const anchor = exampleAnchor(ctx, e);
  const download = `sphx-glr-download-${anchor.slice(9)}`;
  return {
    sections: [[download, "Download"]],
    render: () => {
      s.open("div", "sphx-glr-download-link-note admonition note");
      s.a(`#${download}`, "Go to the end", "reference internal");
      s.text(" to download the full example code, or to run this example in your browser via ");
      s.a(`https://mybinder.org/v2/gh/${m.project.org}/${m.project.name}/main?urlpath=lab/tree/notebooks/${m.docs[ex.doc]!.name}.ipynb`, "Binder", "reference external");
      s.close("div");
      s.raw(`<span class="target" id="${anchor}"></span>`);
      heading(s, ctx, 1, ex.stem.replace(/_/g, "-"), ctx.title);
      para(s, pageSeed(ctx, 0xe1), 45);
      s.open("p");
      for (const o of ex.uses) {
        xref(s, ctx, o);
        s.text(" ");
      }
      s.close("p");
      for (let k = 1; k <= ex.figures; k++) {
        code(s, pageSeed(ctx, 0xe2 + k), 4);
        if (s.withText) s.img(relativeUri(ctx.base, `${ctx.v.prefix}_images/sphx_glr_${ex.stem}_${String(k).padStart(3, "0")}.png`), ctx.title, "sphx-glr-single-img");
      }
      s.el("p", "sphx-glr-timing", `Total running time of the script: (0 minutes ${(1 + (pageSeed(ctx, 0xe3) % 9000) / 1000).toFixed(3)} seconds)`);
      galleryFooter(s, ctx, "sphx-glr-footer-example", download, [
        ["jupyter", ex.ipynb, `Download Jupyter notebook: ${ex.stem}.ipynb`],
        ["python", ex.py, `Download Python source code: ${ex.stem}.py`],
      ]);
    },
  };
}

const SOURCES = [
  "https://ec.europa.eu/eurostat/databrowser/", "https://data.oecd.org/", "https://www.ons.gov.uk/datasets/",
  "https://www.insee.fr/en/statistiques", "https://www.destatis.de/EN/", "https://data.worldbank.org/",
];

export function datasetBody(s: HtmlSink, ctx: PageCtx): PageBody {
  const { m } = ctx;
  const ds = m.datasets[m.docs[ctx.doc]!.ref]!;
  const r = new Rng(pageSeed(ctx, 0xda7));
  const source = r.pick(SOURCES);
  const loader = m.modules.findIndex((mod) => mod.short === "datasets");
  const loaders = loader < 0 ? [] : m.docs[m.modules[loader]!.doc]!.children.map((d) => m.docs[d]!.ref);
  const fn = loaders.length > 0 ? loaders[r.int(loaders.length)]! : -1;
  return {
    sections: [["files", "Files"], ["variables", "Variables"], ["loading", "Loading"]],
    render: () => {
      heading(s, ctx, 1, ds.stem.replace(/_/g, "-"), ds.title);
      para(s, pageSeed(ctx, 0xda8), 50);
      heading(s, ctx, 2, "files", "Files");
      s.open("ul");
      for (const f of ds.files) {
        if (!downloadIn(m, f, ctx.v.ord)) continue;
        s.open("li");
        downloadLink(s, ctx, f);
        if (s.withText) s.text(` (${humanBytes(downloadFile(m, f).bytes)})`);
        s.close("li");
      }
      s.close("ul");
      s.close("section");
      heading(s, ctx, 2, "variables", "Variables");
      para(s, pageSeed(ctx, 0xda9), 40);
      s.close("section");
      heading(s, ctx, 2, "loading", "Loading");
      code(s, hash32(m.seed, 0xdaa, ctx.doc), 2);
      if (fn >= 0) xref(s, ctx, fn);
      s.open("p");
      s.text("Source: ");
      s.a(source, source, "reference external");
      s.text(", licensed under ");
      s.a("https://creativecommons.org/licenses/by/4.0/", "CC BY 4.0", "reference external");
      s.text(".");
      s.close("p");
      s.close("section");
      s.close("section");
    },
  };
}

/** The catalogue (or one of its themes): one row per dataset or theme of this version. */
export function datasetsIndexBody(s: HtmlSink, ctx: PageCtx): PageBody {
  const shown = childrenIn(ctx.m, ctx.v.tree, ctx.doc);
  return {
    sections: [],
    render: () => {
      heading(s, ctx, 1, ctx.m.docs[ctx.doc]!.name.replace(/\/index$/, "").replace(/[/_]/g, "-"), ctx.title);
      para(s, pageSeed(ctx, 0xda0), 50);
      s.open("table", "docutils align-default");
      for (const d of shown) {
        s.open("tr");
        s.open("td");
        rel(s, ctx, docPath(ctx.m, ctx.v, d), ctx.m.docs[d]!.title, "reference internal");
        s.close("td");
        const doc = ctx.m.docs[d]!;
        if (s.withText) s.el("td", undefined, doc.kind === "dataset" ? `${ctx.m.datasets[doc.ref]!.files.length} files` : `${childrenIn(ctx.m, ctx.v.tree, d).length} datasets`);
        s.close("tr");
      }
      s.close("table");
      s.open("p");
      s.a(`${githubUrl(ctx.m)}/tree/main/doc/source/datasets/data`, "The data files on GitHub", "reference external");
      s.close("p");
      s.close("section");
    },
  };
}

/** Sphinx-Gallery's footer (one download box per archive, then its signature); closes the page's section. */
function galleryFooter(s: HtmlSink, ctx: PageCtx, kind: string, id: string | undefined, downloads: Array<[format: string, download: number, label: string]>): void {
  s.open("div", `sphx-glr-footer ${kind}`, id);
  for (const [format, download, label] of downloads) {
    s.open("div", `sphx-glr-download sphx-glr-download-${format}`);
    downloadLink(s, ctx, download, label);
    s.close("div");
  }
  s.close("div");
  s.open("p", "sphx-glr-signature");
  s.a("https://sphinx-gallery.github.io", "Gallery generated by Sphinx-Gallery", "reference external");
  s.close("p");
  s.close("section");
}
