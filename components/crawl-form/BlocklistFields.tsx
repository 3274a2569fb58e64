"use client";

import { splitWords } from "./form-state";
import { Field } from "./fields";
import type { FormSectionProps } from "./form-section";

export function BlocklistFields({ values, set, errors }: FormSectionProps) {
  const extensionCount = splitWords(values.extensions).length;
  return (
    <section className="form-section" aria-labelledby="blocklists-title">
      <h2 id="blocklists-title">Blocklists</h2>
      <p className="section-hint">What the crawler never spends a request on. The defaults skip images, audio and video.</p>
      <Field
        field="blocklist.urlPatterns"
        label="URL patterns"
        error={errors["blocklist.urlPatterns"]}
        hint={
          <>
            One per line: <code>*</code> matches anything (<code>*/calendar/*</code>), or <code>re:</code> followed by a
            regular expression (JavaScript syntax, without lookaheads or back-references). Can be changed while the crawl runs.
          </>
        }
      >
        {(control) => (
          <textarea {...control} rows={3} spellCheck={false} placeholder="*/calendar/*" value={values.urlPatterns} onChange={(e) => set("urlPatterns", e.target.value)} />
        )}
      </Field>
      <Field
        field="blocklist.extensions"
        label="File extensions"
        error={errors["blocklist.extensions"]}
        hint={`Links whose last path segment ends with one of these are skipped (${extensionCount} extensions, separated by spaces).`}
      >
        {(control) => (
          <textarea {...control} rows={3} spellCheck={false} className="mono-small" value={values.extensions} onChange={(e) => set("extensions", e.target.value)} />
        )}
      </Field>
      <Field
        field="blocklist.mimeTypes"
        label="MIME types"
        error={errors["blocklist.mimeTypes"]}
        hint={
          <>
            Responses of these types, or prefixes ending in <code>/</code>, are aborted as soon as their headers arrive.
          </>
        }
      >
        {(control) => <input {...control} type="text" spellCheck={false} value={values.blockedMimeTypes} onChange={(e) => set("blockedMimeTypes", e.target.value)} />}
      </Field>
    </section>
  );
}
