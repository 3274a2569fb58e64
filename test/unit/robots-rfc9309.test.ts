/**
 * RFC 9309 (Robots Exclusion Protocol) as Forage decides it. The table holds the cases of
 * Google's reference test suite (google/robotstxt `robots_test.cc`, named after its tests),
 * the RFC's own examples (§2.2.1–§2.2.3, §5.1, §5.2) and two cases `robots-parser` got wrong.
 * Each row: where it comes from, the robots.txt, the crawler's product token, the URL, and
 * whether the URL may be fetched.
 *
 * Left out, as Google-only behaviour outside the RFC: `index.html` at the end of an Allow
 * standing for its directory (it would allow more than the site wrote), lines cut after
 * 16,664 bytes, and the empty crawler token or empty URL of the system test (Forage's token
 * is validated and its URLs are absolute).
 */
import { describe, expect, it } from "vitest";
import { compileRobotsPattern, robotsPathOf } from "../../lib/crawler/fetch/robots-path";
import { isValidProductToken, RobotsTxt } from "../../lib/crawler/fetch/robots-rules";

type Row = [source: string, robotsTxt: string, token: string, url: string, allowed: boolean];

const u = (path: string) => `http://foo.bar${path}`;

const GROUPS = `allow: /foo/bar/

user-agent: FooBot
disallow: /
allow: /x/
user-agent: BarBot
disallow: /
allow: /y/


allow: /w/
user-agent: BazBot

user-agent: FooBot
allow: /z/
disallow: /
`;

const CASES = {
  upper: "USER-AGENT: FooBot\nALLOW: /x/\nDISALLOW: /\n",
  lower: "user-agent: FooBot\nallow: /x/\ndisallow: /\n",
  camel: "uSeR-aGeNt: FooBot\nAlLoW: /x/\ndIsAlLoW: /\n",
};

const AGENT_CASES = {
  upper: "User-Agent: FOO BAR\nAllow: /x/\nDisallow: /\n",
  lower: "User-Agent: foo bar\nAllow: /x/\nDisallow: /\n",
  camel: "User-Agent: FoO bAr\nAllow: /x/\nDisallow: /\n",
};

const fish = (pattern: string) => `user-agent: FooBot\ndisallow: /\nallow: ${pattern}\n`;

/** RFC 9309 §5.1. */
const RFC_SIMPLE = `User-Agent: *
Disallow: *.gif$
Disallow: /example/
Allow: /publications/

User-Agent: foobot
Disallow:/
Allow:/example/page.html
Allow:/example/allowed.gif

User-Agent: barbot
User-Agent: bazbot
Disallow: /example/page.html

User-Agent: quxbot

EOF
`;

const GOOGLE: Row[] = [
  ["GoogleOnly_SystemTest: empty robots.txt", "", "FooBot", u("/"), true],
  ["ID_LineSyntax_Line: correct", "user-agent: FooBot\ndisallow: /\n", "FooBot", u("/x/y"), false],
  ["ID_LineSyntax_Line: unknown names", "foo: FooBot\nbar: /\n", "FooBot", u("/x/y"), true],
  ["ID_LineSyntax_Line: missing colon accepted", "user-agent FooBot\ndisallow /\n", "FooBot", u("/x/y"), false],

  ["ID_LineSyntax_Groups", GROUPS, "FooBot", u("/x/b"), true],
  ["ID_LineSyntax_Groups", GROUPS, "FooBot", u("/z/d"), true],
  ["ID_LineSyntax_Groups", GROUPS, "FooBot", u("/y/c"), false],
  ["ID_LineSyntax_Groups", GROUPS, "BarBot", u("/y/c"), true],
  ["ID_LineSyntax_Groups", GROUPS, "BarBot", u("/w/a"), true],
  ["ID_LineSyntax_Groups", GROUPS, "BarBot", u("/z/d"), false],
  ["ID_LineSyntax_Groups", GROUPS, "BazBot", u("/z/d"), true],
  ["ID_LineSyntax_Groups: rules outside groups ignored", GROUPS, "FooBot", u("/foo/bar/"), false],
  ["ID_LineSyntax_Groups: rules outside groups ignored", GROUPS, "BarBot", u("/foo/bar/"), false],
  ["ID_LineSyntax_Groups: rules outside groups ignored", GROUPS, "BazBot", u("/foo/bar/"), false],

  ...Object.entries(CASES).flatMap(([name, txt]): Row[] => [
    [`ID_REPLineNamesCaseInsensitive: ${name}`, txt, "FooBot", u("/x/y"), true],
    [`ID_REPLineNamesCaseInsensitive: ${name}`, txt, "FooBot", u("/a/b"), false],
  ]),
  ...Object.entries(AGENT_CASES).flatMap(([name, txt]): Row[] => [
    [`ID_UserAgentValueCaseInsensitive: ${name}`, txt, "Foo", u("/x/y"), true],
    [`ID_UserAgentValueCaseInsensitive: ${name}`, txt, "Foo", u("/a/b"), false],
    [`ID_UserAgentValueCaseInsensitive: ${name}`, txt, "foo", u("/x/y"), true],
    [`ID_UserAgentValueCaseInsensitive: ${name}`, txt, "foo", u("/a/b"), false],
  ]),
  ["GoogleOnly_AcceptUserAgentUpToFirstSpace", "User-Agent: *\nDisallow: /\nUser-Agent: Foo Bar\nAllow: /x/\nDisallow: /\n", "Foo", u("/x/y"), true],
  ["GoogleOnly_AcceptUserAgentUpToFirstSpace", "User-Agent: *\nDisallow: /\nUser-Agent: Foo Bar\nAllow: /x/\nDisallow: /\n", "Foo Bar", u("/x/y"), false],

  ["ID_GlobalGroups_Secondary: empty", "", "FooBot", u("/x/y"), true],
  ["ID_GlobalGroups_Secondary: global", "user-agent: *\nallow: /\nuser-agent: FooBot\ndisallow: /\n", "FooBot", u("/x/y"), false],
  ["ID_GlobalGroups_Secondary: global", "user-agent: *\nallow: /\nuser-agent: FooBot\ndisallow: /\n", "BarBot", u("/x/y"), true],
  [
    "ID_GlobalGroups_Secondary: only specific groups",
    "user-agent: FooBot\nallow: /\nuser-agent: BarBot\ndisallow: /\nuser-agent: BazBot\ndisallow: /\n",
    "QuxBot",
    u("/x/y"),
    true,
  ],

  ["ID_AllowDisallow_Value_CaseSensitive", "user-agent: FooBot\ndisallow: /x/\n", "FooBot", u("/x/y"), false],
  ["ID_AllowDisallow_Value_CaseSensitive", "user-agent: FooBot\ndisallow: /X/\n", "FooBot", u("/x/y"), true],

  ["ID_LongestMatch", "user-agent: FooBot\ndisallow: /x/page.html\nallow: /x/\n", "FooBot", u("/x/page.html"), false],
  ["ID_LongestMatch", "user-agent: FooBot\nallow: /x/page.html\ndisallow: /x/\n", "FooBot", u("/x/page.html"), true],
  ["ID_LongestMatch", "user-agent: FooBot\nallow: /x/page.html\ndisallow: /x/\n", "FooBot", u("/x/"), false],
  ["ID_LongestMatch: empty allow and disallow", "user-agent: FooBot\ndisallow: \nallow: \n", "FooBot", u("/x/page.html"), true],
  ["ID_LongestMatch: equal patterns, allow wins", "user-agent: FooBot\ndisallow: /\nallow: /\n", "FooBot", u("/x/page.html"), true],
  ["ID_LongestMatch", "user-agent: FooBot\ndisallow: /x\nallow: /x/\n", "FooBot", u("/x"), false],
  ["ID_LongestMatch", "user-agent: FooBot\ndisallow: /x\nallow: /x/\n", "FooBot", u("/x/"), true],
  ["ID_LongestMatch: equal patterns, allow wins", "user-agent: FooBot\ndisallow: /x/page.html\nallow: /x/page.html\n", "FooBot", u("/x/page.html"), true],
  ["ID_LongestMatch", "user-agent: FooBot\nallow: /page\ndisallow: /*.html\n", "FooBot", u("/page.html"), false],
  ["ID_LongestMatch", "user-agent: FooBot\nallow: /page\ndisallow: /*.html\n", "FooBot", u("/page"), true],
  ["ID_LongestMatch", "user-agent: FooBot\nallow: /x/page.\ndisallow: /*.html\n", "FooBot", u("/x/page.html"), true],
  ["ID_LongestMatch", "user-agent: FooBot\nallow: /x/page.\ndisallow: /*.html\n", "FooBot", u("/x/y.html"), false],
  ["ID_LongestMatch: own group replaces *", "User-agent: *\nDisallow: /x/\nUser-agent: FooBot\nDisallow: /y/\n", "FooBot", u("/x/page"), true],
  ["ID_LongestMatch: own group replaces *", "User-agent: *\nDisallow: /x/\nUser-agent: FooBot\nDisallow: /y/\n", "FooBot", u("/y/page"), false],

  [
    "ID_Encoding: reserved characters in the query",
    "User-agent: FooBot\nDisallow: /\nAllow: /foo/bar?qux=taz&baz=http://foo.bar?tar&par\n",
    "FooBot",
    u("/foo/bar?qux=taz&baz=http://foo.bar?tar&par"),
    true,
  ],
  ["ID_Encoding: UTF-8 rule, encoded URL", "User-agent: FooBot\nDisallow: /\nAllow: /foo/bar/ツ\n", "FooBot", u("/foo/bar/%E3%83%84"), true],
  ["ID_Encoding: encoded rule, encoded URL", "User-agent: FooBot\nDisallow: /\nAllow: /foo/bar/%E3%83%84\n", "FooBot", u("/foo/bar/%E3%83%84"), true],
  ["ID_Encoding: encoded unreserved characters", "User-agent: FooBot\nDisallow: /\nAllow: /foo/bar/%62%61%7A\n", "FooBot", u("/foo/bar/%62%61%7A"), true],

  ["ID_SpecialCharacters: *", "User-agent: FooBot\nDisallow: /foo/bar/quz\nAllow: /foo/*/qux\n", "FooBot", u("/foo/bar/quz"), false],
  ["ID_SpecialCharacters: *", "User-agent: FooBot\nDisallow: /foo/bar/quz\nAllow: /foo/*/qux\n", "FooBot", u("/foo/quz"), true],
  ["ID_SpecialCharacters: *", "User-agent: FooBot\nDisallow: /foo/bar/quz\nAllow: /foo/*/qux\n", "FooBot", u("/foo//quz"), true],
  ["ID_SpecialCharacters: *", "User-agent: FooBot\nDisallow: /foo/bar/quz\nAllow: /foo/*/qux\n", "FooBot", u("/foo/bax/quz"), true],
  ["ID_SpecialCharacters: $", "User-agent: FooBot\nDisallow: /foo/bar$\nAllow: /foo/bar/qux\n", "FooBot", u("/foo/bar"), false],
  ["ID_SpecialCharacters: $", "User-agent: FooBot\nDisallow: /foo/bar$\nAllow: /foo/bar/qux\n", "FooBot", u("/foo/bar/qux"), true],
  ["ID_SpecialCharacters: $", "User-agent: FooBot\nDisallow: /foo/bar$\nAllow: /foo/bar/qux\n", "FooBot", u("/foo/bar/"), true],
  ["ID_SpecialCharacters: $", "User-agent: FooBot\nDisallow: /foo/bar$\nAllow: /foo/bar/qux\n", "FooBot", u("/foo/bar/baz"), true],
  ["ID_SpecialCharacters: #", "User-agent: FooBot\n# Disallow: /\nDisallow: /foo/quz#qux\nAllow: /\n", "FooBot", u("/foo/bar"), true],
  ["ID_SpecialCharacters: #", "User-agent: FooBot\n# Disallow: /\nDisallow: /foo/quz#qux\nAllow: /\n", "FooBot", u("/foo/quz"), false],

  ...(
    [
      ["/fish", ["/fish", "/fish.html", "/fish/salmon.html", "/fishheads", "/fishheads/yummy.html", "/fish.html?id=anything"], ["/bar", "/Fish.asp", "/catfish", "/?id=fish"]],
      ["/fish*", ["/fish", "/fish.html", "/fish/salmon.html", "/fishheads", "/fishheads/yummy.html", "/fish.html?id=anything"], ["/bar", "/Fish.bar", "/catfish", "/?id=fish"]],
      ["/fish/", ["/fish/", "/fish/salmon", "/fish/?salmon", "/fish/salmon.html", "/fish/?id=anything"], ["/bar", "/fish", "/fish.html", "/Fish/Salmon.html"]],
      [
        "/*.php",
        ["/filename.php", "/folder/filename.php", "/folder/filename.php?parameters", "//folder/any.php.file.html", "/filename.php/", "/index?f=filename.php/"],
        ["/bar", "/php/", "/index?php", "/windows.PHP"],
      ],
      [
        "/*.php$",
        ["/filename.php", "/folder/filename.php"],
        ["/bar", "/filename.php?parameters", "/filename.php/", "/filename.php5", "/php/", "/filename?php", "/aaaphpaaa", "//windows.PHP"],
      ],
      ["/fish*.php", ["/fish.php", "/fishheads/catfish.php?parameters"], ["/bar", "/Fish.PHP"]],
    ] as const
  ).flatMap(([pattern, allowed, refused]): Row[] => [
    ...allowed.map((path): Row => [`GoogleOnly_DocumentationChecks: allow ${pattern}`, fish(pattern), "FooBot", u(path), true]),
    ...refused.map((path): Row => [`GoogleOnly_DocumentationChecks: allow ${pattern}`, fish(pattern), "FooBot", u(path), false]),
  ]),
  ["GoogleOnly_DocumentationChecks: precedence", "user-agent: FooBot\nallow: /p\ndisallow: /\n", "FooBot", "http://example.com/page", true],
  ["GoogleOnly_DocumentationChecks: precedence", "user-agent: FooBot\nallow: /folder\ndisallow: /folder\n", "FooBot", "http://example.com/folder/page", true],
  ["GoogleOnly_DocumentationChecks: precedence", "user-agent: FooBot\nallow: /page\ndisallow: /*.htm\n", "FooBot", "http://example.com/page.htm", false],
  ["GoogleOnly_DocumentationChecks: precedence", "user-agent: FooBot\nallow: /$\ndisallow: /\n", "FooBot", "http://example.com/", true],
  ["GoogleOnly_DocumentationChecks: precedence", "user-agent: FooBot\nallow: /$\ndisallow: /\n", "FooBot", "http://example.com/page.html", false],
];

const RFC: Row[] = [
  ["RFC 9309 §5.1: foobot", RFC_SIMPLE, "foobot", "https://www.example.com/example/page.html", true],
  ["RFC 9309 §5.1: foobot", RFC_SIMPLE, "foobot", "https://www.example.com/example/allowed.gif", true],
  ["RFC 9309 §5.1: foobot", RFC_SIMPLE, "foobot", "https://www.example.com/publications/", false],
  ["RFC 9309 §5.1: foobot", RFC_SIMPLE, "foobot", "https://www.example.com/", false],
  ["RFC 9309 §5.1: barbot", RFC_SIMPLE, "barbot", "https://www.example.com/example/page.html", false],
  ["RFC 9309 §5.1: barbot", RFC_SIMPLE, "barbot", "https://www.example.com/example/other.gif", true],
  ["RFC 9309 §5.1: bazbot", RFC_SIMPLE, "BazBot", "https://www.example.com/example/page.html", false],
  ["RFC 9309 §5.1: bazbot", RFC_SIMPLE, "BazBot", "https://www.example.com/anything", true],
  ["RFC 9309 §5.1: quxbot, an empty group, may fetch everything", RFC_SIMPLE, "quxbot", "https://www.example.com/example/page.html", true],
  ["RFC 9309 §5.1: quxbot, an empty group, may fetch everything", RFC_SIMPLE, "quxbot", "https://www.example.com/a.gif", true],
  ["RFC 9309 §5.1: every other crawler", RFC_SIMPLE, "OtherBot", "https://www.example.com/image.gif", false],
  ["RFC 9309 §5.1: every other crawler", RFC_SIMPLE, "OtherBot", "https://www.example.com/example/page.html", false],
  ["RFC 9309 §5.1: every other crawler", RFC_SIMPLE, "OtherBot", "https://www.example.com/publications/", true],
  ["RFC 9309 §5.1: every other crawler", RFC_SIMPLE, "OtherBot", "https://www.example.com/publications/cover.gif", true],
  ["RFC 9309 §5.1: every other crawler", RFC_SIMPLE, "OtherBot", "https://www.example.com/image.gif?x=1", true],

  ["RFC 9309 §5.2: longest match", "User-Agent: foobot\nAllow: /example/page/\nDisallow: /example/page/disallowed.gif\n", "foobot", "https://www.example.com/example/page/", true],
  [
    "RFC 9309 §5.2: longest match",
    "User-Agent: foobot\nAllow: /example/page/\nDisallow: /example/page/disallowed.gif\n",
    "foobot",
    "https://www.example.com/example/page/disallowed.gif",
    false,
  ],

  ["RFC 9309 §2.2.1: groups of one token merge", "user-agent: ExampleBot\ndisallow: /foo\ndisallow: /bar\n\nuser-agent: ExampleBot\ndisallow: /baz\n", "ExampleBot", u("/baz/x"), false],
  ["RFC 9309 §2.2.1: groups of one token merge", "user-agent: ExampleBot\ndisallow: /foo\ndisallow: /bar\n\nuser-agent: ExampleBot\ndisallow: /baz\n", "ExampleBot", u("/foo"), false],
  ["RFC 9309 §2.2.1: groups of one token merge", "user-agent: ExampleBot\ndisallow: /foo\ndisallow: /bar\n\nuser-agent: ExampleBot\ndisallow: /baz\n", "ExampleBot", u("/qux"), true],
  ["RFC 9309 §2.2.1: no group and no *: no rule applies", "user-agent: FooBot\ndisallow: /\n", "BarBot", u("/x"), true],

  ["RFC 9309 §2.2.2: percent-encoded unreserved octets are decoded", "User-agent: FooBot\nDisallow: /foo/bar/baz\n", "FooBot", u("/foo/bar/%62%61%7A"), false],
  ["RFC 9309 §2.2.2: escapes compare case-insensitively", "User-agent: FooBot\nDisallow: /a%2fb\n", "FooBot", u("/a%2Fb"), false],
  ["RFC 9309 §2.2.2: an encoded reserved character is not the character", "User-agent: FooBot\nDisallow: /a%2Fb\n", "FooBot", u("/a/b"), true],
  ["RFC 9309 §2.2.3: %2A names a literal *", "User-agent: FooBot\nDisallow: /path/file-with-a-%2A.html\n", "FooBot", u("/path/file-with-a-*.html"), false],
  ["RFC 9309 §2.2.3: %2A names a literal *", "User-agent: FooBot\nDisallow: /path/file-with-a-%2A.html\n", "FooBot", u("/path/file-with-a-x.html"), true],
  ["RFC 9309 §2.2.3: %24 names a literal $", "User-agent: FooBot\nDisallow: /path/foo-%24\n", "FooBot", u("/path/foo-$"), false],
  ["RFC 9309 §2.2.3: a $ inside a pattern is a plain $", "User-agent: FooBot\nDisallow: /a$b\n", "FooBot", u("/a$bc"), false],

  // The two requirements robots-parser broke.
  ["RFC 9309 §2.2.4: a Sitemap line does not end a group", "User-agent: FooBot\nSitemap: http://foo.bar/sitemap.xml\nUser-agent: BarBot\nDisallow: /\n", "FooBot", u("/x"), false],
  ["RFC 9309 §2.2.4: a Crawl-delay line does not end a group", "User-agent: FooBot\nCrawl-delay: 5\nUser-agent: BarBot\nDisallow: /\n", "FooBot", u("/x"), false],
  ["RFC 9309 §2.2.4: an unknown line does not end a group", "User-agent: FooBot\nHost: foo.bar\nUser-agent: BarBot\nDisallow: /\n", "FooBot", u("/x"), false],
  ["RFC 9309 §2.2.4: … and the second agent keeps the rules", "User-agent: FooBot\nSitemap: /s.xml\nUser-agent: BarBot\nDisallow: /\n", "BarBot", u("/x"), false],
  ["RFC 9309 §2.1: an empty last group allows everything", "User-agent: *\nDisallow: /\n\nUser-agent: FooBot\n", "FooBot", u("/x"), true],
  ["RFC 9309 §2.1: an empty last group allows everything", "User-agent: *\nDisallow: /\n\nUser-agent: FooBot\n", "BarBot", u("/x"), false],
  ["RFC 9309 §2.1: a group with only an empty Disallow allows everything", "User-agent: *\nDisallow: /\n\nUser-agent: FooBot\nDisallow:\n", "FooBot", u("/x"), true],
];

/**
 * Where Forage and Google's suite differ, both within the RFC. Google's matcher leaves encoding
 * the URL to its caller, so its suite expects a raw `ツ` in the URL and `%62%61%7A` ≠ `baz`;
 * Forage's URLs always come from the WHATWG parser (which encodes `ツ`), and §2.2.2's table maps
 * `/foo/bar/%62%61%7A` to `/foo/bar/baz`.
 */
const ENCODED_AS_RFC: Row[] = [
  ["ID_Encoding (Google expects false)", "User-agent: FooBot\nDisallow: /\nAllow: /foo/bar/ツ\n", "FooBot", u("/foo/bar/ツ"), true],
  ["ID_Encoding (Google expects false)", "User-agent: FooBot\nDisallow: /\nAllow: /foo/bar/%E3%83%84\n", "FooBot", u("/foo/bar/ツ"), true],
  ["ID_Encoding (Google expects false; RFC §2.2.2 table)", "User-agent: FooBot\nDisallow: /\nAllow: /foo/bar/%62%61%7A\n", "FooBot", u("/foo/bar/baz"), true],
];

describe("robots.txt decisions (RFC 9309)", () => {
  it.each([...GOOGLE, ...RFC, ...ENCODED_AS_RFC])("%s — %j for %s at %s → allowed %s", (_source, robotsTxt, token, url, allowed) => {
    expect(RobotsTxt.parse(robotsTxt).isAllowed(url, token)).toBe(allowed);
  });
});

describe("robots.txt parsing", () => {
  it("accepts product tokens of letters, _ and - only (ID_VerifyValidUserAgentsToObey)", () => {
    for (const token of ["Foobot", "Foobot-Bar", "Foo_Bar", "Forage"]) expect(isValidProductToken(token), token).toBe(true);
    for (const token of ["", "ツ", "Foobot*", " Foobot ", "Foobot/2.1", "Foobot Bar"]) expect(isValidProductToken(token), token).toBe(false);
  });

  it.each([
    ["LF", "\n"],
    ["CRLF", "\r\n"],
    ["CR", "\r"],
  ])("reads lines ending in %s, with or without a final newline (ID_LinesNumbersAreCountedCorrectly)", (_name, eol) => {
    const lines = ["User-Agent: foo", "Allow: /some/path", "User-Agent: bar", "", "", "Disallow: /"];
    for (const text of [lines.join(eol) + eol, lines.join(eol)]) {
      const robots = RobotsTxt.parse(text);
      expect(robots.groups.map((g) => [g.userAgents, g.rules.length])).toEqual([
        [["foo"], 1],
        [["bar"], 1],
      ]);
      expect(robots.isAllowed(u("/x"), "bar")).toBe(false);
      expect(robots.isAllowed(u("/x"), "foo")).toBe(true);
    }
    const mixed = RobotsTxt.parse("User-Agent: foo\nAllow: /some/path\r\nUser-Agent: bar\n\r\n\nDisallow: /");
    expect(mixed.isAllowed(u("/x"), "bar")).toBe(false);
  });

  it("skips a UTF-8 byte-order mark, whole or cut, only at the start (ID_UTF8ByteOrderMarkIsSkipped)", () => {
    const rules = Buffer.from("User-Agent: foo\nDisallow: /AnyValue\n");
    const decode = (...prefix: number[]) => Buffer.concat([Buffer.from(prefix), rules]).toString("utf8");
    for (const bom of [[0xef, 0xbb, 0xbf], [0xef, 0xbb], [0xef]]) {
      expect(RobotsTxt.parse(decode(...bom)).isAllowed(u("/AnyValue"), "foo"), String(bom)).toBe(false);
    }
    // A broken mark spoils the first line: the Disallow is then outside any group.
    expect(RobotsTxt.parse(decode(0xef, 0x11, 0xbf)).isAllowed(u("/AnyValue"), "foo")).toBe(true);
    // In the middle of the file Google drops the line; Forage reads it (a stray mark is blank
    // space to it), so it obeys a rule Google would not: it refuses more, never less.
    const middle = Buffer.concat([Buffer.from("User-Agent: foo\n"), Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from("Disallow: /AnyValue\n")]);
    expect(RobotsTxt.parse(middle.toString("utf8")).isAllowed(u("/AnyValue"), "foo")).toBe(false);
  });

  it("collects Sitemap lines anywhere in the file (ID_NonStandardLineExample_Sitemap)", () => {
    const groups = "User-Agent: foo\nAllow: /some/path\nUser-Agent: bar\n\n\n";
    expect(RobotsTxt.parse(`${groups}Sitemap: http://foo.bar/sitemap.xml\n`).sitemaps).toEqual(["http://foo.bar/sitemap.xml"]);
    expect(RobotsTxt.parse(`Sitemap: http://foo.bar/sitemap.xml\n${groups}`).sitemaps).toEqual(["http://foo.bar/sitemap.xml"]);
  });

  it("keeps the Crawl-delay of a group that other lines did not end, and takes the larger one when groups merge", () => {
    const robots = RobotsTxt.parse("User-agent: FooBot\nCrawl-delay: 5\nUser-agent: BarBot\nDisallow: /x\n\nUser-agent: barbot\nCrawl-delay: 7\n");
    expect(robots.crawlDelaySeconds("FooBot")).toBe(5);
    expect(robots.crawlDelaySeconds("BarBot")).toBe(7);
    expect(robots.crawlDelaySeconds("Other")).toBeNull();
    expect(RobotsTxt.parse("User-agent: *\nCrawl-delay: nope\n").crawlDelaySeconds("x")).toBeNull();
  });

  it("compares the path and query of a URL, never its fragment (TestGetPathParamsQuery)", () => {
    expect(robotsPathOf("http://www.example.com")).toBe("/");
    expect(robotsPathOf("http://www.example.com/a/")).toBe("/a/");
    expect(robotsPathOf("http://www.example.com/a/b?c=http://d.e/")).toBe("/a/b?c=http://d.e/");
    expect(robotsPathOf("http://www.example.com/a/b?c=d&e=f#fragment")).toBe("/a/b?c=d&e=f");
    expect(robotsPathOf("http://example.com?a")).toBe("/?a");
    expect(robotsPathOf("http://example.com/a;b#c")).toBe("/a;b");
  });

  it("percent-encodes patterns as URLs are (TestMaybeEscapePattern)", () => {
    expect(compileRobotsPattern("/a/b/c")?.parts).toEqual(["/a/b/c"]);
    expect(compileRobotsPattern("á")?.parts).toEqual(["%C3%A1"]);
    expect(compileRobotsPattern("%aa")?.parts).toEqual(["%AA"]);
    expect(compileRobotsPattern("/a b%")?.parts).toEqual(["/a%20b%25"]);
    expect(compileRobotsPattern("")).toBeNull();
  });

  it("matches a hostile pattern of many wildcards in linear time", () => {
    const robots = RobotsTxt.parse(`User-agent: *\nDisallow: /${"*a".repeat(5_000)}$\n`);
    const started = performance.now();
    expect(robots.isAllowed(u(`/${"a".repeat(20_000)}b`), "Forage")).toBe(true);
    expect(performance.now() - started).toBeLessThan(200);
  });
});
