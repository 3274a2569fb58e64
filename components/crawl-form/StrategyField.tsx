"use client";

import { STRATEGIES, STRATEGY_LABELS, type Strategy } from "@/lib/crawl-config";
import { Field } from "./fields";
import type { FormSectionProps } from "./form-section";

/** SB-ORACLE needs the true type of every link: it only makes sense when replaying a stored crawl. */
export const FORM_STRATEGIES = STRATEGIES.filter((strategy) => strategy !== "sb-oracle");

export function StrategyField({ values, set, errors }: FormSectionProps) {
  return (
    <section className="form-section" aria-labelledby="strategy-title">
      <h2 id="strategy-title">Crawler</h2>
      <Field
        field="strategy"
        label="Strategy"
        error={errors.strategy}
        hint="SB-CLASSIFIER is Forage's crawler; the others are the paper's baselines, useful to compare on the same site."
      >
        {(control) => (
          <select {...control} value={values.strategy} onChange={(e) => set("strategy", e.target.value as Strategy)}>
            {FORM_STRATEGIES.map((strategy) => (
              <option key={strategy} value={strategy}>
                {STRATEGY_LABELS[strategy]}
              </option>
            ))}
          </select>
        )}
      </Field>
    </section>
  );
}
