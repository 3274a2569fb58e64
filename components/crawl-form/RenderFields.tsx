"use client";

import { RENDER_MODES, type RenderMode } from "@/lib/crawl-config";
import { Field } from "./fields";
import type { FormSectionProps } from "./form-section";

const LABELS: Record<RenderMode, string> = {
  auto: "When a page needs it",
  always: "Every page",
  off: "Never (read HTML only)",
};

/** "Render pages with a browser" (`render`): script-built pages show their links only once their scripts ran. */
export function RenderFields({ values, set, errors }: FormSectionProps) {
  return (
    <Field
      field="render"
      label="Render pages with a browser"
      error={errors.render}
      hint="Some sites build their lists with scripts: the HTML alone holds no links to the files. A browser (Chromium on the worker) runs those pages; every request it makes obeys this crawl's rules and counts toward its budget. “When a page needs it” renders pages whose HTML looks script-built, and pages like those that rendering paid for."
    >
      {(control) => (
        <select {...control} value={values.render} onChange={(event) => set("render", event.target.value as RenderMode)}>
          {RENDER_MODES.map((mode) => (
            <option key={mode} value={mode}>
              {LABELS[mode]}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}
