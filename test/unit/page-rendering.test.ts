import { describe, expect, it } from "vitest";
import { emptyCounters } from "@/lib/crawler/engine/create-engine";
import { MemorySink } from "@/lib/crawler/engine/memory-sink";
import { dataLinkTagPath, MAX_REQUESTS_PER_RENDERED_PAGE, PageRendering, RENDER_ALWAYS_REASON, RENDER_SHAPE_REASON } from "@/lib/crawler/engine/page-rendering";
import type { RenderInput } from "@/lib/crawler/engine/page-renderer";
import type { RenderMode } from "@/lib/crawl-config";
import { crawlApplications } from "@/lib/recipes/crawl-applications";
import { parseRecipe } from "@/lib/recipes/load-recipes";

/** A sign test that flags exactly the HTML containing "SHELL". */
const signs = (html: string) => (html.includes("SHELL") ? { needed: true, why: "an empty #app root" } : { needed: false, why: "" });

function rendering(mode: RenderMode) {
  const sink = new MemorySink();
  const counters = emptyCounters();
  return { sink, counters, rendering: new PageRendering(mode, null, "no Chromium here", signs, sink, counters) };
}

describe("which pages a crawl renders", () => {
  it("off renders none, always renders every page, auto the pages whose HTML looks script-built", () => {
    expect(rendering("off").rendering.reasonFor("http://a.test/x", "SHELL")).toBeNull();
    expect(rendering("always").rendering.reasonFor("http://a.test/x", "<p>plain</p>")).toBe(RENDER_ALWAYS_REASON);
    const auto = rendering("auto").rendering;
    expect(auto.reasonFor("http://a.test/list?page=2", "SHELL")).toBe("an empty #app root");
    expect(auto.reasonFor("http://a.test/list?page=2", "<p>plain</p>")).toBeNull();
  });

  it("auto renders pages of a URL shape without signs once two of its rendered pages showed more links, and stops when most do not", () => {
    const auto = rendering("auto").rendering;
    const plain = "<p>plain</p>";
    auto.noteLinks("http://a.test/list?page=1", 3, 20);
    expect(auto.reasonFor("http://a.test/list?page=7", plain)).toBeNull(); // one page is not evidence
    auto.noteLinks("http://a.test/list?page=2", 3, 20);
    expect(auto.reasonFor("http://a.test/list?page=7", plain)).toBe(RENDER_SHAPE_REASON);
    expect(auto.reasonFor("http://a.test/about", plain)).toBeNull(); // another shape
    auto.noteLinks("http://a.test/list?page=3", 20, 20);
    auto.noteLinks("http://a.test/list?page=4", 20, 20);
    // 2 paid of 4 rendered: not more than half any more
    expect(auto.reasonFor("http://a.test/list?page=7", plain)).toBeNull();
  });

  it("without a browser, says once why a script-built page is read as fetched", async () => {
    const { rendering: auto, sink, counters } = rendering("auto");
    const context = { kind: "render" as const, tagPath: null, groupId: null, depth: 1, referrer: null };
    const gate = { runner: null as never, budget: null as never, acceptable: () => true, keepTarget: () => {} };
    const signal = new AbortController().signal;
    expect(await auto.render("http://a.test/a", "SHELL", {}, context, gate, signal)).toBeNull();
    expect(await auto.render("http://a.test/b", "SHELL", {}, context, gate, signal)).toBeNull();
    expect(await auto.render("http://a.test/c", "<p>plain</p>", {}, context, gate, signal)).toBeNull();
    const told = sink.events.filter((event) => event.kind === "render-unavailable");
    expect(told).toHaveLength(1);
    expect(told[0]!.message).toContain("http://a.test/a needs a browser (an empty #app root)");
    expect(told[0]!.message).toContain("no Chromium here");
    expect(counters.renderedPages).toBe(0);
    expect(auto.summary()).toBeNull();
  });

  it("auto renders the pages a recognised application's recipe says it builds with scripts", () => {
    const sink = new MemorySink();
    const byRecipe = (url: string) => (url.includes("/explore/") ? "OpenDataSoft" : null);
    const auto = new PageRendering("auto", null, null, signs, sink, emptyCounters(), byRecipe);
    expect(auto.reasonFor("http://a.test/explore/dataset/x/", "<p>plain</p>")).toBe("OpenDataSoft builds these pages with scripts (its recipe says so)");
    expect(auto.reasonFor("http://a.test/about", "<p>plain</p>")).toBeNull();
    expect(new PageRendering("off", null, null, signs, sink, emptyCounters(), byRecipe).reasonFor("http://a.test/explore/dataset/x/", "")).toBeNull();
  });

  it("reads a rendered page's DOM and its scripts' JSON links, but not the pages of the API the scripts asked", async () => {
    const sink = new MemorySink();
    const counters = emptyCounters();
    const renderer = {
      render: async () => ({
        html: "<ul><li><a href='/files/a.csv'>a</a></li></ul>",
        dataLinks: [
          { url: "/files/b.csv", keyPath: "items.*.download_url", from: "http://a.test/api/list?page=1" },
          { url: "/api/list?page=2", keyPath: "next", from: "http://a.test/api/list?page=1" },
          { url: "http://a.test/publication/4", keyPath: "items.*.url", from: "http://a.test/api/list?page=1" },
          { url: "/files/b.csv", keyPath: "items.*.mirror", from: "http://a.test/api/list?page=1" },
        ],
        subrequests: { answered: 2, refused: 0, blocked: 3 },
        interactions: 0,
        durationMs: 12,
      }),
    };
    const auto = new PageRendering("auto", renderer, null, signs, sink, counters);
    const context = { kind: "render" as const, tagPath: null, groupId: null, depth: 1, referrer: null };
    const gate = { runner: null as never, budget: null as never, acceptable: () => true };
    const page = await auto.render("http://a.test/list", "SHELL", {}, context, gate, new AbortController().signal);
    expect(page?.html).toContain("/files/a.csv");
    expect(page?.dataLinks).toEqual([
      { url: "http://a.test/files/b.csv", tagPath: "/json/items/*/download_url", anchorText: "", tag: "a" },
      { url: "http://a.test/publication/4", tagPath: "/json/items/*/url", anchorText: "", tag: "a" },
    ]);
    expect(counters.renderedPages).toBe(1);
    expect(sink.events.map((event) => event.kind)).toEqual(["render-reason"]);
    expect(auto.summary()).toBe("Rendered 1 page in a browser: 1 because an empty #app root");
  });

  it("refuses a rendered page's requests past its allowance (a page polling forever spends no budget)", async () => {
    const reasons: string[] = [];
    const renderer = {
      render: async (input: RenderInput) => {
        for (let i = 0; i < MAX_REQUESTS_PER_RENDERED_PAGE + 5; i++) {
          const answer = await input.fetch({ url: `http://a.test/api/ping?${i}`, method: "GET", resourceType: "fetch", documentUrl: input.url });
          reasons.push(answer.kind === "refused" ? answer.reason : "answered");
        }
        return { html: "<p>done</p>", dataLinks: [], subrequests: { answered: 0, refused: reasons.length, blocked: 0 }, interactions: 0, durationMs: 1 };
      },
    };
    const auto = new PageRendering("auto", renderer, null, signs, new MemorySink(), emptyCounters());
    const context = { kind: "render" as const, tagPath: null, groupId: null, depth: 1, referrer: null };
    // The gate refuses everything as off-site: the first answers come from it, the rest from the allowance.
    const gate = { runner: null as never, budget: null as never, acceptable: () => false };
    await auto.render("http://a.test/list", "SHELL", {}, context, gate, new AbortController().signal);
    expect(reasons.slice(0, MAX_REQUESTS_PER_RENDERED_PAGE).every((reason) => reason.startsWith("outside the crawl's site"))).toBe(true);
    expect(reasons.slice(MAX_REQUESTS_PER_RENDERED_PAGE)).toEqual(Array(5).fill(`the page asked for more than ${MAX_REQUESTS_PER_RENDERED_PAGE} resources`));
  });

  it("names links found in a script's JSON by where they stood", () => {
    expect(dataLinkTagPath("items.*.files.*.download_url")).toBe("/json/items/*/files/*/download_url");
    expect(dataLinkTagPath("")).toBe("/json");
  });
});

describe("a recipe's scriptBuilt pages", () => {
  it("are the URLs its patterns match, for the recognised application only", () => {
    const recipe = parseRecipe(
      {
        id: "spa-portal",
        name: "SPA Portal",
        sources: ["https://docs.example.org/spa-portal"],
        recognise: { generator: "SPA Portal" },
        scriptBuilt: ["*/explore/dataset/*", "*/search?*"],
      },
      "spa-portal.json",
    );
    const applications = crawlApplications([recipe]);
    const portal = { recipeId: "spa-portal", name: "SPA Portal", base: "https://data.example.org/", evidence: [] };
    expect(applications.scriptBuilt!(portal, "https://data.example.org/explore/dataset/births/")).toBe(true);
    expect(applications.scriptBuilt!(portal, "https://data.example.org/search?q=x")).toBe(true);
    expect(applications.scriptBuilt!(portal, "https://data.example.org/about")).toBe(false);
    expect(applications.scriptBuilt!({ ...portal, recipeId: "other" }, "https://data.example.org/explore/dataset/births/")).toBe(false);
    // A recipe without the list renders nothing on its account.
    expect(parseRecipe({ id: "plain", name: "Plain", sources: ["https://docs.example.org/plain"], recognise: { generator: "Plain" } }, "plain.json").scriptBuilt).toEqual([]);
  });
});
