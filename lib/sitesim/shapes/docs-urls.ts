/**
 * Documentation site: addresses. Sphinx writes every internal link relative to the
 * page's own file (`../reference/api/tabula.io.read_csv.html#tabula.io.read_csv`);
 * the `html` builder names pages `<doc>.html`, the older `dirhtml` builder `<doc>/`.
 * Pages render through a context that knows its version and the file it is written
 * from; in links mode the absolute path is recorded directly (the HTML/links unit test
 * checks that the relative spelling resolves to it).
 */
import type { HtmlSink } from "../html-sink";
import { docName, type DocsModel, type DocVersion } from "./docs-model";

/** What a page is rendered from. */
export interface PageCtx {
  m: DocsModel;
  v: DocVersion;
  /** Absolute path of the page's file: relative links are written from its directory. */
  base: string;
  /** Document id, or -1 for generated pages (general index, module index, search). */
  doc: number;
  /** Name of a generated page ("genindex", "genindex-A", "py-modindex", "search"); "" for documents. */
  special: string;
  title: string;
}

/** A document's URI relative to the version root, as the version's builder names it. */
export function builderUri(v: DocVersion, name: string): string {
  if (v.builder === "html") return `${name}.html`;
  if (name === "index") return "";
  return name.endsWith("/index") ? name.slice(0, -5) : `${name}/`;
}

/**
 * Absolute path of the file document `d` is written to, as the version's own pages link
 * it (`/en/stable/index.html` for the root document of an `html` build).
 */
export function docPath(m: DocsModel, v: DocVersion, d: number): string {
  return (v.pathCache[d] ??= v.prefix + builderUri(v, docName(m.docs[d]!, v.ord)));
}

/** The address other versions and Read the Docs use: the version root for the root document. */
export function canonicalPath(m: DocsModel, v: DocVersion, d: number): string {
  return d === 0 ? v.prefix : docPath(m, v, d);
}

/** Absolute path of a generated page ("genindex", "genindex-A", "py-modindex", "search"). */
export function specialPath(v: DocVersion, name: string): string {
  return v.prefix + (v.builder === "html" ? `${name}.html` : `${name}/`);
}

/**
 * Sphinx's `relative_uri`: the shortest relative spelling of `to` from the page file `base`
 * (common directories dropped, one `../` per remaining directory of `base`; "" for the
 * file itself, "./" for its own directory). Scans characters instead of splitting: it runs
 * for every link of every served page.
 */
export function relativeUri(base: string, to: string): string {
  const hash = to.indexOf("#");
  const frag = hash < 0 ? "" : to.slice(hash);
  const end = hash < 0 ? to.length : hash;
  let slash = -1;
  for (let i = 0, n = Math.min(base.length, end); i < n && base.charCodeAt(i) === to.charCodeAt(i); i++) if (base.charCodeAt(i) === 47) slash = i;
  let up = 0;
  for (let i = slash + 1; i < base.length; i++) if (base.charCodeAt(i) === 47) up++;
  const rest = to.slice(slash + 1, end);
  if (up === 0 && rest === base.slice(slash + 1)) return frag;
  if (up === 0 && rest === "") return "./" + frag;
  return "../".repeat(up) + rest + frag;
}

/** An internal link to `to` (a path) and `frag` ("" or "#id"), written relative to the page (Sphinx's way). */
export function rel(s: HtmlSink, ctx: PageCtx, to: string, label: string, cls?: string, attrs?: string, frag = ""): void {
  // A link to the page's own file is "" or "#frag": it resolves to whatever URL served the page.
  if (to === ctx.base) s.a(frag, label, cls, attrs);
  else if (s.withText) s.a(relativeUri(ctx.base, to) + frag, label, cls, attrs);
  else s.siteA(to, label, "path");
}

/** Link to another document of the same version. */
export function docLink(s: HtmlSink, ctx: PageCtx, d: number, label: string, cls = "reference internal", frag = ""): void {
  if (d === ctx.doc) s.a(frag, label, cls);
  else if (s.withText) s.a(relativeUri(ctx.base, docPath(ctx.m, ctx.v, d)) + frag, label, cls);
  else s.siteA(docPath(ctx.m, ctx.v, d), label, "path");
}

/** Project-level links on other hosts. */
export function githubUrl(m: DocsModel): string {
  return `https://github.com/${m.project.org}/${m.project.name}`;
}
