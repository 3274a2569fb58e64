/** Helpers shared by shape implementations. */
import { Rng } from "../random";
import { slugify, topicName, TOPIC_COUNT } from "../text";

/** `count` distinct topic names (cycled with a numeric suffix when the vocabulary runs out). */
export function distinctTopics(rng: Rng, count: number): Array<{ name: string; slug: string }> {
  const order = Array.from({ length: TOPIC_COUNT }, (_, i) => i);
  for (let i = order.length - 1; i > 0; i--) {
    const j = rng.int(i + 1);
    [order[i], order[j]] = [order[j] as number, order[i] as number];
  }
  const out: Array<{ name: string; slug: string }> = [];
  for (let i = 0; i < count; i++) {
    const base = topicName(order[i % TOPIC_COUNT] as number);
    const round = Math.floor(i / TOPIC_COUNT);
    const name = round === 0 ? base : `${base} ${round + 1}`;
    out.push({ name, slug: slugify(name) });
  }
  return out;
}

/** Splits `total` items into `parts` uneven, non-empty counts (weights log-uniform in 1–8). */
export function unevenSplit(rng: Rng, total: number, parts: number): number[] {
  const w = Array.from({ length: parts }, () => Math.exp(rng.float() * Math.log(8)));
  const sum = w.reduce((a, b) => a + b, 0);
  const counts = w.map((x) => Math.max(1, Math.floor((x / sum) * total)));
  let diff = total - counts.reduce((a, b) => a + b, 0);
  for (let i = 0; diff !== 0; i = (i + 1) % parts) {
    const c = counts[i] as number;
    if (diff > 0) {
      counts[i] = c + 1;
      diff--;
    } else if (c > 1) {
      counts[i] = c - 1;
      diff++;
    } else if (counts.every((x) => x <= 1)) break;
  }
  return counts;
}

/** Parses a decimal id with no leading zeros; NaN otherwise (so `/news/007` is a 404). */
export function parseId(s: string | undefined): number {
  return s !== undefined && /^(0|[1-9][0-9]{0,8})$/.test(s) ? Number(s) : Number.NaN;
}

/** Page count of a list of `n` items shown `per` to a page (at least one page). */
export function pageCount(n: number, per: number): number {
  return Math.max(1, Math.ceil(n / per));
}
