import { MAX_URL_CHARS } from "../crawler/defaults";

/**
 * `value` resolved against `base` as an absolute http(s) URL (normalised by the URL standard),
 * or undefined: other schemes, unparsable text and URLs longer than the crawler accepts are not
 * files Forage can fetch.
 */
export function absoluteHttpUrl(value: string, base: string): string | undefined {
  const trimmed = value.trim();
  if (trimmed === "" || trimmed.length > MAX_URL_CHARS) return undefined;
  let url: URL;
  try {
    url = new URL(trimmed, base);
  } catch {
    return undefined;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return undefined;
  return url.href.length > MAX_URL_CHARS ? undefined : url.href;
}
