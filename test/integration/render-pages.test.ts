import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BrowserPool } from "../../lib/render/browser-pool";
import { ChromiumRenderer } from "../../lib/render/chromium-renderer";
import { pollUntil } from "../helpers/poll-until";
import { engineSide, ITEMS_PER_PAGE, SHELL_PAGE, startRenderSite, type RenderSite } from "../helpers/render-site";

// Script-built pages rendered in real Chromium, every subrequest answered by a real HTTP site
// through the engine's side of the boundary.

let site: RenderSite;
let pool: BrowserPool;
let renderer: ChromiumRenderer;

beforeAll(async () => {
  site = await startRenderSite();
  pool = new BrowserPool({ executablePath: "/usr/bin/chromium", maxContexts: 2 });
  renderer = new ChromiumRenderer(pool, { pageTimeLimitMs: 15_000, maxInteractions: 5 });
});

afterAll(async () => {
  await pool?.close();
  await site?.close();
});

/** The links of the rendered DOM (the page's script source, which writes them, aside). */
function hrefs(html: string): string[] {
  return [...html.replace(/<script\b[\s\S]*?<\/script>/g, "").matchAll(/<a [^>]*href="([^"]+)"/g)].map((match) => match[1]!);
}

/** The links of listing pages 1..pages as the page scripts below write them. */
function listingHrefs(pages: number): string[] {
  return Array.from({ length: pages }, (_, p) => Array.from({ length: ITEMS_PER_PAGE }, (_, i) => `/datasets/p${p + 1}-${i}`)).flat();
}

describe("ChromiumRenderer on script-built pages", () => {
  it("renders a shell page whose script fetches JSON, with the JSON's links and key paths, without asking the site for the page again", async () => {
    const engine = engineSide(site.origin);
    const result = await renderer.render({ url: `${site.origin}/datasets`, html: SHELL_PAGE, headers: { "content-type": "text/html; charset=windows-1252" }, fetch: engine.fetch });

    expect(result.error).toBeUndefined();
    expect(hrefs(result.html!)).toEqual(listingHrefs(1));
    expect(site.requests.get("/datasets")).toBeUndefined();
    expect(site.requests.get("/app.js")).toBe(1);
    expect(engine.asked.map((asked) => [new URL(asked.url).pathname, asked.method, asked.resourceType, asked.documentUrl])).toEqual([
      ["/app.js", "GET", "script", `${site.origin}/datasets`],
      ["/api/items.json", "GET", "fetch", `${site.origin}/datasets`],
    ]);
    expect(result.subrequests).toEqual({ answered: 2, refused: 0, blocked: 0 });

    const from = `${site.origin}/api/items.json?page=1&pages=1`;
    expect(result.dataLinks).toContainEqual({ url: `${site.origin}/datasets/p1-0`, keyPath: "items.*.url", from });
    expect(result.dataLinks).toContainEqual({ url: `${site.origin}/files/p1-4.csv`, keyPath: "items.*.files.*.download_url", from });
    expect(result.dataLinks).toHaveLength(2 * ITEMS_PER_PAGE);
    expect(result.interactions).toBe(0);
    expect(result.durationMs).toBeGreaterThan(0);
  });

  it("clicks “Load more” until the listing is complete", async () => {
    const html = `<!doctype html><body><ul id="list"></ul><button id="more" type="button">Load more</button>
<script>
  let next = "/api/items.json?page=1&pages=4";
  const more = document.getElementById("more");
  async function load() {
    const data = await (await fetch(next)).json();
    for (const item of data.items) {
      const li = document.createElement("li");
      li.innerHTML = '<a href="' + item.url + '">' + item.title + "</a>";
      document.getElementById("list").append(li);
    }
    next = data.next;
    if (!next) more.remove();
  }
  more.addEventListener("click", load);
  load();
</script></body>`;
    const result = await renderer.render({ url: `${site.origin}/load-more`, html, headers: { "content-type": "text/html" }, fetch: engineSide(site.origin).fetch });

    expect(result.error).toBeUndefined();
    expect(hrefs(result.html!)).toEqual(listingHrefs(4));
    expect(result.interactions).toBe(3);
    expect(result.dataLinks.filter((link) => link.keyPath === "items.*.files.*.download_url")).toHaveLength(4 * ITEMS_PER_PAGE);
    // the listing's "next" values are root-relative paths too
    expect(result.dataLinks.filter((link) => link.keyPath === "next")).toHaveLength(3);
  });

  it("scrolls an infinite list to its end", async () => {
    const html = `<!doctype html><body><div id="list"></div>
<script>
  let next = "/api/items.json?page=1&pages=4";
  let loading = false;
  async function load() {
    if (!next || loading) return;
    loading = true;
    const data = await (await fetch(next)).json();
    for (const item of data.items) {
      const row = document.createElement("div");
      row.style.height = "400px";
      row.innerHTML = '<a href="' + item.url + '">' + item.title + "</a>";
      document.getElementById("list").append(row);
    }
    next = data.next;
    loading = false;
  }
  window.addEventListener("scroll", () => {
    if (window.scrollY + window.innerHeight >= document.documentElement.scrollHeight - 100) load();
  });
  load();
</script></body>`;
    const result = await renderer.render({ url: `${site.origin}/scroll`, html, headers: { "content-type": "text/html" }, fetch: engineSide(site.origin).fetch });

    expect(result.error).toBeUndefined();
    expect(hrefs(result.html!)).toEqual(listingHrefs(4));
    // three scrolls that load a page, a fourth that finds nothing new
    expect(result.interactions).toBe(4);
  });

  it("stops at maxInteractions", async () => {
    const html = `<!doctype html><body><ul id="list"></ul><a id="more" href="#">Show more</a>
<script>
  let page = 0;
  document.getElementById("more").addEventListener("click", (event) => {
    event.preventDefault();
    page++;
    fetch("/api/items.json?page=" + page + "&pages=99").then((r) => r.json()).then((data) => {
      for (const item of data.items) document.getElementById("list").insertAdjacentHTML("beforeend", '<li><a href="' + item.url + '">x</a></li>');
    });
  });
</script></body>`;
    const limited = new ChromiumRenderer(pool, { pageTimeLimitMs: 15_000, maxInteractions: 2 });
    const result = await limited.render({ url: `${site.origin}/endless-more`, html, headers: {}, fetch: engineSide(site.origin).fetch });

    expect(result.interactions).toBe(2);
    expect(hrefs(result.html!).filter((href) => href.startsWith("/datasets/"))).toEqual(listingHrefs(2));
  });

  it("leaves links with a real href alone, and never navigates away", async () => {
    const html = `<!doctype html><body><a id="more" href="/elsewhere">Load more</a><p id="kept">still here</p></body>`;
    const engine = engineSide(site.origin);
    const result = await renderer.render({ url: `${site.origin}/real-link`, html, headers: {}, fetch: engine.fetch });

    expect(result.interactions).toBe(0);
    expect(result.html).toContain("still here");
    expect(engine.asked).toEqual([]);
    expect(site.requests.get("/elsewhere")).toBeUndefined();
  });
});

/** A page that shows the cookies it found, then sets one: what a later page of the same context would see. */
const COOKIE_PAGE = `<!doctype html><body><p id="found"></p><script>document.getElementById("found").textContent = "cookies:" + document.cookie; document.cookie = "visit=1";</script></body>`;

function foundCookies(html: string | null): string | undefined {
  return /<p id="found">cookies:([^<]*)<\/p>/.exec(html ?? "")?.[1];
}

describe("one context per site, kept for its next pages", () => {
  let other: RenderSite;
  let third: RenderSite;
  let sites: BrowserPool;

  beforeAll(async () => {
    other = await startRenderSite();
    third = await startRenderSite();
    sites = new BrowserPool({ executablePath: "/usr/bin/chromium", maxContexts: 2 });
  });

  afterAll(async () => {
    await sites?.close();
    await other?.close();
    await third?.close();
  });

  const renderAt = (at: RenderSite, path: string, html = COOKIE_PAGE, pageTimeLimitMs = 15_000) =>
    new ChromiumRenderer(sites, { pageTimeLimitMs }).render({ url: `${at.origin}${path}`, html, headers: { "content-type": "text/html" }, fetch: engineSide(at.origin).fetch });

  it("renders two pages of one site in one context, and never shares it with another site", async () => {
    const created = sites.contextsCreated();
    const first = await renderAt(site, "/one");
    const second = await renderAt(site, "/two");
    // The same shell page again, at another URL of the site: its script and JSON run afresh in the kept tab.
    const shell = await renderAt(site, "/datasets?again", SHELL_PAGE);
    expect([first.error, second.error, shell.error]).toEqual([undefined, undefined, undefined]);
    expect(foundCookies(first.html)).toBe("");
    expect(foundCookies(second.html)).toBe("visit=1");
    expect(hrefs(shell.html!)).toEqual(listingHrefs(1));
    expect(sites.contextsCreated() - created).toBe(1);

    // Another port is another site: a context of its own (cookies, which ignore ports, are not shared).
    const elsewhere = await renderAt(other, "/one");
    expect(elsewhere.error).toBeUndefined();
    expect(foundCookies(elsewhere.html)).toBe("");
    expect(sites.contextsCreated() - created).toBe(2);
    expect(sites.openContexts()).toBe(2);
  });

  it("keeps at most maxContexts open with the idle ones, closing the least recently used for another site", async () => {
    await renderAt(site, "/a");
    await renderAt(other, "/b");
    const created = sites.contextsCreated();
    let mostOpen = 0;
    const watching = setInterval(() => (mostOpen = Math.max(mostOpen, sites.openContexts())), 5);
    try {
      expect((await renderAt(third, "/c")).error).toBeUndefined(); // closes the first site's context
      expect(sites.contextsCreated() - created).toBe(1);
      expect((await renderAt(other, "/b2")).error).toBeUndefined(); // kept: no new context
      expect(sites.contextsCreated() - created).toBe(1);
      const again = await renderAt(site, "/a2"); // closes the third site's, the least recently used
      expect(again.error).toBeUndefined();
      expect(foundCookies(again.html)).toBe("");
      expect(sites.contextsCreated() - created).toBe(2);
      expect((await renderAt(other, "/b3")).error).toBeUndefined();
      expect(sites.contextsCreated() - created).toBe(2);
    } finally {
      clearInterval(watching);
    }
    expect(mostOpen).toBeLessThanOrEqual(2);
    expect(sites.openContexts()).toBe(2);
    expect(sites.idleContexts()).toBe(2);
  });

  it("closes a context whose page hit the time limit, and the site's next page renders in a fresh one", async () => {
    expect((await renderAt(site, "/before")).error).toBeUndefined();
    const created = sites.contextsCreated();
    const spin = await renderAt(site, "/spin", `<!doctype html><body><p>spinning</p><script>while (true) {}</script></body>`, 3_000);
    expect(spin.error).toBe("time limit of 3000 ms");
    expect(sites.contextsCreated() - created).toBe(0); // the spinning page had the kept context
    const next = await renderAt(site, "/after");
    expect(next.error).toBeUndefined();
    expect(foundCookies(next.html)).toBe(""); // not the closed context's cookies
    expect(sites.contextsCreated() - created).toBe(1);
  });

  it("closes an idle context after its idle time, and all of them on close", async () => {
    const brief = new BrowserPool({ executablePath: "/usr/bin/chromium", maxContexts: 2, idleContextMs: 300 });
    try {
      const result = await new ChromiumRenderer(brief, { pageTimeLimitMs: 15_000 }).render({ url: `${site.origin}/idle`, html: COOKIE_PAGE, headers: {}, fetch: engineSide(site.origin).fetch });
      expect(result.error).toBeUndefined();
      expect(brief.idleContexts()).toBe(1);
      await pollUntil("the idle context closed", () => ({ open: brief.openContexts(), idle: brief.idleContexts() }), ({ open, idle }) => open === 0 && idle === 0, { timeoutMs: 10_000, pollMs: 50 });
    } finally {
      await brief.close();
    }
    expect((await renderAt(other, "/x")).error).toBeUndefined();
    expect(sites.idleContexts()).toBeGreaterThan(0);
    await sites.close();
    expect(sites.idleContexts()).toBe(0);
  });
});
