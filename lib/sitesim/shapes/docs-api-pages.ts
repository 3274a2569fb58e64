/**
 * Documentation site: API reference bodies. From 2.0 on, a module page is an autosummary
 * table linking one page per function and class, and a class page a table of its methods'
 * pages; object pages carry the signature (its "[source]" link goes to GitHub), typed
 * parameters, "See also" cross-references and the gallery examples that use the object.
 * Before 2.0 the module page documented every object inline (`automodule`), so references
 * point at `#<dotted name>` anchors of the module page.
 */
import type { HtmlSink } from "../html-sink";
import { hash32, Rng } from "../random";
import { paragraph } from "../text";
import type { PageBody } from "./docs-chrome";
import { code, extRef, heading, INTERSPHINX_COUNT, objectHref, pageSeed, para, xref } from "./docs-content";
import { exampleLink } from "./docs-gallery";
import { AUTOSUMMARY_ORD, childrenIn, objectIn, type ApiObject } from "./docs-model";
import { githubUrl, rel, type PageCtx } from "./docs-urls";

const PARAMS = ["path", "data", "columns", "index", "weights", "by", "how", "axis", "sep", "encoding", "dtype", "na_values", "level", "freq", "method", "errors", "region", "period"];

/** One-line summary of an object ("" in links mode, where text is skipped). */
function summary(s: HtmlSink, ctx: PageCtx, id: number): string {
  return s.withText ? paragraph(hash32(ctx.m.seed, 0x50b, id), 9) : "";
}

/** A parameter and its type: one of the project's classes, or an intersphinx type (index into INTERSPHINX). */
interface Param {
  name: string;
  cls: number;
  ext: number;
}

/** An object's parameters, the same in every version. */
function paramsOf(ctx: PageCtx, o: ApiObject, r: Rng): Param[] {
  const out: Param[] = [];
  for (let k = 0, n = o.kind === "class" ? 1 + r.int(3) : r.int(5); k < n; k++) {
    const name = r.pick(PARAMS);
    const cls = ctx.m.classIds.length > 0 && r.chance(0.4) ? ctx.m.classIds[r.int(ctx.m.classIds.length)]! : -1;
    const ext = r.int(INTERSPHINX_COUNT);
    if (!out.some((p) => p.name === name)) out.push({ name, cls, ext });
  }
  return out;
}

/** The `<dt>` of an object: dotted prefix, name, parameters, "[source]" and the permalink. */
function signature(s: HtmlSink, ctx: PageCtx, o: ApiObject, params: readonly Param[], r: Rng): void {
  s.open("dt", "sig sig-object py", o.full);
  s.el("span", "sig-prename descclassname", o.full.slice(0, o.full.length - o.short.length));
  s.el("span", "sig-name descname", o.short);
  if (s.withText) s.text(`(${params.map((p) => p.name).join(", ")})`);
  const line = 20 + r.int(1800);
  const file = o.full.split(".").slice(0, 2).join("/");
  s.a(`${githubUrl(ctx.m)}/blob/v${ctx.v.release.replace(/\.dev.*$/, "")}/${file}.py#L${line}-L${line + 10 + r.int(120)}`, "[source]", "reference external");
  s.a(`#${o.full}`, ctx.v.theme === "pydata" ? "#" : "¶", "headerlink", `title="Link to this definition"`);
  s.close("dt");
}

/** Description, parameters, "See also" and notes of an object, drawn from its seed. */
function description(s: HtmlSink, ctx: PageCtx, o: ApiObject, id: number, params: readonly Param[]): void {
  const { m } = ctx;
  const r = new Rng(hash32(m.seed, 0xde5, id));
  const seeAlso = Array.from({ length: r.int(4) }, () => r.int(m.objects.length));
  s.open("dd");
  s.el("p", undefined, summary(s, ctx, id));
  para(s, hash32(m.seed, 0xde6, id), 40);
  if (o.since > 0 && o.since < 5) s.el("div", "versionadded", `New in version ${["1.8", "1.9", "2.0", "2.1", "2.2"][o.since]}.`);
  if (o.until < 5 && ctx.v.ord === o.until - 1) s.el("div", "deprecated", "Deprecated: this will be removed in the next release.");
  if (params.length > 0) {
    s.open("dl", "field-list simple");
    s.el("dt", "field-odd", "Parameters");
    s.open("dd", "field-odd");
    s.open("ul", "simple");
    params.forEach((p, k) => {
      s.open("li");
      s.el("strong", undefined, p.name);
      s.text(" (");
      if (p.cls >= 0) xref(s, ctx, p.cls);
      else extRef(s, p.ext);
      s.text(") – ");
      if (s.withText) s.text(paragraph(hash32(m.seed, 0x9a7, id, k), 8));
      s.close("li");
    });
    s.close("ul");
    s.close("dd");
    s.close("dl");
  }
  if (seeAlso.length > 0) {
    s.open("div", "admonition seealso");
    s.el("p", "admonition-title", "See also");
    for (const t of seeAlso) {
      s.open("dl", "simple");
      s.open("dt");
      xref(s, ctx, t);
      s.close("dt");
      s.el("dd", undefined, summary(s, ctx, t));
      s.close("dl");
    }
    s.close("div");
  }
  code(s, hash32(m.seed, 0xe8a, id), 2);
  s.close("dd");
}

/** "Examples using …" mini-gallery (sphinx-gallery backreferences), from 2.0 on. */
function usedBy(s: HtmlSink, ctx: PageCtx, id: number): void {
  const examples = ctx.m.examplesUsing.get(id);
  if (!examples || ctx.v.ord < AUTOSUMMARY_ORD) return;
  s.el("p", "rubric", `Examples using ${ctx.m.objects[id]!.full}`);
  for (const e of examples) exampleLink(s, ctx, e);
}

function autosummary(s: HtmlSink, ctx: PageCtx, ids: readonly number[]): void {
  s.open("table", "autosummary longtable table");
  for (const id of ids) {
    s.open("tr");
    s.open("td");
    const href = objectHref(ctx, id);
    const o = ctx.m.objects[id]!;
    if (href !== null) rel(s, ctx, href, o.short, "reference internal", `title="${o.full}"`, s.withText ? `#${o.full}` : "");
    s.close("td");
    s.el("td", undefined, summary(s, ctx, id));
    s.close("tr");
  }
  s.close("table");
}

function inline(s: HtmlSink, ctx: PageCtx, id: number): void {
  const o = ctx.m.objects[id]!;
  s.open("dl", `py ${o.kind}`);
  entry(s, ctx, o, id);
  s.close("dl");
}

/** Signature and description of an object. */
function entry(s: HtmlSink, ctx: PageCtx, o: ApiObject, id: number): void {
  const r = new Rng(hash32(ctx.m.seed, 0x516, id));
  const params = paramsOf(ctx, o, r);
  signature(s, ctx, o, params, r);
  description(s, ctx, o, id, params);
}

export function moduleBody(s: HtmlSink, ctx: PageCtx): PageBody {
  const { m, v } = ctx;
  const mi = m.docs[ctx.doc]!.ref;
  const mod = m.modules[mi]!;
  const top = m.docs[ctx.doc]!.children.map((d) => m.docs[d]!.ref).filter((id) => objectIn(m, id, v.ord));
  const functions = top.filter((id) => m.objects[id]!.kind === "function");
  const classes = top.filter((id) => m.objects[id]!.kind === "class");
  const sections: Array<readonly [string, string]> = [];
  if (functions.length > 0) sections.push(["functions", "Functions"]);
  if (classes.length > 0) sections.push(["classes", "Classes"]);
  return {
    sections,
    render: () => {
      heading(s, ctx, 1, mod.full.replace(/\./g, "-"), mod.title);
      s.raw(`<span class="target" id="module-${mod.full}"></span>`);
      para(s, pageSeed(ctx, 0x30d), 50);
      for (const [id, title] of sections) {
        const ids = id === "functions" ? functions : classes;
        heading(s, ctx, 2, id, title);
        if (v.ord >= AUTOSUMMARY_ORD) autosummary(s, ctx, ids);
        else {
          for (const o of ids) {
            inline(s, ctx, o);
            // automodule with :members: documents methods inside their class.
            if (id === "classes") for (const d of m.docs[m.objects[o]!.doc]!.children) if (objectIn(m, m.docs[d]!.ref, v.ord)) inline(s, ctx, m.docs[d]!.ref);
          }
        }
        s.close("section");
      }
      s.close("section");
    },
  };
}

/** A function, class or method page. */
export function objectBody(s: HtmlSink, ctx: PageCtx): PageBody {
  const { m } = ctx;
  const id = m.docs[ctx.doc]!.ref;
  const o = m.objects[id]!;
  const methods = o.kind === "class" ? childrenIn(m, ctx.v.tree, ctx.doc).map((d) => m.docs[d]!.ref) : [];
  const sections: Array<readonly [string, string]> = [[o.full, o.short]];
  if (methods.length > 0) sections.push(["methods", "Methods"]);
  return {
    sections,
    render: () => {
      heading(s, ctx, 1, o.full.replace(/[._]/g, "-").toLowerCase(), o.full);
      s.open("dl", `py ${o.kind}`);
      entry(s, ctx, o, id);
      s.close("dl");
      if (methods.length > 0) {
        s.el("p", "rubric", "Methods");
        s.raw(`<span id="methods"></span>`);
        autosummary(s, ctx, methods);
      }
      usedBy(s, ctx, id);
      s.close("section");
    },
  };
}
