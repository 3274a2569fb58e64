import { describe, expect, it } from "vitest";
import { sameOriginPath } from "../../lib/api/same-origin-path";

describe("sameOriginPath (where sign-in sends the browser)", () => {
  it("keeps paths of this app, with their query and fragment", () => {
    expect(sameOriginPath("/crawls/12?tab=files#top")).toBe("/crawls/12?tab=files#top");
    expect(sameOriginPath("/")).toBe("/");
  });

  it.each([
    ["a tab the browser drops", "/\t/evil.example/"],
    ["a line feed the browser drops", "/\n/evil.example/"],
    ["a carriage return", "/\r/evil.example"],
    ["a protocol-relative URL", "//evil.example/"],
    ["a backslash", "/\\evil.example"],
    ["a mixed slash", "/\\/evil.example"],
    ["an absolute URL", "https://evil.example/"],
    ["a javascript: URL", "javascript:alert(1)"],
    ["no leading slash", "evil.example"],
    ["a non-string", ["/a", "/b"]],
  ])("sends %s to /", (_label, raw) => {
    expect(sameOriginPath(raw)).toBe("/");
  });

  it("returns control characters percent-encoded, never raw (they would break the Location header)", () => {
    const kept = sameOriginPath("/crawls?q=a\u0001b%0a");
    expect(kept).not.toMatch(/[\u0000-\u001f]/);
    expect(kept.startsWith("/crawls")).toBe(true);
  });
});
