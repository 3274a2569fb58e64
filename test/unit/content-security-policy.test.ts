import { describe, expect, it } from "vitest";
import { API_CONTENT_SECURITY_POLICY, createNonce, pageContentSecurityPolicy } from "../../lib/api/content-security-policy";

describe("Content-Security-Policy", () => {
  it("runs page scripts by nonce only, with 'unsafe-eval' in development alone", () => {
    const production = pageContentSecurityPolicy("abc");
    expect(production).toContain("script-src 'self' 'nonce-abc' 'strict-dynamic';");
    expect(production).not.toContain("unsafe-eval");
    expect(production).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(pageContentSecurityPolicy("abc", { development: true })).toContain("script-src 'self' 'nonce-abc' 'strict-dynamic' 'unsafe-eval';");
  });

  it("makes a fresh 128-bit nonce each time", () => {
    const nonces = new Set(Array.from({ length: 100 }, createNonce));
    expect(nonces.size).toBe(100);
    for (const nonce of nonces) expect(nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/);
  });

  it("sandboxes API answers and loads nothing in them", () => {
    expect(API_CONTENT_SECURITY_POLICY).toBe("default-src 'none'; sandbox; frame-ancestors 'none'");
  });
});
