/**
 * Where to send a browser after signing in, from an untrusted `next` parameter. The value is
 * parsed as the URL standard (and so every browser) parses it, against a placeholder origin, and
 * kept only when it stays on that origin: `/%09/evil.example/` (the browser drops the tab and
 * reads `//evil.example/`), `/\evil.example` and `https://evil.example` all leave it and become
 * `/`. What is kept is the parsed form, so control characters come back percent-encoded and can
 * never reach a `Location` header raw.
 */
const PLACEHOLDER = new URL("http://forage.invalid/");
const MAX_LENGTH = 2048;

export function sameOriginPath(raw: unknown, fallback = "/"): string {
  if (typeof raw !== "string" || !raw.startsWith("/") || raw.length > MAX_LENGTH) return fallback;
  let url: URL;
  try {
    url = new URL(raw, PLACEHOLDER);
  } catch {
    return fallback;
  }
  if (url.origin !== PLACEHOLDER.origin || url.username !== "" || url.password !== "") return fallback;
  return url.pathname + url.search + url.hash;
}
