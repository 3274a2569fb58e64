import { spawnSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CrawlConfigError, parseCrawlConfig } from "../../lib/crawl-config";
import { Prng } from "../../lib/crawler/prng";
import { MAX_PROGRAM_SIZE, urlPatternProblem } from "../../lib/crawler/url-pattern-safety";
import { compileUrlPatterns, UrlPatternError } from "../../lib/crawler/url-rules";
import { liveSettingsPatchSchema } from "../../lib/store/commands/update-live-settings";
import { page, runTestCrawl, startRouteSite, type TestSite } from "../helpers/crawl-fixtures";
import { PROJECT_ROOT } from "../helpers/paths";

function fieldErrors(urlPatterns: string[]): Record<string, string> {
  try {
    parseCrawlConfig({ rootUrl: "https://a.org/", blocklist: { urlPatterns } });
  } catch (error) {
    if (error instanceof CrawlConfigError) return error.fields;
    throw error;
  }
  return {};
}

const LINEAR = "which Forage's linear-time pattern engine cannot run";

describe("re: patterns on the linear-time engine (RE2)", () => {
  it.each([
    ["re:/a(?=b)", `uses a lookahead (?=…), ${LINEAR}; match the text itself instead`],
    ["re:/a(?!b)", `uses a negative lookahead (?!…), ${LINEAR}; add a glob or a second pattern instead`],
    ["re:/(\\w+)/\\1$", `uses a back-reference (\\1), ${LINEAR}; repeat the part itself instead`],
    ["re:/(?<id>\\d+)/\\k<id>", `uses a named back-reference (\\k<…>), ${LINEAR}; repeat the part itself instead`],
    ["re:[\\1]", "uses a legacy octal escape (\\1) inside [...]; write the character as \\xHH"],
    ["re:a{1001}", "repeats a part more than 1000 times, nested repeats multiplied (`{1001}`), more than Forage's linear-time pattern engine accepts; simplify it"],
    ["re:(?:a{100}){11}", "repeats a part more than 1000 times, nested repeats multiplied (`{11}`), more than Forage's linear-time pattern engine accepts; simplify it"],
    [`re:${".{1000}".repeat(5)}x`, `is too large (a program of 5003 instructions, at most ${MAX_PROGRAM_SIZE}), more than Forage's linear-time pattern engine accepts; simplify it`],
  ])("refuses %s, saying why", (pattern, message) => {
    expect(urlPatternProblem(pattern)).toBe(message);
  });

  it.each([
    ["re:([unclosed", "Unterminated character class"],
    ["re:(a", "Unterminated group"],
    ["re:a{2,1}", "numbers out of order in {} quantifier"],
    ["re:*x", "Nothing to repeat"],
    ["re:a(?i)b", "Invalid group"], // (?i) only leads a pattern
  ])("refuses %s as not a valid regular expression, with V8's reason", (pattern, reason) => {
    expect(urlPatternProblem(pattern)).toBe(`is not a valid regular expression: ${reason}`);
  });

  it("refuses an empty re:", () => {
    expect(urlPatternProblem("re:")).toBe("is an empty regular expression: write one after re:");
  });

  it.each([
    "re:(a+)+$", // nested repetition: harmless in linear time
    "re:a(a|a)*$",
    "re:/(en|fr)/archive/\\d{4}/",
    "re:\\?(print|share)=1",
    "re:(?<=/)print$",
    "re:(?<!\\.pdf)\\?download$",
    "re:(?<=(a+))x", // a group inside a lookbehind
    "re:/(?<year>\\d{4})/",
    "re:(?i)\\.pdf$",
    "re:[(?<=]+x",
    "re:^https://x\\.org/(foo|bar)/.*\\?page=\\d+$",
    "*/private/*",
    "*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*b",
    "https://a.org/search?q=*",
  ])("accepts %s", (pattern) => {
    expect(urlPatternProblem(pattern)).toBeNull();
  });

  it("takes a leading (?i) as JavaScript's i flag", () => {
    const matches = compileUrlPatterns(["re:(?i)/files/.*\\.pdf$"]);
    expect(["https://a.org/FILES/x.PDF", "https://a.org/files/y.pdf"].map(matches)).toEqual([true, true]);
    expect(matches("https://a.org/files/y.pdf.html")).toBe(false);
    expect(compileUrlPatterns(["re:/files/.*\\.pdf$"])("https://a.org/FILES/x.PDF")).toBe(false);
  });

  it("answers the reported attack, a(a|a)*$ on /aaa…a!, in milliseconds (in a child process killed after 20 s)", () => {
    // A backtracking engine would never return: run it where a timeout can end it.
    const script = `
      import { compileUrlPatterns } from "./lib/crawler/url-rules.ts";
      const matches = compileUrlPatterns(["re:^http://host/a(a|a)*$"]);
      const started = performance.now();
      const hostile = matches("http://host/" + "a".repeat(50) + "!");
      const long = matches("http://host/" + "a".repeat(50000) + "!");
      const honest = matches("http://host/" + "a".repeat(50));
      console.log(JSON.stringify({ hostile, long, honest, ms: performance.now() - started }));
    `;
    const child = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
      cwd: PROJECT_ROOT,
      encoding: "utf8",
      timeout: 20_000,
      killSignal: "SIGKILL",
    });
    expect(child.signal, `the match did not end: ${child.stderr}`).toBeNull();
    const answer = JSON.parse(child.stdout.trim()) as { hostile: boolean; long: boolean; honest: boolean; ms: number };
    expect(answer).toMatchObject({ hostile: false, long: false, honest: true });
    expect(answer.ms).toBeLessThan(200);
  });

  it("matches as V8 did on patterns it can run (seeded random patterns and URLs)", () => {
    const prng = Prng.fromSeed(7);
    const pick = <T>(items: readonly T[]) => items[prng.nextInt(items.length)]!;
    const atoms = ["a", "b", "/", "\\.", ".", "\\d", "\\w", "[ab]", "[^a/]", "\\/", "\\?", "=", "1", "\\b", "\\B", "\\x61", "\\u0062", "\\q", "[]", "[^]", "[\\b]", "[[:a]"];
    const quantifiers = ["", "", "*", "+", "?", "{2}", "{1,3}", "*?", "{,2}"];
    const piece = (depth: number): string => {
      const roll = prng.nextInt(10);
      if (depth < 2 && roll === 0) return `(${piece(depth + 1)}|${piece(depth + 1)})${pick(quantifiers)}`;
      if (depth < 2 && roll === 1) return `(?<=${piece(depth + 1)})`;
      if (depth < 2 && roll === 2) return `(?<g${prng.nextInt(1000)}>${piece(depth + 1)})`;
      return pick(atoms) + pick(quantifiers);
    };
    const letters = ["a", "b", "/", ".", "1", "?", "=", "x", "A", "B"];
    let compared = 0;
    let matched = 0;
    for (let i = 0; i < 3000; i++) {
      const source = (prng.nextInt(4) === 0 ? "^" : "") + Array.from({ length: 1 + prng.nextInt(4) }, () => piece(0)).join("") + (prng.nextInt(4) === 0 ? "$" : "");
      const ignoreCase = prng.nextInt(5) === 0;
      let reference: RegExp;
      try {
        reference = new RegExp(source, ignoreCase ? "i" : "");
      } catch {
        continue; // V8 refuses it: so does Forage, with V8's reason
      }
      const matches = compileUrlPatterns([`re:${ignoreCase ? "(?i)" : ""}${source}`]);
      for (let j = 0; j < 5; j++) {
        const url = Array.from({ length: prng.nextInt(12) }, () => pick(letters)).join("");
        const expected = reference.test(url);
        expect(matches(url), `/${source}/ on ${url}`).toBe(expected);
        compared += 1;
        if (expected) matched += 1;
      }
    }
    expect(compared).toBeGreaterThan(5000);
    expect(matched).toBeGreaterThan(compared / 10); // both answers were exercised
  });

  it("is a field error on blocklist.urlPatterns.N when settings are validated (API, CLI)", () => {
    expect(fieldErrors(["*/ok/*", "re:x(?=y)", "re:(x", "re:\\d+"])).toEqual({
      "blocklist.urlPatterns.1": `uses a lookahead (?=…), ${LINEAR}; match the text itself instead`,
      "blocklist.urlPatterns.2": "is not a valid regular expression: Unterminated group",
    });
    expect(() => parseCrawlConfig({ rootUrl: "https://a.org/", blocklist: { urlPatterns: ["*/ok/*", "re:x(?=y)"] } })).toThrow(
      `blocklist.urlPatterns.1 uses a lookahead (?=…), ${LINEAR}`,
    );
  });

  it("refuses patterns whose programs are too large together: every URL is checked against all of them", () => {
    const big = "re:/.{1000}/"; // 1 000-odd instructions: a match costs the URL's length times that
    expect(urlPatternProblem(big)).toBeNull();
    expect(fieldErrors(["*/ok/*", big, big, big, big])).toEqual({});
    const errors = fieldErrors(["*/ok/*", big, big, big, big, big]);
    expect(Object.keys(errors)).toEqual(["blocklist.urlPatterns"]);
    expect(errors["blocklist.urlPatterns"]).toMatch(
      new RegExp(`^hold re: patterns too large together \\(programs of \\d+ instructions, at most ${MAX_PROGRAM_SIZE}\\): every URL is checked against each of them`),
    );
    expect(() => compileUrlPatterns([big, big, big, big, big])).toThrow(/too large together/);
  });

  it("applies to live edits of URL patterns", () => {
    const parsed = liveSettingsPatchSchema.safeParse({ blocklist: { urlPatterns: ["re:ok", "re:(\\w)\\1"] } });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((issue) => [issue.path.join("."), issue.message])).toEqual([
      ["blocklist.urlPatterns.1", `uses a back-reference (\\1), ${LINEAR}; repeat the part itself instead`],
    ]);
  });

  it("compileUrlPatterns refuses a pattern RE2 cannot run too (the last guard), naming it and why", () => {
    expect(() => compileUrlPatterns(["re:a(?=b)"])).toThrow(UrlPatternError);
    expect(() => compileUrlPatterns(["re:a(?=b)"])).toThrow(`Invalid URL pattern "re:a(?=b)": uses a lookahead (?=…), ${LINEAR}`);
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
