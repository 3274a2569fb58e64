import { contentDisposition } from "../export/content-disposition";
import type { Download } from "../export/download";

/**
 * A download as a Response. Crawled files are foreign content served from our origin, so
 * they are attachments, never sniffed, and sandboxed if a browser renders them anyway
 * (an HTML "target" must not run scripts against the API).
 */
export function downloadResponse(download: Download): Response {
  const headers: Record<string, string> = {
    "content-type": download.contentType,
    "content-disposition": contentDisposition(download.fileName),
    "cache-control": "no-store",
    "x-content-type-options": "nosniff",
    "content-security-policy": "sandbox; default-src 'none'",
  };
  if (download.contentLength !== undefined) headers["content-length"] = String(download.contentLength);
  return new Response(download.stream, { status: 200, headers });
}
