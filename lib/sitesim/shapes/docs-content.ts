/**
 * Documentation site: blocks the page bodies are made of. Headings with their "¶"/"#"
 * permalinks, code cells, cross-references to API objects (rendered as plain code when
 * the object does not exist in the version, as Sphinx does with unresolved references;
 * the French translation links the English API through intersphinx), references into
 * Python's and NumPy's documentation, download links, figures and toctree lists.
 */
import type { HtmlSink } from "../html-sink";
import { hash32, Rng } from "../random";
import { paragraph, slugify } from "../text";
import { downloadPath } from "./docs-files";
import { AUTOSUMMARY_ORD, downloadIn, objectIn } from "./docs-model";
import { docLink, docPath, rel, type PageCtx } from "./docs-urls";

const SECTION_WORDS = [
  "Overview", "Basic usage", "Reading data", "Writing data", "Selecting columns", "Filtering rows", "Options", "Parameters explained",
  "Performance considerations", "Handling missing values", "Working with dates", "Grouping", "Aggregation", "Weights", "Examples",
  "Advanced usage", "Configuration", "Common pitfalls", "Under the hood", "Compatibility", "Migrating from older versions",
  "Output formats", "Metadata", "Validation", "Plotting the result", "Next steps", "Summary", "Further reading",
];

/** `n` distinct section titles with their ids (`[id, title]`), from a page's Rng. */
export function sectionTitles(r: Rng, n: number): Array<readonly [string, string]> {
  const out: Array<readonly [string, string]> = [];
  const used = new Set<string>();
  while (out.length < n) {
    const title = r.pick(SECTION_WORDS);
    if (used.has(title)) continue;
    used.add(title);
    out.push([slugify(title), title]);
  }
  return out;
}

/** `<section id><hN>title<a class="headerlink" href="#id">¶</a></hN>`; close with `s.close("section")`. */
export function heading(s: HtmlSink, ctx: PageCtx, level: number, id: string, title: string): void {
  s.open("section", undefined, id);
  s.open(`h${level}`);
  s.text(title);
  s.a(`#${id}`, ctx.v.theme === "pydata" ? "#" : "¶", "headerlink", `title="Link to this heading"`);
  s.close(`h${level}`);
}

export function code(s: HtmlSink, seed: number, lines: number): void {
  if (!s.withText) return;
  const r = new Rng(seed);
  const body: string[] = [];
  for (let i = 0; i < lines; i++) body.push(`&gt;&gt;&gt; t${i} = tb.read_table("data_${r.int(90)}.csv").groupby("region").sum()`);
  s.raw(`<div class="highlight-python notranslate"><div class="highlight"><pre>${body.join("\n")}</pre></div></div>`);
}

export function para(s: HtmlSink, seed: number, words: number): void {
  if (s.withText) s.el("p", undefined, paragraph(seed, words));
}

/** The page a reference to object `id` points to in this version (the fragment is `#<dotted name>`); null when it does not resolve. */
export function objectHref(ctx: PageCtx, id: number): string | null {
  const { m, v } = ctx;
  const o = m.objects[id]!;
  if (!objectIn(m, id, v.ord)) return null;
  return docPath(m, v, v.ord >= AUTOSUMMARY_ORD ? o.doc : m.modules[o.module]!.doc);
}

/** A cross-reference to an API object (`:func:`, `:class:`, `:meth:`). */
export function xref(s: HtmlSink, ctx: PageCtx, id: number): void {
  const o = ctx.m.objects[id]!;
  const label = o.kind === "class" ? o.short : `${o.short}()`;
  if (ctx.v.lang === "fr") {
    // The translation has no API pages: intersphinx points at the English development docs.
    if (objectIn(ctx.m, id, 4)) s.siteA(`/en/latest/reference/api/${o.full}.html#${o.full}`, label, "absolute", "reference external");
    else s.el("code", "xref py docutils literal notranslate", label);
    return;
  }
  const href = objectHref(ctx, id);
  if (href === null) s.el("code", "xref py docutils literal notranslate", label);
  else rel(s, ctx, href, label, "reference internal", `title="${o.full}"`, s.withText ? `#${o.full}` : "");
}

const INTERSPHINX: ReadonlyArray<readonly [string, string]> = [
  ["str", "https://docs.python.org/3/library/stdtypes.html#str"],
  ["int", "https://docs.python.org/3/library/functions.html#int"],
  ["dict", "https://docs.python.org/3/library/stdtypes.html#dict"],
  ["pathlib.Path", "https://docs.python.org/3/library/pathlib.html#pathlib.Path"],
  ["numpy.ndarray", "https://numpy.org/doc/stable/reference/generated/numpy.ndarray.html#numpy.ndarray"],
  ["numpy.dtype", "https://numpy.org/doc/stable/reference/generated/numpy.dtype.html#numpy.dtype"],
  ["pandas.DataFrame", "https://pandas.pydata.org/docs/reference/api/pandas.DataFrame.html#pandas.DataFrame"],
  ["matplotlib.axes.Axes", "https://matplotlib.org/stable/api/_as_gen/matplotlib.axes.Axes.html#matplotlib.axes.Axes"],
];

export const INTERSPHINX_COUNT = INTERSPHINX.length;

/** Reference `k` into another project's documentation (another host). */
export function extRef(s: HtmlSink, k: number): void {
  const [label, href] = INTERSPHINX[k % INTERSPHINX.length]!;
  s.a(href, label, "reference external");
}

/** A `:download:` link to `_downloads/<hash>/<name>`; plain text when the file is not in this build. */
export function downloadLink(s: HtmlSink, ctx: PageCtx, id: number, label?: string): void {
  const d = ctx.m.downloads[id]!;
  if (!downloadIn(ctx.m, id, ctx.v.ord)) return;
  rel(s, ctx, downloadPath(ctx.m, ctx.v, id), label ?? d.name, "reference download internal", `download=""`);
}

/** A figure whose image links to the full-size file (`:target:`): a PNG link crawlers skip. */
export function figure(s: HtmlSink, ctx: PageCtx, name: string, alt: string): void {
  const src = `${ctx.v.prefix}_images/${name}`;
  s.open("figure", "align-default");
  rel(s, ctx, src, alt, "reference internal image-reference");
  s.close("figure");
}

/** A toctree list of `docs` (a section's contents). */
export function toctreeList(s: HtmlSink, ctx: PageCtx, docs: readonly number[], caption?: string): void {
  s.open("div", "toctree-wrapper compound");
  if (caption) s.el("p", "caption", caption);
  s.open("ul");
  for (const d of docs) {
    s.open("li", "toctree-l1");
    docLink(s, ctx, d, ctx.m.docs[d]!.title);
    s.close("li");
  }
  s.close("ul");
  s.close("div");
}

/** Seed of a page's addressed randomness: the same in every version. */
export function pageSeed(ctx: PageCtx, salt: number): number {
  return hash32(ctx.m.seed, salt, ctx.doc);
}

/** A GitHub issue reference (`:issue:`), on another host. */
export function issue(s: HtmlSink, ctx: PageCtx, n: number): void {
  s.a(`https://github.com/${ctx.m.project.org}/${ctx.m.project.name}/issues/${n}`, `GH${n}`, "reference external");
}
