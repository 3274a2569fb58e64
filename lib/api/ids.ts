import { NotFoundError } from "../errors";

/** Ids are SQLite INTEGER / PostgreSQL int4 rows: at most 2^31 - 1. */
const MAX_ID = 2 ** 31 - 1;

/**
 * A route parameter naming a row: a positive integer without sign, zeros or spaces. Anything
 * else cannot name a row, so it is a 404 like an unknown id (docs/API.md), not a 400.
 */
export function parseId(value: string | undefined, what: string): number {
  if (value === undefined || !/^[1-9]\d{0,9}$/.test(value) || Number(value) > MAX_ID) {
    throw new NotFoundError(what, `${what} "${String(value).slice(0, 40)}" not found`);
  }
  return Number(value);
}

/** `parseId(value, "Crawl")`. */
export function parseCrawlId(value: string | undefined): number {
  return parseId(value, "Crawl");
}
