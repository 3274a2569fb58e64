"use client";

import { useRouter } from "next/navigation";
import { useRef, useState } from "react";
import { ApiError } from "@/components/hooks/api-fetch";
import { useCreateCrawlMutation } from "@/components/hooks/use-crawl-mutations";
import type { FieldErrors } from "@/lib/crawl-config";
import { AdvancedFields } from "./AdvancedFields";
import { BlocklistFields } from "./BlocklistFields";
import { BudgetFields } from "./BudgetFields";
import { errorText, fieldId, isAdvancedField, mapServerFieldErrors } from "./field-errors";
import { Field } from "./fields";
import { FormSummary } from "./FormSummary";
import { buildCrawlSettings, type CrawlFormValues, type HiddenSettings } from "./form-state";
import { ApplicationFields } from "./ApplicationFields";
import { RenderFields } from "./RenderFields";
import { MimeTypePicker } from "./MimeTypePicker";
import { PolitenessFields } from "./PolitenessFields";
import { StrategyField } from "./StrategyField";

/** Which settings path a form value feeds, to clear that field's error as soon as it is edited. */
const VALUE_FIELDS: Partial<Record<keyof CrawlFormValues, string>> = {
  rootUrl: "rootUrl",
  name: "name",
  targetMimeTypes: "targetMimeTypes",
  budgetRequests: "budget.requests",
  byteLimit: "budget.bytes",
  byteUnit: "budget.bytes",
  timeLimit: "budget.seconds",
  timeUnit: "budget.seconds",
  urlPatterns: "blocklist.urlPatterns",
  extensions: "blocklist.extensions",
  blockedMimeTypes: "blocklist.mimeTypes",
  delayMs: "politeness.delayMs",
  obeyRobots: "politeness.obeyRobots",
  keepWarc: "archive.keepWarc",
  strategy: "strategy",
  earlyStop: "params.earlyStop",
  skipDeadUrlShapes: "params.skipDeadUrlShapes",
  skipRedundantQueryVariants: "params.skipRedundantQueryVariants",
  rewardScaledExploration: "params.rewardScaledExploration",
  barrenDamping: "params.barrenDamping",
  regroupRediscoveredLinks: "params.regroupRediscoveredLinks",
  splitActionsByUrlShape: "params.splitActionsByUrlShape",
  useSitemaps: "params.useSitemaps",
  revisitsCompete: "params.revisitsCompete",
  rewardPulledTargets: "params.rewardPulledTargets",
  labelRedirectedLinks: "params.labelRedirectedLinks",
  followRedirectsOffSite: "params.followRedirectsOffSite",
  stableTagPathClasses: "params.stableTagPathClasses",
  groupIndex: "params.groupIndex",
  policy: "params.policy",
  seed: "seed",
  useApplications: "applications.use",
  recipe: "applications.recipe",
  render: "render",
};

export function CrawlForm({ initialValues, hidden }: { initialValues: CrawlFormValues; hidden?: HiddenSettings }) {
  const router = useRouter();
  const create = useCreateCrawlMutation();
  const [values, setValues] = useState(initialValues);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [otherErrors, setOtherErrors] = useState<string[]>([]);
  const [advancedOpen, setAdvancedOpen] = useState(false);
  const summaryRef = useRef<HTMLDivElement>(null);

  const set = <K extends keyof CrawlFormValues>(key: K, value: CrawlFormValues[K]) => {
    setValues((current) => ({ ...current, [key]: value }));
    const field = key === "params" ? null : VALUE_FIELDS[key];
    setErrors((current) => {
      if (key === "params") return Object.fromEntries(Object.entries(current).filter(([name]) => !name.startsWith("params.")));
      if (!field || !(field in current)) return current;
      const { [field]: _removed, ...rest } = current;
      return rest;
    });
  };

  const showErrors = (fields: FieldErrors, other: string[] = []) => {
    setErrors(fields);
    setOtherErrors(other);
    if (Object.keys(fields).some(isAdvancedField)) setAdvancedOpen(true);
    // After React has rendered the summary: move focus there so it is read out.
    requestAnimationFrame(() => summaryRef.current?.focus());
  };

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const { settings, errors: clientErrors } = buildCrawlSettings(values, hidden);
    if (Object.keys(clientErrors).length > 0) return showErrors(clientErrors);
    setErrors({});
    setOtherErrors([]);
    create.mutate(settings, {
      onSuccess: ({ id }) => router.push(`/crawls/${id}`),
      onError: (error) => {
        if (error instanceof ApiError && error.fields) {
          const { byField, other } = mapServerFieldErrors(error.fields, settings);
          showErrors(byField, other);
        } else {
          showErrors({}, [error.message]);
        }
      },
    });
  };

  const errorEntries = Object.entries(errors);
  const hasErrors = errorEntries.length > 0 || otherErrors.length > 0;
  const busy = create.isPending || create.isSuccess;
  const sectionProps = { values, set, errors };

  return (
    <form className="crawl-form-layout" noValidate onSubmit={submit} aria-label="New crawl">
      <div className="crawl-form">
        {hasErrors ? (
          <div className="error-summary" role="alert" tabIndex={-1} ref={summaryRef} data-testid="error-summary">
            <h2>{errorEntries.length + otherErrors.length === 1 ? "One setting needs a change" : `${errorEntries.length + otherErrors.length} settings need a change`}</h2>
            <ul>
              {errorEntries.map(([field, message]) => (
                <li key={field}>
                  <a href={`#${fieldId(field === "targetMimeTypes" ? "targetMimeTypes-add" : field)}`}>{errorText(field, message)}</a>
                </li>
              ))}
              {otherErrors.map((message) => (
                <li key={message}>{message}</li>
              ))}
            </ul>
          </div>
        ) : null}

        <section className="form-section" aria-labelledby="site-title">
          <h2 id="site-title">Site</h2>
          <Field
            field="rootUrl"
            label="Root URL"
            error={errors.rootUrl}
            hint="Where the crawl starts. It stays on this host and its subdomains (www. ignored); a data file linked here is fetched where it redirects."
          >
            {(control) => (
              <input
                {...control}
                type="url"
                inputMode="url"
                autoComplete="url"
                spellCheck={false}
                placeholder="https://www.example.org/"
                value={values.rootUrl}
                onChange={(e) => set("rootUrl", e.target.value)}
              />
            )}
          </Field>
          <Field field="name" label="Name" error={errors.name} hint="Optional: how this crawl appears in the list.">
            {(control) => <input {...control} type="text" maxLength={200} value={values.name} onChange={(e) => set("name", e.target.value)} />}
          </Field>
          <ApplicationFields {...sectionProps} />
          <RenderFields {...sectionProps} />
        </section>

        <section className="form-section" aria-label="Targets">
          <MimeTypePicker value={values.targetMimeTypes} onChange={(next) => set("targetMimeTypes", next)} error={errors.targetMimeTypes} />
        </section>

        <BudgetFields {...sectionProps} />
        <PolitenessFields {...sectionProps} />
        <BlocklistFields {...sectionProps} />
        <StrategyField {...sectionProps} />
        <AdvancedFields {...sectionProps} open={advancedOpen} onToggle={setAdvancedOpen} />
      </div>
      <FormSummary values={values} busy={busy} />
    </form>
  );
}
