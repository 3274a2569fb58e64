/**
 * `load-more` and `infinite-scroll`: a plain-HTML home page linking two or three listings
 * (`/<listing>/`) of 35–45 files each. A listing is a shell whose script renders the first 10 files
 * from `/api/files?listing=L&offset=0&limit=10`, then the next 10 on each click of its "Load more"
 * button (load-more) or each time the user scrolls near the bottom (infinite-scroll), until the
 * API's `next` is null. Rendered, a listing holds all its files.
 */
import { hash32, Rng } from "../random";
import type { Query, Resource } from "../types";
import { INFINITE_SCROLL_JS, LOAD_MORE_JS } from "./scripts";
import { catalogueFile, drawSections, fileRecord, homePage, json, nonNegative, notFound, routeFile, script, scriptedModel, shellPage, type CatalogueFile, type ScriptedModel, type ShellLook } from "./page-parts";

/** Files per batch the scripts ask for. */
export const BATCH_SIZE = 10;

interface BatchLook {
  siteName: string;
  scriptPath: string;
  scriptBody: string;
  look: (listing: string) => ShellLook;
}

const LOOKS: Record<"load-more" | "infinite-scroll", BatchLook> = {
  "load-more": {
    siteName: "Open Budget Data",
    scriptPath: "/static/load-more.js",
    scriptBody: LOAD_MORE_JS,
    look: () => ({ root: `<div id="root"></div>` }),
  },
  "infinite-scroll": {
    siteName: "Transport Data Library",
    scriptPath: "/static/infinite-scroll.js",
    scriptBody: INFINITE_SCROLL_JS,
    // Tall items: one batch is taller than the viewport, so the next waits for a scroll.
    look: (listing) => ({
      root: `<div id="__next"></div>`,
      island: `<script id="__NEXT_DATA__" type="application/json">${JSON.stringify({ props: { listing, batch: BATCH_SIZE }, page: "/[listing]" })}</script>`,
      extraStyle: "#files li{min-height:160px}",
    }),
  },
};

const notFoundJson = (error: string): Resource => ({ kind: "json", status: 404, contentType: "application/json; charset=utf-8", body: () => ({ error }) });

export function buildBatchListings(shape: "load-more" | "infinite-scroll", seed: number): ScriptedModel {
  const look = LOOKS[shape];
  const rng = new Rng(hash32(seed, shape === "load-more" ? 0x10ad : 0x5c01));
  const listings = drawSections(seed, 0xba7c, rng.range(2, 3)).map((s) => {
    const count = rng.range(35, 45);
    return { ...s, files: Array.from({ length: count }, (_, n) => catalogueFile(seed, s.slug, n, 0)) as CatalogueFile[] };
  });
  const listingOf = (slug: string | undefined) => listings.find((l) => l.slug === slug);

  function route(path: string, query: Query, rendered: boolean): Resource {
    if (path === "/" && query.size === 0) {
      return homePage(look.siteName, "Every data file we publish, by listing.", listings.map((l) => ({ href: `/${l.slug}/`, label: l.name })));
    }
    if (path === look.scriptPath) return script(look.scriptBody);
    if (path === "/api/files") {
      const listing = listingOf(query.get("listing"));
      const offset = nonNegative(query.get("offset") ?? "0");
      const limit = query.int("limit", BATCH_SIZE);
      if (!listing) return notFoundJson("no such listing");
      if (!(offset <= listing.files.length && limit <= 50)) return notFoundJson("offset or limit out of range");
      const end = Math.min(listing.files.length, offset + limit);
      const next = end < listing.files.length ? `/api/files?listing=${listing.slug}&offset=${end}&limit=${limit}` : null;
      return json({ listing: listing.slug, title: listing.name, total: listing.files.length, offset, files: listing.files.slice(offset, end).map(fileRecord), next });
    }
    const page = /^\/([a-z0-9-]+)\/$/.exec(path);
    if (page && query.size === 0) {
      const listing = listingOf(page[1]);
      if (!listing) return { kind: "missing" };
      return shellPage(listing.name, look.siteName, look.look(listing.slug), look.scriptPath, () => listing.files.map((f) => f.path), rendered);
    }
    return routeFile(path, (group, n, k) => (k === 0 ? listingOf(group)?.files[n] : undefined));
  }

  return scriptedModel(look.siteName, notFound, route);
}

