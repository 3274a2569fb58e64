/**
 * A robots.txt file's rules, parsed and decided as RFC 9309 says. Written here rather than
 * taken from `robots-parser`, which broke two of its requirements in ways that made Forage
 * fetch what a site refused or refuse what it allowed:
 * - a group is ended only by a `User-agent` line after rules (§2.1); a `Sitemap:`,
 *   `Crawl-delay:` or unknown line between `User-agent` lines does not end it (§2.2.4), so in
 *   `User-agent: FooBot` / `Sitemap: …` / `User-agent: BarBot` / `Disallow: /` FooBot is refused;
 * - a group that names the crawler applies even when it has no rules: it allows everything
 *   (the `quxbot` example of §5.1), instead of falling back to the `*` group.
 *
 * The rest: groups are found by the crawler's product token, case-insensitively; every group
 * naming it is merged into one (§2.2.1), else every `*` group, else no rule applies. Rules
 * outside any group are ignored. The longest matching pattern decides, `Allow` winning a tie
 * (§2.2.2); see robots-path.ts for encodings, `*` and `$`. Lines end in CR, LF or CRLF; `#`
 * starts a comment; names are case-insensitive; a leading UTF-8 byte-order mark is skipped.
 *
 * Two leniencies of Google's parser are kept because they only read what the author obviously
 * meant: a missing colon (`Disallow /x`), and a `User-agent` value read up to its first
 * character that cannot be in a product token (`User-agent: Foo Bar` names Foo).
 */
import { compileRobotsPattern, matchesRobotsPattern, robotsPathOf, type RobotsPattern } from "./robots-path";

export interface RobotsRule {
  allow: boolean;
  pattern: RobotsPattern;
}

export interface RobotsGroup {
  /** Product tokens, lower-cased; `*` for the group of every other crawler. */
  userAgents: string[];
  rules: RobotsRule[];
  /** `Crawl-delay:` of the group in seconds (not in RFC 9309; a widespread extension). */
  crawlDelaySeconds: number | null;
}

/** What a group-less crawler token gets: the merged groups that apply to it. */
export interface AppliedRules {
  rules: RobotsRule[];
  crawlDelaySeconds: number | null;
}

/** RFC 9309 §2.2.1: a product token is letters, `_` and `-` only. */
export function isValidProductToken(token: string): boolean {
  return /^[A-Za-z_-]+$/.test(token);
}

const NAMES: Record<string, "user-agent" | "allow" | "disallow" | "sitemap" | "crawl-delay"> = {
  "user-agent": "user-agent",
  useragent: "user-agent",
  "user agent": "user-agent",
  allow: "allow",
  disallow: "disallow",
  sitemap: "sitemap",
  "site-map": "sitemap",
  "crawl-delay": "crawl-delay",
  crawldelay: "crawl-delay",
};

export class RobotsTxt {
  private readonly applied = new Map<string, AppliedRules>();

  private constructor(
    readonly groups: readonly RobotsGroup[],
    /** `Sitemap:` values in file order, as written (they may appear anywhere, §2.2.4). */
    readonly sitemaps: readonly string[],
  ) {}

  static parse(text: string): RobotsTxt {
    const groups: RobotsGroup[] = [];
    const sitemaps: string[] = [];
    let group: RobotsGroup | null = null;
    let groupHasRuleLines = false;
    // A BOM, whole or cut (decoded as U+FFFD), is not part of the first line.
    const body = text.replace(/^(\uFEFF|\uFFFD{1,3})/, "");
    for (const rawLine of body.split(/\r\n|\r|\n/)) {
      const line = parseLine(rawLine);
      if (!line) continue;
      switch (line.name) {
        case "user-agent": {
          // Consecutive User-agent lines (other lines in between do not count) share a group.
          if (!group || groupHasRuleLines) {
            group = { userAgents: [], rules: [], crawlDelaySeconds: null };
            groupHasRuleLines = false;
            groups.push(group);
          }
          const agent = productToken(line.value);
          if (agent) group.userAgents.push(agent); // a value with no token starts a group that names no crawler
          break;
        }
        case "allow":
        case "disallow": {
          if (!group) break; // a rule before any User-agent line belongs to no group
          groupHasRuleLines = true;
          const pattern = compileRobotsPattern(line.value);
          if (pattern) group.rules.push({ allow: line.name === "allow", pattern });
          break;
        }
        case "crawl-delay": {
          const seconds = Number(line.value);
          if (group && group.crawlDelaySeconds === null && line.value !== "" && Number.isFinite(seconds) && seconds >= 0) {
            group.crawlDelaySeconds = seconds;
          }
          break;
        }
        case "sitemap":
          if (line.value) sitemaps.push(line.value);
          break;
      }
    }
    return new RobotsTxt(groups, sitemaps);
  }

  /** The merged groups for a product token (§2.2.1): its own, else `*`, else none. */
  rulesFor(token: string): AppliedRules {
    const key = token.toLowerCase();
    let applied = this.applied.get(key);
    if (!applied) {
      const own = this.groups.filter((g) => g.userAgents.includes(key));
      const chosen = own.length > 0 ? own : this.groups.filter((g) => g.userAgents.includes("*"));
      const delays = chosen.map((g) => g.crawlDelaySeconds).filter((d): d is number => d !== null);
      applied = { rules: chosen.flatMap((g) => g.rules), crawlDelaySeconds: delays.length > 0 ? Math.max(...delays) : null };
      this.applied.set(key, applied);
    }
    return applied;
  }

  /** Whether the crawler `token` may fetch `url` (its path and query; the origin is the caller's). */
  isAllowed(url: string | URL, token: string): boolean {
    const path = robotsPathOf(url);
    let allowLength = -1;
    let disallowLength = -1;
    for (const rule of this.rulesFor(token).rules) {
      const length = rule.pattern.length;
      if (length <= (rule.allow ? allowLength : disallowLength) || !matchesRobotsPattern(rule.pattern, path)) continue;
      if (rule.allow) allowLength = length;
      else disallowLength = length;
    }
    return allowLength >= disallowLength;
  }

  /** `Crawl-delay` of the groups that apply to `token`, in seconds (the largest when merged). */
  crawlDelaySeconds(token: string): number | null {
    return this.rulesFor(token).crawlDelaySeconds;
  }
}

/** `name: value` without its comment; the colon may be missing when a known name is followed by a space. */
function parseLine(raw: string): { name: (typeof NAMES)[string]; value: string } | null {
  const hash = raw.indexOf("#");
  const line = (hash >= 0 ? raw.slice(0, hash) : raw).trim();
  if (line === "") return null;
  const colon = line.indexOf(":");
  let name: string;
  let value: string;
  if (colon >= 0) {
    name = line.slice(0, colon);
    value = line.slice(colon + 1);
  } else {
    const match = /^(\S+)\s+(.*)$/.exec(line);
    if (!match) return null;
    [, name = "", value = ""] = match;
  }
  const known = NAMES[name.trim().toLowerCase()];
  return known ? { name: known, value: value.trim() } : null;
}

/** The product token a User-agent value names: `*`, or its leading token characters, lower-cased. */
function productToken(value: string): string {
  if (value.startsWith("*")) return "*";
  return (/^[A-Za-z_-]*/.exec(value)?.[0] ?? "").toLowerCase();
}
