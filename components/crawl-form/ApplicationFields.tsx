"use client";

import { useRecipesQuery } from "@/components/hooks/use-recipes-query";
import { CheckboxField, Field } from "./fields";
import type { FormSectionProps } from "./form-section";

/**
 * "Use the site's own catalog or API when recognised" and which application to assume: the
 * recipes in force (docs/RECIPES.md). Only SB strategies use it.
 */
export function ApplicationFields({ values, set, errors }: FormSectionProps) {
  const recipes = useRecipesQuery();
  const known = recipes.data?.recipes ?? [];
  const sbStrategy = values.strategy === "sb";
  return (
    <>
      <CheckboxField
        field="applications.use"
        label="Use the site's own catalog or API when recognised"
        hint={
          sbStrategy
            ? "Open-data portals, repositories and publishing systems (CKAN, WordPress, DSpace…) list their own files: their listings become actions the crawler chooses among, next to the page structure."
            : "Only SB-CLASSIFIER uses it: the strategy chosen below crawls through the pages only."
        }
        checked={values.useApplications}
        onChange={(checked) => set("useApplications", checked)}
        error={errors["applications.use"]}
      />
      {values.useApplications ? (
        <Field
          field="applications.recipe"
          label="Application"
          error={errors["applications.recipe"]}
          hint="Automatic: recognised from the site's pages (a probe of its API confirms it). Choosing one assumes it at the root URL's host."
        >
          {(control) => (
            <select {...control} value={values.recipe} onChange={(event) => set("recipe", event.target.value)}>
              <option value="auto">Automatic</option>
              {known.map((recipe) => (
                <option key={recipe.id} value={recipe.id}>
                  {recipe.name}
                </option>
              ))}
              {values.recipe !== "auto" && !known.some((recipe) => recipe.id === values.recipe) ? <option value={values.recipe}>{values.recipe}</option> : null}
            </select>
          )}
        </Field>
      ) : null}
    </>
  );
}
