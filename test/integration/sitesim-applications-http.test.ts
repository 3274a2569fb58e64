import { afterAll, describe, expect, it } from "vitest";
import { applicationTruth, buildSite, startSiteServer, type RunningSite, type SiteSpec } from "@/lib/sitesim";
import { detectApplications, type FetchedText } from "@/lib/recipes/detect-application";
import { firstPageUrl, readEnumerationPage } from "@/lib/recipes/enumeration-pages";
import { loadRecipes } from "@/lib/recipes/load-recipes";
import { pageSigns } from "@/lib/recipes/page-signs";
import { recogniseApplications } from "@/lib/recipes/recognise";

const recipes = loadRecipes().map((l) => l.recipe);
const running: RunningSite[] = [];
afterAll(async () => {
  await Promise.all(running.map((r) => r.close()));
});

async function fetchText(url: string): Promise<FetchedText> {
  const res = await fetch(url);
  return { status: res.status, headers: [...res.headers.entries()], body: await res.text(), url: res.url };
}

/** Recognises the application at the root over HTTP, then reads its enumeration to the end. */
async function enumerate(spec: SiteSpec) {
  const server = await startSiteServer(buildSite(spec));
  running.push(server);
  const root = await fetchText(server.rootUrl);
  const [candidate] = recogniseApplications(recipes, pageSigns(root.url, root.body, root.headers), root.url);
  if (!candidate) throw new Error(`nothing recognised on ${spec.shape}`);
  const enumeration = candidate.recipe.enumerations[0]!;
  const urls: string[] = [];
  let next: string | null = firstPageUrl(enumeration, candidate.base);
  let pages = 0;
  let problem: string | undefined;
  while (next) {
    const res = await fetch(next);
    const page = readEnumerationPage(enumeration, candidate.base, next, { status: res.status, headers: new Map(res.headers.entries()), body: await res.text() });
    pages++;
    urls.push(...page.files.map((f) => f.url));
    problem = page.problem;
    next = page.nextUrl;
  }
  return { server, candidate, urls, pages, problem, truth: applicationTruth(server.site) };
}

const onSite = (server: RunningSite, urls: string[]) => urls.filter((u) => u.startsWith(server.origin + "/")).map((u) => u.slice(server.origin.length));

describe("the shipped recipes read the simulated applications to the end over HTTP", () => {
  it("CKAN: package_search lists exactly the API truth in the API floor's number of pages", async () => {
    const { server, candidate, urls, pages, problem, truth } = await enumerate({ shape: "ckan-portal", seed: 2, size: "medium" });
    expect(candidate.recipe.id).toBe("ckan");
    expect(candidate.base).toBe(server.rootUrl);
    expect(problem).toBeUndefined();
    expect(pages).toBe(truth.apiFloor!.pages);
    expect(onSite(server, urls)).toEqual(truth.apiListed.filter((l) => l.onSite).map((l) => l.url));
    expect(urls.filter((u) => !u.startsWith(server.origin))).toEqual(truth.apiListed.filter((l) => !l.onSite).map((l) => l.url));
    const detected = await detectApplications(server.rootUrl, recipes, fetchText);
    expect(detected.detections.map((d) => [d.recipe.id, d.probe.state, d.version])).toEqual([["ckan", "confirmed", "2.10.4"]]);
  });

  it("CKAN under /data/: the base is /data/ and the files are listed there", async () => {
    const { server, candidate, urls, truth } = await enumerate({ shape: "ckan-portal", seed: 2, size: "small", variant: "sub-path" });
    expect(candidate.base).toBe(`${server.origin}/data/`);
    expect(onSite(server, urls).filter((u) => truth.apiFiles.includes(u)).sort()).toEqual(truth.apiFiles);
    expect((await detectApplications(server.rootUrl, recipes, fetchText)).detections[0]!.probe.state).toBe("confirmed");
  });

  it("CKAN whose API answers 500: the enumeration ends with a problem, the probe is refused", async () => {
    const { server, urls, problem } = await enumerate({ shape: "ckan-portal", seed: 2, size: "tiny", variant: "api-error" });
    expect(urls).toEqual([]);
    expect(problem).toBe("answered 500");
    expect((await detectApplications(server.rootUrl, recipes, fetchText)).detections[0]!.probe).toMatchObject({ state: "refused", detail: "answered 500" });
  });

  it("CKAN with harvested files: off-host URLs are listed as such", async () => {
    const { server, urls, truth } = await enumerate({ shape: "ckan-portal", seed: 2, size: "small", variant: "off-site-files" });
    const offHost = urls.filter((u) => new URL(u).origin !== server.origin);
    expect(offHost.filter((u) => truth.apiOffSiteFiles.includes(u))).toEqual(truth.apiOffSiteFiles);
    expect(truth.apiOffSiteFiles.length).toBeGreaterThan(0);
  });

  it("CKAN whose robots.txt disallows /api/: the probe is not sent", async () => {
    const server = await startSiteServer(buildSite({ shape: "ckan-portal", seed: 2, size: "tiny", variant: "robots-disallow-api" }));
    running.push(server);
    const before = server.requestCount();
    const report = await detectApplications(server.rootUrl, recipes, fetchText);
    expect(report.detections[0]!.probe.state).toBe("disallowed");
    expect(server.requestCount() - before).toBe(2); // the page and robots.txt
  });

  it("WordPress: the media list equals the API truth, unlinked uploads included", async () => {
    const { server, candidate, urls, pages, problem, truth } = await enumerate({ shape: "wordpress-site", seed: 2, size: "small" });
    expect(candidate.recipe.id).toBe("wordpress");
    expect(problem).toBeUndefined();
    expect(pages).toBe(truth.apiFloor!.pages);
    expect(onSite(server, urls)).toEqual(truth.apiListed.map((l) => l.url));
    expect(truth.apiOnlyFiles.every((f) => onSite(server, urls).includes(f))).toBe(true);
    expect((await detectApplications(server.rootUrl, recipes, fetchText)).detections[0]!.probe.state).toBe("confirmed");
  });

  it.each(["rest-disabled-401", "rest-disabled-404"])("WordPress %s: the enumeration ends with a problem", async (variant) => {
    const { server, urls, problem } = await enumerate({ shape: "wordpress-site", seed: 2, size: "tiny", variant });
    expect(urls).toEqual([]);
    expect(problem).toBe(`answered ${variant.endsWith("401") ? 401 : 404}`);
    expect((await detectApplications(server.rootUrl, recipes, fetchText)).detections[0]!.probe.state).toBe("refused");
  });
});
