/**
 * What the script-built shapes share: their file catalogue (CSV, XLSX, PDF under `/files/…`),
 * the plain-HTML home page, the empty shells whose scripts render the links, the JSON records
 * the APIs answer with, and the model every shape builds.
 *
 * A shape answers each route twice: as served (a shell: no link but "home") and as rendered
 * (the links its DOM holds once the scripts ran and every "Load more" / scroll was done). The
 * second is what the rendered ground truth walks (truth.ts); the first is what `respond()` sends.
 */
import type { HtmlSink } from "../html-sink";
import { hash32, Rng } from "../random";
import { topicName, slugify, headline } from "../text";
import { FORMATS, type FormatName } from "../formats";
import { Query, type FileRef, type Resource, type ShapeModel } from "../types";

/** A page that never lets a browser settle: its main thread spins, or it polls the server forever. */
export interface NeverIdlePage {
  path: string;
  behaviour: "spins" | "polls";
}

/** A built script-built shape. */
export interface ScriptedModel extends ShapeModel {
  /** The resource as a browser leaves it: shells render the links their scripts add (all batches loaded). */
  routeRendered(path: string, query: Query): Resource;
  /** Pages that never become idle (never-ending). */
  readonly neverIdle: readonly NeverIdlePage[];
}

/**
 * A script-built shape's model from its router: `route(path, query, rendered)` answers as the
 * server does (`rendered` false) or as a browser leaves the page once its scripts ran.
 */
export function scriptedModel(
  siteName: string,
  notFound: ShapeModel["notFound"],
  route: (path: string, query: Query, rendered: boolean) => Resource,
  neverIdle: readonly NeverIdlePage[] = [],
): ScriptedModel {
  return {
    siteName,
    trapPrefixes: [],
    disallow: [],
    neverIdle,
    notFound,
    route: (path, query) => route(path, query, false),
    routeRendered: (path, query) => route(path, query, true),
  };
}

/** One target file of a shape. */
export interface CatalogueFile {
  title: string;
  /** Root-relative URL, `/files/<group>/<n>-<k>.<ext>`. */
  path: string;
  ref: FileRef;
}

const FILE_FORMATS: readonly FormatName[] = ["csv", "xlsx", "pdf"];

/** File `k` of item `n` in group `group` (a section, listing or page slug). Pure in its arguments. */
export function catalogueFile(seed: number, group: string, n: number, k: number): CatalogueFile {
  const h = hash32(seed, 0x5c41f7, hashString(group), n * 64 + k);
  const format = FILE_FORMATS[h % FILE_FORMATS.length] as FormatName;
  const ext = format;
  return {
    title: `${headline(h)} (${ext.toUpperCase()})`,
    path: `/files/${group}/${n}-${k}.${ext}`,
    // Small files (the format's smallest sizes): these sites exist to test rendering, not downloads.
    ref: { format, bytes: new Rng(h).logUniform(FORMATS[format].minBytes, 3 * FORMATS[format].minBytes), seed: h },
  };
}

/** 32-bit FNV-1a of a string: group slugs into the hash of a file. */
export function hashString(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** `count` distinct section names and slugs drawn for `seed`. */
export function drawSections(seed: number, salt: number, count: number): Array<{ name: string; slug: string }> {
  const rng = new Rng(hash32(seed, salt));
  const first = rng.int(1000);
  return Array.from({ length: count }, (_, i) => {
    const name = topicName(first + i * 7);
    return { name, slug: slugify(name) };
  });
}

/** The API's record of a file. */
export function fileRecord(file: CatalogueFile): { title: string; format: string; bytes: number; download_url: string } {
  return { title: file.title, format: file.ref.format.toUpperCase(), bytes: file.ref.bytes, download_url: file.path };
}

/** Route of `/files/<group>/<n>-<k>.<ext>` given a lookup of the group's files; `missing` otherwise. */
export function routeFile(path: string, lookup: (group: string, n: number, k: number) => CatalogueFile | undefined): Resource {
  const m = /^\/files\/([a-z0-9-]+)\/(0|[1-9][0-9]{0,5})-(0|[1-9][0-9]?)\.([a-z]+)$/.exec(path);
  if (!m) return { kind: "missing" };
  const file = lookup(m[1]!, Number(m[2]), Number(m[3]));
  return file && file.path === path ? { kind: "file", file: file.ref } : { kind: "missing" };
}

export const JSON_TYPE = "application/json; charset=utf-8";
export const SCRIPT_TYPE = "application/javascript; charset=utf-8";

export function json(body: unknown): Resource {
  return { kind: "json", status: 200, contentType: JSON_TYPE, body: () => body };
}

export function script(body: string): Resource {
  return { kind: "text", contentType: SCRIPT_TYPE, body };
}

const STYLE = "body{font-family:sans-serif;margin:0 2em}header{padding:1em 0;border-bottom:1px solid #ccc}li{margin:.3em 0}";

function head(sink: HtmlSink, title: string, extraStyle = ""): void {
  sink.raw(`<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">`);
  sink.el("title", undefined, title);
  sink.raw(`<style>${STYLE}${extraStyle}</style></head><body><header><nav>`);
}

/** The plain-HTML home page: a paragraph and links to each section (served and rendered alike). */
export function homePage(siteName: string, intro: string, links: ReadonlyArray<{ href: string; label: string }>): Resource {
  return {
    kind: "page",
    render: (sink) => {
      head(sink, siteName);
      sink.a("/", siteName);
      sink.raw("</nav></header><main>");
      sink.el("h1", undefined, siteName);
      sink.el("p", undefined, intro);
      sink.open("ul", "sections");
      for (const link of links) {
        sink.open("li");
        sink.a(link.href, link.label);
        sink.close("li");
      }
      sink.raw("</ul></main></body></html>\n");
    },
  };
}

/** How a shell looks before its script runs: an empty framework root, optional notice and data island. */
export interface ShellLook {
  /** The empty root element, e.g. `<div id="app"></div>`. */
  root: string;
  noscript?: string;
  /** A JSON data island (`<script type="application/json">`), holding no URL of a target. */
  island?: string;
  extraStyle?: string;
}

/**
 * A script-built page. Served: the head, a "home" link in the header, the empty root and the
 * script tag. Rendered: the same "home" link, then `renderedLinks` in DOM order.
 */
export function shellPage(title: string, siteName: string, look: ShellLook, scriptPath: string, renderedLinks: () => readonly string[], rendered: boolean): Resource {
  if (rendered) {
    return {
      kind: "page",
      render: (sink) => {
        sink.a("/", siteName);
        for (const href of renderedLinks()) sink.a(href, href);
      },
    };
  }
  return {
    kind: "page",
    render: (sink) => {
      head(sink, `${title} – ${siteName}`, look.extraStyle);
      sink.a("/", siteName);
      sink.raw(`</nav></header><main>${look.root}</main>`);
      if (look.noscript) sink.raw(`<noscript>${look.noscript}</noscript>`);
      if (look.island) sink.raw(look.island);
      sink.raw(`<script src="${scriptPath}"></script></body></html>\n`);
    },
  };
}

/** Splits "/a/b?c=d" into what `ShapeModel.route` takes. */
export function splitPathAndQuery(pathAndQuery: string): { path: string; query: Query } {
  const noHash = pathAndQuery.split("#")[0]!;
  const q = noHash.indexOf("?");
  return q < 0 ? { path: noHash, query: new Query("") } : { path: noHash.slice(0, q), query: new Query(noHash.slice(q + 1)) };
}

/** A non-negative decimal integer without leading zeros (`offset=0` is valid); NaN otherwise. */
export function nonNegative(value: string | undefined): number {
  return value !== undefined && /^(0|[1-9][0-9]{0,6})$/.test(value) ? Number(value) : Number.NaN;
}

/** The 404 body every scripted shape uses. */
export function notFound(sink: HtmlSink): void {
  sink.raw(`<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>Not found</title></head><body><header><nav>`);
  sink.a("/", "Home");
  sink.raw("</nav></header><main><h1>Page not found</h1></main></body></html>\n");
}
