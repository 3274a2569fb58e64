import { describe, expect, it } from "vitest";
import { DataLinkCollector, jsonDataLinks, looksLikeJson, MAX_KEY_PATH_CHARS } from "../../lib/render/json-data-links";

const FROM = "https://data.example.org/api/3/action/package_search?rows=10";

function body(value: unknown): Buffer {
  return Buffer.from(JSON.stringify(value));
}

describe("jsonDataLinks", () => {
  it("keeps absolute http(s) URLs and root-relative paths with their key paths, resolved against the answer's URL", () => {
    const links = jsonDataLinks(
      body({
        count: 2,
        next: "/api/3/action/package_search?rows=10&start=10",
        results: [
          { name: "budget", resources: [{ url: "https://files.example.org/budget.csv", format: "CSV" }], notes: "see https://example.org for more" },
          { name: "roads", resources: [{ url: "/dataset/roads/resource/1/download/roads.xlsx" }, { url: "ftp://old.example.org/roads.zip" }] },
        ],
        site: "data.example.org",
        relative: "files/x.csv",
      }),
      FROM,
    );
    expect(links).toEqual([
      { url: "https://data.example.org/api/3/action/package_search?rows=10&start=10", keyPath: "next", from: FROM },
      { url: "https://files.example.org/budget.csv", keyPath: "results.*.resources.*.url", from: FROM },
      { url: "https://data.example.org/dataset/roads/resource/1/download/roads.xlsx", keyPath: "results.*.resources.*.url", from: FROM },
    ]);
  });

  it("names a top-level array's items with *", () => {
    expect(jsonDataLinks(body([{ href: "/a.csv" }, ["https://x.example/b.csv"]]), FROM)).toEqual([
      { url: "https://data.example.org/a.csv", keyPath: "*.href", from: FROM },
      { url: "https://x.example/b.csv", keyPath: "*.*", from: FROM },
    ]);
  });

  it("reads nothing from a body that is not JSON, or larger than the limit", () => {
    expect(jsonDataLinks(Buffer.from("{ not json"), FROM)).toEqual([]);
    const big = body({ url: "/a.csv", padding: "x".repeat(100) });
    expect(jsonDataLinks(big, FROM, { maxBytes: big.length - 1, maxNodes: 100 })).toEqual([]);
    expect(jsonDataLinks(big, FROM, { maxBytes: big.length, maxNodes: 100 })).toHaveLength(1);
  });

  it("walks at most maxNodes values, in document order", () => {
    const items = Array.from({ length: 100 }, (_, i) => `/file-${i}.csv`);
    // the array itself is one node, each string one more
    const links = jsonDataLinks(body(items), FROM, { maxBytes: 1 << 20, maxNodes: 11 });
    expect(links.map((link) => link.url)).toEqual(items.slice(0, 10).map((path) => `https://data.example.org${path}`));
  });

  it("walks deep documents without recursion, their key paths cut at 2,048 characters", () => {
    const depth = 20_000;
    const text = `${'{"ab":'.repeat(depth)}{"url":"/deep.csv"}${"}".repeat(depth)}`;
    const links = jsonDataLinks(Buffer.from(text), FROM, { maxBytes: 1 << 20, maxNodes: 50_000 });
    expect(links).toHaveLength(1);
    expect(links[0]!.url).toBe("https://data.example.org/deep.csv");
    expect(links[0]!.keyPath).toHaveLength(MAX_KEY_PATH_CHARS);
    expect(links[0]!.keyPath.startsWith("ab.ab.ab.")).toBe(true);
  });

  it("skips strings with spaces, over 8,192 characters, or only a slash", () => {
    expect(jsonDataLinks(body({ a: "/with space.csv", b: `/${"x".repeat(8_192)}`, c: "/" }), FROM)).toEqual([]);
  });
});

describe("looksLikeJson", () => {
  it("goes by a JSON content type, or by a body starting like an object or array", () => {
    expect(looksLikeJson("application/json; charset=utf-8", Buffer.from("x"))).toBe(true);
    expect(looksLikeJson("application/ld+json", Buffer.from("x"))).toBe(true);
    expect(looksLikeJson("text/plain", Buffer.from('  \n {"a":1}'))).toBe(true);
    expect(looksLikeJson(undefined, Buffer.from("\uFEFF[1]"))).toBe(true);
    expect(looksLikeJson("text/javascript", Buffer.from("var a = {}"))).toBe(false);
    expect(looksLikeJson("text/html", Buffer.from("<html>"))).toBe(false);
    expect(looksLikeJson(undefined, Buffer.alloc(0))).toBe(false);
  });
});

describe("DataLinkCollector", () => {
  it("keeps each URL and key path once, from the first answer naming it", () => {
    const collector = new DataLinkCollector();
    collector.add(FROM, "application/json", body({ items: [{ url: "/a.csv" }, { url: "/a.csv" }], next: "/a.csv" }));
    collector.add(`${FROM}&start=10`, "application/json", body({ items: [{ url: "/a.csv" }, { url: "/b.csv" }] }));
    collector.add(FROM, "text/html", Buffer.from("<a href='/c.csv'>"));
    expect(collector.list()).toEqual([
      { url: "https://data.example.org/a.csv", keyPath: "items.*.url", from: FROM },
      { url: "https://data.example.org/a.csv", keyPath: "next", from: FROM },
      { url: "https://data.example.org/b.csv", keyPath: "items.*.url", from: `${FROM}&start=10` },
    ]);
  });
});
