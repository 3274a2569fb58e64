/**
 * The recipes through the API: the list the crawl form offers, and a crawl's choice of
 * application checked against it (route handlers on a real SQLite database).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiRequest, closeRouteDatabase, createCrawlThroughApi, expectError, getCrawlDetail, openRouteDatabase, postCrawl, url } from "../helpers/api-routes";
import type { TestDatabase } from "../helpers/test-database";

let t: TestDatabase;
let crawlsRoute: typeof import("@/app/api/crawls/route");
let crawlRoute: typeof import("@/app/api/crawls/[id]/route");
let recipesRoute: typeof import("@/app/api/recipes/route");

beforeAll(async () => {
  t = await openRouteDatabase();
  crawlsRoute = await import("@/app/api/crawls/route");
  crawlRoute = await import("@/app/api/crawls/[id]/route");
  recipesRoute = await import("@/app/api/recipes/route");
});

afterAll(() => closeRouteDatabase(t));

describe("GET /api/recipes", () => {
  it("lists the shipped recipes with their enumerations", async () => {
    const response = await recipesRoute.GET(apiRequest(url("/api/recipes")));
    expect(response.status).toBe(200);
    const body = (await response.json()) as { recipes: { id: string; name: string; origin: string; enumerations: { id: string }[] }[]; problem: string | null };
    expect(body.problem).toBeNull();
    expect(body.recipes.map((recipe) => recipe.id)).toEqual(expect.arrayContaining(["ckan", "wordpress", "dspace", "mediawiki"]));
    expect(body.recipes.find((recipe) => recipe.id === "ckan")).toMatchObject({ name: "CKAN", origin: "shipped", enumerations: [{ id: "package-search" }] });
  });

  it("answers 401 without credentials", async () => {
    const response = await recipesRoute.GET(new Request(url("/api/recipes"), { headers: { host: new URL(url("/")).host } }));
    expect(response.status).toBe(401);
  });
});

describe("a crawl's application settings", () => {
  it("default to using the site's application when recognised, automatically", async () => {
    const id = await createCrawlThroughApi(crawlsRoute, { rootUrl: "https://data.example.org/" });
    expect((await getCrawlDetail(crawlRoute, id)).config).toMatchObject({ applications: { use: true, recipe: "auto" } });
  });

  it("keep a named recipe, or none", async () => {
    const named = await createCrawlThroughApi(crawlsRoute, { rootUrl: "https://data.example.org/", applications: { recipe: "ckan" } });
    expect((await getCrawlDetail(crawlRoute, named)).config).toMatchObject({ applications: { use: true, recipe: "ckan" } });
    const none = await createCrawlThroughApi(crawlsRoute, { rootUrl: "https://data.example.org/", applications: { use: false } });
    expect((await getCrawlDetail(crawlRoute, none)).config).toMatchObject({ applications: { use: false } });
  });

  it("refuse a recipe that does not exist, naming the field and the choices", async () => {
    const error = await expectError(await crawlsRoute.POST(postCrawl({ rootUrl: "https://data.example.org/", applications: { recipe: "joomla" } })), 400, "invalid_request");
    expect(error.fields?.["applications.recipe"]).toMatch(/^is not a known recipe: choose "auto" or one of .*ckan.*wordpress/);
    const malformed = await expectError(await crawlsRoute.POST(postCrawl({ rootUrl: "https://data.example.org/", applications: { recipe: "CKAN!" } })), 400, "invalid_request");
    expect(malformed.fields?.["applications.recipe"]).toContain("recipe id");
  });
});
