/**
 * What the renderer does with one request of the browser, before the engine hears of it: the
 * requests a page's text and links can never depend on (pictures, fonts, styles, media), other
 * hosts' requests and navigations away from the page never leave the renderer (`block`); methods
 * the crawler does not send are refused without asking (`refuse`); data:/blob: URLs are the
 * browser's own memory (`local`); everything else is the engine's to answer or refuse (`ask`).
 * The page's own document is answered from the fetched HTML before this is asked.
 */
export type GateDecision = { kind: "ask" } | { kind: "local" } | { kind: "block"; reason: string } | { kind: "refuse"; reason: string };

/** Resource types that add nothing to a page's links: blocked without a request. */
export const BLOCKED_RESOURCE_TYPES: ReadonlySet<string> = new Set(["image", "media", "font", "stylesheet", "manifest", "texttrack"]);

/** The methods Forage's fetcher sends. */
const SENT_METHODS: ReadonlySet<string> = new Set(["GET", "HEAD"]);

export interface GateRequest {
  url: string;
  method: string;
  resourceType: string;
}

export function gateRequest(request: GateRequest, pageUrl: URL): GateDecision {
  let url: URL;
  try {
    url = new URL(request.url);
  } catch {
    return { kind: "block", reason: "not a URL" };
  }
  if (url.protocol === "data:" || url.protocol === "blob:") return { kind: "local" };
  if (url.protocol !== "http:" && url.protocol !== "https:") return { kind: "block", reason: `a ${url.protocol.slice(0, -1)}: URL` };
  if (request.resourceType === "document") return { kind: "block", reason: "a navigation away from the rendered page" };
  if (BLOCKED_RESOURCE_TYPES.has(request.resourceType)) return { kind: "block", reason: `${request.resourceType} requests are not loaded` };
  if (url.hostname !== pageUrl.hostname) return { kind: "block", reason: `another host (${url.hostname}) than the page's` };
  const method = request.method.toUpperCase();
  if (!SENT_METHODS.has(method)) return { kind: "refuse", reason: `the crawler sends only GET and HEAD requests, not ${method.slice(0, 20)}` };
  return { kind: "ask" };
}

/** Whether `requested` is the page's own URL (the fragment aside: the browser never sends it). */
export function isPageUrl(requested: string, pageUrl: URL): boolean {
  try {
    const url = new URL(requested);
    url.hash = "";
    const page = new URL(pageUrl);
    page.hash = "";
    return url.href === page.href;
  } catch {
    return false;
  }
}
