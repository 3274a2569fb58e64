import type { SiteApplications } from "../crawler/engine/site-applications";
import type { EventRow } from "../crawler/engine/types";
import { crawlApplications } from "./crawl-applications";
import { loadRecipes, RecipeError } from "./load-recipes";

/**
 * The recipes a crawl runs with: the shipped ones and FORAGE_RECIPES_DIR's. A bad file in that
 * folder does not stop the crawl: it runs with the shipped recipes, and an event names the file
 * and the problem (`forage recipes check` says the same before any crawl).
 */
export function crawlApplicationsFor(recipesDir: string | null, choice: string, event: (row: EventRow) => void): SiteApplications {
  try {
    return crawlApplications(loadRecipes(recipesDir ?? undefined).map((loaded) => loaded.recipe), choice);
  } catch (error) {
    if (!(error instanceof RecipeError)) throw error;
    event({ level: "warn", kind: "recipes-refused", message: `Your recipes were not loaded, the shipped ones are used: ${error.message}`, data: { problem: error.message } });
    return crawlApplications(loadRecipes().map((loaded) => loaded.recipe), choice);
  }
}
