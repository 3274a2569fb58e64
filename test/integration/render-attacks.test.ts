import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BrowserPool } from "../../lib/render/browser-pool";
import { ChromiumRenderer, type SubrequestOutcome } from "../../lib/render/chromium-renderer";
import { pollUntil } from "../helpers/poll-until";
import { engineSide, startCanary, startRenderSite, type Canary, type RenderSite } from "../helpers/render-site";

// A rendered page's scripts try every way a browser has to reach a server on their own. The
// canary (another port on the same address, and the same port as "localhost") counts every
// connection; the engine's side refuses its origin, as the network policy would. Nothing may
// reach it: each attempt is either blocked in the renderer or refused by the engine.

let site: RenderSite;
let canary: Canary;
let pool: BrowserPool;

beforeAll(async () => {
  site = await startRenderSite();
  canary = await startCanary();
  pool = new BrowserPool({ executablePath: "/usr/bin/chromium", maxContexts: 2 });
});

/** A renderer on the file's browser that records what became of each request. */
function watchedRenderer(): { renderer: ChromiumRenderer; outcomes: SubrequestOutcome[] } {
  const outcomes: SubrequestOutcome[] = [];
  return { renderer: new ChromiumRenderer(pool, { pageTimeLimitMs: 15_000, onSubrequest: (outcome) => outcomes.push(outcome) }), outcomes };
}

afterAll(async () => {
  await pool?.close();
  await canary?.close();
  await site?.close();
});

/** Each way out, as a script statement; `C` is the canary on the page's own host, `L` the canary on another host name. */
const ATTEMPTS: Record<string, string> = {
  fetch: `fetch(C + "/fetch").catch(() => {});`,
  "fetch to another host": `fetch(L + "/fetch-other-host").catch(() => {});`,
  "fetch no-cors": `fetch(C + "/fetch-no-cors", { mode: "no-cors" }).catch(() => {});`,
  "fetch POST": `fetch(C + "/fetch-post", { method: "POST", body: "x" }).catch(() => {});`,
  XHR: `{ const x = new XMLHttpRequest(); x.open("GET", C + "/xhr"); x.send(); }`,
  img: `{ const img = new Image(); img.src = C + "/img.png"; document.body.append(img); }`,
  iframe: `{ const f = document.createElement("iframe"); f.src = C + "/iframe"; document.body.append(f); }`,
  "link prefetch": `{ const l = document.createElement("link"); l.rel = "prefetch"; l.href = C + "/prefetch"; document.head.append(l); }`,
  "link preconnect": `{ const l = document.createElement("link"); l.rel = "preconnect"; l.href = L; document.head.append(l); }`,
  "script from another host": `{ const s = document.createElement("script"); s.src = L + "/script.js"; document.head.append(s); }`,
  "worker from the site": `{ const w = new Worker("/worker.js?canary=" + encodeURIComponent(C)); w.onmessage = () => document.body.setAttribute("data-worker", "started"); }`,
  "worker from a blob": `new Worker(URL.createObjectURL(new Blob(["fetch(" + JSON.stringify(C + "/blob-worker-fetch") + ").catch(() => {}); fetch(" + JSON.stringify(L + "/blob-worker-other") + ").catch(() => {});"], { type: "text/javascript" })));`,
  sendBeacon: `navigator.sendBeacon(C + "/beacon", "x");`,
  EventSource: `new EventSource(C + "/events");`,
  WebSocket: `try { new WebSocket("ws://127.0.0.1:" + PORT + "/ws"); } catch {}`,
  "metadata address": `fetch("http://169.254.169.254/latest/meta-data/").catch(() => {});`,
  "fetch keepalive": `fetch(C + "/keepalive", { keepalive: true }).catch(() => {});`,
  "dynamic import": `import(C + "/module.js").catch(() => {});`,
  "service worker": `navigator.serviceWorker?.register("/sw.js").catch(() => {});`,
  "shared worker": `new SharedWorker(URL.createObjectURL(new Blob(["fetch(" + JSON.stringify(C + "/shared-worker-fetch") + ").catch(() => {});"], { type: "text/javascript" })));`,
  // UDP, which no HTTP proxy carries: ICE's STUN requests and WebTransport's QUIC.
  "WebRTC STUN and TURN": `{ const pc = new RTCPeerConnection({ iceServers: [{ urls: "stun:127.0.0.1:" + UDP_PORT }, { urls: "turn:127.0.0.1:" + UDP_PORT + "?transport=udp", username: "u", credential: "p" }] }); pc.createDataChannel("x"); pc.createOffer().then((offer) => pc.setLocalDescription(offer)).catch(() => {}); }`,
  WebTransport: `try { new WebTransport("https://127.0.0.1:" + UDP_PORT + "/wt").ready.catch(() => {}); } catch {}`,
  "window.open": `window.open(C + "/popup");`,
  // Navigations one after another (a later one would cancel an earlier one before it is requested);
  // the slow answer keeps the page busy until they have all been tried.
  "location.href": `setTimeout(() => { location.href = C + "/navigate"; }, 50);`,
  "form submit": `setTimeout(() => { const f = document.createElement("form"); f.method = "post"; f.action = C + "/form"; document.body.append(f); f.submit(); }, 350);`,
  "page reload": `setTimeout(() => location.reload(), 650);`,
  "busy until then": `fetch("/api/slow?ms=1500");`,
};

/** Where each attempt goes: the canary's paths (and the page's own, reloaded). */
const ATTEMPTED_PATHS = [
  "/style.css",
  "/head-script.js",
  "/inline.png",
  "/fetch",
  "/fetch-other-host",
  "/fetch-no-cors",
  "/fetch-post",
  "/xhr",
  "/img.png",
  "/iframe",
  "/prefetch",
  "/script.js",
  "/worker-fetch",
  "/blob-worker-fetch",
  "/blob-worker-other",
  "/beacon",
  "/events",
  "/ws",
  "/latest/meta-data/",
  "/keepalive",
  "/module.js",
  "/popup",
  "/navigate",
  "/form",
  "/attacks",
];

function attackPage(canaryPort: number, udpPort: number): string {
  const statements = Object.entries(ATTEMPTS)
    .map(([name, code]) => `try { ${code} } catch (error) { console.log(${JSON.stringify(name)}, error); }`)
    .join("\n");
  return `<!doctype html><html><head><title>attacks</title>
<link rel="stylesheet" href="http://127.0.0.1:${canaryPort}/style.css">
<script src="http://127.0.0.1:${canaryPort}/head-script.js"></script>
</head><body><p id="kept">the page</p><img src="http://127.0.0.1:${canaryPort}/inline.png">
<script>
const PORT = ${canaryPort};
const UDP_PORT = ${udpPort};
const C = "http://127.0.0.1:" + PORT;
const L = "http://localhost:" + PORT;
${statements}
</script></body></html>`;
}

describe("a rendered page's scripts cannot reach the network", () => {
  it("blocks or refuses every way out, and the canary sees no connection", async () => {
    const engine = engineSide(site.origin);
    const { renderer, outcomes } = watchedRenderer();
    const result = await renderer.render({ url: `${site.origin}/attacks`, html: attackPage(canary.port, canary.udpPort), headers: { "content-type": "text/html" }, fetch: engine.fetch });

    expect(result.error).toBeUndefined();
    expect(result.html).toContain('<p id="kept">the page</p>');
    // The site's worker ran (its script was answered by the engine) and tried the canary from inside the worker.
    expect(result.html).toContain('data-worker="started"');
    expect(canary.connections()).toBe(0);
    expect(canary.datagrams()).toBe(0);
    expect(site.requests.get("/attacks")).toBeUndefined();

    // Every attempt was seen, and each was blocked here or refused (here or by the engine).
    const stopped = outcomes.filter((outcome) => outcome.outcome === "blocked" || outcome.outcome === "refused");
    const stoppedPaths = new Set(stopped.map((outcome) => new URL(outcome.url).pathname));
    expect(ATTEMPTED_PATHS.filter((path) => !stoppedPaths.has(path))).toEqual([]);
    // Nothing but the site's own answers got through: the page, its worker's script, the slow JSON
    // (and the blob worker's script, which the browser reads from its own memory).
    const through = outcomes.filter((outcome) => outcome.outcome !== "blocked" && outcome.outcome !== "refused");
    expect(through.filter((outcome) => outcome.outcome !== "local").map((outcome) => `${outcome.outcome} ${new URL(outcome.url).pathname}`).sort()).toEqual([
      "answered /api/slow",
      "answered /worker.js",
      "page /attacks",
    ]);
    for (const local of through.filter((outcome) => outcome.outcome === "local")) expect(local.url).toMatch(/^(blob|data):/);
    const outcomeOf = (path: string) => [...new Set(stopped.filter((outcome) => new URL(outcome.url).pathname === path).map((outcome) => outcome.outcome))];
    for (const path of ["/img.png", "/inline.png", "/style.css", "/iframe", "/navigate", "/form", "/popup", "/attacks", "/fetch-other-host", "/blob-worker-other", "/script.js", "/latest/meta-data/"]) {
      expect(outcomeOf(path), path).toEqual(["blocked"]);
    }
    for (const path of ["/fetch", "/fetch-no-cors", "/fetch-post", "/xhr", "/prefetch", "/worker-fetch", "/blob-worker-fetch", "/beacon", "/events", "/ws", "/head-script.js", "/keepalive", "/module.js"]) {
      expect(outcomeOf(path), path).toEqual(["refused"]);
    }
    expect(stopped.find((outcome) => outcome.url.endsWith("/beacon"))?.reason).toMatch(/only GET and HEAD/);

    // The engine was asked only GET requests to the page's host; the canary's were refused there.
    for (const asked of engine.asked) {
      expect(asked.method).toBe("GET");
      expect(new URL(asked.url).hostname).toBe("127.0.0.1");
    }
    expect(result.subrequests).toEqual({
      answered: outcomes.filter((o) => o.outcome === "answered").length,
      refused: outcomes.filter((o) => o.outcome === "refused").length,
      blocked: outcomes.filter((o) => o.outcome === "blocked").length,
    });
  });

  it("lets no shared worker reach even the page's own site: interception does not see its requests, the proxy wall stops them", async () => {
    const engine = engineSide(site.origin);
    const { renderer, outcomes } = watchedRenderer();
    const html = `<!doctype html><body><p id="kept">the page</p><script>
      const code = "fetch(" + JSON.stringify(location.origin + "/shared-worker-probe") + ").then(() => postMessage('reached'), () => {});"
        + "onconnect = (event) => fetch(" + JSON.stringify(location.origin + "/shared-worker-probe") + ").then(() => event.ports[0].postMessage('reached'), (error) => event.ports[0].postMessage('failed: ' + error));";
      const worker = new SharedWorker(URL.createObjectURL(new Blob([code], { type: "text/javascript" })));
      worker.port.onmessage = (event) => document.body.setAttribute("data-shared-worker", event.data);
      navigator.serviceWorker?.register("/sw.js").catch((error) => document.body.setAttribute("data-service-worker", String(error.name)));
    </script></body>`;
    const result = await renderer.render({ url: `${site.origin}/shared`, html, headers: {}, fetch: engine.fetch });

    expect(result.html).toMatch(/data-shared-worker="failed: TypeError/);
    expect(site.requests.get("/shared-worker-probe")).toBeUndefined();
    expect(site.requests.get("/sw.js")).toBeUndefined();
    expect(engine.asked.map((asked) => new URL(asked.url).pathname)).not.toContain("/shared-worker-probe");
    expect(outcomes.map((outcome) => new URL(outcome.url).pathname)).not.toContain("/shared-worker-probe");
  });

  it("drops a <meta> refresh away from the page", async () => {
    const engine = engineSide(site.origin);
    const { renderer, outcomes } = watchedRenderer();
    const html = `<!doctype html><html><head><meta http-equiv="refresh" content="0.2;url=http://127.0.0.1:${canary.port}/meta-refresh"></head>
<body><p id="kept">the page</p><script>fetch("/api/slow?ms=800");</script></body></html>`;
    const result = await renderer.render({ url: `${site.origin}/refresh`, html, headers: {}, fetch: engine.fetch });

    expect(result.html).toContain('<p id="kept">the page</p>');
    expect(outcomes.filter((outcome) => outcome.url.endsWith("/meta-refresh")).map((outcome) => outcome.outcome)).toEqual(["blocked"]);
    expect(canary.connections()).toBe(0);
  });

  it("tells the worker's and the frame's document URL with each subrequest", async () => {
    const engine = engineSide(site.origin);
    const { renderer } = watchedRenderer();
    const html = `<!doctype html><body><script>new Worker("/worker.js?canary=" + encodeURIComponent(location.origin));</script></body>`;
    await renderer.render({ url: `${site.origin}/with-worker`, html, headers: {}, fetch: engine.fetch });
    // The worker's own fetch (to the site, answered 404) came through interception too.
    await pollUntil("the worker's fetch", () => engine.asked.length, (count) => count >= 2, { timeoutMs: 5_000, pollMs: 20 });
    expect(engine.asked.map((asked) => [new URL(asked.url).pathname, asked.resourceType, asked.documentUrl])).toEqual([
      ["/worker.js", "script", `${site.origin}/with-worker`],
      ["/worker-fetch", "fetch", `${site.origin}/with-worker`],
    ]);
  });
});
