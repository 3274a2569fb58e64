import { describe, expect, it } from "vitest";
import { APPLICATION_SEEDS_FROM, buildSite, drawFamilyParams, familyApplication } from "../../lib/sitesim";
import { loadRecipes } from "../../lib/recipes/load-recipes";
import { pageSigns } from "../../lib/recipes/page-signs";
import { recogniseApplications } from "../../lib/recipes/recognise";

const recipes = loadRecipes().map((loaded) => loaded.recipe);

function recognisedOn(seed: number): string[] {
  const site = buildSite({ shape: "family", seed, size: 800, variant: undefined });
  let path = "/";
  let response = site.respond("GET", path, { host: "family.test" });
  // The sub-path variant answers the root with a redirect to the application.
  if (response.status === 302) {
    path = new URL(response.headers.location!, "http://family.test/").pathname;
    response = site.respond("GET", path, { host: "family.test" });
  }
  const headers = Object.entries(response.headers) as [string, string][];
  return recogniseApplications(recipes, pageSigns(`http://family.test${path}`, response.body.toString("utf8"), headers), `http://family.test${path}`).map((candidate) => candidate.recipe.id);
}

describe("the site family's application dimension", () => {
  it("keeps every ordinary seed's site, and makes each seed from APPLICATION_SEEDS_FROM on an application", () => {
    for (const seed of [1, 2, 50, APPLICATION_SEEDS_FROM - 1]) expect(familyApplication(seed)).toBeNull();
    expect(drawFamilyParams(7, 1000)).toEqual(drawFamilyParams(7, 1000));
    const drawn = Array.from({ length: 40 }, (_, i) => familyApplication(APPLICATION_SEEDS_FROM + i)!);
    expect(new Set(drawn.map((a) => a.shape))).toEqual(new Set(["ckan-portal", "wordpress-site"]));
    expect(drawn.filter((a) => a.variant === "standard").length).toBeGreaterThan(10);
    expect(drawn.filter((a) => a.variant !== "standard").length).toBeGreaterThan(10);
    expect(familyApplication(APPLICATION_SEEDS_FROM + 3)).toEqual(familyApplication(APPLICATION_SEEDS_FROM + 3));
  });

  it("gives validation seeds application sites the shipped recipes recognise, and ordinary seeds none", () => {
    for (let seed = APPLICATION_SEEDS_FROM + 1; seed < APPLICATION_SEEDS_FROM + 12; seed += 2) {
      const application = familyApplication(seed)!;
      const expected = application.shape === "ckan-portal" ? "ckan" : "wordpress";
      expect(recognisedOn(seed), `seed ${seed}: ${application.shape} ${application.variant}`).toContain(expected);
    }
    for (let seed = 2; seed <= 12; seed += 2) expect(recognisedOn(seed), `seed ${seed}`).toEqual([]);
  });
});
