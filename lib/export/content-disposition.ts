/**
 * `Content-Disposition: attachment` with both a plain `filename` (ASCII fallback for old
 * clients) and `filename*` (RFC 5987/6266: UTF-8, percent-encoded) that modern browsers prefer.
 * The fallback replaces non-ASCII letters by their base letter where one exists (é → e) and
 * everything else unsafe inside a quoted string (quote, backslash, controls, non-ASCII) by "_".
 */
export function contentDisposition(fileName: string, type: "attachment" | "inline" = "attachment"): string {
  const clean = fileName.replace(/[\u0000-\u001f\u007f]/g, "").trim() || "download";
  const fallback =
    clean
      .normalize("NFKD")
      .replace(/[\u0300-\u036f]/g, "")
      .replace(/[^\x20-\x7e]|["\\%]/g, "_") || "download";
  return `${type}; filename="${fallback}"; filename*=UTF-8''${encodeRfc5987(clean)}`;
}

/** RFC 5987 `value-chars`: attr-char stays, everything else is %XX of its UTF-8 bytes. */
function encodeRfc5987(value: string): string {
  return encodeURIComponent(value).replace(/['()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`);
}
