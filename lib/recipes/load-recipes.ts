import fs from "node:fs";
import path from "node:path";
import type { z } from "zod";
import arcgisHub from "./known/arcgis-hub.json" with { type: "json" };
import ckan from "./known/ckan.json" with { type: "json" };
import dataverse from "./known/dataverse.json" with { type: "json" };
import dkan from "./known/dkan.json" with { type: "json" };
import dspace from "./known/dspace.json" with { type: "json" };
import invenioRdm from "./known/invenio-rdm.json" with { type: "json" };
import mediawiki from "./known/mediawiki.json" with { type: "json" };
import opendatasoft from "./known/opendatasoft.json" with { type: "json" };
import socrata from "./known/socrata.json" with { type: "json" };
import wordpress from "./known/wordpress.json" with { type: "json" };
import { recipeSchema, type Recipe } from "./recipe-schema";

/**
 * The knowledge base: the recipes shipped with Forage (lib/recipes/known, one JSON file per
 * application) and those of the folder FORAGE_RECIPES_DIR. A user's recipe with the id of a
 * shipped one replaces it, so a site's quirks can be fixed without waiting for a release.
 */
export interface LoadedRecipe {
  recipe: Recipe;
  /** "shipped" or the file it was read from. */
  origin: string;
  /** A shipped recipe this one replaces. */
  replaces?: "shipped";
}

/** A recipe file that cannot be used: the message names the file, the field and the problem. */
export class RecipeError extends Error {
  override name = "RecipeError";
}

const SHIPPED: Record<string, unknown> = {
  "arcgis-hub.json": arcgisHub,
  "ckan.json": ckan,
  "dataverse.json": dataverse,
  "dkan.json": dkan,
  "dspace.json": dspace,
  "invenio-rdm.json": invenioRdm,
  "mediawiki.json": mediawiki,
  "opendatasoft.json": opendatasoft,
  "socrata.json": socrata,
  "wordpress.json": wordpress,
};
/** A recipe is a page of text; a larger file is a mistake (or not a recipe). */
const MAX_RECIPE_BYTES = 256 * 1024;

/** Validates one recipe's parsed JSON. @throws RecipeError "<file>: <field>: <problem>" */
export function parseRecipe(json: unknown, file: string): Recipe {
  const parsed = recipeSchema.safeParse(json);
  if (!parsed.success) throw new RecipeError(`${file}: ${describeIssues(parsed.error.issues)}`);
  return parsed.data;
}

/** Reads and validates a recipe file. @throws RecipeError */
export function readRecipeFile(file: string): Recipe {
  let text: string;
  try {
    const size = fs.statSync(file).size;
    if (size > MAX_RECIPE_BYTES) throw new RecipeError(`${file}: is ${size} bytes; a recipe is at most ${MAX_RECIPE_BYTES} bytes`);
    text = fs.readFileSync(file, "utf8");
  } catch (error) {
    if (error instanceof RecipeError) throw error;
    throw new RecipeError(`${file}: cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new RecipeError(`${file}: is not JSON (${error instanceof Error ? error.message : String(error)})`);
  }
  return parseRecipe(json, file);
}

/**
 * The shipped recipes, validated once per process: they are part of the code, and every crawl a
 * worker starts loads the recipes in force (validating all of them cost more than a crawl's first
 * pages on a worker starting hundreds). Deep-frozen, as every crawl shares them.
 */
let shipped: readonly LoadedRecipe[] | null = null;
function shippedRecipes(): readonly LoadedRecipe[] {
  shipped ??= Object.entries(SHIPPED).map(([file, json]) => deepFreeze({ recipe: parseRecipe(json, `lib/recipes/known/${file}`), origin: "shipped" as const }));
  return shipped;
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

/** Every recipe in force: the shipped ones, then the folder's (`dir`, usually FORAGE_RECIPES_DIR). @throws RecipeError on the first bad file */
export function loadRecipes(dir?: string): LoadedRecipe[] {
  const byId = new Map<string, LoadedRecipe>();
  for (const loaded of shippedRecipes()) byId.set(loaded.recipe.id, loaded);
  if (dir) {
    let names: string[];
    try {
      names = fs.readdirSync(dir).filter((name) => name.endsWith(".json")).sort();
    } catch (error) {
      throw new RecipeError(`FORAGE_RECIPES_DIR ${dir}: cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
    }
    const seen = new Map<string, string>();
    for (const name of names) {
      const file = path.join(dir, name);
      const recipe = readRecipeFile(file);
      const earlier = seen.get(recipe.id);
      if (earlier) throw new RecipeError(`${file}: id: "${recipe.id}" is also the id of ${earlier}`);
      seen.set(recipe.id, file);
      byId.set(recipe.id, { recipe, origin: file, ...(byId.has(recipe.id) ? { replaces: "shipped" as const } : {}) });
    }
  }
  return [...byId.values()].sort((a, b) => a.recipe.id.localeCompare(b.recipe.id));
}

/** `enumerations[0].paging.size: must be at most 10000; recognise: needs at least one sign…` */
function describeIssues(issues: readonly z.core.$ZodIssue[]): string {
  return issues
    .slice(0, 5)
    .map((issue) => {
      const field = issue.path.map((part) => (typeof part === "number" ? `[${part}]` : `.${String(part)}`)).join("").replace(/^\./, "");
      const message = /received undefined$/.test(issue.message) ? "is required" : issue.message;
      return `${field || "(the file)"}: ${message}`;
    })
    .join("; ");
}
