import { Cron } from "croner";

/**
 * Cron arithmetic of harvest schedules (croner, used for the arithmetic only: nothing here
 * waits; the worker's scheduler polls `Harvest.nextRunAt`). Five fields only (minute hour
 * day-of-month month day-of-week): croner also takes seconds and years, a six-field
 * expression would silently mean "every second …". Day-of-month and day-of-week combine as in
 * Vixie cron (see {@link cronFor}). Times in a DST gap are skipped, an hour repeated by DST runs once.
 */

/** Why `expression` is not a five-field cron expression, or null when it is. */
export function cronProblem(expression: string): string | null {
  const fields = expression.trim().split(/\s+/);
  if (fields.length !== 5 || fields[0] === "") {
    return `must have five fields (minute hour day-of-month month day-of-week), e.g. "0 6 * * 1"; got ${fields[0] === "" ? "nothing" : fields.length}`;
  }
  let cron: Cron;
  try {
    cron = cronFor(expression);
  } catch (error) {
    return `is not a valid cron expression: ${(error instanceof Error ? error.message : String(error)).replace(/^CronPattern: /, "")}`;
  }
  if (cron.nextRun(new Date()) === null) return "never matches a date";
  return null;
}

/**
 * A paused croner job with Vixie cron's day rule: day-of-month and day-of-week combine with OR
 * when both are restricted, with AND when either starts with `*` (Vixie's DOM_STAR / DOW_STAR:
 * `*` and `*\/2` alike). Croner's default ORs any field but a bare `*`, so `0 0 *\/2 * 1` fired
 * on every odd day and every Monday where cron fires on odd-day Mondays (found by
 * test/fuzz/schedule.fuzz.ts against a Vixie reference).
 */
function cronFor(expression: string, timezone?: string): Cron {
  const fields = expression.trim().split(/\s+/);
  const starred = (fields[2] ?? "").startsWith("*") || (fields[4] ?? "").startsWith("*");
  // Croner 11 reads the range `SUN-SUN` as every day (it turns a range's final SUN into 7, then
  // reads 7-7 wrong); cron means Sunday. Other ranges ending in SUN (`FRI-SUN`) it reads right.
  if (fields.length === 5) fields[4] = fields[4]!.replace(/(^|,)sun-sun(?=$|,|\/)/gi, "$10-0");
  return new Cron(fields.join(" "), { paused: true, timezone, domAndDow: starred });
}

/** Why `timeZone` is not an IANA time zone this runtime knows (Intl), or null when it is. */
export function timeZoneProblem(timeZone: string): string | null {
  try {
    new Intl.DateTimeFormat("en", { timeZone });
    return null;
  } catch {
    return `is not a known time zone (an IANA name such as "Europe/Paris" or "UTC")`;
  }
}

/** A validated schedule. */
export interface Schedule {
  cron: string;
  timeZone: string;
}

function cronOf(schedule: Schedule): Cron {
  return cronFor(schedule.cron, schedule.timeZone);
}

/** The first time strictly after `from` the schedule fires, or null when it never does again. */
export function nextRunAfter(schedule: Schedule, from: Date): Date | null {
  return cronOf(schedule).nextRun(from);
}

/** The next `count` times after `from` (the form's preview). */
export function nextRunTimes(schedule: Schedule, from: Date, count: number): Date[] {
  return cronOf(schedule).nextRuns(count, from);
}

/**
 * How many times the schedule fired in [first, until]: `first` is a due `nextRunAt` (counted),
 * later ones up to `until`. Capped at `cap` (a per-minute schedule down for a month).
 */
export function dueTimesSince(schedule: Schedule, first: Date, until: Date, cap = 1000): number {
  if (first > until) return 0;
  const cron = cronOf(schedule);
  let count = 1;
  let at: Date | null = first;
  while (count < cap) {
    at = cron.nextRun(at);
    if (!at || at > until) break;
    count += 1;
  }
  return count;
}
