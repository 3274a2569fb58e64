/**
 * Routing of a family site: every URL the pages link resolves to exactly one resource, and any
 * other spelling (unknown query keys, another key order, page 0, out-of-range ids) is a 404, so
 * the finite URL set is exactly what the links reach.
 */
import type { HtmlSink } from "../html-sink";
import { pageCount, parseId } from "../shapes/common";
import { calendarRoute } from "../trap";
import { hash32, unscrambleId } from "../random";
import type { Query, Resource, ShapeModel } from "../types";
import {
  directFilePath, FACET_FIRST_YEAR, fileCount, fileRef, fileViewPath, hasFile, itemExists, itemPath, itemViewPath, listItems, listPath, stableItemCount,
  unpackFileId, type ListQuery,
} from "./addresses";
import { FamilyPages } from "./pages";
import type { FamilyParams } from "./params";
import { inVersion, versionedSink } from "./versions";

const STATIC_PAGES: Record<string, string> = { "/about": "About us", "/contact": "Contact", "/legal": "Legal notice" };

/** Builds the routes of a family site from its parameters (drawn by `drawFamilyParams` or written by hand). */
export function buildFamilyModel(p: FamilyParams): ShapeModel {
  const listCache = new Map<string, readonly number[]>();
  const items = (section: number, group: number, q: ListQuery): readonly number[] => {
    const key = `${section}|${group}|${q.topic}|${q.year}|${q.sort}`;
    let list = listCache.get(key);
    if (!list) listCache.set(key, (list = listItems(p, section, group, q)));
    return list;
  };
  const bySlug = new Map(p.sections.map((s, i) => [s.slug, i]));
  const page = (render: (s: HtmlSink) => void): Resource => ({ kind: "page", render });
  const missing: Resource = { kind: "missing" };
  const trapPrefixes = p.sections.flatMap((s) => (s.pagination === "calendar" ? [`/${s.slug}/calendar`] : []));
  const base = { siteName: p.siteName, disallow: ["/search", "/admin/"] };
  const versions = p.versions ?? [];
  if (versions.length === 0) {
    const pages = new FamilyPages(p, items);
    return { ...base, trapPrefixes, notFound: (s) => pages.notFound(s), route: siteRoute(pages) };
  }
  const routes = versions.map((current) => siteRoute(new FamilyPages(p, items, { current, all: versions })));
  const first = new FamilyPages(p, items);
  return {
    ...base,
    trapPrefixes: versions.flatMap((v) => trapPrefixes.map((t) => `/${v}${t}`)),
    notFound: (s) => first.notFound(versionedSink(s, versions[0]!, versions)),
    route(path: string, query: Query): Resource {
      if (path === "/") return query.size === 0 ? { kind: "redirect", status: 302, location: `/${versions[0]}/` } : missing;
      const v = versions.findIndex((version) => path.startsWith(`/${version}/`));
      return v < 0 ? missing : inVersion(routes[v]!(path.slice(versions[v]!.length + 1), query), versions[v]!, versions);
    },
  };

  /** The routes of one copy of the site (the site itself, or one version of it). */
  function siteRoute(pages: FamilyPages): (path: string, query: Query) => Resource {

    /** Parses a listing query; null when it is not the canonical spelling of a listing this section has. */
    function parseList(section: number, query: Query): ListQuery | null {
      const sec = p.sections[section]!;
      const q: ListQuery = { page: 1 };
      for (const [k, v] of query.pairs) {
        if (k === "topic" && sec.pagination === "facets") q.topic = parseId(v);
        else if (k === "year" && sec.pagination === "facets") q.year = parseId(v);
        else if (k === "sort" && sec.sort && (v === "title" || v === "date")) q.sort = v;
        else if (k === "page") q.page = parseId(v);
        else return null;
      }
      if (Number.isNaN(q.topic) || Number.isNaN(q.year) || Number.isNaN(q.page) || q.page < 1) return null;
      if (q.topic !== undefined && q.topic >= sec.facetTopics) return null;
      if (q.year !== undefined && (q.year < FACET_FIRST_YEAR || q.year >= FACET_FIRST_YEAR + sec.facetYears)) return null;
      return q;
    }

    function listing(section: number, group: number, base: string, query: Query, rawQuery: string): Resource {
      const q = parseList(section, query);
      if (q === null || listPath(base, q) !== (rawQuery ? `${base}?${rawQuery}` : base)) return missing;
      const total = pageCount(items(section, group, q).length, p.sections[section]!.perPage);
      if (q.page > total) return missing;
      return page((s) => pages.listing(s, section, group, q, total));
    }

    function detail(section: number, n: number, path: string, query: Query, fr: boolean): Resource {
      const sec = p.sections[section]!;
      if (sec.depth === 1 || !itemExists(p, section, n)) return missing;
      const canonical = itemPath(p, section, n);
      const printSuffix = sec.itemUrl === "query" ? "&print=1" : "?print=1";
      const key = rawKey(path, query);
      if (fr) return sec.lang && key === `/fr${canonical}` ? page((s) => pages.detail(s, section, n, "fr")) : missing;
      if (key === canonical) return page((s) => pages.detail(s, section, n, "main"));
      if (sec.print && key === canonical + printSuffix) return page((s) => pages.detail(s, section, n, "print"));
      return missing;
    }

    /** An auxiliary view of an item: `rest` is the view's name, then the item's own address. */
    function viewRoute(section: number, rest: string[], path: string, query: Query): Resource {
      const sec = p.sections[section]!;
      const view = rest[0]!;
      const n = sec.itemUrl === "query" ? parseId(query.get("id")) : parseId(/(?:^|-)([0-9]+)$/.exec(rest[1] ?? "")?.[1]);
      if (sec.depth === 1 || !itemExists(p, section, n) || rawKey(path, query) !== itemViewPath(p, section, n, view)) return missing;
      return page((s) => pages.view(s, section, n, view));
    }

    function sectionRoute(section: number, rest: string[], path: string, query: Query, fr: boolean): Resource {
      const sec = p.sections[section]!;
      const raw = rawQuery(query);
      if (fr) {
        const id = sec.itemUrl === "query" ? parseId(query.get("id")) : parseId(/(?:^|-)([0-9]+)$/.exec(rest[0] ?? "")?.[1]);
        return rest.length === 1 ? detail(section, id, path, query, true) : missing;
      }
      if (rest.length === 1 && rest[0] === "") {
        if (sec.depth === 3) return raw === "" ? page((s) => pages.groupIndex(s, section)) : missing;
        return listing(section, 0, `/${sec.slug}/`, query, raw);
      }
      if (rest.length === 2 && rest[0] === "g" && sec.depth === 3) {
        const g = parseId(rest[1]);
        if (!(g >= 1 && g <= sec.groups)) return missing;
        return listing(section, g, `/${sec.slug}/g/${g}`, query, raw);
      }
      if (rest.length === 2 && rest[0] === "download" && sec.fileLink === "download-page") {
        const n = parseId(rest[1]);
        if (raw !== "" || !itemExists(p, section, n) || fileCount(p, section, n) === 0) return missing;
        return page((s) => pages.downloadPage(s, section, n));
      }
      if (rest.length === 2 && sec.views?.includes(rest[0]!)) return viewRoute(section, rest, path, query);
      if (rest.length === 2 && rest[0] === "src" && sec.fileLink === "view-page") {
        const m = /^([0-9]+)-([0-9])\.[a-z]+$/.exec(rest[1]!);
        const n = parseId(m?.[1]);
        const k = Number(m?.[2]);
        if (raw !== "" || !itemExists(p, section, n) || !hasFile(p, section, n, k) || fileViewPath(p, section, n, k) !== path) return missing;
        return page((s) => pages.fileView(s, section, n, k));
      }
      if (rest.length === 1 && raw === "" && rest[0] === "feed.xml") return { kind: "file", file: { format: "rss", bytes: 4_000 + (hash32(p.seed, section) % 8_000), seed: hash32(p.seed, 0xfeed, section) } };
      if (rest.length === 1 && raw === "" && rest[0] === "all" && sec.megaPage) return page((s) => pages.megaPage(s, section));
      if (rest.length === 1 && rest[0] === "view" && sec.itemUrl === "query") return detail(section, parseId(query.get("id")), path, query, false);
      if (rest.length === 1 && sec.itemUrl === "id") return detail(section, parseId(rest[0]), path, query, false);
      if (rest.length === 1 && sec.itemUrl === "slug") return detail(section, parseId(/-([0-9]+)$/.exec(rest[0]!)?.[1]), path, query, false);
      return missing;
    }

    function fileRoute(path: string): Resource | null {
      if (path.startsWith("/files/")) {
        const m = /^\/files\/([a-z0-9-]+)\/([0-9]+)-([0-9])\.[a-z]+$/.exec(path);
        const section = m ? bySlug.get(m[1]!) : undefined;
        if (!m || section === undefined) return missing;
        const n = parseId(m[2]);
        const k = Number(m[3]);
        if (!itemExists(p, section, n) || !hasFile(p, section, n, k) || directFilePath(p, section, n, k) !== path) return missing;
        return { kind: "file", file: fileRef(p, section, n, k, false) };
      }
      const opaque = /^\/(get|file)\/([0-9a-f]{8})$/.exec(path);
      if (opaque) {
        const { section, n, k } = unpackFileId(unscrambleId(opaque[2]!));
        const sec = p.sections[section];
        if (!sec || !itemExists(p, section, n) || !hasFile(p, section, n, k)) return missing;
        if (opaque[1] === "get" && sec.fileLink === "redirect") return { kind: "redirect", status: 302, location: directFilePath(p, section, n, k) };
        if (opaque[1] === "file" && sec.fileLink === "extensionless") return { kind: "file", file: fileRef(p, section, n, k, true) };
        return missing;
      }
      if (path.startsWith("/img/")) {
        const id = unscrambleId(path.slice(5));
        return Number.isNaN(id) ? missing : { kind: "file", file: { format: "jpg", bytes: 8_000 + (id % 40_000), seed: id } };
      }
      if (path.startsWith("/media/")) {
        const m = /^\/media\/photo-([0-9]+)-([0-9]+)\.jpg$/.exec(path);
        return m ? { kind: "file", file: { format: "jpg", bytes: 10_000 + (Number(m[2]) % 50_000), seed: hash32(Number(m[1]), Number(m[2])) } } : missing;
      }
      return null;
    }

    return (path: string, query: Query): Resource => {
      if (path === "/") return query.size === 0 ? page((s) => pages.home(s)) : missing;
      const staticTitle = STATIC_PAGES[path];
      if (staticTitle !== undefined) return query.size === 0 ? page((s) => pages.staticPage(s, staticTitle)) : missing;
      const file = fileRoute(path);
      if (file !== null) return query.size === 0 ? file : missing;
      const hub = /^\/topics\/([0-9]+)$/.exec(path);
      if (hub) {
        const h = parseId(hub[1]);
        return query.size === 0 && h >= 1 && h <= p.hubs ? page((s) => pages.hub(s, h)) : missing;
      }
      const fr = path.startsWith("/fr/");
      const segments = (fr ? path.slice(3) : path).split("/").slice(1);
      const section = bySlug.get(segments[0] ?? "");
      if (section === undefined) return missing;
      const sec = p.sections[section]!;
      if (!fr && sec.pagination === "calendar" && (path === `/${sec.slug}/calendar` || path.startsWith(`/${sec.slug}/calendar/`))) {
        return calendarRoute(path, query, {
          base: `/${sec.slug}/calendar`,
          title: `${sec.title} calendar`,
          seed: hash32(p.seed, 0xca1, section),
          frame: (s, meta, main) => pages.frame(s, meta, main),
          eventLink: (rng, s) => {
            const n = 1 + rng.int(stableItemCount(p, section));
            if (sec.depth === 1) s.a(`/${sec.slug}/`, sec.title, "event__related");
            else s.a(itemPath(p, section, n), "Related item", "event__related");
          },
        }) ?? missing;
      }
      return sectionRoute(section, segments.slice(1), path, query, fr);
    };
  }
}

function rawQuery(query: Query): string {
  return query.pairs.map(([k, v]) => (v === "" && k !== "" ? k : `${k}=${v}`)).join("&");
}

function rawKey(path: string, query: Query): string {
  const raw = rawQuery(query);
  return raw === "" ? path : `${path}?${raw}`;
}

