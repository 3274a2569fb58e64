import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CrawlConfigError, parseCrawlConfig } from "../../lib/crawl-config";
import { Prng } from "../../lib/crawler/prng";
import { MAX_REPETITIONS, NESTED_REPETITION, urlPatternProblem } from "../../lib/crawler/url-pattern-safety";
import { compileUrlPatterns, UrlPatternError } from "../../lib/crawler/url-rules";
import { liveSettingsPatchSchema } from "../../lib/store/commands/update-live-settings";
import { page, runTestCrawl, startRouteSite, type TestSite } from "../helpers/crawl-fixtures";

function fieldErrors(urlPatterns: string[]): Record<string, string> {
  try {
    parseCrawlConfig({ rootUrl: "https://a.org/", blocklist: { urlPatterns } });
  } catch (error) {
    if (error instanceof CrawlConfigError) return error.fields;
    throw error;
  }
  return {};
}

describe("URL pattern safety check", () => {
  it.each([
    "re:(a+)+$",
    "re:(a*)*b",
    "re:^https://a\\.org/(\\w+/)*end$",
    "re:([a-z]+\\.?)+@",
    "re:(?:x+)?",
    "re:(?<=(a+)+)x", // a lookbehind is checked as the group it is
  ])("refuses %s: nested repetition may take exponential time", (pattern) => {
    expect(urlPatternProblem(pattern)).toBe(NESTED_REPETITION);
  });

  it("refuses more repeated parts than safe-regex2 allows", () => {
    expect(urlPatternProblem(`re:${"a*".repeat(MAX_REPETITIONS + 1)}`)).toBe(
      `may take exponential time (more than ${MAX_REPETITIONS} repeated parts); simplify it`,
    );
    expect(urlPatternProblem(`re:${"a*".repeat(MAX_REPETITIONS)}`)).toBeNull();
  });

  it.each([
    ["re:([unclosed", "Unterminated character class"],
    ["re:(a", "Unterminated group"],
    ["re:a{2,1}", "numbers out of order in {} quantifier"],
    ["re:*x", "Nothing to repeat"],
  ])("refuses %s as not a valid regular expression, with V8's reason", (pattern, reason) => {
    expect(urlPatternProblem(pattern)).toBe(`is not a valid regular expression: ${reason}`);
  });

  it("refuses an empty re:", () => {
    expect(urlPatternProblem("re:")).toBe("is an empty regular expression: write one after re:");
  });

  it.each([
    "re:/(en|fr)/archive/\\d{4}/",
    "re:\\?(print|share)=1",
    "re:(?<=/)print$",
    "re:(?<!\\.pdf)\\?download$",
    "re:[(?<=]+x", // "(?<=" inside a character class is no lookbehind
    "re:^https://x\\.org/(foo|bar)/.*\\?page=\\d+$",
    "*/private/*",
    "*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*b",
    "https://a.org/search?q=*",
  ])("accepts %s", (pattern) => {
    expect(urlPatternProblem(pattern)).toBeNull();
  });

  it("is a field error on blocklist.urlPatterns.N when settings are validated (API, CLI)", () => {
    expect(fieldErrors(["*/ok/*", "re:(a+)+$", "re:(x", "re:\\d+"])).toEqual({
      "blocklist.urlPatterns.1": NESTED_REPETITION,
      "blocklist.urlPatterns.2": "is not a valid regular expression: Unterminated group",
    });
  });

  it("applies to live edits of URL patterns", () => {
    const parsed = liveSettingsPatchSchema.safeParse({ blocklist: { urlPatterns: ["re:ok", "re:(\\w+\\s?)*$"] } });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((issue) => [issue.path.join("."), issue.message])).toEqual([["blocklist.urlPatterns.1", NESTED_REPETITION]]);
  });

  it("compileUrlPatterns refuses an unsafe pattern too (the last guard), naming it and why", () => {
    expect(() => compileUrlPatterns(["re:(a+)+$"])).toThrow(UrlPatternError);
    expect(() => compileUrlPatterns(["re:(a+)+$"])).toThrow(`Invalid URL pattern "re:(a+)+$": ${NESTED_REPETITION}`);
  });
});

describe("glob URL patterns", () => {
  /** What a glob meant before: `*` any run of characters, anchored at both ends. */
  const reference = (glob: string) => new RegExp(`^${glob.split("*").map((part) => part.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")).join(".*")}$`);

  it("match exactly as the anchored regular expression did (seeded random globs and URLs)", () => {
    const prng = Prng.fromSeed(22);
    const alphabet = ["a", "b", "/", "?", ".", "*"];
    const word = (length: number, letters: string[]) => Array.from({ length }, () => letters[prng.nextInt(letters.length)]).join("");
    let matches = 0;
    for (let i = 0; i < 3000; i++) {
      const glob = word(1 + prng.nextInt(7), alphabet);
      const url = word(prng.nextInt(10), alphabet.slice(0, 5));
      const expected = reference(glob).test(url);
      if (expected) matches += 1;
      expect(compileUrlPatterns([glob])(url), `${glob} on ${url}`).toBe(expected);
    }
    expect(matches).toBeGreaterThan(100); // both answers were exercised
  });

  it("take linear time on a hostile URL where a backtracking regex would not finish", () => {
    const glob = `https://a.org/${"*a".repeat(30)}*b`;
    const url = `https://a.org/${"a".repeat(20_000)}`;
    const matches = compileUrlPatterns([glob]);
    const started = performance.now();
    expect(matches(url)).toBe(false);
    expect(matches(`${url}b`)).toBe(true);
    expect(performance.now() - started).toBeLessThan(100);
  });
});

describe("URL patterns in a crawl", () => {
  let site: TestSite;
  beforeAll(async () => {
    const links = Array.from({ length: 30 }, (_, i) => (i % 3 === 0 ? `/private/${i}` : `/p/${i}`));
    const routes: Record<string, string> = { "/": page(links) };
    for (const link of links) routes[link] = page(links.slice(0, 5));
    site = await startRouteSite(routes);
  });
  afterAll(() => site.close());

  it("are compiled once per crawl, not once per URL", async () => {
    const list = ["*/private/*", "re:/p/1\\d$"];
    let compiles = 0;
    // Compiling walks the list: count the walks.
    const counted = new Proxy(list, {
      get(target, key, receiver) {
        if (key === Symbol.iterator) compiles += 1;
        return Reflect.get(target, key, receiver);
      },
    });
    const crawl = await runTestCrawl({ rootUrl: site.rootUrl, politeness: { obeyRobots: false } }, { live: () => ({ delayMs: 0, urlPatterns: counted }) });
    expect(crawl.stopReason).toBe("site-exhausted");
    expect(site.paths("GET").filter((path) => path.startsWith("/private/"))).toEqual([]);
    expect(site.paths("GET").filter((path) => /^\/p\/1\d$/.test(path))).toEqual([]);
    expect(site.paths("GET").length).toBeGreaterThan(10);
    expect(compiles).toBe(1);
  });
});
