import type { ApplicationCandidate, ApplicationEnumeration, ApplicationFile, ApplicationListing, RecognisedApplication } from "../crawler/engine/site-applications";
import { advertisedCatalogs, type CatalogFormat, type CatalogLocation } from "./catalog-discovery";
import { readDcatCatalog } from "./dcat-catalog";
import type { ListedFile } from "./listed-file";
import { schemaOrgFiles } from "./schema-org-datasets";

/**
 * What sites publish about their files in standard forms, without any recipe: a DCAT catalog the
 * page advertises, read as one more enumeration, and
 * schema.org `Dataset` files stated in pages. The pseudo-recipe "dcat" names the catalog's action.
 */
export const DCAT_RECIPE_ID = "dcat";

/** One catalog per site: several serialisations of it are often advertised (ckanext-dcat: four); the cheapest to read first. */
const PREFERENCE: readonly CatalogFormat[] = ["dcat-us-json", "turtle", "json-ld", "rdf-xml", "n3"];

const FORMAT_NAMES: Readonly<Record<CatalogFormat, string>> = {
  "dcat-us-json": "DCAT-US data.json",
  "json-ld": "JSON-LD",
  turtle: "Turtle",
  n3: "N3",
  "rdf-xml": "RDF/XML",
};

/**
 * The catalog a page advertises, as a candidate. Well-known paths are not guessed: that would
 * cost every crawl of every site a request, and the portals that serve `/data.json` without
 * advertising it (DKAN, ArcGIS Hub) have recipes.
 */
export function catalogCandidate(page: { url: string; html: string; headers: ReadonlyArray<readonly [string, string]> }): ApplicationCandidate | null {
  const advertised = advertisedCatalogs(page.html, page.url, page.headers.map(([name, value]) => [name, value] as [string, string]));
  const best = [...advertised].sort((a, b) => PREFERENCE.indexOf(a.format) - PREFERENCE.indexOf(b.format))[0];
  return best ? { application: applicationOf(best) } : null;
}

function applicationOf(location: CatalogLocation): RecognisedApplication {
  const path = new URL(location.url).pathname;
  return {
    recipeId: DCAT_RECIPE_ID,
    name: "a DCAT catalog",
    // The catalog's own URL: its enumeration starts there.
    base: location.url,
    evidence: [`a ${location.from === "link-header" ? "Link header" : "link rel=alternate"} to ${path} (${FORMAT_NAMES[location.format]})`],
  };
}

export function catalogEnumeration(application: RecognisedApplication): ApplicationEnumeration {
  return {
    key: `${DCAT_RECIPE_ID}:catalog`,
    name: "DCAT catalog",
    listsChangesSince: false,
    firstUrl: () => application.base,
    async read(pageUrl, answer): Promise<ApplicationListing> {
      const page = await readDcatCatalog(answer, pageUrl);
      return { files: page.files.map(applicationFile), records: page.records, nextUrl: page.nextUrl, ...(page.problem ? { problem: page.problem } : {}) };
    },
  };
}

/** schema.org `Dataset` files a page states (cheap when it has no JSON-LD). */
export async function statedFiles(page: { url: string; html: string }): Promise<ApplicationFile[]> {
  return (await schemaOrgFiles(page.html, page.url)).map(applicationFile);
}

export function applicationFile(file: ListedFile): ApplicationFile {
  const modified = file.modified ?? file.record?.modified;
  return {
    url: file.url,
    ...(file.mime ? { mime: file.mime } : {}),
    ...(modified ? { modified } : {}),
    ...(file.record ? { record: { ...(file.record.title ? { title: file.record.title } : {}), ...(file.record.page ? { page: file.record.page } : {}) } } : {}),
  };
}
