import { describe, expect, it } from "vitest";
import { parseRetryAfterMs } from "../../lib/crawler/fetch/retry";

describe("parseRetryAfterMs", () => {
  const now = Date.UTC(2026, 10, 28, 9, 0, 0);

  it("reads delta-seconds and HTTP dates, past dates as 0", () => {
    expect(parseRetryAfterMs(" 120 ", now)).toBe(120_000);
    expect(parseRetryAfterMs(new Date(now + 30_000).toUTCString(), now)).toBe(30_000);
    expect(parseRetryAfterMs(new Date(now - 30_000).toUTCString(), now)).toBe(0);
    expect(parseRetryAfterMs("soon", now)).toBeNull();
  });

  it("cuts absurd delta-seconds to a safe integer instead of a rounded or Infinite delay (found by the fuzz target)", () => {
    expect(parseRetryAfterMs("9007199254741", now)).toBe(Number.MAX_SAFE_INTEGER);
    expect(parseRetryAfterMs("9".repeat(400), now)).toBe(Number.MAX_SAFE_INTEGER);
  });
});
