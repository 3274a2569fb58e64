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
        field="archive.keepWarc"
        label="Keep a web archive (WARC)"
        hint="Record every request and response as WARC/1.1 (about as much disk as the bytes received), downloadable as WACZ for ReplayWeb.page or pywb."
        checked={values.keepWarc}
        onChange={(checked) => set("keepWarc", checked)}
        error={errors["archive.keepWarc"]}
      />
      <p className="field-hint" data-testid="network-policy-hint">
        Addresses on private networks (localhost, 10.x, 192.168.x…) are reached only where the server's network policy
        allows them: an admin sets it under Settings → Network.
      </p>
    </section>
  );
}
