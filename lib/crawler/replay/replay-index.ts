import type { LinkType } from "../engine/link-typer";
import type { ReplayLogRow, ReplaySource } from "./replay-source";

/** Error codes of stored attempts that say nothing about the site (the crawl's own abort, its disk, a replay's gap). */
const LOCAL_ERROR_CODES = new Set(["aborted", "sink-error", "not-archived"]);

/** Rows read per query while building the index. */
const DEFAULT_PAGE_SIZE = 2_000;

/** What a stored attempt says a URL is, for SB-ORACLE. `error`: no answer from the site. */
const enum RowType {
  Neither = 0,
  Html = 1,
  Target = 2,
  Error = 3,
}

/**
 * One archived URL: ids of its final stored GET and HEAD attempts (0 = none) and what they were.
 * Small on purpose (a source crawl may have 100k+ requests): everything else, headers and
 * bodies included, is read from the ReplaySource when the replay asks for it.
 */
export interface ReplayEntry {
  /** Final GET attempt (row id), 0 when the URL was only HEAD-typed. */
  get: number;
  /** Final HEAD attempt (row id), 0 when none. */
  head: number;
  /** Latest GET row that kept an HTML body (0 = none): the final GET may be a bodiless one (a target-plan GET). */
  body: number;
  /** RowType of the final GET (bits 0–1) and of the final HEAD (bits 2–3). */
  types: number;
}

export interface ReplayIndexOptions {
  /** The source crawl's target MIME types (what "target" means for SB-ORACLE). */
  targetMimeTypes: readonly string[];
  /** Rows per page while streaming the request log. @default 2000 */
  pageSize?: number;
}

/**
 * Where the stored crawl's answers are: URL → final stored GET / HEAD attempt, robots.txt rows,
 * and the URLs its robots.txt refused. Built once, streaming the request log in pages by id
 * (insertion order, so the last row seen for a URL is its final attempt).
 */
export class ReplayIndex {
  private readonly entries = new Map<string, ReplayEntry>();
  /** robots.txt URL → id of its final stored fetch. */
  private readonly robotsRows = new Map<string, number>();
  /** robots.txt URL → origins whose robots.txt fetch ended at that URL (itself, or through redirects). */
  private readonly robotsChains = new Map<string, Set<string>>();
  /** Origin → robots.txt patterns matching exactly the URLs the source was refused. */
  private readonly disallowed = new Map<string, string[]>();

  private constructor(private readonly targetMimes: ReadonlySet<string>) {}

  static async build(source: ReplaySource, options: ReplayIndexOptions): Promise<ReplayIndex> {
    const index = new ReplayIndex(new Set(options.targetMimeTypes));
    const take = options.pageSize ?? DEFAULT_PAGE_SIZE;
    let cursor = 0;
    let previousRobots: ReplayLogRow | null = null;
    let chainOrigin = "";
    for (;;) {
      const rows = await source.requestLog(cursor, take);
      for (const row of rows) {
        if (row.kind === "robots") {
          // A hop of the robots.txt fetch that the previous row redirected to belongs to its chain.
          const continues = previousRobots !== null && previousRobots.redirectTo === row.url;
          if (!continues) chainOrigin = originOf(row.url) ?? "";
          previousRobots = row;
          index.addRobotsRow(row, chainOrigin);
        } else if (row.outcome === "robots-disallowed") {
          index.addDisallowed(row.url);
        } else if (row.seq > 0) {
          index.addAttempt(row);
        }
      }
      if (rows.length < take) break;
      cursor = rows[rows.length - 1]!.id;
    }
    return index;
  }

  /** Distinct archived URLs. */
  get size(): number {
    return this.entries.size;
  }

  lookup(url: string): ReplayEntry | undefined {
    return this.entries.get(url);
  }

  /**
   * The true type of a URL from its stored answer (SB-ORACLE): the final GET unless it failed,
   * else the final HEAD; "neither" for URLs the source never fetched.
   */
  typeOf(url: string): LinkType | "neither" {
    const entry = this.entries.get(url);
    if (!entry) return "neither";
    const getType = entry.types & 3;
    const headType = (entry.types >> 2) & 3;
    const type = entry.get && getType !== RowType.Error ? getType : entry.head && headType !== RowType.Error ? headType : RowType.Neither;
    return type === RowType.Html ? "html" : type === RowType.Target ? "target" : "neither";
  }

  /** Id of the final stored fetch of this robots.txt URL, if the source fetched it. */
  robotsRow(url: string): number | undefined {
    return this.robotsRows.get(url);
  }

  /**
   * A robots.txt that refuses exactly what the source crawl was refused (the stored robots rows
   * keep no body): one `Disallow: <path>$` line per refused URL of every origin whose robots.txt
   * fetch ended at `robotsUrl`. Characters robots-parser would re-encode become `*`.
   */
  robotsTxt(robotsUrl: string): string {
    const origins = this.robotsChains.get(robotsUrl) ?? new Set([originOf(robotsUrl) ?? ""]);
    const lines = ["User-agent: *"];
    for (const origin of origins) for (const pattern of this.disallowed.get(origin) ?? []) lines.push(`Disallow: ${pattern}`);
    return `${lines.join("\n")}\n`;
  }

  private addAttempt(row: ReplayLogRow): void {
    if (row.method !== "GET" && row.method !== "HEAD") return;
    if (row.outcome === "error" && LOCAL_ERROR_CODES.has(errorCode(row.error))) return;
    let entry = this.entries.get(row.url);
    if (!entry) {
      entry = { get: 0, head: 0, body: 0, types: 0 };
      this.entries.set(row.url, entry);
    }
    const type = this.rowType(row);
    if (row.method === "GET") {
      entry.get = row.id;
      if (row.bodySha256) entry.body = row.id;
      entry.types = (entry.types & ~3) | type;
    } else {
      entry.head = row.id;
      entry.types = (entry.types & ~12) | (type << 2);
    }
  }

  private rowType(row: ReplayLogRow): RowType {
    if (row.outcome === "error") return RowType.Error;
    const status = row.status ?? 0;
    const mime = row.mime ?? "";
    if (status >= 200 && status < 300) {
      if (mime === "text/html" || mime === "application/xhtml+xml") return RowType.Html;
      if (this.targetMimes.has(mime)) return RowType.Target;
      return RowType.Neither;
    }
    if (status >= 300 && status < 400 && row.redirectTo) return RowType.Html;
    return RowType.Neither;
  }

  private addRobotsRow(row: ReplayLogRow, chainOrigin: string): void {
    this.robotsRows.set(row.url, row.id);
    let origins = this.robotsChains.get(row.url);
    if (!origins) {
      origins = new Set();
      this.robotsChains.set(row.url, origins);
    }
    origins.add(chainOrigin);
  }

  private addDisallowed(url: string): void {
    const origin = originOf(url);
    const pattern = robotsPattern(url);
    if (origin === null || pattern === null) return;
    let list = this.disallowed.get(origin);
    if (!list) {
      list = [];
      this.disallowed.set(origin, list);
    }
    list.push(pattern);
  }
}

/** "code: message" as the request runner stores errors → "code". */
export function errorCode(error: string | null): string {
  if (!error) return "";
  const colon = error.indexOf(":");
  return colon < 0 ? error : error.slice(0, colon);
}

function originOf(url: string): string | null {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}

/** Characters robots-parser keeps as they are (it runs patterns through encodeURI, and `*`, `$`, `#` are syntax). */
const ROBOTS_SAFE = /^[A-Za-z0-9;,/?:@&=+\-_.!~'()%]$/;

/** A robots.txt pattern matching this URL's path and query exactly (`$`-anchored). */
export function robotsPattern(url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  let pattern = "";
  for (const char of parsed.pathname + parsed.search) pattern += ROBOTS_SAFE.test(char) ? char : "*";
  return `${pattern.replace(/\*+/g, "*")}$`;
}
