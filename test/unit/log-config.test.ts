/** The operators' settings (FORAGE_LOG_LEVEL, FORAGE_LOG_FORMAT, FORAGE_METRICS_TOKEN) as lib/config.ts reads them. */
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../lib/config";

describe("operator settings", () => {
  it("defaults: silent under the test runner, info otherwise; format auto; no metrics token", () => {
    expect(loadConfig()).toMatchObject({ logLevel: "silent", logFormat: "auto", metricsToken: null });
    expect(loadConfig({ VITEST: "" }).logLevel).toBe("info"); // outside the test runner
    expect(loadConfig({ FORAGE_LOG_LEVEL: "debug", FORAGE_LOG_FORMAT: "pretty" })).toMatchObject({ logLevel: "debug", logFormat: "pretty" });
  });

  it("takes a metrics token of 32 characters or more", () => {
    expect(loadConfig({ FORAGE_METRICS_TOKEN: "a".repeat(32) }).metricsToken).toBe("a".repeat(32));
  });

  it("refuses a short metrics token, an unknown level or format, with the variable named", () => {
    expect(() => loadConfig({ FORAGE_METRICS_TOKEN: "short" })).toThrow(new ConfigError("Invalid environment: FORAGE_METRICS_TOKEN: must be at least 32 characters (e.g. openssl rand -hex 32)"));
    expect(() => loadConfig({ FORAGE_LOG_LEVEL: "verbose" as never })).toThrow(/^Invalid environment: FORAGE_LOG_LEVEL: must be one of fatal, error, warn, info, debug, trace, silent$/);
    expect(() => loadConfig({ FORAGE_LOG_FORMAT: "xml" as never })).toThrow(/^Invalid environment: FORAGE_LOG_FORMAT: must be json or pretty$/);
  });
});
