"use client";

import { formatBytes } from "@/lib/format";
import { CheckboxField, Field } from "./fields";
import type { FormSectionProps } from "./form-section";
import type { CrawlFormValues } from "./form-state";
import { PARAM_GROUPS, type ChoiceParamKey } from "./param-fields";

/** The algorithm's settings, collapsed: the defaults are the paper's and rarely need a change. */
export function AdvancedFields({ values, set, errors, open, onToggle }: FormSectionProps & { open: boolean; onToggle: (open: boolean) => void }) {
  const setParam = (key: keyof typeof values.params, value: string) => set("params", { ...values.params, [key]: value });
  return (
    <details className="form-section advanced" open={open} onToggle={(event) => onToggle(event.currentTarget.open)}>
      <summary>
        <span className="summary-title">Advanced</span>
        <span className="summary-hint">Algorithm settings and seed; the defaults follow the SB-CLASSIFIER paper.</span>
      </summary>
      {PARAM_GROUPS.map((group) => (
        <fieldset key={group.title} className="param-group">
          <legend>{group.title}</legend>
          {group.choices?.map((choice) => (
            <Field key={choice.key} field={`params.${choice.key}`} label={choice.label} error={errors[`params.${choice.key}`]} hint={`${choice.hint} ${choice.note}`}>
              {(control) => (
                <select {...control} value={values[choice.key]} onChange={(e) => set(choice.key, e.target.value as CrawlFormValues[ChoiceParamKey] as never)}>
                  {choice.options.map((option) => (
                    <option key={option.value} value={option.value}>
                      {option.label}
                    </option>
                  ))}
                </select>
              )}
            </Field>
          ))}
          {group.toggles?.map((toggle) => (
            <CheckboxField
              key={toggle.key}
              field={`params.${toggle.key}`}
              label={toggle.label}
              hint={`${toggle.hint} ${toggle.note}`}
              checked={values[toggle.key]}
              onChange={(checked) => set(toggle.key, checked)}
              error={errors[`params.${toggle.key}`]}
            />
          ))}
          <div className="param-grid">
            {group.fields.map((param) => {
              const bytes = param.bytes ? Number(values.params[param.key]) : NaN;
              return (
                <Field
                  key={param.key}
                  field={`params.${param.key}`}
                  label={param.label}
                  error={errors[`params.${param.key}`]}
                  hint={Number.isFinite(bytes) ? `${param.hint} (${formatBytes(bytes)}) ${param.note}` : `${param.hint} ${param.note}`}
                >
                  {(control) => (
                    <input {...control} type="number" step={param.step} inputMode="decimal" value={values.params[param.key]} onChange={(e) => setParam(param.key, e.target.value)} />
                  )}
                </Field>
              );
            })}
          </div>
        </fieldset>
      ))}
      <fieldset className="param-group">
        <legend>Reproducibility</legend>
        <Field
          field="seed"
          label="Seed"
          error={errors.seed}
          hint="Every random choice derives from it: the same seed on the same site repeats the crawl. Empty: drawn at random."
        >
          {(control) => <input {...control} type="number" step={1} min={0} inputMode="numeric" placeholder="Random" value={values.seed} onChange={(e) => set("seed", e.target.value)} />}
        </Field>
      </fieldset>
    </details>
  );
}
