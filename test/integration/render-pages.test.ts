import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BrowserPool } from "../../lib/render/browser-pool";
import { ChromiumRenderer } from "../../lib/render/chromium-renderer";
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
