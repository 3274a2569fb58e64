/** Helpers shared by the simulated applications (CKAN, WordPress). */
import { hash32 } from "../random";

/** A UUID-shaped id (8-4-4-4-12 hex), deterministic from its parts: CKAN names datasets and resources so. */
export function uuidOf(a: number, b: number, c = 0): string {
  const hex = [1, 2, 3, 4].map((k) => hash32(a, b, c, k).toString(16).padStart(8, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** Seconds since 2016-01-01 → "2019-03-04T10:22:31" (UTC, no zone: how CKAN and WordPress's *_gmt fields write times). */
export function isoSeconds(secondsSince2016: number): string {
  return new Date(Date.UTC(2016, 0, 1) + secondsSince2016 * 1000).toISOString().slice(0, 19);
}

/** Picks an index by integer weights from a 32-bit hash. */
export function weighted(weights: readonly number[], h: number): number {
  const total = weights.reduce((a, b) => a + b, 0);
  let r = h % total;
  for (let i = 0; i < weights.length; i++) {
    r -= weights[i]!;
    if (r < 0) return i;
  }
  return weights.length - 1;
}

/** Escapes text for HTML attributes and text nodes written with `sink.raw`. */
export function esc(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

/** `?a=1&b=2` from ordered pairs (values URL-encoded, `+` for spaces as CKAN's url helpers write them). */
export function queryString(pairs: ReadonlyArray<readonly [string, string]>): string {
  if (pairs.length === 0) return "";
  return "?" + pairs.map(([k, v]) => `${k}=${encodeURIComponent(v).replace(/%20/g, "+")}`).join("&");
}
