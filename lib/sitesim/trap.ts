/**
 * The infinite calendar: every month links the previous and next month, for ever
 * (years 1000–9999, i.e. ~108 000 months: infinite for any crawl budget). Each month
 * lists a few events with no targets. This is the classic crawler trap a good crawler
 * must learn to leave; ground truth treats everything under the calendar's base path
 * as trap (see ground-truth.ts).
 */
import type { Frame } from "./html-layout";
import type { HtmlSink } from "./html-sink";
import { hash32, Rng } from "./random";
import { headline } from "./text";
import type { Query, Resource } from "./types";

export interface CalendarOptions {
  /** Path of the calendar, e.g. "/calendar". Month pages are `${base}?month=YYYY-MM`. */
  base: string;
  title: string;
  seed: number;
  frame: Frame;
  /** "Today": the month served at `${base}` without a query. Fixed for determinism. */
  today?: string;
  /** Optional link from an event to a finite page of the site (a release, a decision). */
  eventLink?: (rng: Rng, s: HtmlSink) => void;
}

const MONTH = /^([1-9][0-9]{3})-(0[1-9]|1[0-2])$/;

function shift(month: string, delta: number): string | null {
  const m = MONTH.exec(month);
  if (!m) return null;
  const idx = Number(m[1]) * 12 + Number(m[2]) - 1 + delta;
  const y = Math.floor(idx / 12);
  if (y < 1000 || y > 9999) return null;
  return `${y}-${String((idx % 12) + 1).padStart(2, "0")}`;
}

function eventCount(seed: number, month: string): number {
  return 2 + (hash32(seed, 0xca1, Number(month.replace("-", ""))) % 5);
}

/** Routes `${base}`, `${base}?month=…`, `${base}/event/<month>/<n>` and its `.ics`; null when the path is not the calendar's. */
export function calendarRoute(path: string, query: Query, o: CalendarOptions): Resource | null {
  const today = o.today ?? "2024-06";
  if (path === o.base) {
    const month = query.get("month") ?? today;
    if (!MONTH.exec(month) || shift(month, 0) === null) return { kind: "missing" };
    return { kind: "page", render: (s) => monthPage(s, o, month, today) };
  }
  if (!path.startsWith(o.base + "/event/")) return null;
  const rest = path.slice(o.base.length + 7).split("/");
  if (rest.length !== 2) return { kind: "missing" };
  const [month, last] = rest as [string, string];
  if (shift(month, 0) === null) return { kind: "missing" };
  const ics = last.endsWith(".ics");
  const n = Number(ics ? last.slice(0, -4) : last);
  if (!Number.isInteger(n) || n < 1 || n > eventCount(o.seed, month) || String(n) !== (ics ? last.slice(0, -4) : last)) {
    return { kind: "missing" };
  }
  const eseed = hash32(o.seed, 0xe7e, Number(month.replace("-", "")), n);
  if (ics) return { kind: "file", file: { format: "ics", bytes: 400 + (eseed % 1000), seed: eseed, filename: `event-${month}-${n}.ics` } };
  return { kind: "page", render: (s) => eventPage(s, o, month, n, eseed) };
}

function monthPage(s: HtmlSink, o: CalendarOptions, month: string, today: string): void {
  const prev = shift(month, -1);
  const next = shift(month, 1);
  o.frame(s, { title: `${o.title}: ${month}`, bodyClass: "page-calendar", crumbs: [["Home", "/"]] }, () => {
    s.open("div", "calendar", "calendar");
    s.el("h1", "calendar__title", `${o.title} — ${month}`);
    s.open("nav", "calendar__nav");
    if (prev) s.a(`${o.base}?month=${prev}`, "‹ Previous month", "calendar__prev");
    if (month !== today) s.a(o.base, "Today", "calendar__today");
    if (next) s.a(`${o.base}?month=${next}`, "Next month ›", "calendar__next");
    s.close("nav");
    s.open("ul", "calendar__events");
    const count = eventCount(o.seed, month);
    for (let n = 1; n <= count; n++) {
      const eseed = hash32(o.seed, 0xe7e, Number(month.replace("-", "")), n);
      s.open("li", "calendar__event");
      s.el("time", "calendar__date", `${month}-${String(1 + (eseed % 28)).padStart(2, "0")}`);
      s.a(`${o.base}/event/${month}/${n}`, headline(eseed), "calendar__event-link");
      s.close("li");
    }
    s.close("ul");
    s.close("div");
  });
}

function eventPage(s: HtmlSink, o: CalendarOptions, month: string, n: number, eseed: number): void {
  const title = headline(eseed);
  o.frame(s, { title, bodyClass: "page-event", crumbs: [["Home", "/"], [o.title, `${o.base}?month=${month}`]] }, () => {
    s.open("article", "event", "event");
    s.el("h1", "event__title", title);
    s.para(eseed, 40);
    s.open("ul", "event__actions");
    s.open("li");
    s.a(`${o.base}/event/${month}/${n}.ics`, "Add to my calendar (iCal)", "event__ics");
    s.close("li");
    s.open("li");
    s.a(`${o.base}?month=${month}`, "Back to the calendar", "event__back");
    s.close("li");
    s.close("ul");
    if (o.eventLink) o.eventLink(new Rng(eseed), s);
    s.close("article");
  });
}
