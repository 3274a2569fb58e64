"use client";

import { formatDateTimeIn } from "@/components/ui/format";
import { cronProblem, nextRunTimes, timeZoneProblem } from "@/lib/harvest/schedule";

export interface ScheduleValue {
  cron: string;
  timeZone: string;
}

/** The first three times of a schedule, or the problem with it (shown next to its field). */
export function schedulePreview(value: ScheduleValue): { cronError: string | null; timeZoneError: string | null; times: Date[] } {
  const cronError = value.cron.trim() ? cronProblem(value.cron) : "is required for a schedule";
  const timeZoneError = timeZoneProblem(value.timeZone);
  const times = cronError || timeZoneError ? [] : nextRunTimes({ cron: value.cron.trim(), timeZone: value.timeZone }, new Date(), 3);
  return { cronError, timeZoneError, times };
}

/**
 * A cron field and a time zone with a readable preview of the next three runs; errors (from the
 * browser's own check, or the server's `fields`) sit under their field.
 */
export function ScheduleFields({ value, onChange, serverErrors = {}, idPrefix }: { value: ScheduleValue; onChange: (value: ScheduleValue) => void; serverErrors?: Record<string, string>; idPrefix: string }) {
  const preview = schedulePreview(value);
  const cronError = serverErrors.cron ?? (value.cron.trim() ? preview.cronError : null);
  const timeZoneError = serverErrors.timeZone ?? preview.timeZoneError;
  return (
    <div className="field-row">
      <div className={`field${cronError ? " field-invalid" : ""}`}>
        <label className="field-label" htmlFor={`${idPrefix}-cron`}>
          Schedule (cron)
        </label>
        <p className="field-hint" id={`${idPrefix}-cron-hint`}>
          Five fields: minute hour day-of-month month day-of-week, e.g. <code>0 6 * * 1</code> for Mondays at 06:00.
        </p>
        <input
          id={`${idPrefix}-cron`}
          type="text"
          value={value.cron}
          placeholder="0 6 * * 1"
          aria-invalid={cronError ? true : undefined}
          aria-describedby={`${idPrefix}-cron-hint${cronError ? ` ${idPrefix}-cron-error` : ""}`}
          onChange={(event) => onChange({ ...value, cron: event.target.value })}
        />
        {cronError ? (
          <p className="field-error" id={`${idPrefix}-cron-error`} data-testid="error-cron">
            Cron {cronError}
          </p>
        ) : null}
        {preview.times.length > 0 ? (
          <ul className="field-hint schedule-preview" data-testid="schedule-preview" aria-label="Next runs">
            {preview.times.map((time) => (
              <li key={time.toISOString()}>{formatDateTimeIn(time, value.timeZone)}</li>
            ))}
          </ul>
        ) : null}
      </div>
      <div className={`field${timeZoneError ? " field-invalid" : ""}`}>
        <label className="field-label" htmlFor={`${idPrefix}-tz`}>
          Time zone
        </label>
        <p className="field-hint">An IANA name: UTC, Europe/Paris, America/New_York…</p>
        <input id={`${idPrefix}-tz`} type="text" value={value.timeZone} aria-invalid={timeZoneError ? true : undefined} onChange={(event) => onChange({ ...value, timeZone: event.target.value })} />
        {timeZoneError ? (
          <p className="field-error" data-testid="error-timeZone">
            Time zone {timeZoneError}
          </p>
        ) : null}
      </div>
    </div>
  );
}
