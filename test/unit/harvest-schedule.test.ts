import { describe, expect, it } from "vitest";
import { cronProblem, dueTimesSince, nextRunAfter, nextRunTimes, timeZoneProblem } from "../../lib/harvest/schedule";

describe("harvest schedules", () => {
  it("accepts five-field cron expressions and names what is wrong with others", () => {
    expect(cronProblem("0 6 * * 1")).toBeNull();
    expect(cronProblem("*/15 * * * *")).toBeNull();
    // Six fields would mean seconds to croner: refused rather than firing every second.
    expect(cronProblem("0 0 6 * * 1")).toMatch(/five fields.*got 6/);
    expect(cronProblem("")).toMatch(/five fields.*got nothing/);
    expect(cronProblem("61 * * * *")).toMatch(/not a valid cron expression: .*minute/);
    expect(cronProblem("0 0 31 2 *")).toMatch(/never matches|not a valid/);
  });

  it("knows IANA time zones through Intl and refuses others", () => {
    expect(timeZoneProblem("Europe/Paris")).toBeNull();
    expect(timeZoneProblem("UTC")).toBeNull();
    expect(timeZoneProblem("Mars/Olympus_Mons")).toMatch(/not a known time zone/);
  });

  it("reads the expression in the harvest's time zone, across a DST change", () => {
    const schedule = { cron: "0 6 * * 1", timeZone: "Europe/Paris" };
    // Mondays at 06:00 in Paris: UTC+2 until the last Sunday of October, UTC+1 after.
    const times = nextRunTimes(schedule, new Date("2026-10-15T00:00:00Z"), 3).map((date) => date.toISOString());
    expect(times).toEqual(["2026-10-19T04:00:00.000Z", "2026-10-26T05:00:00.000Z", "2026-11-02T05:00:00.000Z"]);
    expect(nextRunAfter(schedule, new Date("2026-10-19T04:00:00Z"))?.toISOString()).toBe("2026-10-26T05:00:00.000Z");
  });

  it("counts the due times missed since a past nextRunAt, capped", () => {
    const daily = { cron: "0 6 * * *", timeZone: "UTC" };
    expect(dueTimesSince(daily, new Date("2026-11-20T06:00:00Z"), new Date("2026-11-20T06:00:30Z"))).toBe(1);
    expect(dueTimesSince(daily, new Date("2026-11-20T06:00:00Z"), new Date("2026-11-23T07:00:00Z"))).toBe(4);
    expect(dueTimesSince(daily, new Date("2026-11-24T06:00:00Z"), new Date("2026-11-23T07:00:00Z"))).toBe(0);
    expect(dueTimesSince({ cron: "* * * * *", timeZone: "UTC" }, new Date("2026-01-01T00:00:00Z"), new Date("2026-02-01T00:00:00Z"), 50)).toBe(50);
  });

  it("combines day-of-month and day-of-week as Vixie cron does: OR when both are restricted, AND when either starts with * (found by the fuzz target)", () => {
    const from = new Date("2026-01-01T12:00:00Z"); // a Thursday
    const days = (cron: string) => nextRunTimes({ cron, timeZone: "UTC" }, from, 3).map((date) => date.toISOString().slice(0, 10));
    expect(days("0 0 13 * 5")).toEqual(["2026-01-02", "2026-01-09", "2026-01-13"]); // the 13th or a Friday
    expect(days("0 0 */2 * 1")).toEqual(["2026-01-05", "2026-01-19", "2026-02-09"]); // odd-day Mondays
    expect(days("0 0 1 * */1")).toEqual(["2026-02-01", "2026-03-01", "2026-04-01"]);
    expect(cronProblem("0 0 31 2 */1")).toBe("never matches a date");
  });

  it("reads the day range SUN-SUN as Sunday (croner reads it as every day)", () => {
    const from = new Date("2026-01-01T12:00:00Z");
    expect(nextRunTimes({ cron: "0 0 * * SUN-SUN", timeZone: "UTC" }, from, 2).map((date) => date.toISOString().slice(0, 10))).toEqual(["2026-01-04", "2026-01-11"]);
  });
});
