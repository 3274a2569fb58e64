/**
 * Documentation site: the files behind the pages. Sphinx copies `:download:` files to
 * `_downloads/<md5 of the source path>/<name>` in every build, so each version has its
 * own copy; page sources go to `_sources/<doc>.rst.txt` when the build keeps them; theme
 * assets to `_static/`, figures to `_images/`. Read the Docs serves each version's
 * offline formats at the extension-less `/_/downloads/<lang>/<version>/<format>/`, with
 * a Content-Disposition naming the file.
 */
import { fileBytes, type FormatName } from "../formats";
import { hash32, hashString } from "../random";
import type { FileRef } from "../types";
import { docName, type DocsModel, type DocVersion } from "./docs-model";

export type OfflineFormat = "pdf" | "htmlzip" | "epub";

export const OFFLINE_LABELS: Readonly<Record<OfflineFormat, string>> = { pdf: "PDF", htmlzip: "HTML", epub: "Epub" };

/** Versions deleted from Read the Docs whose offline files are still linked. */
export const DELETED_VERSIONS: readonly string[] = ["v1.7", "v1.6", "v1.5"];

export function downloadPath(m: DocsModel, v: DocVersion, id: number): string {
  const d = m.downloads[id]!;
  return `${v.prefix}_downloads/${d.hash}/${d.name}`;
}

export function downloadFile(m: DocsModel, id: number): FileRef {
  const d = m.downloads[id]!;
  return { format: d.format, bytes: fileBytes(d.format, d.seed), seed: d.seed };
}

export function offlinePath(lang: string, slug: string, format: OfflineFormat): string {
  return `/_/downloads/${lang}/${slug}/${format}/`;
}

export function offlineFile(m: DocsModel, v: DocVersion, format: OfflineFormat): FileRef {
  const seed = hash32(m.seed, 0x0ff, hashString(v.prefix), format.length);
  const f: FormatName = format === "htmlzip" ? "zip" : format;
  const ext = format === "htmlzip" ? "zip" : format;
  return { format: f, bytes: fileBytes(f, seed), seed, filename: `${m.project.name}-readthedocs-io-${v.lang}-${v.slug}.${ext}` };
}

/** `_sources/<doc>.rst.txt` (`.ipynb.txt` for notebook tutorials). */
export function sourcePath(m: DocsModel, v: DocVersion, d: number): string {
  const doc = m.docs[d]!;
  return `${v.prefix}_sources/${docName(doc, v.ord)}.${doc.kind === "tutorial" ? "ipynb" : "rst"}.txt`;
}

export function sourceFile(m: DocsModel, v: DocVersion, d: number): FileRef {
  const seed = hash32(m.seed, 0x5c, d, v.ord);
  return { format: "rst", bytes: fileBytes("rst", seed), seed };
}

/** Theme assets per theme: path under `_static/` → format. */
const STATIC: Readonly<Record<"pydata" | "rtd", Readonly<Record<string, FormatName>>>> = {
  pydata: {
    "styles/theme.css": "css", "styles/pydata-sphinx-theme.css": "css", "pygments.css": "css", "sg_gallery.css": "css",
    "scripts/bootstrap.js": "js", "scripts/pydata-sphinx-theme.js": "js", "documentation_options.js": "js", "doctools.js": "js",
    "sphinx_highlight.js": "js", "searchtools.js": "js", "logo.png": "png", "favicon.png": "png",
  },
  rtd: {
    "css/theme.css": "css", "pygments.css": "css", "sg_gallery.css": "css", "js/theme.js": "js", "jquery.js": "js",
    "documentation_options.js": "js", "doctools.js": "js", "sphinx_highlight.js": "js", "searchtools.js": "js", "logo.png": "png", "favicon.png": "png",
  },
};

export const STYLESHEETS: Readonly<Record<"pydata" | "rtd", readonly string[]>> = {
  pydata: ["styles/theme.css", "styles/pydata-sphinx-theme.css", "pygments.css"],
  rtd: ["css/theme.css", "pygments.css"],
};

export const SCRIPTS: Readonly<Record<"pydata" | "rtd", readonly string[]>> = {
  pydata: ["scripts/bootstrap.js", "scripts/pydata-sphinx-theme.js", "documentation_options.js", "doctools.js", "sphinx_highlight.js"],
  rtd: ["jquery.js", "documentation_options.js", "doctools.js", "sphinx_highlight.js", "js/theme.js"],
};

/** A theme asset under `_static/`, or null. */
export function staticFile(m: DocsModel, v: DocVersion, rest: string): FileRef | null {
  const format = STATIC[v.theme][rest];
  if (format === undefined) return null;
  const seed = hash32(m.seed, 0x57a, hashString(rest), v.ord);
  const bytes = fileBytes(format, seed);
  return { format, bytes: format === "png" ? bytes >> 2 : bytes, seed };
}

/** `searchindex.js` at the version root (loaded by the search page). */
export function searchIndexFile(m: DocsModel, v: DocVersion): FileRef {
  const seed = hash32(m.seed, 0x5ea, v.ord);
  return { format: "js", bytes: fileBytes("js", seed), seed };
}

/** A figure or gallery thumbnail under `_images/`, or null. */
export function imageFile(m: DocsModel, name: string): FileRef | null {
  const seed = m.images.get(name);
  return seed === undefined ? null : { format: "png", bytes: fileBytes("png", seed), seed };
}
