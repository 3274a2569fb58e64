import { extensionsFor } from "./mime-extensions";

/** Longest file name we produce, in characters (and at most MAX_NAME_BYTES of UTF-8). @default 120 */
export const MAX_NAME_CHARS = 120;
/** Most file systems allow 255 bytes per name; 120 CJK characters would be 360. */
const MAX_NAME_BYTES = 240;

/** Extensions of server scripts and pages: `report.php` serving a CSV becomes `report.csv`. */
const PAGE_EXTENSIONS = new Set([".php", ".asp", ".aspx", ".jsp", ".jspx", ".cgi", ".pl", ".do", ".action", ".cfm", ".html", ".htm", ".shtml", ".ashx", ".axd"]);

/** Names Windows refuses whatever the extension. */
const WINDOWS_RESERVED = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])$/i;

/**
 * A safe file name for a downloaded target: the URL's last path segment (percent-decoded),
 * else its host, with an extension that matches the MIME type. Safe means: no path separators
 * or `..` (no traversal when unzipped), no control or bidirectional-override characters, no
 * characters Windows forbids, no leading dot (hidden file) or dash (read as an option by
 * shell tools), no Windows device names, at most 120 characters.
 */
export function targetFileName(url: string, mime: string): string {
  let segment = "";
  let host = "";
  try {
    const parsed = new URL(url);
    host = parsed.hostname;
    segment = parsed.pathname.split("/").filter(Boolean).pop() ?? "";
  } catch {
    segment = url.split(/[?#]/)[0]?.split("/").filter(Boolean).pop() ?? "";
  }
  let base = sanitize(safeDecode(segment)) || sanitize(host) || "file";
  const extensions = extensionsFor(mime);
  const current = extensionOf(base);
  if (extensions.length > 0 && !extensions.includes(current)) {
    if (PAGE_EXTENSIONS.has(current)) base = base.slice(0, -current.length) || "file";
    base += extensions[0];
  }
  return truncateName(base, MAX_NAME_CHARS);
}

/**
 * Hands out unique names: a taken name gets `-2`, `-3`… before its extension. Case-insensitive,
 * because the archive is often unzipped on macOS or Windows, where `Data.csv` overwrites `data.csv`.
 */
export class UniqueNames {
  private readonly taken = new Set<string>();

  claim(name: string): string {
    let candidate = name;
    for (let n = 2; this.taken.has(candidate.toLowerCase()); n++) {
      const extension = extensionOf(name);
      const suffix = `-${n}${extension}`;
      candidate = truncateName(name.slice(0, name.length - extension.length), MAX_NAME_CHARS - Array.from(suffix).length) + suffix;
    }
    this.taken.add(candidate.toLowerCase());
    return candidate;
  }
}

/** The last `.ext` of a name, lower case, with the dot; "" when none (or the name is only an extension). */
export function extensionOf(name: string): string {
  const match = /(\.[A-Za-z0-9]{1,10})$/.exec(name);
  return match && match.index > 0 ? match[1]!.toLowerCase() : "";
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment; // malformed percent-encoding: keep it literally
  }
}

/** Removes what is unsafe in a file name; "" when nothing usable is left. */
export function sanitize(raw: string): string {
  let name = raw
    .normalize("NFC")
    // C0/C1 controls, bidi embeddings/overrides/isolates (they disguise extensions), BOM
    .replace(/[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g, "")
    .replace(/[/\\:*?"<>|]/g, "_")
    .replace(/\s+/g, " ")
    .trim();
  name = name.replace(/^[.\-\s]+/, "").replace(/[.\s]+$/, "");
  if (name === "" || /^_+$/.test(name)) return "";
  const stem = name.slice(0, name.length - extensionOf(name).length);
  if (WINDOWS_RESERVED.test(stem)) name = `_${name}`;
  return name;
}

/** Cuts the stem (never the extension, never inside a surrogate pair) to fit the limits. */
function truncateName(name: string, maxChars: number): string {
  const extension = extensionOf(name);
  const stem = Array.from(name.slice(0, name.length - extension.length));
  const extensionChars = Array.from(extension).length;
  const fits = () => stem.length + extensionChars <= maxChars && Buffer.byteLength(stem.join("") + extension) <= MAX_NAME_BYTES;
  while (stem.length > 1 && !fits()) stem.pop();
  return stem.join("").replace(/[.\s]+$/, "") + extension;
}
