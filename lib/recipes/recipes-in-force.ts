import { loadRecipes, RecipeError, type LoadedRecipe } from "./load-recipes";

/** What the dashboard says of one recipe: the crawl form's choice, `GET /api/recipes`. */
export interface RecipeSummary {
  id: string;
  name: string;
  /** "shipped", or the file in FORAGE_RECIPES_DIR it was read from. */
  origin: string;
  enumerations: { id: string; name: string }[];
}

/**
 * The recipes a crawl created now would run with: shipped plus FORAGE_RECIPES_DIR's. A bad file
 * there leaves the shipped ones in force (as a crawl does) and is named in `problem`.
 */
export function recipesInForce(recipesDir: string | null): { recipes: RecipeSummary[]; problem: string | null } {
  let loaded: LoadedRecipe[];
  let problem: string | null = null;
  try {
    loaded = loadRecipes(recipesDir ?? undefined);
  } catch (error) {
    if (!(error instanceof RecipeError)) throw error;
    problem = error.message;
    loaded = loadRecipes();
  }
  return {
    recipes: loaded.map(({ recipe, origin }) => ({
      id: recipe.id,
      name: recipe.name,
      origin,
      enumerations: recipe.enumerations.map((enumeration) => ({ id: enumeration.id, name: enumeration.name })),
    })),
    problem,
  };
}
