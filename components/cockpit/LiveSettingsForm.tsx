"use client";

import { useState } from "react";
import { ApiError } from "@/components/hooks/api-fetch";
import type { CrawlDetail } from "@/components/hooks/api-types";
import { useUpdateCrawlMutation } from "@/components/hooks/use-crawl-mutations";
import { Field } from "@/components/crawl-form/fields";
import { splitLines } from "@/components/crawl-form/form-state";
import { politenessSchema, type FieldErrors } from "@/lib/crawl-config";

/**
 * Journey 4, "Intervene": exclude a section that wastes requests, slow down or speed up. The API
 * stores the change; the worker applies it within a second.
 */
export function LiveSettingsForm({ crawl }: { crawl: CrawlDetail }) {
  const update = useUpdateCrawlMutation(crawl.id);
  const [patterns, setPatterns] = useState(crawl.config.blocklist.urlPatterns.join("\n"));
  const [delay, setDelay] = useState(String(crawl.config.politeness.delayMs));
  const [errors, setErrors] = useState<FieldErrors>({});
  const [saved, setSaved] = useState<string | null>(null);

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    setSaved(null);
    const delayMs = delay.trim() === "" ? NaN : Number(delay);
    const delayCheck = politenessSchema.shape.delayMs.safeParse(delayMs);
    if (!delayCheck.success) {
      setErrors({ "politeness.delayMs": Number.isNaN(delayMs) ? "must be a number" : (delayCheck.error.issues[0]?.message ?? "is not valid") });
      return;
    }
    setErrors({});
    const urlPatterns = splitLines(patterns);
    update.mutate(
      { blocklist: { urlPatterns }, politeness: { delayMs } },
      {
        onSuccess: () =>
          setSaved(
            `Saved: ${urlPatterns.length === 0 ? "no URL pattern" : `${urlPatterns.length} URL ${urlPatterns.length === 1 ? "pattern" : "patterns"}`}, ${delayMs} ms between requests. The crawler applies them within a second.`,
          ),
        onError: (error) => {
          if (error instanceof ApiError && error.fields) {
            const mapped: FieldErrors = {};
            for (const [path, message] of Object.entries(error.fields)) {
              const field = path.startsWith("blocklist.urlPatterns") ? "blocklist.urlPatterns" : path.startsWith("politeness.delayMs") ? "politeness.delayMs" : null;
              if (field) mapped[field] = message;
            }
            setErrors(mapped);
          }
        },
      },
    );
  };

  return (
    <form className="live-settings" onSubmit={submit} noValidate aria-labelledby="live-settings-title">
      <h3 id="live-settings-title">Change while running</h3>
      <Field
        field="blocklist.urlPatterns"
        label="URL patterns"
        error={errors["blocklist.urlPatterns"]}
        hint={
          <>
            URLs never requested, one pattern per line: <code>*/calendar/*</code>, or <code>re:</code> and a regular expression (no lookaheads or back-references).
          </>
        }
      >
        {(control) => <textarea {...control} rows={4} spellCheck={false} value={patterns} onChange={(e) => setPatterns(e.target.value)} />}
      </Field>
      <Field field="politeness.delayMs" label="Politeness delay (ms)" error={errors["politeness.delayMs"]} hint="Minimum time between two requests to the site.">
        {(control) => <input {...control} type="number" min={0} step={100} inputMode="numeric" value={delay} onChange={(e) => setDelay(e.target.value)} />}
      </Field>
      <div className="form-actions">
        <button type="submit" className="button button-primary" disabled={update.isPending}>
          {update.isPending ? "Saving…" : "Apply changes"}
        </button>
      </div>
      <div role="status" aria-live="polite">
        {saved ? <p className="notice notice-success" data-testid="live-settings-saved">{saved}</p> : null}
      </div>
      {update.error && !(update.error instanceof ApiError && update.error.fields) ? (
        <p role="alert" className="error-box error-small">
          {update.error.message}
        </p>
      ) : null}
    </form>
  );
}
