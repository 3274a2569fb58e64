"use client";

import { CheckboxField, Field } from "./fields";
import type { FormSectionProps } from "./form-section";

export function PolitenessFields({ values, set, errors }: FormSectionProps) {
  return (
    <section className="form-section" aria-labelledby="politeness-title">
      <h2 id="politeness-title">Politeness</h2>
      <p className="section-hint">Forage sends one request at a time per host and names itself in its User-Agent.</p>
      <Field
        field="politeness.delayMs"
        label="Politeness delay (ms)"
        error={errors["politeness.delayMs"]}
        hint="Minimum time between two requests to the site; 1000 ms is the polite default. Can be changed while the crawl runs."
      >
        {(control) => <input {...control} type="number" inputMode="numeric" min={0} step={100} value={values.delayMs} onChange={(e) => set("delayMs", e.target.value)} />}
      </Field>
      <CheckboxField
        field="politeness.obeyRobots"
        label="Obey robots.txt"
        hint="Skip the URLs the site's robots.txt disallows and honour its Crawl-delay (skips are listed in the cockpit)."
        checked={values.obeyRobots}
        onChange={(checked) => set("obeyRobots", checked)}
        error={errors["politeness.obeyRobots"]}
      />
      <CheckboxField
        field="allowPrivateNetwork"
        label="Allow private network addresses"
        hint="Needed for sites on localhost or an intranet (127.0.0.1, 10.x, 192.168.x…), such as the demo site. Off by default so a public URL cannot lead the crawler into your network."
        checked={values.allowPrivateNetwork}
        onChange={(checked) => set("allowPrivateNetwork", checked)}
        error={errors.allowPrivateNetwork}
      />
    </section>
  );
}
