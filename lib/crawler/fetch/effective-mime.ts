/**
 * The MIME type a response is treated as. Download scripts (`download.php?id=12`,
 * `/bitstream/…`, `GetFile.aspx?…`) often send their files as `application/octet-stream` (or
 * `application/force-download`, or no Content-Type at all) and name them in a
 * Content-Disposition: `attachment; filename="population-2024.xlsx"`. A browser saves that file
 * as a spreadsheet; the crawler should count it as one, or a target list without
 * `application/octet-stream` (the "data files" preset) would drop it, and an image served that
 * way would be downloaded whole.
 *
 * Only a generic declared type is refined (and `text/plain`, to a text data format only), from
 * the Content-Disposition file name, else the URL's last path segment, and only to a type this
 * table knows; `text/html` only when the Content-Disposition says `attachment` and names the file;
 * any other Content-Type is kept as the server sent it. The raw header stays in the stored
 * response headers.
 */
const GENERIC_MIME_TYPES: ReadonlySet<string> = new Set([
  "",
  "application/octet-stream",
  "binary/octet-stream",
  "application/force-download",
  "application/x-download",
  "application/download",
  "application/unknown",
  "application/x-unknown",
]);

/** Lower-case extension → the MIME type servers send for it (the paper's target list spelling where it has one). */
const MIME_BY_EXTENSION: ReadonlyMap<string, string> = new Map([
  ["csv", "text/csv"],
  ["tsv", "text/tab-separated-values"],
  ["txt", "text/plain"],
  ["json", "application/json"],
  ["geojson", "application/geo+json"],
  ["xml", "application/xml"],
  ["rdf", "application/rdf+xml"],
  ["rss", "application/rss+xml"],
  ["yaml", "application/yaml"],
  ["yml", "application/yaml"],
  ["xls", "application/vnd.ms-excel"],
  ["xlsx", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"],
  ["xlsm", "application/vnd.ms-excel.sheet.macroenabled.12"],
  ["ods", "application/vnd.oasis.opendocument.spreadsheet"],
  ["parquet", "application/vnd.apache.parquet"],
  ["pdf", "application/pdf"],
  ["doc", "application/msword"],
  ["docx", "application/vnd.openxmlformats-officedocument.wordprocessingml.document"],
  ["dotx", "application/vnd.openxmlformats-officedocument.wordprocessingml.template"],
  ["ppt", "application/vnd.ms-powerpoint"],
  ["pptx", "application/vnd.openxmlformats-officedocument.presentationml.presentation"],
  ["odt", "application/vnd.oasis.opendocument.text"],
  ["odp", "application/vnd.oasis.opendocument.presentation"],
  ["zip", "application/zip"],
  ["gz", "application/x-gzip"],
  ["tgz", "application/x-gzip"],
  ["tar", "application/x-tar"],
  ["7z", "application/x-7z-compressed"],
  ["rar", "application/vnd.rar"],
  ["htm", "text/html"],
  ["html", "text/html"],
  ["png", "image/png"],
  ["jpg", "image/jpeg"],
  ["jpeg", "image/jpeg"],
  ["gif", "image/gif"],
  ["svg", "image/svg+xml"],
  ["webp", "image/webp"],
  ["mp3", "audio/mpeg"],
  ["mp4", "video/mp4"],
]);

/**
 * Text formats a server without a type for them sends as `text/plain` (GitHub's raw files, web
 * servers whose type table lacks `.csv`): a `.csv` served so is still a CSV.
 */
const TEXT_DATA_EXTENSIONS: ReadonlySet<string> = new Set(["csv", "tsv", "json", "geojson", "xml", "rdf", "yaml", "yml"]);

/** `declared`: the Content-Type without parameters, lower case (parseMime). */
export function effectiveMime(declared: string, url: string, contentDisposition: string | undefined): string {
  // An attachment is saved under its name whatever its type says: an export script that forgot
  // its Content-Type sends PHP's default, text/html.
  if (declared === "text/html") {
    if (!contentDisposition || !/^\s*attachment\b/i.test(contentDisposition)) return declared;
    const extension = extensionOf(dispositionFilename(contentDisposition) ?? "");
    return (extension !== null && MIME_BY_EXTENSION.get(extension)) || declared;
  }
  const plainText = declared === "text/plain";
  if (!plainText && !GENERIC_MIME_TYPES.has(declared)) return declared;
  const extension = extensionOf(dispositionFilename(contentDisposition) ?? lastPathSegment(url));
  if (extension === null || (plainText && !TEXT_DATA_EXTENSIONS.has(extension))) return declared;
  return MIME_BY_EXTENSION.get(extension) ?? declared;
}

/** Lower-case extension of a file name, without the dot; null when it has none. */
function extensionOf(name: string): string | null {
  const dot = name.lastIndexOf(".");
  return dot < 0 ? null : name.slice(dot + 1).toLowerCase();
}

/**
 * The file name of a Content-Disposition: `filename*=UTF-8''…` (RFC 6266/8187) before
 * `filename="…"` or `filename=…`; null when there is none.
 */
export function dispositionFilename(header: string | undefined): string | null {
  if (!header) return null;
  const extended = /filename\*\s*=\s*[^']*'[^']*'([^;]+)/i.exec(header)?.[1];
  if (extended) {
    try {
      return decodeURIComponent(extended.trim());
    } catch {
      // Badly encoded: fall back to the plain parameter.
    }
  }
  const plain = /filename\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;]+))/i.exec(header);
  const value = plain?.[1]?.replace(/\\(.)/g, "$1") ?? plain?.[2];
  return value ? value.trim() : null;
}

function lastPathSegment(url: string): string {
  const path = url.replace(/[?#].*$/, "");
  return path.slice(path.lastIndexOf("/") + 1);
}

/** The MIME type a URL's last path segment names by its extension (`…/download/table.csv`), or undefined. */
export function mimeOfUrlPath(url: string): string | undefined {
  const extension = extensionOf(lastPathSegment(url));
  return extension === null ? undefined : MIME_BY_EXTENSION.get(extension);
}

/** The MIME type a file with this extension (without the dot, any case) is served as, or undefined. */
export function mimeOfExtension(extension: string): string | undefined {
  return MIME_BY_EXTENSION.get(extension.toLowerCase());
}
