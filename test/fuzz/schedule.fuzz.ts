/**
 * Cron and time-zone input of harvests (lib/harvest/schedule.ts): hostile expressions and zone
 * names give a problem or null, never an exception; for generated five-field expressions and IANA
 * zones the next run equals a reference written from Vixie cron's rules (day-of-month OR
 * day-of-week when both are restricted, a field starting with `*` being unrestricted) that walks
 * local calendar days and converts wall times with Intl: a wall time a DST gap skips never
 * fires, one an overlap repeats fires once, at its first instant.
 */
import fc from "fast-check";
import { cronProblem, dueTimesSince, nextRunAfter, nextRunTimes, timeZoneProblem } from "../../lib/harvest/schedule";
import { anyText, tokensOf } from "./arbitraries";
import { fuzzTarget } from "./fuzz-kit";
import type { FuzzTarget } from "./fuzz-target";

const ZONES = ["UTC", "Europe/Paris", "America/New_York", "Australia/Lord_Howe", "Asia/Kolkata", "America/St_Johns", "Pacific/Chatham", "Asia/Kathmandu", "Europe/London", "America/Sao_Paulo", "Pacific/Apia", "Africa/Casablanca", "America/Santiago"];
const MONTHS = ["JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"];
const DAYS = ["SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT"];

/** One cron field: its text and the values it selects. */
interface Field {
  text: string;
  values: Set<number>;
}

function range(from: number, to: number, step = 1): number[] {
  const out: number[] = [];
  for (let v = from; v <= to; v += step) out.push(v);
  return out;
}

/** A field over [min, max]: `*`, a value, a range, a step (`*\/s`, `a-b/s`), or a list; `names` spell values by name. */
function field(min: number, max: number, names?: readonly string[], nameBase = 0): fc.Arbitrary<Field> {
  const value = fc.integer({ min, max });
  const spell = (v: number, named: boolean) => (named && names && names[v - nameBase] !== undefined ? names[v - nameBase]! : String(v));
  const single: fc.Arbitrary<Field> = fc.oneof(
    fc.tuple(value, fc.boolean()).map(([v, named]) => ({ text: spell(v, named), values: new Set([v]) })),
    fc.tuple(value, value, fc.boolean()).map(([a, b, named]) => {
      const [lo, hi] = a <= b ? [a, b] : [b, a];
      return { text: `${spell(lo, named)}-${spell(hi, named)}`, values: new Set(range(lo, hi)) };
    }),
    fc.tuple(value, value, fc.integer({ min: 1, max: Math.max(1, max - min) })).map(([a, b, s]) => {
      const [lo, hi] = a <= b ? [a, b] : [b, a];
      return { text: `${lo}-${hi}/${s}`, values: new Set(range(lo, hi, s)) };
    }),
  );
  return fc.oneof(
    { weight: 3, arbitrary: fc.constant({ text: "*", values: new Set(range(min, max)) }) },
    { weight: 1, arbitrary: fc.integer({ min: 1, max: Math.max(1, max - min) }).map((s) => ({ text: `*/${s}`, values: new Set(range(min, max, s)) })) },
    { weight: 3, arbitrary: single },
    {
      weight: 1,
      arbitrary: fc.array(single, { minLength: 2, maxLength: 3 }).map((parts) => ({ text: parts.map((p) => p.text).join(","), values: new Set(parts.flatMap((p) => [...p.values])) })),
    },
  );
}

interface Expression {
  minute: Field;
  hour: Field;
  dom: Field;
  month: Field;
  dow: Field;
}
const expression: fc.Arbitrary<Expression> = fc.record({
  minute: field(0, 59),
  hour: field(0, 23),
  dom: field(1, 31),
  month: field(1, 12, MONTHS, 1),
  // 7 is Sunday too; names only for 0–6.
  dow: field(0, 7, DAYS, 0).map((f) => ({ text: f.text, values: new Set([...f.values].map((d) => d % 7)) })),
});
const text = (e: Expression) => [e.minute, e.hour, e.dom, e.month, e.dow].map((f) => f.text).join(" ");

const formatters = new Map<string, Intl.DateTimeFormat>();
/** Wall-clock parts of an instant in a zone. */
function wall(ms: number, zone: string): number[] {
  let format = formatters.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-US", { timeZone: zone, hourCycle: "h23", year: "numeric", month: "numeric", day: "numeric", hour: "numeric", minute: "numeric" });
    formatters.set(zone, format);
  }
  const parts = Object.fromEntries(format.formatToParts(ms).map((p) => [p.type, p.value]));
  return [Number(parts.year), Number(parts.month), Number(parts.day), Number(parts.hour), Number(parts.minute)];
}

/** The instants whose wall time in `zone` is Y-M-D h:m (none in a gap, two in an overlap), earliest first. */
function instantsOf(y: number, mo: number, d: number, h: number, mi: number, zone: string): number[] {
  const asUtc = Date.UTC(y, mo - 1, d, h, mi);
  const found = new Set<number>();
  for (const probe of [asUtc - 86_400_000, asUtc, asUtc + 86_400_000]) {
    const [py, pmo, pd, ph, pmi] = wall(probe, zone) as [number, number, number, number, number];
    const offset = Date.UTC(py, pmo - 1, pd, ph, pmi) - probe;
    const t = asUtc - offset;
    const back = wall(t, zone);
    if (back[0] === y && back[1] === mo && back[2] === d && back[3] === h && back[4] === mi) found.add(t);
  }
  return [...found].sort((a, b) => a - b);
}

/** Vixie cron's next run strictly after `from`, within `days` local days; null when none. */
function referenceNext(e: Expression, zone: string, from: number, days: number): number | null {
  const domStar = e.dom.text.startsWith("*");
  const dowStar = e.dow.text.startsWith("*");
  const [fy, fmo, fd, fh, fmi] = wall(from, zone) as [number, number, number, number, number];
  const fromWall = Date.UTC(fy, fmo - 1, fd, fh, fmi);
  const minutes = [...e.minute.values].sort((a, b) => a - b);
  const hours = [...e.hour.values].sort((a, b) => a - b);
  for (let i = -1; i <= days; i++) {
    const day = new Date(Date.UTC(fy, fmo - 1, fd + i));
    const [y, mo, d, dow] = [day.getUTCFullYear(), day.getUTCMonth() + 1, day.getUTCDate(), day.getUTCDay()];
    if (!e.month.values.has(mo)) continue;
    const domMatch = e.dom.values.has(d);
    const dowMatch = e.dow.values.has(dow);
    if (!(domStar || dowStar ? domMatch && dowMatch : domMatch || dowMatch)) continue;
    for (const h of hours) {
      for (const mi of minutes) {
        // Wall times a day or more before `from`'s cannot come after it (offsets stay under 15 h): no Intl needed.
        if (Date.UTC(y, mo - 1, d, h, mi) < fromWall - 86_400_000) continue;
        const first = instantsOf(y, mo, d, h, mi, zone)[0];
        if (first !== undefined && first > from) return first;
      }
    }
  }
  return null;
}

const SEARCH_DAYS = 4 * 366;

const nextRuns = fuzzTarget({
  name: "cron next run vs a Vixie cron reference in IANA zones",
  ciRuns: 80,
  memoryBoundMiB: 64,
  property: () =>
    fc.property(expression, fc.constantFrom(...ZONES), fc.date({ min: new Date("2000-01-01T00:00:00Z"), max: new Date("2035-12-31T00:00:00Z"), noInvalidDate: true }), (e, zone, from) => {
      const cron = text(e);
      if (cronProblem(cron) !== null) {
        // Refused only when it never fires: a valid expression selecting no date (31 Feb).
        if (referenceNext(e, "UTC", Date.UTC(2024, 0, 1), 8 * 366) !== null) throw new Error(`${cron} refused: ${cronProblem(cron)}`);
        return;
      }
      const schedule = { cron, timeZone: zone };
      const next = nextRunAfter(schedule, from)?.getTime() ?? null;
      const expected = referenceNext(e, zone, from.getTime(), SEARCH_DAYS);
      // Past the reference's horizon (a 29 February on a Friday…) only "not before it" is checked.
      if (expected === null ? next !== null && next < from.getTime() + (SEARCH_DAYS - 2) * 86_400_000 : next !== expected) {
        throw new Error(`${cron} in ${zone} after ${from.toISOString()}: ${next === null ? null : new Date(next).toISOString()}, reference ${expected === null ? null : new Date(expected).toISOString()}`);
      }
      if (next === null) return;
      const two = nextRunTimes(schedule, from, 2).map((d) => d.getTime());
      if (two[0] !== next || (two[1] !== undefined && two[1] <= next)) throw new Error(`nextRunTimes not increasing from ${next}: ${two}`);
      if (dueTimesSince(schedule, new Date(next), new Date(next + 3_600_000), 5) > 5) throw new Error("dueTimesSince over its cap");
    }),
});

const CRON_PIECES = ["*", "*/", "0", "5", "59", "60", "-1", "1-5", "5-1", ",", "/", "/0", " ", "  ", "\t", "\n", "L", "W", "#", "?", "MON", "JAN", "@yearly", "@reboot", "1e3", "0x10", "99999999999999999999"];

const hostile = fuzzTarget({
  name: "hostile cron expressions and time zone names",
  ciRuns: 800,
  memoryBoundMiB: 64,
  property: () =>
    fc.property(fc.oneof(tokensOf(CRON_PIECES, 14), anyText(40)), fc.oneof(fc.constantFrom(...ZONES, "utc", "Etc/GMT+14", "Europe/Nowhere", "../../etc/passwd", "", "+01:00", "EST5EDT"), anyText(30)), (cron, zone) => {
      const problem = cronProblem(cron);
      const zoneProblem = timeZoneProblem(zone);
      if (problem !== null && problem === "") throw new Error("empty problem");
      if (problem === null && zoneProblem === null) {
        const schedule = { cron: cron.trim(), timeZone: zone };
        const from = new Date("2026-11-28T09:00:00Z");
        const next = nextRunAfter(schedule, from);
        if (next !== null && !(next.getTime() > from.getTime())) throw new Error(`${cron} in ${zone}: next ${next.toISOString()} not after ${from.toISOString()}`);
        nextRunTimes(schedule, from, 5);
      }
    }),
});

export const fuzzTargets: FuzzTarget[] = [nextRuns, hostile];
