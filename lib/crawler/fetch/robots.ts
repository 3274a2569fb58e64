/**
 * robots.txt with RFC 9309 semantics, cached per origin (scheme://host:port).
 *
 * | response                          | rules         | cached for          |
 * |-----------------------------------|---------------|---------------------|
 * | 2xx                               | parsed        | ttlMs (24 h)        |
 * | 3xx                               | followed, ≤ 5 hops; more → allow all (RFC 9309 2.3.1.2) |
 * | 4xx except 429                    | allow all     | ttlMs               |
 * | 429, 5xx, network error, too big* | disallow all  | unreachableTtlMs (10 min) |
 *
 * 429 is grouped with 5xx, as Google does: a host that rate-limits its robots.txt is
 * overloaded, not telling us it has no rules. "Disallow all" is not permanent: after
 * unreachableTtlMs the next lookup fetches robots.txt again, so a site that was briefly
 * down is crawled once it is back, while a crawl started during an outage does not
 * ignore rules it could not read. (*) only when the fetcher aborted instead of truncating.
 */
import { z } from "zod";
import { FetchAbortedError } from "./errors";
import type { HostPoliteness } from "./host-politeness";
import { isValidProductToken, RobotsTxt } from "./robots-rules";
import type { FetchResult, Fetcher } from "./types";

export const ROBOTS_USER_AGENT_TOKEN = "Forage";

/** One GET of a robots.txt URL, without following redirects; the engine records it (kind "robots"). */
export type RobotsFetch = (
  url: string,
  signal?: AbortSignal,
) => Promise<Pick<FetchResult, "status" | "location" | "body" | "outcome" | "error">>;

export const robotsCacheOptionsSchema = z.strictObject({
  /** How long parsed (or absent) rules are trusted. @default 86400000 (24 h) */
  ttlMs: z.number().int().positive().default(24 * 3600_000),
  /** How long "disallow all" after 5xx / 429 / network errors lasts before a new fetch. @default 600000 */
  unreachableTtlMs: z.number().int().positive().default(600_000),
  /** Bytes parsed; RFC 9309 requires at least 500 KiB and lets the rest be ignored. @default 512000 */
  maxBytes: z.number().int().positive().default(500 * 1024),
  /** @default 5 */
  maxRedirects: z.number().int().min(0).default(5),
  /** Upper bound on Crawl-delay. @default 30000 */
  crawlDelayCapMs: z.number().nonnegative().default(30_000),
  /** Product token matched against `User-agent:` lines (letters, `_` and `-`: RFC 9309 §2.2.1). @default "Forage" */
  userAgentToken: z
    .string()
    .refine(isValidProductToken, "must be a product token: letters, _ and - only (RFC 9309 2.2.1)")
    .default(ROBOTS_USER_AGENT_TOKEN),
  /** Origins kept; the oldest are evicted first. @default 10000 */
  maxEntries: z.number().int().positive().default(10_000),
});
export type RobotsCacheOptions = z.input<typeof robotsCacheOptionsSchema>;

export type RobotsStatus = "parsed" | "allow-all" | "disallow-all";

export interface RobotsRules {
  origin: string;
  status: RobotsStatus;
  /** Why, in words: "200", "404: no robots.txt", "503: unreachable", "network error: …". */
  reason: string;
  fetchedAtMs: number;
  expiresAtMs: number;
  isAllowed(url: string, userAgentToken?: string): boolean;
  /** Crawl-delay for the token's group (or `*`), capped; null when none. */
  crawlDelayMs(userAgentToken?: string): number | null;
  sitemaps: string[];
}

export class RobotsCache {
  private readonly options: z.output<typeof robotsCacheOptionsSchema>;
  private readonly entries = new Map<string, RobotsRules>();
  private readonly pending = new Map<string, Promise<RobotsRules>>();

  /** `fetchRobots` performs one GET per call (see `robotsFetchFor`); redirects are followed here. */
  constructor(
    private readonly fetchRobots: RobotsFetch,
    options: RobotsCacheOptions = {},
  ) {
    this.options = robotsCacheOptionsSchema.parse(options);
  }

  /**
   * Rules for the URL's origin, fetched at most once per TTL. Concurrent callers share one
   * fetch, which uses the first caller's signal; an aborted fetch is not cached.
   * @throws FetchAbortedError when that fetch was aborted.
   */
  async rulesFor(url: string, signal?: AbortSignal): Promise<RobotsRules> {
    const origin = new URL(url).origin;
    const cached = this.entries.get(origin);
    if (cached && cached.expiresAtMs > Date.now()) return cached;
    let pending = this.pending.get(origin);
    if (!pending) {
      pending = this.load(origin, signal).finally(() => this.pending.delete(origin));
      this.pending.set(origin, pending);
    }
    return pending;
  }

  async isAllowed(url: string, userAgentToken = this.options.userAgentToken, signal?: AbortSignal): Promise<boolean> {
    return (await this.rulesFor(url, signal)).isAllowed(url, userAgentToken);
  }

  async crawlDelayMs(url: string, userAgentToken = this.options.userAgentToken, signal?: AbortSignal): Promise<number | null> {
    return (await this.rulesFor(url, signal)).crawlDelayMs(userAgentToken);
  }

  /** Drops the cached rules of an origin (e.g. the user asked to re-read robots.txt). */
  invalidate(origin: string): void {
    this.entries.delete(new URL(origin).origin);
  }

  private async load(origin: string, signal?: AbortSignal): Promise<RobotsRules> {
    const rules = await this.fetchRules(origin, signal);
    this.entries.delete(origin);
    this.entries.set(origin, rules);
    if (this.entries.size > this.options.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    return rules;
  }

  private async fetchRules(origin: string, signal?: AbortSignal): Promise<RobotsRules> {
    const robotsUrl = `${origin}/robots.txt`;
    let target = robotsUrl;
    for (let hop = 0; ; hop++) {
      const res = await this.fetchRobots(target, signal);
      if (res.outcome === "error") {
        if (res.error?.code === "aborted") throw new FetchAbortedError("robots.txt fetch aborted");
        return this.make(origin, "disallow-all", `unreachable: ${res.error?.code ?? "error"}`);
      }
      const { status } = res;
      if (status >= 300 && status < 400 && res.location) {
        if (hop >= this.options.maxRedirects) return this.make(origin, "allow-all", `more than ${this.options.maxRedirects} redirects`);
        target = res.location;
        continue;
      }
      if (status >= 200 && status < 300) {
        if (res.outcome !== "ok" || !res.body) return this.make(origin, "disallow-all", `${status}: body not read (${res.outcome})`);
        const text = res.body.subarray(0, this.options.maxBytes).toString("utf8");
        // The rules are this origin's even when robots.txt was served from elsewhere after a
        // redirect (relative Sitemap values resolve against this origin's /robots.txt too).
        return this.make(origin, "parsed", String(status), RobotsTxt.parse(text));
      }
      if (status === 429 || status >= 500) return this.make(origin, "disallow-all", `${status}: unreachable`);
      return this.make(origin, "allow-all", `${status}: no robots.txt`);
    }
  }

  private make(origin: string, status: RobotsStatus, reason: string, robot?: RobotsTxt): RobotsRules {
    const now = Date.now();
    const ttl = status === "disallow-all" ? this.options.unreachableTtlMs : this.options.ttlMs;
    const { crawlDelayCapMs, userAgentToken: defaultToken } = this.options;
    return {
      origin,
      status,
      reason,
      fetchedAtMs: now,
      expiresAtMs: now + ttl,
      sitemaps: robot ? resolveSitemaps(robot.sitemaps, `${origin}/robots.txt`) : [],
      isAllowed(url: string, token = defaultToken): boolean {
        // RFC 9309 2.2.2: /robots.txt itself is always allowed.
        if (new URL(url).pathname === "/robots.txt") return true;
        if (status === "allow-all") return true;
        if (status === "disallow-all" || !robot) return false;
        return robot.isAllowed(url, token);
      },
      crawlDelayMs(token = defaultToken): number | null {
        const seconds = robot?.crawlDelaySeconds(token) ?? null;
        if (seconds === null) return null;
        return Math.min(seconds * 1000, crawlDelayCapMs);
      },
    };
  }
}

/** Sitemap URLs, relative ones resolved against robots.txt; values that are no URL are dropped. */
function resolveSitemaps(values: readonly string[], robotsUrl: string): string[] {
  const urls: string[] = [];
  for (const value of values) {
    try {
      urls.push(new URL(value, robotsUrl).href);
    } catch {
      // not a URL: nothing to fetch
    }
  }
  return urls;
}

/**
 * Adapts a Fetcher into a RobotsFetch: GET, bodies cut (not refused) at `maxBytes`, no
 * MIME blocklist. `onResult` sees every hop so the engine can store it as a request of
 * kind "robots" (not counted toward the budget). With `politeness`, the robots.txt
 * request takes its turn in the host's queue like any other request to that host.
 */
export function robotsFetchFor(
  fetcher: Fetcher,
  options: {
    /** @default 512000 */
    maxBytes?: number;
    onResult?: (result: FetchResult) => void | Promise<void>;
    politeness?: HostPoliteness;
    /** Delay passed to `politeness.acquire`; a function is read at each fetch (live settings). */
    delayMs?: number | (() => number);
    /** Shown by `politeness.waitingFor()` (e.g. the crawl id). */
    owner?: string;
  } = {},
): RobotsFetch {
  const maxBytes = options.maxBytes ?? 500 * 1024;
  const { politeness, owner } = options;
  return async (url, signal) => {
    const delayMs = typeof options.delayMs === "function" ? options.delayMs() : options.delayMs;
    const release = politeness ? await politeness.acquire(url, { delayMs, signal, owner }) : null;
    const result = await fetcher
      .fetch({
        method: "GET",
        url,
        signal,
        maxBodyBytes: maxBytes,
        overflow: "truncate",
        blockedMimePrefixes: [],
        wantBody: (_mime, head) => head.status >= 200 && head.status < 300,
      })
      .finally(() => release?.());
    await options.onResult?.(result);
    return result;
  };
}
