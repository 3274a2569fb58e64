"use client";

import { formatDuration, formatInteger } from "@/lib/format";
import { Field } from "./fields";
import type { CrawlFormValues } from "./form-state";
import type { FormSectionProps } from "./form-section";

/**
 * The estimate is the floor set by politeness: one host, one request in flight, `delay` between
 * requests. Response times add to it; a robots.txt Crawl-delay can stretch it further.
 */
export function estimateText(values: Pick<CrawlFormValues, "budgetRequests" | "delayMs">): string | null {
  const requests = Number(values.budgetRequests);
  const delayMs = Number(values.delayMs);
  if (!Number.isInteger(requests) || requests < 1 || !Number.isFinite(delayMs) || delayMs < 0) return null;
  if (delayMs === 0) return `${formatInteger(requests)} requests with no delay: as fast as the site answers.`;
  return `Estimated duration: about ${formatDuration(requests * delayMs)} (${formatInteger(requests)} requests × ${formatInteger(delayMs)} ms politeness delay), plus response times.`;
}

export function BudgetFields({ values, set, errors }: FormSectionProps) {
  const estimate = estimateText(values);
  return (
    <section className="form-section" aria-labelledby="budget-title">
      <h2 id="budget-title">Budget</h2>
      <p className="section-hint">The crawl stops when the first limit is reached. A request is one GET or HEAD.</p>
      <Field field="budget.requests" label="Request budget" error={errors["budget.requests"]} hint="Counted requests, the unit the crawler saves.">
        {(control) => (
          <input {...control} type="number" inputMode="numeric" min={1} step={1} value={values.budgetRequests} onChange={(e) => set("budgetRequests", e.target.value)} />
        )}
      </Field>
      <p className="estimate" aria-live="polite" data-testid="budget-estimate">
        {estimate ?? "Enter a budget and a politeness delay to see the estimated duration."}
      </p>
      <div className="field-row">
        <Field field="budget.bytes" label="Byte limit" error={errors["budget.bytes"]} hint="Optional: total data received.">
          {(control) => (
            <div className="input-with-unit">
              <input {...control} type="number" inputMode="decimal" min={0} step="any" value={values.byteLimit} placeholder="No limit" onChange={(e) => set("byteLimit", e.target.value)} />
              <select aria-label="Byte limit unit" value={values.byteUnit} onChange={(e) => set("byteUnit", e.target.value === "GB" ? "GB" : "MB")}>
                <option value="MB">MB</option>
                <option value="GB">GB</option>
              </select>
            </div>
          )}
        </Field>
        <Field field="budget.seconds" label="Time limit" error={errors["budget.seconds"]} hint="Optional: running time, pauses excluded.">
          {(control) => (
            <div className="input-with-unit">
              <input {...control} type="number" inputMode="decimal" min={0} step="any" value={values.timeLimit} placeholder="No limit" onChange={(e) => set("timeLimit", e.target.value)} />
              <select aria-label="Time limit unit" value={values.timeUnit} onChange={(e) => set("timeUnit", e.target.value === "hours" ? "hours" : "minutes")}>
                <option value="minutes">minutes</option>
                <option value="hours">hours</option>
              </select>
            </div>
          )}
        </Field>
      </div>
    </section>
  );
}
