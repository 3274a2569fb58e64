"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import type { CrawlDetail } from "@/components/hooks/api-types";
import { ApiError } from "@/components/hooks/api-fetch";
import { formatInteger } from "@/lib/format";
import { ScheduleFields, schedulePreview, type ScheduleValue } from "./ScheduleFields";
import { useHarvestMutations } from "./use-harvest-queries";

/**
 * "Repeat this crawl" in the cockpit of a finished crawl that is not yet part of a harvest: a
 * harvest made from it, run now (after it, reusing what it learned) or on a schedule.
 */
export function RepeatCrawlPanel({ crawl }: { crawl: CrawlDetail }) {
  const router = useRouter();
  const { create } = useHarvestMutations();
  const [mode, setMode] = useState<"now" | "schedule">("now");
  const [schedule, setSchedule] = useState<ScheduleValue>({ cron: "0 6 * * 1", timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC" });
  const [webhookUrl, setWebhookUrl] = useState("");
  const [checkKnownFiles, setCheckKnownFiles] = useState(true);
  if (crawl.status !== "finished" || crawl.replayOfCrawlId !== null || crawl.harvestId !== null) return null;
  const fields = create.error instanceof ApiError ? (create.error.fields ?? {}) : {};
  const preview = schedulePreview(schedule);
  const blocked = mode === "schedule" && (preview.cronError !== null || preview.timeZoneError !== null);

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    if (blocked) return;
    const body = {
      fromCrawlId: crawl.id,
      checkKnownFiles,
      webhookUrl: webhookUrl.trim() || null,
      ...(mode === "now" ? { runNow: true } : { cron: schedule.cron.trim(), timeZone: schedule.timeZone.trim() }),
    };
    create.mutate(body, { onSuccess: (harvest) => router.push(`/harvests/${harvest.id}`) });
  };

  return (
    <section className="panel" id="repeat" aria-labelledby="repeat-title" data-testid="repeat-panel">
      <div className="panel-head">
        <div>
          <h2 id="repeat-title">Repeat this crawl</h2>
          <p className="panel-hint">
            A harvest runs this crawl again with the same settings, each run starting from what the previous one learned and reporting what changed. See <Link href="#changes">What changed</Link>. This crawl cost{" "}
            {formatInteger(crawl.requests)} requests for {formatInteger(crawl.targets)} files.
          </p>
        </div>
      </div>
      <form onSubmit={submit} noValidate>
        <fieldset className="field">
          <legend className="field-label">When</legend>
          <label>
            <input type="radio" name="repeat-mode" checked={mode === "now"} onChange={() => setMode("now")} /> Now
          </label>{" "}
          <label>
            <input type="radio" name="repeat-mode" checked={mode === "schedule"} onChange={() => setMode("schedule")} /> On a schedule
          </label>
        </fieldset>
        {mode === "schedule" ? <ScheduleFields idPrefix="repeat" value={schedule} onChange={setSchedule} serverErrors={fields} /> : null}
        <div className={`field${fields.webhookUrl ? " field-invalid" : ""}`}>
          <label className="field-label" htmlFor="repeat-webhook">
            Webhook URL (optional)
          </label>
          <p className="field-hint">Receives a JSON summary when each run ends (counts, what changed, links to the run and its downloads).</p>
          <input id="repeat-webhook" type="url" value={webhookUrl} placeholder="https://hooks.example.org/forage" onChange={(event) => setWebhookUrl(event.target.value)} />
          {fields.webhookUrl ? (
            <p className="field-error" data-testid="error-webhookUrl">
              Webhook URL {fields.webhookUrl}
            </p>
          ) : null}
        </div>
        <div className="field">
          <label>
            <input type="checkbox" checked={checkKnownFiles} onChange={(event) => setCheckKnownFiles(event.target.checked)} /> Check known files for changes (conditional requests: finds revised and removed files)
          </label>
        </div>
        {create.error && Object.keys(fields).length === 0 ? (
          <p role="alert" className="error-box">
            {create.error.message}
          </p>
        ) : null}
        <div className="form-actions">
          <button type="submit" className="button button-primary" disabled={create.isPending || blocked} data-testid="repeat-submit">
            {mode === "now" ? "Repeat now" : "Create the schedule"}
          </button>
        </div>
      </form>
    </section>
  );
}
