import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { evaluateJsonPath, JsonPathError, parseJsonPath } from "../../lib/recipes/json-path";
import { loadRecipes, parseRecipe, readRecipeFile, RecipeError } from "../../lib/recipes/load-recipes";
import { pageSigns } from "../../lib/recipes/page-signs";
import { recogniseApplications } from "../../lib/recipes/recognise";

const recipes = loadRecipes().map((loaded) => loaded.recipe);
const byId = (id: string) => recipes.find((recipe) => recipe.id === id)!;

describe("recipe JSON paths", () => {
  const answer = {
    result: { count: 2, results: [{ name: "a", resources: [{ url: "https://x/a.csv" }, { url: "https://x/b.xlsx" }] }, { name: "b", resources: [] }] },
    hits: { hits: [{ files: { entries: { "data.csv": { links: { content: "https://x/data.csv" } } } } }] },
  };

  it("walks lists with [*], object values with *, and single items", () => {
    expect(evaluateJsonPath(parseJsonPath("result.results[*].resources[*].url"), answer)).toEqual(["https://x/a.csv", "https://x/b.xlsx"]);
    expect(evaluateJsonPath(parseJsonPath("hits.hits[*].files.entries.*.links.content"), answer)).toEqual(["https://x/data.csv"]);
    expect(evaluateJsonPath(parseJsonPath("result.results[1].name"), answer)).toEqual(["b"]);
    expect(evaluateJsonPath(parseJsonPath('result["count"]'), answer)).toEqual([2]);
  });

  it("gives nothing, never an exception, where the answer has another shape", () => {
    for (const value of [null, 3, "text", [], { result: "no" }, { result: { results: {} } }]) {
      expect(evaluateJsonPath(parseJsonPath("result.results[*].resources[*].url"), value)).toEqual([]);
    }
  });

  it("keeps the items of a list whose field is a text with [?field==\"text\"]", () => {
    const item = { bundles: [{ name: "THUMBNAIL", files: ["t.jpg"] }, { name: "ORIGINAL", files: ["a.pdf", "b.csv"] }, { meta: { name: "ORIGINAL" }, files: ["c.txt"] }] };
    expect(evaluateJsonPath(parseJsonPath('bundles[?name=="ORIGINAL"].files[*]'), item)).toEqual(["a.pdf", "b.csv"]);
    expect(evaluateJsonPath(parseJsonPath('bundles[?meta.name=="ORIGINAL"].files[*]'), item)).toEqual(["c.txt"]);
    expect(evaluateJsonPath(parseJsonPath('bundles[?name=="NONE"].files[*]'), item)).toEqual([]);
  });

  it.each([["", /empty/], ["a..b", /field name/], ["a[x]", /bracket/], ["a b", /dot or a bracket/], ['a[?name="x"]', /bracket/]])("refuses %j with a message", (source, message) => {
    expect(() => parseJsonPath(source)).toThrow(JsonPathError);
    expect(() => parseJsonPath(source)).toThrow(message);
  });
});

describe("recipe files", () => {
  it("ships valid recipes with documentation sources and at least one enumeration", () => {
    expect(recipes.map((recipe) => recipe.id)).toEqual(expect.arrayContaining(["ckan", "wordpress"]));
    for (const recipe of recipes) {
      expect(recipe.sources.length).toBeGreaterThan(0);
      expect(recipe.enumerations.length).toBeGreaterThan(0);
    }
  });

  it("refuses a recipe with mistakes, naming the file, the field and the problem", () => {
    const bad = {
      id: "Bad Id",
      name: "X",
      sources: ["https://docs.example.org/"],
      recognise: { generator: "(?=look)ahead" },
      enumerations: [{ id: "e", name: "e", path: "//evil.example/api", paging: { kind: "page", param: "p" }, records: "items[*]", file: { url: "url" }, extra: 1 }],
    };
    let message = "";
    try {
      parseRecipe(bad, "my-app.json");
    } catch (error) {
      expect(error).toBeInstanceOf(RecipeError);
      message = (error as Error).message;
    }
    expect(message).toMatch(/^my-app\.json: /);
    expect(message).toMatch(/id: must be lower-case/);
    expect(message).toMatch(/recognise\.generator: is not a pattern Forage can run/);
    expect(message).toMatch(/enumerations\[0\]\.path: must be a path of the site/);
    expect(message).toMatch(/enumerations\[0\]: Unrecognized key/);
  });

  it("refuses a file without url or urlTemplate, a template with a broken field, and an empty list of file paths", () => {
    const withFile = (file: object, files?: unknown) => ({
      id: "t",
      name: "T",
      sources: ["https://docs.example.org/"],
      recognise: { cookies: ["t"] },
      enumerations: [{ id: "e", name: "E", path: "api/items", paging: { kind: "none" }, records: "items[*]", ...(files === undefined ? {} : { files }), file }],
    });
    expect(() => parseRecipe(withFile({ mime: "type" }), "t.json")).toThrow(/enumerations\[0\]\.file: needs url \(a JSON path\) or urlTemplate/);
    expect(() => parseRecipe(withFile({ urlTemplate: "api/{a..b}/x" }), "t.json")).toThrow(/enumerations\[0\]\.file\.urlTemplate: has \{a\.\.b\}, which is not a JSON path/);
    expect(() => parseRecipe(withFile({ url: "href" }, []), "t.json")).toThrow(/enumerations\[0\]\.files: name at least one path/);
    expect(() => parseRecipe(withFile({ url: "href", fixedFormat: "" }), "t.json")).toThrow(/enumerations\[0\]\.file\.fixedFormat: is empty/);
    expect(parseRecipe(withFile({ urlTemplate: "x/{record:id}/{key}", fixedFormat: "CSV" }, ["a[*]", "b.*"]), "t.json").enumerations[0]!.files).toHaveLength(2);
  });

  it("refuses a recipe whose only sign is a probe (it would cost a request on every site)", () => {
    const recipe = { ...JSON.parse(JSON.stringify(byIdJson("ckan"))), recognise: { probe: { path: "api/3/action/status_show", expect: "result" } } };
    expect(() => parseRecipe(recipe, "probe-only.json")).toThrow(/a probe alone would cost a request/);
  });

  it("reads a folder of user recipes: one with a shipped id replaces it, a duplicate id or broken JSON is refused", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "forage-recipes-"));
    try {
      const ckan = byIdJson("ckan");
      fs.writeFileSync(path.join(dir, "my-ckan.json"), JSON.stringify({ ...ckan, name: "Our CKAN" }));
      const loaded = loadRecipes(dir);
      expect(loaded.find((r) => r.recipe.id === "ckan")).toMatchObject({ recipe: { name: "Our CKAN" }, replaces: "shipped" });
      fs.writeFileSync(path.join(dir, "other.json"), JSON.stringify({ ...ckan, name: "Again" }));
      expect(() => loadRecipes(dir)).toThrow(/other\.json: id: "ckan" is also the id of .*my-ckan\.json/);
      fs.rmSync(path.join(dir, "other.json"));
      fs.writeFileSync(path.join(dir, "broken.json"), "{ not json");
      expect(() => readRecipeFile(path.join(dir, "broken.json"))).toThrow(/broken\.json: is not JSON/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("recognising an application from a page's signs", () => {
  it("recognises CKAN and its version from the generator tag", () => {
    const html = `<html><head><meta name="generator" content="ckan 2.10.4"><link rel="stylesheet" href="/webassets/base/main.css"></head><body></body></html>`;
    const [found] = recogniseApplications(recipes, pageSigns("https://data.example.org/", html), "https://data.example.org/");
    expect(found).toMatchObject({ recipe: { id: "ckan" }, version: "2.10.4", base: "https://data.example.org/" });
    expect(found!.evidence).toContain('generator tag "ckan 2.10.4"');
  });

  it("finds a CKAN that lives under a sub-path from where its assets are", () => {
    const html = `<head><meta name="generator" content="ckan 2.9.9"><script src="/data/webassets/vendor/jquery.js"></script></head>`;
    const [found] = recogniseApplications(recipes, pageSigns("https://city.example.org/data/dataset/", html), "https://city.example.org/data/dataset/");
    expect(found).toMatchObject({ recipe: { id: "ckan" }, base: "https://city.example.org/data/" });
  });

  it("recognises WordPress from the Link header alone, and takes its API root from it", () => {
    const signs = pageSigns("https://blog.example.org/news/", "<p>no head at all</p>", [["Link", '<https://blog.example.org/site/wp-json/>; rel="https://api.w.org/"']]);
    const [found] = recogniseApplications(recipes, signs, "https://blog.example.org/news/");
    expect(found).toMatchObject({ recipe: { id: "wordpress" }, base: "https://blog.example.org/site/" });
  });

  it("recognises nothing on a page without signs, or with another generator, or with signs only after <body>", () => {
    const pages = [
      `<html><head><title>Statistics</title><link rel="stylesheet" href="/css/site.css"></head><body><a href="/wp-content/x.pdf">x</a></body></html>`,
      `<head><meta name="generator" content="Hugo 0.120"><meta name="description" content="ckan"></head>`,
      `<head></head><body><meta name="generator" content="WordPress 6.4"></body>`,
    ];
    for (const html of pages) expect(recogniseApplications(recipes, pageSigns("https://x.example/", html), "https://x.example/")).toEqual([]);
  });
});

function byIdJson(id: string): Record<string, unknown> {
  return JSON.parse(fs.readFileSync(path.join(import.meta.dirname, `../../lib/recipes/known/${id}.json`), "utf8")) as Record<string, unknown>;
}
