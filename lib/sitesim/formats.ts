/**
 * File formats the simulated sites serve, with the Content-Type they are served with
 * and the size range (bytes, log-uniform) of their bodies.
 */
import { Rng } from "./random";

export type FormatName =
  | "csv" | "xlsx" | "xls" | "ods" | "pdf" | "zip" | "json" | "xml" | "doc" | "docx" | "odt" | "txt"
  | "jpg" | "png" | "gif" | "rss" | "ics" | "rdf" | "atom" | "bibtex" | "ris" | "endnote"
  | "rst" | "epub" | "ipynb" | "py" | "css" | "js" | "wikitext"
  | "md" | "rscript" | "yaml" | "toml" | "sql" | "diff" | "targz" | "bundle";

export interface FormatInfo {
  /** Full Content-Type header value (some carry a charset parameter, as real servers send). */
  contentType: string;
  ext: string;
  minBytes: number;
  maxBytes: number;
}

export const FORMATS: Record<FormatName, FormatInfo> = {
  csv: { contentType: "text/csv; charset=utf-8", ext: "csv", minBytes: 1_200, maxBytes: 300_000 },
  xlsx: { contentType: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", ext: "xlsx", minBytes: 8_000, maxBytes: 400_000 },
  xls: { contentType: "application/vnd.ms-excel", ext: "xls", minBytes: 16_000, maxBytes: 300_000 },
  ods: { contentType: "application/vnd.oasis.opendocument.spreadsheet", ext: "ods", minBytes: 6_000, maxBytes: 200_000 },
  pdf: { contentType: "application/pdf", ext: "pdf", minBytes: 24_000, maxBytes: 400_000 },
  zip: { contentType: "application/zip", ext: "zip", minBytes: 16_000, maxBytes: 400_000 },
  json: { contentType: "application/json; charset=utf-8", ext: "json", minBytes: 1_000, maxBytes: 150_000 },
  xml: { contentType: "application/xml", ext: "xml", minBytes: 2_000, maxBytes: 200_000 },
  doc: { contentType: "application/msword", ext: "doc", minBytes: 20_000, maxBytes: 150_000 },
  docx: { contentType: "application/vnd.openxmlformats-officedocument.wordprocessingml.document", ext: "docx", minBytes: 10_000, maxBytes: 150_000 },
  odt: { contentType: "application/vnd.oasis.opendocument.text", ext: "odt", minBytes: 8_000, maxBytes: 100_000 },
  txt: { contentType: "text/plain; charset=utf-8", ext: "txt", minBytes: 1_000, maxBytes: 40_000 },
  jpg: { contentType: "image/jpeg", ext: "jpg", minBytes: 8_000, maxBytes: 120_000 },
  png: { contentType: "image/png", ext: "png", minBytes: 2_000, maxBytes: 60_000 },
  gif: { contentType: "image/gif", ext: "gif", minBytes: 1_000, maxBytes: 20_000 },
  rss: { contentType: "application/rss+xml; charset=utf-8", ext: "xml", minBytes: 4_000, maxBytes: 20_000 },
  ics: { contentType: "text/calendar; charset=utf-8", ext: "ics", minBytes: 400, maxBytes: 1_500 },
  rdf: { contentType: "application/rdf+xml", ext: "rdf", minBytes: 2_000, maxBytes: 20_000 },
  atom: { contentType: "application/atom+xml; charset=utf-8", ext: "xml", minBytes: 4_000, maxBytes: 20_000 },
  bibtex: { contentType: "text/x-bibtex; charset=utf-8", ext: "bib", minBytes: 300, maxBytes: 1_500 },
  ris: { contentType: "application/x-research-info-systems", ext: "ris", minBytes: 300, maxBytes: 1_500 },
  endnote: { contentType: "application/x-endnote-refer", ext: "enw", minBytes: 300, maxBytes: 1_500 },
  /** Sphinx page sources (`_sources/<page>.rst.txt`): plain text, so a target type. */
  rst: { contentType: "text/plain; charset=utf-8", ext: "txt", minBytes: 600, maxBytes: 30_000 },
  epub: { contentType: "application/epub+zip", ext: "epub", minBytes: 60_000, maxBytes: 400_000 },
  ipynb: { contentType: "application/x-ipynb+json", ext: "ipynb", minBytes: 3_000, maxBytes: 80_000 },
  py: { contentType: "text/x-python; charset=utf-8", ext: "py", minBytes: 800, maxBytes: 12_000 },
  css: { contentType: "text/css; charset=utf-8", ext: "css", minBytes: 2_000, maxBytes: 60_000 },
  js: { contentType: "text/javascript; charset=utf-8", ext: "js", minBytes: 1_000, maxBytes: 80_000 },
  /** MediaWiki page source (`index.php?…&action=raw`). */
  wikitext: { contentType: "text/x-wiki; charset=utf-8", ext: "wiki", minBytes: 300, maxBytes: 30_000 },
  /** Source files a code forge serves raw (its `[repository.mimetype_mapping]` names their types). */
  md: { contentType: "text/markdown; charset=utf-8", ext: "md", minBytes: 400, maxBytes: 24_000 },
  rscript: { contentType: "text/x-r; charset=utf-8", ext: "R", minBytes: 600, maxBytes: 16_000 },
  yaml: { contentType: "application/yaml", ext: "yml", minBytes: 200, maxBytes: 4_000 },
  toml: { contentType: "application/toml", ext: "toml", minBytes: 300, maxBytes: 3_000 },
  sql: { contentType: "application/sql", ext: "sql", minBytes: 500, maxBytes: 20_000 },
  /** Commit and pull-request patches (`.patch`, `.diff`). */
  diff: { contentType: "text/x-diff; charset=utf-8", ext: "patch", minBytes: 400, maxBytes: 40_000 },
  /** Source archives that are not ZIP. */
  targz: { contentType: "application/gzip", ext: "tar.gz", minBytes: 8_000, maxBytes: 300_000 },
  bundle: { contentType: "application/octet-stream", ext: "bundle", minBytes: 10_000, maxBytes: 400_000 },
};

/**
 * MIME types that count as targets in ground truth (compare the Content-Type part
 * before `;`, lower-cased). Narrower than the paper's 38-type list on purpose:
 * `application/rdf+xml`, `application/rss+xml`, `application/atom+xml`, `text/calendar`,
 * the citation exports (`text/x-bibtex`, `application/x-research-info-systems`,
 * `application/x-endnote-refer`), e-books (`application/epub+zip`), notebooks
 * (`application/x-ipynb+json`), Python scripts (`text/x-python`), style sheets and scripts
 * (`text/css`, `text/javascript`), wiki page sources (`text/x-wiki`), a forge's source files
 * (`text/markdown`, `text/x-r`, `application/yaml`, `application/toml`, `application/sql`),
 * patches (`text/x-diff`), `.tar.gz` (`application/gzip`) and git bundles
 * (`application/octet-stream`) are served but are not targets, so a crawler configured with this list can be scored exactly.
 */
export const SIM_TARGET_MIME_TYPES: readonly string[] = [
  "text/csv",
  "application/vnd.ms-excel",
  "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  "application/vnd.oasis.opendocument.spreadsheet",
  "application/pdf",
  "application/zip",
  "application/json",
  "application/xml",
  "application/msword",
  "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  "application/vnd.oasis.opendocument.text",
  "text/plain",
];

/** Content-Type without parameters, lower-cased. */
export function mimeOf(contentType: string): string {
  const i = contentType.indexOf(";");
  return (i < 0 ? contentType : contentType.slice(0, i)).trim().toLowerCase();
}

/** Body size of a file: a pure function of format and seed, so ground truth needs no body. */
export function fileBytes(format: FormatName, seed: number): number {
  const f = FORMATS[format];
  return new Rng(seed ^ 0x51ed27).logUniform(f.minBytes, f.maxBytes);
}

/**
 * Extensions a crawler skips without a request (the kit's 168 image/audio/video
 * extensions, ALGORITHM.md appendix), matched on the last path segment, case-insensitively.
 */
export const MEDIA_EXTENSIONS: ReadonlySet<string> = new Set(
  (
    "3g2 3ga 3gp 3gp2 3gpa 3gpp 3gpp2 aac aacp adp aff aif aiff arw asf asx avi avif avifs bmp btif cgm " +
    "cmx cr2 crw dcr djv djvu dng dts dtshd dwg dxf ecelp4800 ecelp7470 ecelp9600 eol erf f4v fbs fh fh4 fh5 " +
    "fh7 fhc flac fli flv fpx fst fvt g3 gif h261 h263 h264 heic heif icns ico ief jfi jfif jfif-tbnl jif " +
    "jpe jpeg jpg jpgm jpgv jpm k25 kar kdc lvp m1v m2a m2v m3a m3u m4a m4b m4p m4r m4u m4v mdi mid midi " +
    "mj2 mjp2 mka mkv mmr mov movie mp2 mp2a mp3 mp4 mp4v mpa mpe mpeg mpg mpg4 mpga mrw mxu nef npx oga " +
    "ogg ogv opus orf pbm pct pcx pef pgm pic pjpg png pnm ppm psd ptx pya pyv qt ra raf ram ras raw " +
    "rgb rlc rmi rmp rw2 rwl snd spx sr2 srf svg svgz tif tiff ts viv wav wax wbmp weba webm webp wm wma " +
    "wmv wmx wvx x3f xbm xif xpm xwd"
  ).split(" "),
);

/** True when the last segment of `path` (query ignored) has a media extension. */
export function hasMediaExtension(path: string): boolean {
  const q = path.indexOf("?");
  const p = q < 0 ? path : path.slice(0, q);
  const seg = p.slice(p.lastIndexOf("/") + 1);
  const dot = seg.lastIndexOf(".");
  return dot >= 0 && MEDIA_EXTENSIONS.has(seg.slice(dot + 1).toLowerCase());
}
