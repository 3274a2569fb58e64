import { contentDisposition } from "../export/content-disposition";
import { API_CONTENT_SECURITY_POLICY } from "./content-security-policy";
import type { Download } from "../export/download";

/**
 * A download as a Response. Crawled files are foreign content served from our origin, so
 * they are attachments, never sniffed, and sandboxed if a browser renders them anyway
 * (an HTML "target" must not run scripts against the API). proxy.ts sets the same policy on
 * every API answer; this one holds when the Response is served some other way (tests, the CLI).
 */
export function downloadResponse(download: Download): Response {
  const headers: Record<string, string> = {
    "content-type": download.contentType,
    "content-disposition": contentDisposition(download.fileName),
    "cache-control": "no-store",
    "x-content-type-options": "nosniff",
    "content-security-policy": API_CONTENT_SECURITY_POLICY,
  };
  if (download.contentLength !== undefined) headers["content-length"] = String(download.contentLength);
  return new Response(download.stream, { status: 200, headers });
}
