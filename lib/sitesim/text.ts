/**
 * Filler text. Deterministic from an integer seed and never drawn from a page's
 * structural Rng: link-only rendering (ground truth) skips text entirely, and must
 * still make exactly the same structural choices as full HTML rendering.
 */
import { Rng } from "./random";

const NOUNS = [
  "population", "employment", "income", "housing", "prices", "trade", "energy", "health",
  "education", "transport", "agriculture", "tourism", "industry", "services", "households",
  "enterprises", "wages", "inflation", "budget", "debt", "investment", "exports", "imports",
  "births", "deaths", "migration", "regions", "municipalities", "emissions", "waste", "water",
  "forests", "crime", "justice", "elections", "survey", "census", "productivity", "consumption",
  "poverty", "pensions", "childcare", "hospitals", "schools", "universities", "research",
  "innovation", "broadband", "fisheries", "construction", "retail", "labour", "unemployment",
];
const ADJECTIVES = [
  "annual", "quarterly", "monthly", "regional", "national", "provisional", "final", "revised",
  "detailed", "key", "local", "European", "seasonally adjusted", "long-term", "experimental",
  "official", "public", "private", "rural", "urban", "average", "median", "total",
];
const FILLER = [
  "the", "of", "in", "and", "for", "with", "by", "on", "rose", "fell", "remained", "stable",
  "compared", "previous", "year", "according", "to", "latest", "figures", "published", "today",
  "this", "report", "shows", "that", "over", "period", "percent", "increase", "decrease",
  "while", "across", "most", "areas", "data", "are", "available", "below", "methodology",
  "note", "sources", "estimate", "trend", "level", "since", "first", "time", "series",
];

/** `n` space-separated words (lower case), deterministic from `seed`. */
export function words(seed: number, n: number): string {
  const rng = new Rng(seed);
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    const r = rng.int(10);
    out.push(r < 2 ? rng.pick(NOUNS) : r < 3 ? rng.pick(ADJECTIVES) : rng.pick(FILLER));
  }
  return out.join(" ");
}

/** A sentence-cased paragraph of `n` words. */
export function paragraph(seed: number, n: number): string {
  const w = words(seed, n);
  return w.charAt(0).toUpperCase() + w.slice(1) + ".";
}

/** A short headline such as "Regional housing and employment: 2023 results". */
export function headline(seed: number): string {
  const rng = new Rng(seed);
  const adj = rng.pick(ADJECTIVES);
  const a = rng.pick(NOUNS);
  const b = rng.pick(NOUNS);
  const year = 2015 + rng.int(10);
  const form = rng.int(3);
  const t =
    form === 0 ? `${adj} ${a} and ${b}: ${year} results`
    : form === 1 ? `${a} in ${year}: ${adj} ${b} figures`
    : `${adj} ${a} statistics, ${year}`;
  return t.charAt(0).toUpperCase() + t.slice(1);
}

/** A noun phrase usable as a theme or tag name, e.g. "Housing". */
export function topicName(seed: number): string {
  const n = NOUNS[seed % NOUNS.length] as string;
  return n.charAt(0).toUpperCase() + n.slice(1);
}

/** URL slug of a topic name: lower case, spaces to dashes, ASCII only. */
export function slugify(s: string): string {
  return s.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "");
}

/** Number of distinct topic names {@link topicName} can produce. */
export const TOPIC_COUNT = NOUNS.length;

/** A human-readable file size ("45 KB", "1.2 MB") as CMS download links show it. */
export function humanBytes(bytes: number): string {
  if (bytes < 1024 * 1024) return `${Math.max(1, Math.round(bytes / 1024))} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** A date string in 2015–2024, deterministic from `seed`. */
export function dateString(seed: number): string {
  const rng = new Rng(seed);
  const y = 2015 + rng.int(10);
  const m = 1 + rng.int(12);
  const d = 1 + rng.int(28);
  return `${y}-${String(m).padStart(2, "0")}-${String(d).padStart(2, "0")}`;
}

/** "Regional employment"-style phrase for sub-sections. */
export function topicPhrase(seed: number): string {
  const rng = new Rng(seed);
  const t = `${rng.pick(ADJECTIVES)} ${rng.pick(NOUNS)}`;
  return t.charAt(0).toUpperCase() + t.slice(1);
}
