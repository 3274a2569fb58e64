/**
 * Shape "wiki" (MediaWiki 1.35, Vector skin): a statistics community wiki whose targets
 * are uploaded files. Articles at `/wiki/<Title>` (`/` answers 301 to `/wiki/Main_Page`)
 * in topical areas (datasets and publications carry most files, the glossary none),
 * categories paged 200 at a time, file description pages, talk, user, help, project
 * and template pages. Uploads live at `/images/<h>/<hh>/<name>` (old versions under
 * `/images/archive/`, thumbnails under `/images/thumb/`); articles link them directly
 * (`[[Media:…]]`) or through their description pages. Every page has its revision views
 * under `/index.php?title=…` (history with five limit links, old revisions, diffs in
 * several spellings, "View source", page information, printable version): the bulk
 * of the site, as on any wiki whose robots.txt only keeps crawlers out of special
 * pages. Red links answer 302 to the missing page, which is a 404; redirect pages
 * answer 200 with the target's content ("Redirected from"); deleted files' addresses
 * are 404. Finite: no trap.
 */
import { fileBytes } from "../formats";
import type { HtmlSink } from "../html-sink";
import { hash32 } from "../random";
import type { Query, Resource, ShapeModel } from "../types";
import { categoryBody, parseCategoryQuery } from "./wiki-category";
import { parserOutput } from "./wiki-content";
import { filePageBody } from "./wiki-file-page";
import { routeImages } from "./wiki-files";
import { diffBody, HISTORY_LIMITS, historyBody, infoBody, pageCategories, revisionNav, viewSourceBody } from "./wiki-history";
import { buildWikiModel, REV_BASE, type WikiModel } from "./wiki-model";
import { wikiPage, type SkinContext } from "./wiki-skin";
import { specialPage } from "./wiki-special";
import { WIKI_SITE_NAME } from "./wiki-text";
import { dbKey, indexHref, NS, parseTitle, prefixedText, safeDecodePath, viewHref, type WikiTitle } from "./wiki-urls";

const missing: Resource = { kind: "missing" };
const NOINDEX = "noindex,nofollow";

/** robots.txt: special pages and search only, as many community wikis have it. */
export const WIKI_DISALLOW: readonly string[] = [
  "/wiki/Special:", "/wiki/Special%3A", "/index.php?title=Special:", "/index.php?title=Special%3A", "/index.php?search=", "/images/deleted/",
];

export function buildWiki(seed: number, n: number): ShapeModel {
  const m: WikiModel = buildWikiModel(seed, n);
  const page = (render: (s: HtmlSink) => void, status?: 403): Resource => (status ? { kind: "page", render, status } : { kind: "page", render });

  /** The normal view of page `p` (or of the page a redirect points to). */
  function view(p: number, opts: { printable?: boolean; followRedirect: boolean; categoryQuery?: ReturnType<typeof parseCategoryQuery> }): Resource {
    const from = m.pages[p]!;
    const shown = opts.followRedirect && from.redirectTo >= 0 ? from.redirectTo : p;
    const target = m.pages[shown]!;
    return page((s) => {
      const ctx: SkinContext = {
        page: shown, title: target.title, heading: prefixedText(target.title), action: "view", printable: opts.printable,
        subtitle: shown !== p ? () => {
          s.open("span", "mw-redirectedfrom");
          s.text("(Redirected from ");
          s.a(indexHref(from.title, [["redirect", "no"]]), prefixedText(from.title), "mw-redirect");
          s.text(")");
          s.close("span");
        } : from.redirectTo >= 0 ? () => s.text("Redirect page") : undefined,
      };
      wikiPage(s, m, ctx, () => {
        if (target.kind === "file") filePageBody(s, m, shown);
        else if (target.kind === "category") categoryBody(s, m, shown, opts.categoryQuery ?? {});
        else parserOutput(s, m, shown);
      }, pageCategories(s, m, shown));
    });
  }

  function revisionView(p: number, k: number): Resource {
    const pg = m.pages[p]!;
    return page((s) => wikiPage(s, m, { page: p, title: pg.title, heading: prefixedText(pg.title), action: "view", rev: pg.revs[k]!, robots: NOINDEX, subtitle: () => revisionNav(s, m, p, k) }, () => {
      if (pg.kind === "file") filePageBody(s, m, p);
      else if (pg.kind === "category") categoryBody(s, m, p, {});
      else parserOutput(s, m, p);
    }, pageCategories(s, m, p)));
  }

  /** Index of revision id `raw` among page `p`'s revisions; -1 when it is not one of them. */
  function revIndex(p: number, raw: string | undefined): number {
    if (raw === undefined || !/^[1-9][0-9]{0,8}$/.test(raw)) return -1;
    const rev = Number(raw) - REV_BASE;
    return rev >= 0 && rev < m.revPage.length && m.revPage[rev] === p ? m.pages[p]!.revs.indexOf(rev) : -1;
  }

  function diff(p: number, diffParam: string, oldid: string | undefined): Resource {
    const pg = m.pages[p]!;
    const k = revIndex(p, oldid);
    if (k < 0) return missing;
    let a: number;
    let b: number;
    if (diffParam === "prev") [a, b] = [k - 1, k];
    else if (diffParam === "next") [a, b] = [k, k + 1];
    else if (diffParam === "cur") [a, b] = [k, pg.revs.length - 1];
    else {
      const j = revIndex(p, diffParam);
      if (j < 0) return missing;
      [a, b] = j < k ? [j, k] : [k, j];
    }
    if (a < 0 || b >= pg.revs.length || a >= b) return missing;
    return page((s) => wikiPage(s, m, { page: p, title: pg.title, heading: `${prefixedText(pg.title)}: Difference between revisions`, action: "view", rev: pg.revs[b]!, robots: NOINDEX }, () => diffBody(s, m, p, a, b), pageCategories(s, m, p)));
  }

  /** Everything about an ordinary (non-special) title; `pairs` is the query without `title`. */
  function titleRequest(t: WikiTitle, pairs: ReadonlyArray<readonly [string, string]>): Resource {
    const p = m.byKey.get(dbKey(t));
    const params = new Map(pairs);
    if (params.size !== pairs.length) return missing;
    const has = (...keys: string[]) => params.size === keys.length && keys.every((k) => params.has(k));
    if (p === undefined) {
      if (has("action", "redlink") && params.get("action") === "edit" && params.get("redlink") === "1") return { kind: "redirect", status: 302, location: viewHref(t) };
      if (has("action") && params.get("action") === "edit") {
        return page((s) => wikiPage(s, m, { page: -1, title: t, heading: "Permission error", action: "edit", robots: NOINDEX }, () => {
          s.el("p", "permissions-errors", "You do not have permission to create this page, for the following reason: The action you have requested is limited to users in the group: Users.");
        }), 403);
      }
      return missing;
    }
    const pg = m.pages[p]!;
    const action = params.get("action");
    if (params.size === 0) return view(p, { followRedirect: true });
    if (has("redirect") && params.get("redirect") === "no") return view(p, { followRedirect: false });
    if (has("printable") && params.get("printable") === "yes") return view(p, { followRedirect: true, printable: true });
    if (pg.kind === "category") {
      const cq = parseCategoryQuery(pairs);
      if (cq) return view(p, { followRedirect: false, categoryQuery: cq });
    }
    const history = () => page((s) => wikiPage(s, m, { page: p, title: pg.title, heading: `${prefixedText(pg.title)}: Revision history`, action: "history", robots: NOINDEX }, () => historyBody(s, m, p)));
    if (action === "history") {
      if (has("action")) return history();
      const limit = params.get("limit");
      if (has("offset", "limit", "action") && params.get("offset") === "" && HISTORY_LIMITS.some((l) => String(l) === limit)) return history();
      if (has("curid", "action") && params.get("curid") === String(pg.id)) return history();
      return missing;
    }
    if (action === "edit" && (has("action") || has("action", "oldid"))) {
      const k = params.has("oldid") ? revIndex(p, params.get("oldid")) : null;
      if (k === -1) return missing;
      return page((s) => wikiPage(s, m, { page: p, title: pg.title, heading: `View source for ${prefixedText(pg.title)}`, action: "edit", robots: NOINDEX }, () => viewSourceBody(s, m, p, k)));
    }
    if (action === "info" && has("action")) {
      return page((s) => wikiPage(s, m, { page: p, title: pg.title, heading: `Information for "${prefixedText(pg.title)}"`, action: "info", robots: NOINDEX }, () => infoBody(s, m, p)));
    }
    if (action === "raw" && has("action")) {
      const rseed = hash32(pg.seed, 0x7a3);
      return { kind: "file", file: { format: "wikitext", bytes: fileBytes("wikitext", rseed), seed: rseed } };
    }
    if (has("oldid")) {
      const k = revIndex(p, params.get("oldid"));
      return k < 0 ? missing : revisionView(p, k);
    }
    if (has("direction", "oldid")) {
      const k = revIndex(p, params.get("oldid"));
      const dir = params.get("direction");
      const j = k < 0 ? -1 : dir === "prev" ? k - 1 : dir === "next" ? k + 1 : -1;
      return j >= 0 && j < pg.revs.length ? revisionView(p, j) : missing;
    }
    if (has("diff", "oldid") || (has("curid", "diff", "oldid") && params.get("curid") === String(pg.id))) return diff(p, params.get("diff")!, params.get("oldid"));
    return missing;
  }

  function specialRequest(rawName: string, q: Query, dropTitle: boolean): Resource {
    const slash = rawName.indexOf("/");
    const name = slash < 0 ? rawName : rawName.slice(0, slash);
    const sub = slash < 0 ? null : rawName.slice(slash + 1);
    const query = dropTitle ? ({ ...q, pairs: q.pairs.filter(([k]) => k !== "title"), size: q.size - 1, get: (k: string) => (k === "title" ? undefined : q.get(k)), int: (k: string, d: number) => q.int(k, d) } as unknown as Query) : q;
    return specialPage(m, name, sub === "" ? null : sub, query, (heading, body) => page((s) => wikiPage(s, m, { page: -1, title: { ns: NS.special, text: name }, heading, action: "special", robots: NOINDEX }, () => body(s))));
  }

  function route(path: string, q: Query): Resource {
    if (path === "/") return q.size === 0 ? { kind: "redirect", status: 301, location: "/wiki/Main_Page" } : missing;
    if (path === "/wiki" || path === "/wiki/") return q.size === 0 ? { kind: "redirect", status: 301, location: "/wiki/Main_Page" } : missing;
    if (path.startsWith("/wiki/")) {
      const decoded = safeDecodePath(path.slice(6));
      const t = decoded === null ? null : parseTitle(decoded);
      if (!t) return missing;
      if (t.ns === NS.special) return specialRequest(t.text, q, false);
      // Non-canonical spellings (spaces, lower-case first letter, namespace aliases) are normalised.
      if (viewHref(t) !== path) return q.size === 0 && m.byKey.has(dbKey(t)) ? { kind: "redirect", status: 301, location: viewHref(t) } : missing;
      return titleRequest(t, q.pairs);
    }
    if (path === "/index.php") {
      if (q.size === 0) return { kind: "redirect", status: 301, location: "/wiki/Main_Page" };
      if (q.get("search") !== undefined) return specialRequest("Search", q, q.get("title") !== undefined);
      const raw = q.get("title");
      const t = raw === undefined ? null : parseTitle(raw);
      if (!t) return missing;
      if (t.ns === NS.special) return specialRequest(t.text, q, true);
      const rest = q.pairs.filter(([k]) => k !== "title");
      // index.php?title=X alone is normalised to the article path.
      if (rest.length === 0) return m.byKey.has(dbKey(t)) ? { kind: "redirect", status: 301, location: viewHref(t) } : missing;
      return titleRequest(t, rest);
    }
    if (path.startsWith("/images/")) {
      const file = routeImages(m, path.slice(8).split("/"));
      return file ? { kind: "file", file } : missing;
    }
    if (path === "/load.php") {
      const only = q.get("only");
      const format = only === "styles" ? "css" : only === "scripts" ? "js" : null;
      const fseed = hash32(seed, 0x10ad, only === "styles" ? 1 : 2);
      return format ? { kind: "file", file: { format, bytes: fileBytes(format, fseed), seed: fseed } } : missing;
    }
    if (path === "/resources/assets/poweredby_mediawiki_88x31.png" || path === "/resources/assets/file-type-icons/fileicon.png") {
      const fseed = hash32(seed, 0xa55e7, path.length);
      return q.size === 0 ? { kind: "file", file: { format: "png", bytes: fileBytes("png", fseed) >> 3, seed: fseed } } : missing;
    }
    return missing;
  }

  return {
    siteName: WIKI_SITE_NAME,
    trapPrefixes: [],
    disallow: WIKI_DISALLOW,
    route,
    notFound: (s) => {
      const key = s.pageKey;
      const decoded = key.startsWith("/wiki/") ? safeDecodePath(key.slice(6).split("?")[0]!) : null;
      const t = decoded === null ? null : parseTitle(decoded);
      if (!t || t.ns === NS.special) {
        // Apache's page: /images/… and unknown scripts never reach MediaWiki.
        s.raw(`<!DOCTYPE HTML PUBLIC "-//IETF//DTD HTML 2.0//EN">\n<html><head><title>404 Not Found</title></head><body><h1>Not Found</h1><p>The requested URL was not found on this server.</p></body></html>\n`);
        return;
      }
      wikiPage(s, m, { page: -1, title: t, heading: prefixedText(t), action: "view" }, () => {
        s.open("div", "noarticletext mw-content-ltr");
        s.text("There is currently no text in this page. You can ");
        s.a(`/index.php?search=${encodeURIComponent(prefixedText(t)).replace(/%20/g, "+")}&title=Special%3ASearch&fulltext=1`, "search for this page title");
        s.text(" in other pages, or search the related logs, but you do not have permission to create this page.");
        s.close("div");
      });
    },
  };
}
