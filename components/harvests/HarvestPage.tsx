"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { ApiError } from "@/components/hooks/api-fetch";
import { DateTime } from "@/components/ui/DateTime";
import { StatusBadge } from "@/components/ui/StatusBadge";
import { stripScheme } from "@/components/ui/format";
import { formatInteger } from "@/lib/format";
import type { HarvestView } from "@/lib/harvest";
import { ScheduleFields, schedulePreview, type ScheduleValue } from "./ScheduleFields";
import { useHarvestEventsQuery, useHarvestMutations, useHarvestQuery } from "./use-harvest-queries";
import "./harvests.css";

/** Schedule, pause and webhook of a harvest, saved together. */
function HarvestSettings({ harvest }: { harvest: HarvestView }) {
  const { update } = useHarvestMutations();
  const [scheduled, setScheduled] = useState(harvest.cron !== null);
  const [schedule, setSchedule] = useState<ScheduleValue>({ cron: harvest.cron ?? "0 6 * * 1", timeZone: harvest.timeZone });
  const [webhookUrl, setWebhookUrl] = useState(harvest.webhookUrl ?? "");
  const fields = update.error instanceof ApiError ? (update.error.fields ?? {}) : {};
  const preview = schedulePreview(schedule);
  const blocked = scheduled && (preview.cronError !== null || preview.timeZoneError !== null);
  const save = (event: React.FormEvent) => {
    event.preventDefault();
    if (blocked) return;
    update.mutate({ id: harvest.id, cron: scheduled ? schedule.cron.trim() : null, timeZone: schedule.timeZone.trim(), webhookUrl: webhookUrl.trim() || null });
  };
  return (
    <section className="panel" aria-labelledby="harvest-settings-title">
      <h2 id="harvest-settings-title">Schedule and webhook</h2>
      <p className="panel-hint" data-testid="harvest-next-run">
        {harvest.cron === null ? "No schedule: runs start by hand." : harvest.paused ? "The schedule is paused." : harvest.nextRunAt ? <>Next run <DateTime iso={harvest.nextRunAt} timeZone={harvest.timeZone} /> (<DateTime iso={harvest.nextRunAt} relative />).</> : "The schedule never fires again."}
      </p>
      <form onSubmit={save} noValidate>
        <div className="field">
          <label>
            <input type="checkbox" checked={scheduled} onChange={(event) => setScheduled(event.target.checked)} /> Run on a schedule
          </label>
        </div>
        {scheduled ? <ScheduleFields idPrefix="harvest" value={schedule} onChange={setSchedule} serverErrors={fields} /> : null}
        <div className={`field${fields.webhookUrl ? " field-invalid" : ""}`}>
          <label className="field-label" htmlFor="harvest-webhook">
            Webhook URL
          </label>
          {harvest.webhookSecret ? (
            <p className="field-hint" data-testid="webhook-secret">
              Bodies are signed: <code>X-Forage-Signature: t=…,v1=…</code> is the HMAC-SHA256 of <code>t.body</code> with the secret <code>{harvest.webhookSecret}</code>.
            </p>
          ) : harvest.webhookSecretHidden ? (
            <p className="field-hint" data-testid="webhook-secret-hidden">
              Bodies are signed with a secret that only admins and the harvest&apos;s creator see.
            </p>
          ) : null}
          <input id="harvest-webhook" type="url" value={webhookUrl} placeholder="https://hooks.example.org/forage" onChange={(event) => setWebhookUrl(event.target.value)} />
          {fields.webhookUrl ? (
            <p className="field-error" data-testid="error-webhookUrl">
              Webhook URL {fields.webhookUrl}
            </p>
          ) : null}
        </div>
        {update.error && Object.keys(fields).length === 0 ? (
          <p role="alert" className="error-box">
            {update.error.message}
          </p>
        ) : null}
        <div className="form-actions">
          <button type="submit" className="button button-primary" disabled={update.isPending || blocked}>
            Save
          </button>
          {harvest.cron !== null ? (
            <button type="button" className="button" onClick={() => update.mutate({ id: harvest.id, paused: !harvest.paused })} data-testid="harvest-pause">
              {harvest.paused ? "Resume the schedule" : "Pause the schedule"}
            </button>
          ) : null}
        </div>
      </form>
    </section>
  );
}

/** A harvest: its runs, schedule, webhook and events. */
export function HarvestPage({ id, initialHarvest }: { id: number; initialHarvest: HarvestView }) {
  const router = useRouter();
  const harvest = useHarvestQuery(id, initialHarvest).data ?? initialHarvest;
  const events = useHarvestEventsQuery(id);
  const { run, remove } = useHarvestMutations();
  return (
    <div className="harvest-page">
      <nav aria-label="Breadcrumb" className="breadcrumb">
        <Link href="/">Crawls</Link> <span aria-hidden="true">/</span> <span aria-current="page">Harvest #{harvest.id}</span>
      </nav>
      <div className="section-head">
        <div>
          <h1>{harvest.name}</h1>
          <p className="panel-hint">
            <a href={harvest.rootUrl} target="_blank" rel="noreferrer noopener">
              {stripScheme(harvest.rootUrl)}
            </a>
            {harvest.checkKnownFiles ? " · known files checked for changes" : ""}
          </p>
        </div>
        <div className="form-actions">
          <button type="button" className="button button-primary" disabled={run.isPending || harvest.activeRunId !== null} onClick={() => run.mutate(harvest.id)} data-testid="harvest-run-now">
            Run now
          </button>
          <button
            type="button"
            className="button"
            onClick={() => {
              if (window.confirm("Delete this harvest? Its runs stay as crawls.")) remove.mutate(harvest.id, { onSuccess: () => router.push("/") });
            }}
          >
            Delete harvest
          </button>
        </div>
      </div>
      {run.error ? (
        <p role="alert" className="error-box">
          {run.error.message}
        </p>
      ) : null}
      <section className="panel" aria-labelledby="harvest-runs-title">
        <h2 id="harvest-runs-title">Runs</h2>
        <table className="data-table" aria-label="Runs" data-testid="harvest-runs">
          <thead>
            <tr>
              <th>Run</th>
              <th>Status</th>
              <th className="num">Targets</th>
              <th className="num">Requests</th>
              <th>Started</th>
            </tr>
          </thead>
          <tbody>
            {harvest.runs.map((crawl) => (
              <tr key={crawl.id}>
                <td>
                  <Link href={`/crawls/${crawl.id}`}>Crawl #{crawl.id}</Link>
                </td>
                <td>
                  <StatusBadge status={crawl.status} stopReason={crawl.stopReason} stopDetail={crawl.stopDetail} />
                </td>
                <td className="num">{formatInteger(crawl.targets)}</td>
                <td className="num">{formatInteger(crawl.requests)}</td>
                <td>{crawl.startedAt ? <DateTime iso={crawl.startedAt} relative /> : "–"}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
      <HarvestSettings key={`${harvest.cron}|${harvest.timeZone}|${harvest.webhookUrl}`} harvest={harvest} />
      <section className="panel" aria-labelledby="harvest-events-title">
        <h2 id="harvest-events-title">Events</h2>
        {events.error ? (
          <p role="alert" className="error-box">
            {events.error.message}
          </p>
        ) : (
          <ul className="harvest-events" data-testid="harvest-events">
            {(events.data ?? []).map((event) => (
              <li key={event.id}>
                <span className="event-kind">{event.kind}</span>
                {event.message} · <DateTime iso={event.at} relative />
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
