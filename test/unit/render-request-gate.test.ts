import { describe, expect, it } from "vitest";
import { gateRequest, isPageUrl } from "../../lib/render/request-gate";

const PAGE = new URL("https://data.example.org/datasets?page=2");

function gate(url: string, resourceType = "fetch", method = "GET") {
  return gateRequest({ url, method, resourceType }, PAGE);
}

describe("gateRequest", () => {
  it("asks the engine about the page host's scripts, data and other requests", () => {
    for (const type of ["script", "fetch", "xhr", "eventsource", "other"]) expect(gate("https://data.example.org/api/items", type)).toEqual({ kind: "ask" });
    // another scheme or port of the same host is the engine's to judge (its network policy)
    expect(gate("http://data.example.org:8080/api/items")).toEqual({ kind: "ask" });
    expect(gate("https://data.example.org/api", "fetch", "HEAD")).toEqual({ kind: "ask" });
  });

  it("blocks what adds no links: images, media, fonts, style sheets, manifests, text tracks", () => {
    for (const type of ["image", "media", "font", "stylesheet", "manifest", "texttrack"]) {
      expect(gate("https://data.example.org/x", type)).toEqual({ kind: "block", reason: `${type} requests are not loaded` });
    }
  });

  it("blocks other hosts, navigations and schemes other than http(s), data: and blob:", () => {
    expect(gate("https://cdn.example.org/app.js", "script")).toEqual({ kind: "block", reason: "another host (cdn.example.org) than the page's" });
    expect(gate("http://169.254.169.254/latest/meta-data/")).toMatchObject({ kind: "block" });
    expect(gate("https://data.example.org/other-page", "document")).toEqual({ kind: "block", reason: "a navigation away from the rendered page" });
    expect(gate("file:///etc/passwd")).toEqual({ kind: "block", reason: "a file: URL" });
    expect(gate("chrome://settings")).toEqual({ kind: "block", reason: "a chrome: URL" });
    expect(gate("data:text/plain,hello")).toEqual({ kind: "local" });
    expect(gate("blob:https://data.example.org/0b3f")).toEqual({ kind: "local" });
  });

  it("refuses methods the crawler never sends, without asking", () => {
    expect(gate("https://data.example.org/api/track", "ping", "POST")).toEqual({ kind: "refuse", reason: "the crawler sends only GET and HEAD requests, not POST" });
    expect(gate("https://data.example.org/api/items", "fetch", "DELETE")).toMatchObject({ kind: "refuse" });
  });
});

describe("isPageUrl", () => {
  it("is the page's URL whatever its fragment", () => {
    expect(isPageUrl("https://data.example.org/datasets?page=2", PAGE)).toBe(true);
    expect(isPageUrl("https://data.example.org/datasets?page=2#top", PAGE)).toBe(true);
    expect(isPageUrl("https://data.example.org/datasets?page=3", PAGE)).toBe(false);
    expect(isPageUrl("not a url", PAGE)).toBe(false);
  });
});
