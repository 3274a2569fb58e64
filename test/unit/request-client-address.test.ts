import { describe, expect, it } from "vitest";
import { ClientAddressResolver } from "../../lib/server/request-client-address";
import { addressKey } from "../../lib/auth/sign-in-throttle";
import { loadConfig } from "../../lib/config";

describe("the client address the dashboard server sets", () => {
  const direct = new ClientAddressResolver([]);
  const behindProxy = new ClientAddressResolver(["10.0.0.0/8", "127.0.0.1"]);

  it("is the socket's peer, whatever X-Forwarded-For claims, when no proxy is trusted", () => {
    expect(direct.resolve("203.0.113.5", "1.2.3.4")).toBe("203.0.113.5");
    expect(direct.resolve("::ffff:203.0.113.5", undefined)).toBe("203.0.113.5");
    expect(direct.resolve("2001:0db8:0000::0001", undefined)).toBe("2001:db8::1");
    expect(direct.resolve(undefined, "1.2.3.4")).toBe("unknown");
  });

  it("behind a trusted proxy, is the right-most hop that is not one: what the client wrote to the left is ignored", () => {
    expect(behindProxy.resolve("10.0.0.2", "6.6.6.6, 198.51.100.7")).toBe("198.51.100.7");
    expect(behindProxy.resolve("10.0.0.2", ["6.6.6.6", "198.51.100.7, 10.0.0.3"])).toBe("198.51.100.7");
    expect(behindProxy.resolve("::ffff:127.0.0.1", "[2001:db8::9]:4711")).toBe("2001:db8::9");
    expect(behindProxy.resolve("10.0.0.2", "198.51.100.7:8080")).toBe("198.51.100.7");
  });

  it("behind a trusted proxy, falls back to the proxy when the header is missing, garbage or all proxies", () => {
    expect(behindProxy.resolve("10.0.0.2", undefined)).toBe("10.0.0.2");
    expect(behindProxy.resolve("10.0.0.2", "1.2.3.4, not-an-address")).toBe("10.0.0.2");
    expect(behindProxy.resolve("10.0.0.2", "10.0.0.9")).toBe("10.0.0.2");
  });

  it("ignores X-Forwarded-For from a peer that is not a trusted proxy", () => {
    expect(behindProxy.resolve("198.51.100.20", "10.0.0.5")).toBe("198.51.100.20");
  });

  it("is read from FORAGE_TRUSTED_PROXIES, and a bad entry is named", () => {
    expect(loadConfig({ FORAGE_TRUSTED_PROXIES: "10.1.2.3/8, ::1" }).trustedProxies).toEqual(["10.0.0.0/8", "::1/128"]);
    expect(() => loadConfig({ FORAGE_TRUSTED_PROXIES: "10.0.0.0/8,proxy.internal" })).toThrow(/FORAGE_TRUSTED_PROXIES: "proxy.internal" is not a CIDR/);
  });

  it("is throttled per IPv4 address and per IPv6 /64", () => {
    expect(addressKey("203.0.113.5")).toBe("203.0.113.5");
    expect(addressKey("2001:db8:1:2:aaaa::1")).toBe(addressKey("2001:db8:1:2:bbbb::2"));
    expect(addressKey("2001:db8:1:2::1")).not.toBe(addressKey("2001:db8:1:3::1"));
    expect(addressKey("unknown")).toBe("unknown");
  });
});
