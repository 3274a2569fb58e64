import { describe, expect, it } from "vitest";
import { formatDateTimeIn, formatRelative } from "@/components/ui/format";

const NOW = Date.parse("2026-11-28T10:00:00Z");
const at = (offsetSeconds: number) => new Date(NOW + offsetSeconds * 1000).toISOString();

describe("formatRelative", () => {
  it("says future dates are ahead, not 'just now'", () => {
    expect(formatRelative(at(2 * 86_400), NOW)).toBe("in 2 days");
    expect(formatRelative(at(3 * 3600), NOW)).toBe("in 3 hours");
    expect(formatRelative(at(10 * 60), NOW)).toBe("in 10 minutes");
    expect(formatRelative(at(86_400), NOW)).toBe("tomorrow");
    expect(formatRelative(at(20), NOW)).toBe("in a few seconds");
  });

  it("says past dates are behind", () => {
    expect(formatRelative(at(-5 * 60), NOW)).toBe("5 minutes ago");
    expect(formatRelative(at(-2 * 3600), NOW)).toBe("2 hours ago");
    expect(formatRelative(at(-3 * 86_400), NOW)).toBe("3 days ago");
    expect(formatRelative(at(-86_400), NOW)).toBe("yesterday");
    expect(formatRelative(at(-10), NOW)).toBe("just now");
  });

  it("gives the date itself beyond a month, either way", () => {
    expect(formatRelative(at(40 * 86_400), NOW)).toMatch(/2027/);
    expect(formatRelative(at(-40 * 86_400), NOW)).toMatch(/Oct 2026/);
  });
});

describe("formatDateTimeIn", () => {
  it("names the zone it shows the time in", () => {
    expect(formatDateTimeIn("2026-11-30T05:00:00Z", "Europe/Paris")).toBe("Mon, 30 Nov 2026, 06:00 CET");
    expect(formatDateTimeIn("2026-11-30T05:00:00Z", "UTC")).toBe("Mon, 30 Nov 2026, 05:00 UTC");
  });
});
