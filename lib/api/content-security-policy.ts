/**
 * The two Content-Security-Policies the app answers with, set per request by proxy.ts (the
 * only place: next.config.ts's `headers()` would overwrite a route's own policy, which is how
 * downloads once lost their sandbox).
 *
 * Pages: scripts run only with this response's nonce (Next.js reads it from the request's
 * policy header and puts it on its own scripts), and what those scripts load ('strict-dynamic');
 * an injected `<script>` or `onerror=` does not run. Development adds 'unsafe-eval' (React
 * rebuilds server error stacks with eval; production never evals).
 *
 * API answers, downloads included: nothing loads, nothing runs, no framing. A crawled HTML file
 * opened from our origin is foreign content; `sandbox` gives it an opaque origin, so even a
 * script some browser ran anyway could not call the API with the user's cookie.
 */

/** Downloads and every other API answer. */
export const API_CONTENT_SECURITY_POLICY = "default-src 'none'; sandbox; frame-ancestors 'none'";

/** A fresh, unguessable nonce: 128 random bits, base64. */
export function createNonce(): string {
  return btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(16))));
}

/**
 * The policy of a page answer for `nonce`.
 *
 * Styles: `<style>` elements need the nonce too (Next.js puts it on its own), so injected markup
 * cannot add style sheets (CSS attribute selectors can read a page out). `style="…"` attributes
 * stay allowed (style-src-attr 'unsafe-inline'): React writes them into the server HTML
 * (components/charts/ChartFigure's height, the cockpit's bars, recharts' containers); without
 * it Chromium blocks them on the crawl page (tried: six violations). A nonce cannot cover an
 * attribute, and 'unsafe-hashes' would need one hash per width. An attribute cannot run code.
 */
export function pageContentSecurityPolicy(nonce: string, { development = false } = {}): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${development ? " 'unsafe-eval'" : ""}`,
    `style-src 'self' 'nonce-${nonce}'`,
    "style-src-attr 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}
