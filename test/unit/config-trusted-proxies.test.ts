import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../lib/config";

describe("FORAGE_TRUSTED_PROXIES", () => {
  it("reads address ranges in the network policy's list syntax", () => {
    expect(loadConfig({ FORAGE_TRUSTED_PROXIES: "127.0.0.1, 10.0.0.0/8 ::1" }).trustedProxies).toEqual(["127.0.0.1/32", "10.0.0.0/8", "::1/128"]);
  });

  it.each(["192.168.1.10/32:8080", "[fd00::/8]:443"])("refuses %s: a proxy is an address range, not a port", (value) => {
    expect(() => loadConfig({ FORAGE_TRUSTED_PROXIES: value })).toThrow(ConfigError);
    expect(() => loadConfig({ FORAGE_TRUSTED_PROXIES: value })).toThrow(/FORAGE_TRUSTED_PROXIES: .* names ports/);
  });
});
