/**
 * robots.txt (lib/crawler/fetch/robots*): the parser and matcher on hostile text, the decisions
 * on generated rule sets against a reference written from RFC 9309 (group choice §2.2.1, longest
 * match with Allow winning ties §2.2.2, `*` and `$` and percent-encodings §2.2.3), and the cache's
 * reading of hostile answers (status, redirects, bodies).
 */
import fc from "fast-check";
import { FetchAbortedError } from "../../lib/crawler/fetch/errors";
import { RobotsCache, type RobotsFetch } from "../../lib/crawler/fetch/robots";
import { RobotsTxt } from "../../lib/crawler/fetch/robots-rules";
import { anyText, tokensOf } from "./arbitraries";
import { fuzzTarget } from "./fuzz-kit";
import type { FuzzTarget } from "./fuzz-target";

const TOKEN = "Forage";
const ORIGIN = "http://robots.example";

const LINE_PIECES = ["User-agent", "Disallow", "Allow", "Sitemap", "Crawl-delay", ":", " ", "*", "$", "/", "#", "\n", "\r\n", "\r", "Forage", "%", "%2F", "é", "\ufeff", "\u0000", "-1", "1e400", "NaN", "0x10"];

const hostileText = fuzzTarget({
  name: "robots.txt parser on hostile text",
  ciRuns: 800,
  memoryBoundMiB: 64,
  property: () =>
    fc.property(fc.oneof(anyText(400), tokensOf(LINE_PIECES, 80)), fc.oneof(anyText(30), tokensOf(["/", "a", "*", "$", "%", "%2a", "?", "é", "%C3"], 20)), (text, path) => {
      const robots = RobotsTxt.parse(text);
      let url: string;
      try {
        url = new URL(path, ORIGIN).href;
      } catch {
        return;
      }
      robots.isAllowed(url, TOKEN);
      const delay = robots.crawlDelaySeconds(TOKEN);
      if (delay !== null && !(Number.isFinite(delay) && delay >= 0)) throw new Error(`Crawl-delay ${delay}`);
      if (robots.sitemaps.some((s) => s === "" || /[\r\n]/.test(s))) throw new Error("empty or multi-line Sitemap value");
    }),
});

// ---- generated rule sets and the RFC 9309 reference ----

type Line = { kind: "agent"; value: string } | { kind: "rule"; allow: boolean; value: string } | { kind: "other"; text: string };

/** Product tokens a group may name, and whom they name. */
const AGENTS = ["Forage", "forage", "FORAGE", "*", "Googlebot", "other-bot", "Forager"];
/** Path characters: unreserved, reserved, escapes of both, non-ASCII, and the pattern signs. */
const PATH_PIECES = ["/", "a", "b", "-", ".", "_", "~", "%61", "%2F", "%2f", "?", "=", "é", "%C3%A9", "%c3%a9", "%7E", "*", "$", " ", "%25"];

const ruleValue = fc.string({ unit: fc.constantFrom(...PATH_PIECES.filter((p) => p !== " ")), maxLength: 6 }).map((v) => (v.startsWith("/") || v.startsWith("*") || v === "" ? v : `/${v}`));
const line: fc.Arbitrary<Line> = fc.oneof(
  { weight: 2, arbitrary: fc.constantFrom(...AGENTS).map((value): Line => ({ kind: "agent", value })) },
  { weight: 5, arbitrary: fc.record({ allow: fc.boolean(), value: ruleValue }).map((r): Line => ({ kind: "rule", ...r })) },
  { weight: 1, arbitrary: fc.constantFrom("Sitemap: http://robots.example/s.xml", "Crawl-delay: 2", "Foo: bar", "", "# just a comment").map((text): Line => ({ kind: "other", text })) },
);

/** One line as a sloppy author writes it: any case, spaces around the colon, a trailing comment. */
function writeLine(entry: Line, style: number): string {
  if (entry.kind === "other") return entry.text;
  const name = entry.kind === "agent" ? "user-agent" : entry.allow ? "allow" : "disallow";
  const cased = [name, name.toUpperCase(), name[0]!.toUpperCase() + name.slice(1)][style % 3]!;
  const colon = [":", " : ", ":   ", ":\t"][(style >> 2) % 4]!;
  const comment = style & 16 ? " # note" : "";
  return `${cased}${colon}${entry.value}${comment}`;
}

/** RFC 9309 §2.2.2's one form: unreserved escapes decoded, other escapes upper case, the rest UTF-8 escaped; in a path `*` and `$` are literal. */
function referenceForm(text: string, isPattern: boolean): string {
  let out = "";
  const bytes = Buffer.from(text, "utf8");
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i]!;
    const char = String.fromCharCode(byte);
    if (char === "%" && /^[0-9A-Fa-f]{2}$/.test(bytes.toString("latin1", i + 1, i + 3))) {
      const value = parseInt(bytes.toString("latin1", i + 1, i + 3), 16);
      out += /[A-Za-z0-9\-._~]/.test(String.fromCharCode(value)) ? String.fromCharCode(value) : `%${value.toString(16).toUpperCase().padStart(2, "0")}`;
      i += 2;
    } else if (char === "%") out += "%25";
    else if (char === "*" && !isPattern) out += "%2A";
    else if (char === "$") out += "%24";
    else if (byte <= 0x20 || byte >= 0x7f || ' "<>\\^`{|}'.includes(char)) out += `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
    else out += char;
  }
  return out;
}

function referenceAllowed(lines: Line[], url: string): boolean {
  // Groups: User-agent lines in a row (other lines do not break the row) start a group; rules join the open one.
  // An empty `Disallow:` still counts as a rule line (it ends the row) but disallows nothing.
  const groups: { agents: string[]; rules: { allow: boolean; value: string }[]; hadRuleLine: boolean }[] = [];
  let open: (typeof groups)[number] | null = null;
  for (const entry of lines) {
    if (entry.kind === "agent") {
      if (open === null || open.hadRuleLine) {
        open = { agents: [], rules: [], hadRuleLine: false };
        groups.push(open);
      }
      open.agents.push(entry.value.toLowerCase());
    } else if (entry.kind === "rule" && open !== null) {
      open.hadRuleLine = true;
      if (entry.value !== "") open.rules.push(entry);
    }
  }
  const own = groups.filter((g) => g.agents.includes(TOKEN.toLowerCase()));
  const chosen = own.length > 0 ? own : groups.filter((g) => g.agents.includes("*"));
  const parsed = new URL(url);
  const path = referenceForm(parsed.pathname + parsed.search, false);
  let allow = -1;
  let disallow = -1;
  for (const rule of chosen.flatMap((g) => g.rules)) {
    const anchored = rule.value.endsWith("$");
    const form = referenceForm(anchored ? rule.value.slice(0, -1) : rule.value, true);
    const regex = new RegExp(`^${form.split("*").map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join(".*")}${anchored ? "$" : ""}`, "s");
    if (!regex.test(path)) continue;
    const length = form.length + (anchored ? 1 : 0);
    if (rule.allow) allow = Math.max(allow, length);
    else disallow = Math.max(disallow, length);
  }
  return allow >= disallow;
}

const decisions = fuzzTarget({
  name: "robots.txt decisions vs an RFC 9309 reference",
  ciRuns: 800,
  memoryBoundMiB: 64,
  property: () =>
    fc.property(
      fc.array(line, { maxLength: 14 }),
      fc.array(fc.nat(31), { minLength: 14, maxLength: 14 }),
      fc.constantFrom("\n", "\r\n", "\r"),
      fc.boolean(),
      fc.array(fc.string({ unit: fc.constantFrom(...PATH_PIECES), maxLength: 8 }), { minLength: 1, maxLength: 6 }),
      (lines, styles, newline, bom, paths) => {
        const text = (bom ? "\ufeff" : "") + lines.map((entry, i) => writeLine(entry, styles[i]!)).join(newline);
        const robots = RobotsTxt.parse(text);
        for (const path of paths) {
          const url = new URL(`/${path.replace(/^\/+/, "")}`, ORIGIN).href;
          const expected = referenceAllowed(lines, url);
          if (robots.isAllowed(url, TOKEN) !== expected) throw new Error(`${url} allowed ≠ ${expected} under\n${text}`);
        }
      },
    ),
});

// ---- the cache's reading of hostile answers ----

interface Answer {
  status: number;
  location: string | undefined;
  body: Uint8Array | null;
  outcome: "ok" | "truncated" | "error";
  aborted: boolean;
}
const answer: fc.Arbitrary<Answer> = fc.record({
  status: fc.oneof(fc.constantFrom(200, 204, 301, 302, 307, 308, 304, 401, 403, 404, 410, 429, 500, 503, 599), fc.integer({ min: 0, max: 999 })),
  location: fc.option(fc.oneof(fc.constantFrom("/robots.txt", "http://robots.example/r.txt", "//elsewhere.example/robots.txt", "ftp://x/", "http://["), anyText(20)), { nil: undefined }),
  body: fc.option(fc.oneof(fc.uint8Array({ maxLength: 200 }), fc.constantFrom(...["User-agent: *\nDisallow: /private\n", "User-agent: Forage\nDisallow: /\nCrawl-delay: 1e9"]).map((t) => new Uint8Array(Buffer.from(t))))),
  outcome: fc.constantFrom("ok", "ok", "truncated", "error"),
  aborted: fc.boolean(),
});

const cache = fuzzTarget({
  name: "robots.txt cache on hostile answers",
  ciRuns: 250,
  memoryBoundMiB: 64,
  property: () =>
    fc.asyncProperty(fc.array(answer, { minLength: 1, maxLength: 8 }), fc.array(anyText(20), { maxLength: 4 }), async (answers, paths) => {
      let hop = 0;
      const fetchRobots: RobotsFetch = async () => {
        const a = answers[Math.min(hop++, answers.length - 1)]!;
        return {
          status: a.outcome === "error" ? 0 : a.status,
          location: a.location,
          body: a.body ? Buffer.from(a.body) : null,
          outcome: a.outcome,
          error: a.outcome === "error" ? ({ code: a.aborted ? "aborted" : "connect", message: "x", retryable: true } as never) : undefined,
        } as Awaited<ReturnType<RobotsFetch>>;
      };
      const robots = new RobotsCache(fetchRobots, { maxRedirects: 3 });
      let rules;
      try {
        rules = await robots.rulesFor(`${ORIGIN}/x`);
      } catch (error) {
        if (error instanceof FetchAbortedError) return;
        throw error;
      }
      if (hop > 4) throw new Error(`${hop} fetches for at most 3 redirects`);
      for (const path of ["/", "/robots.txt", ...paths]) {
        let url: string;
        try {
          url = new URL(path, ORIGIN).href;
        } catch {
          continue;
        }
        const allowed = rules.isAllowed(url);
        if (new URL(url).pathname === "/robots.txt" && !allowed) throw new Error("/robots.txt itself refused");
        if (rules.status === "disallow-all" && new URL(url).pathname !== "/robots.txt" && allowed) throw new Error(`${url} allowed under disallow-all`);
      }
      const delay = rules.crawlDelayMs();
      if (delay !== null && !(delay >= 0 && delay <= 30_000)) throw new Error(`crawl delay ${delay} ms outside [0, cap]`);
      if (rules.sitemaps.some((s) => !URL.canParse(s))) throw new Error(`sitemap not a URL: ${rules.sitemaps.join(" ")}`);
    }),
});

export const fuzzTargets: FuzzTarget[] = [hostileText, decisions, cache];
