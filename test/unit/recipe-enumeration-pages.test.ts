import { describe, expect, it } from "vitest";
import { fillTemplate, firstPageUrl, readEnumerationPage, type EnumerationAnswer } from "../../lib/recipes/enumeration-pages";
import { loadRecipes } from "../../lib/recipes/load-recipes";
import { parseRecipe } from "../../lib/recipes/load-recipes";
import type { Enumeration } from "../../lib/recipes/recipe-schema";

const recipes = loadRecipes().map((loaded) => loaded.recipe);
const ckan = recipes.find((recipe) => recipe.id === "ckan")!.enumerations[0]!;
const wordpress = recipes.find((recipe) => recipe.id === "wordpress")!.enumerations[0]!;
const answer = (body: unknown, headers: Record<string, string> = {}, status = 200): EnumerationAnswer => ({
  status,
  headers: new Map(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value])),
  body: typeof body === "string" ? body : JSON.stringify(body),
});

/** A package_search answer as CKAN 2.10 gives it (docs.ckan.org, package_search). */
function ckanAnswer(start: number, rows: number, count: number) {
  const results = Array.from({ length: Math.max(0, Math.min(rows, count - start)) }, (_, i) => {
    const n = start + i;
    return {
      name: `dataset-${n}`,
      title: `Dataset ${n}`,
      metadata_modified: "2024-05-01T10:00:00.000000",
      resources: [
        { url: `https://data.example.org/dataset/${n}/resource/a/download/table-${n}.csv`, format: "CSV", mimetype: null, size: 1200, name: "Table" },
        { url: `https://data.example.org/dataset/${n}/resource/b/download/report-${n}`, format: "PDF", mimetype: "application/pdf", size: null, name: "Report" },
        { url: "https://esri.example.org/arcgis/rest/services/x", format: "Esri REST", name: "Map service" },
      ],
    };
  });
  return { help: "https://data.example.org/api/3/action/help_show?name=package_search", success: true, result: { count, sort: "metadata_modified desc", results, facets: {} } };
}

describe("a CKAN package_search enumeration", () => {
  const base = "https://data.example.org/";

  it("asks for 1,000 datasets at a time from offset 0, and only for what changed since the last run when asked", () => {
    const first = new URL(firstPageUrl(ckan, base));
    expect(first.pathname).toBe("/api/3/action/package_search");
    expect(Object.fromEntries(first.searchParams)).toMatchObject({ q: "*:*", start: "0", rows: "1000", sort: "metadata_modified desc" });
    const since = new URL(firstPageUrl(ckan, base, new Date("2026-10-01T00:00:00Z")));
    expect(since.searchParams.get("fq")).toBe("metadata_modified:[2026-10-01T00:00:00.000Z TO *]");
  });

  it("lists each resource with its type from the declared format, and its dataset's title and page", () => {
    const page = readEnumerationPage(ckan, base, firstPageUrl(ckan, base), answer(ckanAnswer(0, 1000, 2)));
    expect(page.records).toBe(2);
    expect(page.files).toHaveLength(6);
    expect(page.files[0]).toEqual({
      url: "https://data.example.org/dataset/0/resource/a/download/table-0.csv",
      mime: "text/csv",
      format: "CSV",
      size: 1200,
      title: "Table",
      record: { title: "Dataset 0", page: "https://data.example.org/dataset/dataset-0", modified: "2024-05-01T10:00:00.000000" },
    });
    expect(page.files[1]).toMatchObject({ mime: "application/pdf" });
    expect(page.files[2]).not.toHaveProperty("mime");
    expect(page.nextUrl).toBeNull();
  });

  it("pages by offset until the stated count, under a sub-path too", () => {
    const sub = "https://city.example.org/data/";
    let url: string | null = firstPageUrl(ckan, sub);
    const seen: string[] = [];
    let files = 0;
    while (url) {
      seen.push(new URL(url).searchParams.get("start")!);
      const start = Number(new URL(url).searchParams.get("start"));
      const page = readEnumerationPage(ckan, sub, url, answer(ckanAnswer(start, 1000, 2500)));
      files += page.files.length;
      url = page.nextUrl;
    }
    expect(seen).toEqual(["0", "1000", "2000"]);
    expect(files).toBe(2500 * 3);
    expect(new URL(firstPageUrl(ckan, sub)).pathname).toBe("/data/api/3/action/package_search");
  });

  it("steps by what a page held when the server caps the page size below the one asked for", () => {
    let url: string | null = firstPageUrl(ckan, base);
    const starts: string[] = [];
    let files = 0;
    while (url) {
      const start = Number(new URL(url).searchParams.get("start"));
      starts.push(String(start));
      // A portal whose rows_max is 400: asked for 1,000, it answers 400.
      const page = readEnumerationPage(ckan, base, url, answer(ckanAnswer(start, 400, 1000)));
      files += page.files.length;
      url = page.nextUrl;
    }
    expect(starts).toEqual(["0", "400", "800"]);
    expect(files).toBe(1000 * 3);
  });

  it("ends with a problem in words on an error status, a non-JSON answer or another JSON shape", () => {
    const url = firstPageUrl(ckan, base);
    expect(readEnumerationPage(ckan, base, url, answer("oops", {}, 500))).toMatchObject({ problem: "answered 500", nextUrl: null });
    expect(readEnumerationPage(ckan, base, url, answer("<html>login</html>"))).toMatchObject({ problem: "did not answer JSON" });
    expect(readEnumerationPage(ckan, base, url, answer({ success: false, error: { message: "Not found" } }))).toMatchObject({ problem: "its JSON has no result.results[*]" });
    // An empty portal is not a problem: the list is there, with nothing in it.
    expect(readEnumerationPage(ckan, base, url, answer(ckanAnswer(0, 1000, 0)))).toEqual({ files: [], records: 0, nextUrl: null });
  });
});

describe("a WordPress media enumeration", () => {
  const base = "https://blog.example.org/";
  const media = (n: number) => ({
    id: n,
    source_url: `https://blog.example.org/wp-content/uploads/2024/05/budget-${n}.xlsx`,
    mime_type: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    modified_gmt: "2024-05-02T08:00:00",
    link: `https://blog.example.org/budget-${n}/`,
    title: { rendered: `Budget ${n}` },
    media_details: { filesize: 5000 + n },
  });

  it("pages until X-WP-TotalPages, each media item a file with its attachment page", () => {
    let url: string | null = firstPageUrl(wordpress, base);
    expect(Object.fromEntries(new URL(url).searchParams)).toMatchObject({ page: "1", per_page: "100", orderby: "modified" });
    const pages: string[] = [];
    let files = 0;
    while (url) {
      const page = Number(new URL(url).searchParams.get("page"));
      pages.push(String(page));
      const items = Array.from({ length: page < 3 ? 100 : 42 }, (_, i) => media(page * 1000 + i));
      const read = readEnumerationPage(wordpress, base, url, answer(items, { "X-WP-Total": "242", "X-WP-TotalPages": "3" }));
      files += read.files.length;
      if (page === 1) {
        expect(read.files[0]).toMatchObject({ mime: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", size: 6000, record: { title: "Budget 1000", page: "https://blog.example.org/budget-1000/" } });
      }
      url = read.nextUrl;
    }
    expect(pages).toEqual(["1", "2", "3"]);
    expect(files).toBe(242);
  });

  it("reads WordPress's error body for a disabled REST API as the end of the enumeration", () => {
    const read = readEnumerationPage(wordpress, base, firstPageUrl(wordpress, base), answer({ code: "rest_no_route", message: "No route was found", data: { status: 404 } }, {}, 404));
    expect(read).toMatchObject({ problem: "answered 404", nextUrl: null });
  });

  it("asks only for media modified after the previous run", () => {
    expect(new URL(firstPageUrl(wordpress, base, new Date("2026-11-01T00:00:00Z"))).searchParams.get("modified_after")).toBe("2026-11-01T00:00:00.000Z");
  });
});

describe("cursor and next-link paging", () => {
  const enumeration = (paging: object): Enumeration =>
    parseRecipe(
      {
        id: "t",
        name: "T",
        sources: ["https://docs.example.org/"],
        recognise: { cookies: ["t"] },
        enumerations: [{ id: "e", name: "E", path: "api/items", paging, records: "items[*]", file: { url: "href" } }],
      },
      "t.json",
    ).enumerations[0]!;

  it("follows a cursor until none is given, and stops if the same cursor comes back", () => {
    const e = enumeration({ kind: "cursor", param: "cursor", next: "meta.next" });
    const first = firstPageUrl(e, "https://x.example/");
    const second = readEnumerationPage(e, "https://x.example/", first, answer({ items: [{ href: "/a.csv" }], meta: { next: "abc" } })).nextUrl!;
    expect(new URL(second).searchParams.get("cursor")).toBe("abc");
    expect(readEnumerationPage(e, "https://x.example/", second, answer({ items: [{ href: "/b.csv" }], meta: { next: "abc" } })).nextUrl).toBeNull();
    expect(readEnumerationPage(e, "https://x.example/", second, answer({ items: [{ href: "/b.csv" }], meta: {} })).nextUrl).toBeNull();
  });

  it("follows a Link rel=next header, resolved against the page", () => {
    const e = enumeration({ kind: "next-link" });
    const read = readEnumerationPage(e, "https://x.example/", "https://x.example/api/items", answer({ items: [{ href: "a.csv" }] }, { Link: '</api/items?page=2>; rel="next", </api/items?page=9>; rel="last"' }));
    expect(read.nextUrl).toBe("https://x.example/api/items?page=2");
    expect(read.files[0]!.url).toBe("https://x.example/api/a.csv");
  });
});

describe("record page templates", () => {
  it("URL-encodes fields inside a template and takes a lone field as a URL", () => {
    expect(fillTemplate("dataset/{name}", { name: "a b/c" })).toBe("dataset/a%20b%2Fc");
    expect(fillTemplate("{link}", { link: "https://x.example/p?a=1" })).toBe("https://x.example/p?a=1");
    expect(fillTemplate("dataset/{missing}", { name: "x" })).toBeUndefined();
  });
});

describe("file URL templates, fixed formats, several file paths and {host}", () => {
  const parse = (enumeration: object): Enumeration =>
    parseRecipe({ id: "t", name: "T", sources: ["https://docs.example.org/"], recognise: { cookies: ["t"] }, enumerations: [{ id: "e", name: "E", ...enumeration }] }, "t.json").enumerations[0]!;

  it("builds a file's URL from its fields and its record's, against the application's root, when the url path finds nothing", () => {
    const e = parse({
      path: "api/list",
      query: { domains: "{host}" },
      paging: { kind: "none" },
      records: "records[*]",
      files: ["files[*]", "attachments.*"],
      file: { url: "href", urlTemplate: "exports/{record:id}/{name}.csv", fixedFormat: "CSV" },
    });
    const base = "https://portal.example.org/data/";
    const first = firstPageUrl(e, base);
    expect(first).toBe("https://portal.example.org/data/api/list?domains=portal.example.org");
    const body = { records: [{ id: "r 1", files: [{ name: "a/b" }, { href: "/direct.xlsx", format: "XLSX" }, { name: "a/b" }], attachments: { x: { href: "https://cdn.example.org/x.pdf" } } }, { id: "r2", files: [{ nothing: 1 }] }] };
    const page = readEnumerationPage(e, base, first, answer(body));
    expect(page.files.map((file) => [file.url, file.format, file.mime])).toEqual([
      ["https://portal.example.org/data/exports/r%201/a%2Fb.csv", "CSV", "text/csv"],
      ["https://portal.example.org/direct.xlsx", "CSV", "text/csv"],
      ["https://cdn.example.org/x.pdf", "CSV", "text/csv"],
    ]);
    expect(page.records).toBe(2);
  });

  it("follows a continue object, and stops on an answer without one or with a non-object there", () => {
    const e = parse({ path: "api.php", query: { action: "query" }, paging: { kind: "continue", object: "continue" }, records: "items[*]", file: { url: "url" } });
    const first = firstPageUrl(e, "https://wiki.example.org/");
    const second = readEnumerationPage(e, "https://wiki.example.org/", first, answer({ continue: { from: "B", continue: "-||", ignored: { deep: 1 } }, items: [{ url: "/a" }] })).nextUrl!;
    expect(Object.fromEntries(new URL(second).searchParams)).toEqual({ action: "query", from: "B", continue: "-||" });
    expect(readEnumerationPage(e, "https://wiki.example.org/", second, answer({ items: [{ url: "/b" }] })).nextUrl).toBeNull();
    expect(readEnumerationPage(e, "https://wiki.example.org/", second, answer({ continue: "yes", items: [{ url: "/b" }] })).nextUrl).toBeNull();
  });
});
