/**
 * Shape "research-repository" (DSpace/EPrints-like institutional repository):
 * faculties → departments → collections → items, all under `/handle/<prefix>/<n>`
 * with interleaved numbers. Item pages link their files (`/bitstream/handle/…?sequence=`
 * or the extension-less `/bitstream/id/<uuid>/`), thumbnails, citation exports (small
 * non-target files), a full-record near-duplicate and a statistics page. Browse
 * indexes by date, title, author and subject, site-wide with sort/order/size options
 * and per collection, make listings a large share of the site. Discovery is
 * disallowed in robots.txt; embargoed files answer 302 to /login or 403; old
 * JSPUI/XMLUI addresses redirect. No trap: the waste is finite.
 */
import type { HtmlSink } from "../html-sink";
import type { Query, Resource, ShapeModel } from "../types";
import { parseId } from "./common";
import { browsePage, parseBrowse } from "./research-browse";
import { discoverPage, parseDiscover, parseSearchFilter, searchFilterPage } from "./research-discover";
import { bitstreamById, bitstreams, EXPORT_FORMATS, exportFile, feedFile, thumbnailFile, type Bitstream } from "./research-files";
import { fullItemPage, itemPage, statisticsPage } from "./research-item";
import { REPO_PAGES, REPO_SITE_NAME, repoFrame } from "./research-layout";
import { buildRepoModel, ITEMS_PER_PAGE, lookupHandle, scopeLists, type HandleRef, type Scope } from "./research-model";
import {
  ACCOUNT_PAGES, collectionPage, communityListPage, communityPage, homePage, recentSubmissionsPage, staticPage,
} from "./research-pages";

const missing: Resource = { kind: "missing" };

export function buildResearchRepository(seed: number, n: number): ShapeModel {
  const m = buildRepoModel(seed, n);
  const frame = repoFrame();
  const page = (render: (s: HtmlSink) => void): Resource => ({ kind: "page", render });
  const forbidden: Resource = {
    kind: "page",
    status: 403,
    render: (s) => frame(s, { title: "Authorization Required", bodyClass: "error-403" }, () => {
      s.el("h2", "page-header first-page-header", "Authorization Required");
      s.el("p", undefined, "The file is under embargo. You may request a copy from the author.");
    }),
  };

  /** An item, community or collection from `<prefix>/<n>` path segments. */
  function handleRef(prefix: string | undefined, num: string | undefined): HandleRef | null {
    return prefix === m.prefix ? lookupHandle(m, parseId(num)) : null;
  }

  function serve(b: Bitstream): Resource {
    return b.access === "open" ? { kind: "file", file: b.file } : b.access === "login" ? { kind: "redirect", status: 302, location: "/login" } : forbidden;
  }

  /** `?offset=k` of a recent-submissions list; -1 when invalid. */
  function recentOffset(q: Query, scope: Scope): number {
    if (q.size > 1 || (q.size === 1 && q.get("offset") === undefined)) return -1;
    const raw = q.get("offset") ?? "0";
    const offset = /^(0|[1-9][0-9]{0,6})$/.test(raw) ? Number(raw) : -1;
    return offset >= 0 && offset % ITEMS_PER_PAGE === 0 && offset < scopeLists(m, scope).recent.length ? offset : -1;
  }

  function routeHandle(parts: string[], q: Query): Resource {
    const ref = handleRef(parts[2], parts[3]);
    if (!ref || parts.length > 5) return missing;
    const scope: Scope | null = ref.kind === "item" ? null : { kind: ref.kind, index: ref.index };
    if (parts.length === 4) {
      if (scope) return q.size === 0 ? page((s) => (ref.kind === "community" ? communityPage(s, m, frame, ref.index) : collectionPage(s, m, frame, ref.index))) : missing;
      if (q.size === 0) return page((s) => itemPage(s, m, frame, ref.index));
      return q.size === 1 && q.get("show") === "full" ? page((s) => fullItemPage(s, m, frame, ref.index)) : missing;
    }
    switch (parts[4]) {
      case "statistics":
        return !scope && q.size === 0 ? page((s) => statisticsPage(s, m, frame, ref.index)) : missing;
      case "export": {
        const format = EXPORT_FORMATS.find((f) => f === q.get("format"));
        return !scope && q.size === 1 && format ? { kind: "file", file: exportFile(m, ref.index, format) } : missing;
      }
      case "recent-submissions": {
        const offset = scope?.kind === "collection" ? recentOffset(q, scope) : -1;
        return offset >= 0 ? page((s) => recentSubmissionsPage(s, m, frame, scope!, offset)) : missing;
      }
      case "browse": {
        const b = scope ? parseBrowse(m, scope, q.pairs) : null;
        return b ? page((s) => browsePage(s, m, frame, scope!, b)) : missing;
      }
    }
    return missing;
  }

  function routeBitstream(parts: string[], q: Query): Resource {
    if (parts[2] === "id") {
      const hit = parts.length === 5 && parts[4] === "" && q.size === 0 ? bitstreamById(m, parts[3]!) : null;
      const b = hit ? bitstreams(m, hit.item)[hit.k] : undefined;
      if (!hit || !b) return missing;
      if (!hit.thumb) return serve(b);
      return b.thumbHref === null ? missing : { kind: "file", file: thumbnailFile(m, b) };
    }
    const ref = parts[2] === "handle" && parts.length === 6 ? handleRef(parts[3], parts[4]) : null;
    if (!ref || ref.kind !== "item") return missing;
    const allowed = q.get("isAllowed");
    if (q.pairs.some(([k]) => k !== "sequence" && k !== "isAllowed") || (allowed !== undefined && allowed !== "y" && allowed !== "n")) return missing;
    const seq = q.get("sequence");
    const name = parts[5]!;
    for (const b of bitstreams(m, ref.index)) {
      if (b.href.startsWith("/bitstream/id/")) break;
      const encoded = encodeURIComponent(b.name);
      if (name === encoded && (seq === undefined || seq === String(b.seq))) return serve(b);
      if (b.thumbHref !== null && name === `${encoded}.jpg` && seq === String(b.thumbSeq)) return { kind: "file", file: thumbnailFile(m, b) };
    }
    return missing;
  }

  function routeFeed(parts: string[]): Resource {
    const format = parts[2] === "rss_2.0" ? "rss" : parts[2] === "atom_1.0" ? "atom" : null;
    if (!format) return missing;
    if (parts.length === 4 && parts[3] === "site") return { kind: "file", file: feedFile(m, format, 0) };
    const ref = parts.length === 5 ? handleRef(parts[3], parts[4]) : null;
    return ref && ref.kind !== "item" ? { kind: "file", file: feedFile(m, format, parseId(parts[4])) } : missing;
  }

  function route(path: string, q: Query): Resource {
    if (path === "/") return q.size === 0 ? page((s) => homePage(s, m, frame)) : missing;
    const parts = path.split("/");
    switch (parts[1]) {
      case "handle":
        return routeHandle(parts, q);
      case "bitstream":
        return routeBitstream(parts, q);
      case "browse": {
        const b = parts.length === 2 ? parseBrowse(m, { kind: "site" }, q.pairs) : null;
        return b ? page((s) => browsePage(s, m, frame, { kind: "site" }, b)) : missing;
      }
      case "recent-submissions": {
        const offset = parts.length === 2 ? recentOffset(q, { kind: "site" }) : -1;
        return offset >= 0 ? page((s) => recentSubmissionsPage(s, m, frame, { kind: "site" }, offset)) : missing;
      }
      case "community-list":
        return parts.length === 2 && q.size === 0 ? page((s) => communityListPage(s, m, frame)) : missing;
      case "feed":
        return routeFeed(parts);
      case "discover": {
        const d = parts.length === 2 ? parseDiscover(m, q.pairs) : null;
        return d ? page((s) => discoverPage(s, m, frame, d)) : missing;
      }
      case "search-filter": {
        const f = parts.length === 2 ? parseSearchFilter(m, q.pairs) : null;
        return f ? page((s) => searchFilterPage(s, m, frame, f)) : missing;
      }
      case "jspui":
      case "xmlui": {
        // Addresses of the interfaces this repository replaced.
        if (parts[2] === "handle" && parts.length === 5 && q.size === 0 && handleRef(parts[3], parts[4])) {
          return { kind: "redirect", status: 301, location: `/handle/${parts[3]}/${parts[4]}` };
        }
        const type = q.get("type");
        return parts[2] === "browse" && parts.length === 3 && q.size === 1 && type !== undefined && ["dateissued", "author", "title", "subject"].includes(type)
          ? { kind: "redirect", status: 301, location: `/browse?type=${type}` }
          : missing;
      }
    }
    if (REPO_PAGES[path] !== undefined || ACCOUNT_PAGES[path] !== undefined) return q.size === 0 ? page((s) => staticPage(s, m, frame, path)) : missing;
    return missing;
  }

  return {
    siteName: REPO_SITE_NAME,
    trapPrefixes: [],
    disallow: ["/discover", "/search-filter"],
    route,
    notFound: (s) => frame(s, { title: "Resource not found", bodyClass: "error-404" }, () => {
      s.el("h2", "page-header first-page-header", "Resource not found");
      s.el("p", undefined, "The page you requested does not exist, or the item has been withdrawn.");
    }),
  };
}
