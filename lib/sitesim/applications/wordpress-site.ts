/**
 * Shape "wordpress-site": a WordPress 6.4 site (pretty permalinks, classic theme) of a
 * statistics office. Variants: "rest-disabled-401" (a plugin answers 401 rest_cannot_access on
 * /wp-json/* to visitors; discovery links stay) and "rest-disabled-404" (REST routes and the
 * discovery links removed: /wp-json/* answers rest_no_route).
 */
import type { HtmlSink } from "../html-sink";
import type { ApiListedUrl, Query, Resource, ShapeModel } from "../types";
import { mediaItem, wpError, wpIndex, wpMedia, wpNoRoute, WP_PER_PAGE_MAX } from "./wordpress-api";
import { buildWordPressModel } from "./wordpress-model";
import { archive, postBody, wpPage, WP_PAGES, WP_PER_PAGE } from "./wordpress-pages";

const missing: Resource = { kind: "missing" };

export function buildWordPressSite(seed: number, urlCount: number, variant = "standard"): ShapeModel {
  const m = buildWordPressModel(seed, urlCount);
  const siteName = "Regional Statistics Office";
  const discovery = variant !== "rest-disabled-404";
  const page = (title: string, body: (s: HtmlSink) => void, apiLink?: string): Resource => ({
    kind: "page",
    render: (s) => wpPage(s, m, siteName, title, discovery, () => body(s)),
    ...(discovery ? { headers: (origin: string) => ({ link: `<${origin}/wp-json/>; rel="https://api.w.org/"` + (apiLink ? `, <${origin}${apiLink}>; rel="alternate"; type="application/json"` : "") }) } : {}),
  });

  /** `<prefix>` (page 1) and `<prefix>page/N/`; `page/1/` answers 301 to the prefix (redirect_canonical). */
  function paged(path: string, prefix: string, count: number, title: string, ids: readonly number[]): Resource | null {
    if (path === prefix) return page(title, (s) => archive(s, m, title, ids, 1, (n) => (n === 1 ? prefix : `${prefix}page/${n}/`)));
    const match = new RegExp(`^${prefix.replace(/[/]/g, "\\/")}page\\/([1-9][0-9]{0,5})\\/$`).exec(path);
    if (!match) return null;
    const n = Number(match[1]);
    if (n === 1) return { kind: "redirect", status: 301, location: prefix };
    if (n > Math.ceil(count / WP_PER_PAGE)) return missing;
    return page(`${title} – Page ${n}`, (s) => archive(s, m, title, ids, n, (k) => (k === 1 ? prefix : `${prefix}page/${k}/`)));
  }

  const newestFirst = m.posts.map((_, i) => m.posts.length - 1 - i);

  function routeApi(path: string, q: Query): Resource {
    if (variant === "rest-disabled-401") return wpError("rest_cannot_access", "Only authenticated users can access the REST API.", 401);
    if (variant === "rest-disabled-404") return wpNoRoute();
    if (path === "/wp-json/" || path === "/wp-json") return wpIndex(siteName);
    if (path === "/wp-json/wp/v2/media") return wpMedia(m, q);
    const one = /^\/wp-json\/wp\/v2\/media\/([0-9]+)$/.exec(path);
    if (one) {
      const f = m.mediaById.get(Number(one[1]));
      if (!f) return wpError("rest_post_invalid_id", "Invalid post ID.", 404);
      return { kind: "json", status: 200, contentType: "application/json; charset=UTF-8", body: (origin) => mediaItem(origin, f) };
    }
    return wpNoRoute();
  }

  function route(path: string, q: Query): Resource {
    if (path.startsWith("/wp-json")) return routeApi(path, q);
    if (q.size > 0) return missing;
    if (path.startsWith("/wp-content/uploads/")) {
      const f = m.mediaByPath.get(path);
      return f ? { kind: "file", file: f.file } : missing;
    }
    const home = paged(path, "/", m.posts.length, siteName, newestFirst);
    if (home) return home;
    const cat = /^\/category\/([a-z0-9-]+)\//.exec(path);
    if (cat) {
      const c = m.categories.find((x) => x.slug === cat[1]);
      return (c && paged(path, `/category/${c.slug}/`, c.posts.length, `Category: ${c.name}`, c.posts)) || missing;
    }
    const i = m.postByPath.get(path);
    if (i !== undefined) {
      const p = m.posts[i]!;
      return page(p.title, (s) => postBody(s, m, i), `/wp-json/wp/v2/posts/${p.id}`);
    }
    const title = WP_PAGES[path];
    if (title !== undefined) {
      return page(title, (s) => {
        s.el("h1", "entry-title", title);
        s.para(title.length * 11, 80);
        // The Publications page lists the latest reports' posts.
        if (path === "/publications/") for (const k of newestFirst.slice(0, 20)) s.siteA(m.posts[k]!.path, m.posts[k]!.title, "absolute");
      });
    }
    return missing;
  }

  return {
    siteName,
    trapPrefixes: [],
    // WordPress's virtual robots.txt (do_robots): Disallow /wp-admin/ (it also allows admin-ajax.php).
    disallow: ["/wp-admin/"],
    route,
    notFound: (s) => wpPage(s, m, siteName, "Page not found", discovery, () => s.el("h1", "page-title", "Nothing here")),
    application: {
      kind: "wordpress", variant, base: "/", api: variant === "standard" ? "open" : "fails", recipePageSize: WP_PER_PAGE_MAX, recordCount: m.media.length,
      // The recipe asks orderby=modified&order=desc: that order, ties by id.
      listed: () =>
        [...m.media]
          .sort((a, b) => (a.modified < b.modified ? 1 : a.modified > b.modified ? -1 : b.id - a.id))
          .map((f): ApiListedUrl => ({ url: f.path, onSite: true, isFile: !f.mime.startsWith("image/") })),
    },
  };
}
