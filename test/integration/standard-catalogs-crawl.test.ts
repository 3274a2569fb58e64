/**
 * What sites publish in standard forms, used by a crawl without any recipe (real engine, real
 * HTTP): a DCAT catalog in Turtle the home page advertises, paged with Hydra, read as an action;
 * files a page states in schema.org `Dataset` JSON-LD; and, on a site that advertises nothing,
 * no guess at all.
 */
import { afterEach, describe, expect, it } from "vitest";
import { crawlApplications } from "../../lib/recipes/crawl-applications";
import { loadRecipes } from "../../lib/recipes/load-recipes";
import { runTestCrawl, startRouteSite, type Route, type TestSite } from "../helpers/crawl-fixtures";

const recipes = loadRecipes().map((loaded) => loaded.recipe);
let site: TestSite | null = null;

afterEach(async () => {
  await site?.close();
  site = null;
});

const page = (head: string, body: string) => `<!doctype html><html><head><title>Open data</title>${head}</head><body>${body}</body></html>`;

function turtlePage(origin: string, n: number, last: number): string {
  const datasets = [0, 1, 2].map((i) => `${n * 3 + i}`);
  const next = n < last ? `    hydra:nextPage "${origin}/catalog.ttl?page=${n + 1}" ;\n` : "";
  return `@prefix dcat: <http://www.w3.org/ns/dcat#> .
@prefix dct: <http://purl.org/dc/terms/> .
@prefix hydra: <http://www.w3.org/ns/hydra/core#> .
<${origin}/catalog.ttl?page=${n}> a hydra:PagedCollection ;
${next}    hydra:itemsPerPage 3 .
<${origin}/> a dcat:Catalog ; dcat:dataset ${datasets.map((d) => `<${origin}/dataset/${d}>`).join(", ")} .
${datasets
  .map(
    (d) => `<${origin}/dataset/${d}> a dcat:Dataset ; dct:title "Dataset ${d}" ; dcat:distribution <${origin}/dataset/${d}/csv>, <${origin}/dataset/${d}/pdf> .
<${origin}/dataset/${d}/csv> a dcat:Distribution ; dcat:downloadURL <${origin}/files/${d}.csv> ; dcat:mediaType "text/csv" .
<${origin}/dataset/${d}/pdf> a dcat:Distribution ; dcat:downloadURL <${origin}/files/${d}.pdf> ; dct:format "PDF" .`,
  )
  .join("\n")}
`;
}

async function startCatalogSite(): Promise<TestSite> {
  const routes: Record<string, Route> = {};
  const started = await startRouteSite(routes);
  const origin = started.origin;
  routes["/"] = page(`<link rel="alternate" type="text/turtle" href="/catalog.ttl?page=0">`, `<a href="/about">About</a>`);
  routes["/about"] = page(
    `<script type="application/ld+json">${JSON.stringify({
      "@context": "https://schema.org/",
      "@type": "Dataset",
      name: "Annual report",
      url: `${origin}/about`,
      distribution: [{ "@type": "DataDownload", contentUrl: `${origin}/extra/report.pdf`, encodingFormat: "application/pdf" }],
    })}</script>`,
    "<p>About us</p>",
  );
  for (let n = 0; n <= 2; n++) routes[`/catalog.ttl?page=${n}`] = { type: "text/turtle", body: turtlePage(origin, n, 2) };
  for (let d = 0; d < 9; d++) {
    routes[`/files/${d}.csv`] = { type: "text/csv", body: `a,b\n${d},1\n` };
    routes[`/files/${d}.pdf`] = { type: "application/pdf", body: `%PDF-1.4 ${d}` };
  }
  routes["/extra/report.pdf"] = { type: "application/pdf", body: "%PDF-1.4 report" };
  return started;
}

const crawl = (rootUrl: string) =>
  runTestCrawl({ rootUrl, seed: 2, budget: { requests: 200 }, targetMimeTypes: ["text/csv", "application/pdf"] }, { applications: crawlApplications(recipes) });

describe("standard catalogs in a crawl, without a recipe", () => {
  it("reads the advertised DCAT catalog page by page as an action, and the files a page states in schema.org", async () => {
    site = await startCatalogSite();
    const result = await crawl(site.rootUrl);
    expect(result.counters.targets).toBe(19);
    expect(result.sink.events.find((event) => event.kind === "application-recognised")?.message).toBe(
      "Recognised a DCAT catalog from a link rel=alternate to /catalog.ttl (Turtle) — listing files through DCAT catalog",
    );
    expect(result.counted.filter((row) => row.kind === "api").map((row) => new URL(row.url).search)).toEqual(["?page=0", "?page=1", "?page=2"]);
    expect(result.sink.targets.find((target) => target.url.endsWith("/files/4.pdf"))?.record).toEqual({ title: "Dataset 4", page: `${site.origin}/dataset/4` });
    expect(result.sink.targets.find((target) => target.url.endsWith("/extra/report.pdf"))?.record).toMatchObject({ title: "Annual report" });
    // No guess at /data.json: the page advertised its catalog.
    expect(site.saw("/data.json")).toBe(false);
  });

  it("guesses nothing on a site that advertises no catalog: not one request more", async () => {
    site = await startRouteSite({ "/": page("", `<a href="/a.csv">A</a>`), "/a.csv": { type: "text/csv", body: "a\n1\n" } });
    const result = await crawl(site.rootUrl);
    expect(site.saw("/data.json")).toBe(false);
    expect(result.sink.events.filter((event) => event.kind.startsWith("application-") || event.kind.startsWith("enumeration-"))).toEqual([]);
    expect(result.counters.targets).toBe(1);
  });
});
