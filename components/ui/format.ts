/** Display helpers the cockpit needs beyond lib/format.ts (kept here: lib/ is shared with the CLI). */

/** 0.0123 → "0.012", 1.5 → "1.50", 12.345 → "12.3": three significant digits, never exponent form. */
export function formatDecimal(value: number): string {
  if (!Number.isFinite(value)) return "–";
  if (value === 0) return "0";
  const magnitude = Math.abs(value);
  if (magnitude >= 100) return Math.round(value).toLocaleString("en-US");
  if (magnitude >= 10) return value.toFixed(1);
  if (magnitude >= 1) return value.toFixed(2);
  const digits = Math.min(6, 2 - Math.floor(Math.log10(magnitude)));
  return value.toFixed(digits);
}

/** Compact axis ticks: 1200 → "1.2k", 2_500_000 → "2.5M". */
export function formatCompact(value: number): string {
  return new Intl.NumberFormat("en-US", { notation: "compact", maximumFractionDigits: 1 }).format(value);
}

/** "https://www.example.org/a/b.csv?x=1" → "www.example.org/a/b.csv?x=1". */
export function stripScheme(url: string): string {
  return url.replace(/^https?:\/\//, "");
}

/** The last path segment of a URL, decoded, for a file link's text ("data.csv"). */
export function fileNameOf(url: string): string {
  try {
    const { pathname, hostname } = new URL(url);
    const segment = pathname.split("/").filter(Boolean).at(-1);
    return segment ? decodeURIComponent(segment) : hostname;
  } catch {
    return url;
  }
}

/** Host of a URL, or the text itself when it is not one. */
export function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

/** "12 Mar 2026, 14:03" in the viewer's time zone. */
export function formatDateTime(iso: string): string {
  return new Date(iso).toLocaleString("en-GB", { day: "numeric", month: "short", year: "numeric", hour: "2-digit", minute: "2-digit" });
}

/**
 * "Mon, 30 Nov 2026, 06:00 CET": a date in a named time zone (the viewer's when omitted), the
 * zone said, so it reads the same as a schedule's preview in that zone.
 */
export function formatDateTimeIn(iso: string | Date, timeZone?: string): string {
  return new Intl.DateTimeFormat("en-GB", { timeZone, weekday: "short", day: "numeric", month: "short", year: "numeric", hour: "2-digit", minute: "2-digit", timeZoneName: "short" }).format(new Date(iso));
}

/**
 * "5 minutes ago", "in 2 days", "just now": past and future alike (Intl.RelativeTimeFormat); the
 * date itself after a month either way.
 */
export function formatRelative(iso: string, now = Date.now()): string {
  const seconds = Math.round((new Date(iso).getTime() - now) / 1000);
  const magnitude = Math.abs(seconds);
  if (magnitude < 45) return seconds <= 0 ? "just now" : "in a few seconds";
  if (magnitude >= 30 * 86_400) return formatDateTime(iso);
  const format = new Intl.RelativeTimeFormat("en-GB", { numeric: "auto" });
  const [unit, size]: [Intl.RelativeTimeFormatUnit, number] = magnitude < 3600 ? ["minute", 60] : magnitude < 86_400 ? ["hour", 3600] : ["day", 86_400];
  return format.format(Math.round(seconds / size), unit);
}

/** A setting as typed: 0.9 → "0.9", 0.01 → "0.01", 2.8284271247461903 → "2.82843". */
export function formatParam(value: number): string {
  return String(Number(value.toPrecision(6)));
}

/**
 * A URL as the crawl's own pages read it: the path and query when the host is the root's,
 * the whole URL without scheme otherwise ("/data/t.csv", "files.example.org/t.csv").
 */
export function sitePath(url: string, rootUrl: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.host === new URL(rootUrl).host) return `${parsed.pathname}${parsed.search}`;
  } catch {
    // not a URL: shown as it is
  }
  return stripScheme(url);
}
