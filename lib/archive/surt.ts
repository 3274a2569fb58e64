/**
 * SURT keys (Sort-friendly URI Reordering Transform), the first column of a CDXJ index, as
 * pywb and the WACZ readers compute them: scheme and `www.` dropped, host labels reversed and
 * comma-joined (IP addresses kept in order), port kept when not the default, then `)` and the
 * path with its query, lower-cased, query pairs sorted.
 */
export function surtKey(url: string | URL): string {
  let parsed: URL;
  try {
    parsed = typeof url === "string" ? new URL(url) : url;
  } catch {
    return (url as string).toLowerCase();
  }
  let host = parsed.hostname.toLowerCase().replace(/^www\d*\./, "");
  const isIp = /^\d+(\.\d+){3}$/.test(host) || host.startsWith("[");
  if (!isIp) host = host.split(".").reverse().join(",");
  const port = parsed.port ? `:${parsed.port}` : "";
  const query = parsed.search.length > 1 ? `?${parsed.search.slice(1).split("&").sort().join("&")}` : "";
  return `${host}${port})${parsed.pathname}${query}`.toLowerCase();
}

/** A WARC date (ISO 8601) as the 14-digit CDX timestamp, e.g. 20260127101500. */
export function cdxTimestamp(isoDate: string): string {
  return isoDate.replace(/[^0-9]/g, "").slice(0, 14).padEnd(14, "0");
}
