/**
 * Default lists of SB-CLASSIFIER, copied verbatim from the appendix of docs/ALGORITHM.md (the
 * authors' reproducibility kit), and the bounds of one page. Every list is only a default: the
 * crawl settings override each of them. The algorithm's numbers are settings-table.ts.
 */

/**
 * The paper's full target list (38 MIME types). `text/plain`, `application/octet-stream`,
 * `application/xml` and `application/json` make it broad; the cockpit's narrower
 * presets are {@link DATA_FILES_MIME_TYPES} and {@link DOCUMENT_MIME_TYPES}.
 */
export const PAPER_TARGET_MIME_TYPES: readonly string[] = [
  "application/octet-stream",
  "text/csv",
  "application/csv",
  "text/x-csv",
  "application/x-csv",
  "text/x-comma-separated-values",
  "text/comma-separated-values",
  "application/vnd.ms-excel",
  "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  "application/vnd.oasis.opendocument.spreadsheet",
  "application/pdf",
  "application/x-pdf",
  "application/zip",
  "application/x-zip-compressed",
  "application/zip-compressed",
  "application/x-tar",
  "application/x-gtar",
  "application/x-gzip",
  "application/xml",
  "application/json",
  "text/json",
  "application/yaml",
  "text/yaml",
  "text/x-yaml",
  "application/x-yaml",
  "application/msword",
  "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  "application/vnd.openxmlformats-officedocument.wordprocessingml.template",
  "application/vnd.openxmlformats-officedocument.presentationml.presentation",
  "text/plain",
  "application/vnd.oasis.opendocument.text",
  "application/vnd.ms-excel.sheet.macroenabled.12",
  "application/x-7z-compressed",
  "application/vnd.oasis.opendocument.presentation",
  "application/rdf+xml",
  "application/rss+xml",
  "application/vnd.rar",
  "application/x-rar-compressed",
];

/** MIME prefixes whose GET body is aborted as soon as the headers arrive. */
export const DEFAULT_BLOCKED_MIME_PREFIXES: readonly string[] = ["image/", "audio/", "video/"];

/**
 * The kit's 168 image/audio/video extensions, with the leading dot, lower case. Matched
 * case-insensitively on the last path segment only (see `hasBlockedExtension`).
 */
export const DEFAULT_BLOCKED_EXTENSIONS: readonly string[] = [
  ".3g2", ".3ga", ".3gp", ".3gp2", ".3gpa", ".3gpp", ".3gpp2", ".aac", ".aacp", ".adp", ".aff", ".aif", ".aiff",
  ".arw", ".asf", ".asx", ".avi", ".avif", ".avifs", ".bmp", ".btif", ".cgm", ".cmx", ".cr2", ".crw", ".dcr",
  ".djv", ".djvu", ".dng", ".dts", ".dtshd", ".dwg", ".dxf", ".ecelp4800", ".ecelp7470", ".ecelp9600", ".eol",
  ".erf", ".f4v", ".fbs", ".fh", ".fh4", ".fh5", ".fh7", ".fhc", ".flac", ".fli", ".flv", ".fpx", ".fst", ".fvt",
  ".g3", ".gif", ".h261", ".h263", ".h264", ".heic", ".heif", ".icns", ".ico", ".ief", ".jfi", ".jfif",
  ".jfif-tbnl", ".jif", ".jpe", ".jpeg", ".jpg", ".jpgm", ".jpgv", ".jpm", ".k25", ".kar", ".kdc", ".lvp", ".m1v",
  ".m2a", ".m2v", ".m3a", ".m3u", ".m4a", ".m4b", ".m4p", ".m4r", ".m4u", ".m4v", ".mdi", ".mid", ".midi", ".mj2",
  ".mjp2", ".mka", ".mkv", ".mmr", ".mov", ".movie", ".mp2", ".mp2a", ".mp3", ".mp4", ".mp4v", ".mpa", ".mpe",
  ".mpeg", ".mpg", ".mpg4", ".mpga", ".mrw", ".mxu", ".nef", ".npx", ".oga", ".ogg", ".ogv", ".opus", ".orf",
  ".pbm", ".pct", ".pcx", ".pef", ".pgm", ".pic", ".pjpg", ".png", ".pnm", ".ppm", ".psd", ".ptx", ".pya", ".pyv",
  ".qt", ".ra", ".raf", ".ram", ".ras", ".raw", ".rgb", ".rlc", ".rmi", ".rmp", ".rw2", ".rwl", ".snd", ".spx",
  ".sr2", ".srf", ".svg", ".svgz", ".tif", ".tiff", ".ts", ".viv", ".wav", ".wax", ".wbmp", ".weba", ".webm",
  ".webp", ".wm", ".wma", ".wmv", ".wmx", ".wvx", ".x3f", ".xbm", ".xif", ".xpm", ".xwd",
];

/**
 * "Data files" preset (Forage's choice, narrower than the paper's list): tabular files,
 * JSON/XML and archives, without `text/plain` and `application/octet-stream`, which on
 * most sites are dominated by robots.txt-like text and unknown binaries.
 */
export const DATA_FILES_MIME_TYPES: readonly string[] = [
  // CSV and its historical aliases
  "text/csv",
  "application/csv",
  "text/x-csv",
  "application/x-csv",
  "text/x-comma-separated-values",
  "text/comma-separated-values",
  // spreadsheets
  "application/vnd.ms-excel",
  "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  "application/vnd.ms-excel.sheet.macroenabled.12",
  "application/vnd.oasis.opendocument.spreadsheet",
  // structured text
  "application/json",
  "text/json",
  "application/xml",
  "text/xml",
  // archives
  "application/zip",
  "application/x-zip-compressed",
  "application/zip-compressed",
  "application/x-tar",
  "application/x-gtar",
  "application/gzip",
  "application/x-gzip",
  "application/x-7z-compressed",
  "application/vnd.rar",
  "application/x-rar-compressed",
];

/** "Documents" preset: PDF, Word/ODT, PowerPoint/ODP. */
export const DOCUMENT_MIME_TYPES: readonly string[] = [
  "application/pdf",
  "application/x-pdf",
  "application/msword",
  "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  "application/vnd.openxmlformats-officedocument.wordprocessingml.template",
  "application/vnd.oasis.opendocument.text",
  "application/vnd.ms-powerpoint",
  "application/vnd.openxmlformats-officedocument.presentationml.presentation",
  "application/vnd.oasis.opendocument.presentation",
];

/**
 * Bounds that keep one hostile page from stalling or bloating a crawl (links.ts, http-fetcher.ts).
 * Ordinary pages stay far inside them: they nest a few dozen elements, link at most a few
 * thousand URLs, and browsers and servers refuse URLs much over 8 KB anyway. What a page loses
 * to them is counted and reported (engine/limit-events.ts).
 */
export const PAGE_LIMITS = {
  /**
   * Open elements tracked: deeper elements are not pushed, so a link inside them is still found and
   * its tag path stops at this depth. Bounds the work of every end tag (it scans the stack).
   */
  maxElementDepth: 512,
  /**
   * Stack entries that searches for an element to close may walk on one page without closing
   * anything; past it each search stops 32 entries down, so a crafted page of stray end tags
   * cannot make every tag walk the whole stack.
   */
  maxStackScanSteps: 8_000_000,
  /** Links read from one page, in document order; the rest are ignored (and reported). */
  maxLinksPerPage: 20_000,
  /** A tag path is cut to this many characters (a class or id step included). */
  maxTagPathChars: 2048,
  /** Kept characters of a class, id, alt or title attribute; the rest is dropped. */
  maxAttributeChars: 64 * 1024,
} as const;

/** Longest URL the crawler keeps from a page or requests (browsers and servers use 8 KB too). */
export const MAX_URL_CHARS = 8192;
