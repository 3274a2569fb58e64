import type {
  ApiAnswer,
  ApplicationCandidate,
  ApplicationEnumeration,
  RecognisedApplication,
  SiteApplications,
} from "../crawler/engine/site-applications";
import { compileUrlPatterns, type UrlMatcher } from "../crawler/url-rules";
import { firstPageUrl, readEnumerationPage } from "./enumeration-pages";
import { probeVerdict } from "./probe-answer";
import { pageSigns } from "./page-signs";
import type { Recipe } from "./recipe-schema";
import { recogniseApplications, type Candidate } from "./recognise";
import { applicationFile, catalogCandidate, catalogEnumeration, DCAT_RECIPE_ID, statedFiles } from "./standard-catalogs";

/**
 * The recipes as the crawl engine sees them (`SiteApplications`): candidates from the signs of
 * a page the crawl fetched anyway, each with its recipe's probe; the enumerations of a
 * recognised application; its pages to avoid. `choice` is the crawl's setting: "auto", or the
 * id of the recipe the user chose (assumed at the root URL's origin, its probe still sent).
 */
export function crawlApplications(recipes: readonly Recipe[], choice: string = "auto"): SiteApplications {
  const byId = new Map(recipes.map((recipe) => [recipe.id, recipe]));
  const matchers = new Map<string, UrlMatcher>();
  /** Whether the URL matches one of a recipe's pattern lists (compiled once per recipe and list). */
  const matches = (list: "avoid" | "scriptBuilt", recipeId: string, url: string): boolean => {
    const patterns = byId.get(recipeId)?.[list] ?? [];
    if (patterns.length === 0) return false;
    const key = `${list} ${recipeId}`;
    let matcher = matchers.get(key);
    if (!matcher) {
      matcher = compileUrlPatterns(patterns);
      matchers.set(key, matcher);
    }
    return matcher(url);
  };
  return {
    recognise(page) {
      if (choice !== "auto") return [];
      const signs = pageSigns(page.url, page.html, page.headers.map(([name, value]) => [name, value] as [string, string]));
      const candidates = recogniseApplications(recipes, signs, page.url).map(candidateOf);
      // A DCAT catalog the page advertises.
      const catalog = catalogCandidate(page);
      return catalog ? [...candidates, catalog] : candidates;
    },
    chosen(rootUrl) {
      const recipe = choice === "auto" ? undefined : byId.get(choice);
      if (!recipe) return [];
      return [candidateOf({ recipe, evidence: ["the crawl's settings"], base: new URL("/", rootUrl).href })];
    },
    enumerations(application) {
      if (application.recipeId === DCAT_RECIPE_ID) return [catalogEnumeration(application)];
      const recipe = byId.get(application.recipeId);
      if (!recipe) return [];
      return recipe.enumerations.map((enumeration): ApplicationEnumeration => ({
        key: `${recipe.id}:${enumeration.id}`,
        name: enumeration.name,
        listsChangesSince: enumeration.changedSince !== undefined,
        firstUrl(since) {
          return firstPageUrl(enumeration, application.base, since);
        },
        read(pageUrl, answer) {
          const page = readEnumerationPage(enumeration, application.base, pageUrl, answer);
          return {
            files: page.files.map(applicationFile),
            records: page.records,
            nextUrl: page.nextUrl,
            ...(page.problem ? { problem: page.problem } : {}),
          };
        },
      }));
    },
    filesOnPage: statedFiles,
    avoids: (application, url) => matches("avoid", application.recipeId, url),
    scriptBuilt: (application, url) => matches("scriptBuilt", application.recipeId, url),
  };
}

function candidateOf(candidate: Candidate): ApplicationCandidate {
  const { recipe } = candidate;
  const application: RecognisedApplication = {
    recipeId: recipe.id,
    name: recipe.name,
    base: candidate.base,
    evidence: candidate.evidence,
    ...(candidate.version ? { version: candidate.version } : {}),
  };
  const probe = recipe.recognise.probe;
  if (!probe) return { application };
  return {
    application,
    probe: {
      url: new URL(probe.path, candidate.base).href,
      check: (answer: ApiAnswer) => probeVerdict(probe, answer.body),
    },
  };
}
