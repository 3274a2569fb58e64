/**
 * Shape "open-data-portal" (data.gouv / CKAN-like): faceted dataset search whose
 * facet combinations explode into near-duplicate listings, dataset pages listing
 * resources (direct files, `/datasets/r/<uuid>` redirects, extension-less API
 * downloads), resource pages, organisations, reuses. No calendar trap: the waste here
 * is the finite but large facet space.
 */
import { fileBytes } from "../formats";
import type { HtmlSink } from "../html-sink";
import { hash32, unscrambleId } from "../random";
import type { Query, Resource, ShapeModel } from "../types";
import { pageCount, parseId } from "./common";
import { OPEN_DATA_PAGES, OPEN_DATA_SITE_NAME, openDataFrame } from "./open-data-layout";
import { listingPage, parseListing, results } from "./open-data-listing";
import { buildOpenDataModel, datasetSlug, datasetTags, DATASETS_PER_PAGE, resources, resourceUuid } from "./open-data-model";
import {
  datasetPage, odHome, odStaticPage, orgPage, orgsIndex, postPage, resourcePage, reusePage, reusesIndex,
} from "./open-data-pages";

const missing: Resource = { kind: "missing" };

export function buildOpenDataPortal(seed: number, n: number): ShapeModel {
  const m = buildOpenDataModel(seed, n);
  const frame = openDataFrame();
  const orgBySlug = new Map(m.orgs.map((o, i) => [o.slug, i]));
  const page = (render: (s: HtmlSink) => void): Resource => ({ kind: "page", render });
  const tagsOf = (id: number) => datasetTags(seed, id, m.tags.length);

  /** Dataset id from a slug ending in "-<id>", verified against the real slug; -1 otherwise. */
  function datasetId(slug: string | undefined): number {
    const id = parseId(slug?.slice(slug.lastIndexOf("-") + 1));
    return id >= 1 && id <= m.datasetCount && datasetSlug(m, id) === slug ? id : -1;
  }

  function resourceByRid(rid: number): { id: number; k: number } | null {
    const id = Math.floor(rid / 8);
    if (!(id >= 1 && id <= m.datasetCount) || rid % 8 >= resources(m, id).length) return null;
    return { id, k: rid % 8 };
  }

  function pageParam(q: Query, total: number): number {
    const p = q.int("page", 1);
    return p >= 1 && p <= pageCount(total, DATASETS_PER_PAGE) ? p : -1;
  }

  function routeDatasets(parts: string[], q: Query): Resource {
    if (parts.length === 2) {
      const l = parseListing(m, q.pairs);
      if (!l) return missing;
      const ids = results(m, l.filters);
      if (l.page > pageCount(ids.length, DATASETS_PER_PAGE)) return missing;
      return page((s) => listingPage(s, m, frame, l.filters, l.page, ids, tagsOf));
    }
    const seg = parts[2]!;
    if (seg === "r" && parts.length === 4) {
      const loc = resourceByRid(unscrambleId(parts[3]!.slice(0, 8)));
      if (!loc) return missing;
      const r = resources(m, loc.id)[loc.k]!;
      return r.style === "redirect" && resourceUuid(r.rid) === parts[3] ? { kind: "redirect", status: 302, location: r.fileHref } : missing;
    }
    if (parts.length === 3 && seg.endsWith(".rdf")) {
      const id = datasetId(seg.slice(0, -4));
      const fseed = hash32(seed, 0x4df, id);
      return id < 0 ? missing : { kind: "file", file: { format: "rdf", bytes: fileBytes("rdf", fseed), seed: fseed } };
    }
    const id = datasetId(seg);
    if (id < 0) return missing;
    if (parts.length === 3) return page((s) => datasetPage(s, m, frame, id));
    if (parts.length === 5 && parts[3] === "resources") {
      const loc = resourceByRid(parseId(parts[4]));
      if (!loc || loc.id !== id) return missing;
      const r = resources(m, id)[loc.k]!;
      return page((s) => resourcePage(s, m, frame, id, r));
    }
    return missing;
  }

  function routeApi(parts: string[], path: string, q: Query): Resource {
    if (path.startsWith("/api/1/datasets/") && parts.length === 6 && parts[5] === "") {
      const id = datasetId(parts[4]);
      const fseed = hash32(seed, 0x4de, id);
      return id < 0 ? missing : { kind: "file", file: { format: "json", bytes: fileBytes("json", fseed), seed: fseed } };
    }
    if (path.startsWith("/api/1/resources/") && parts.length === 6 && parts[5] === "download") {
      const loc = resourceByRid(parseId(parts[4]));
      const r = loc ? resources(m, loc.id)[loc.k]! : null;
      return r && r.style === "api" ? { kind: "file", file: r.file } : missing;
    }
    if (path === "/api/3/action/datastore_search") {
      const loc = resourceByRid(parseId(q.get("resource_id")));
      const r = loc ? resources(m, loc.id)[loc.k]! : null;
      if (!r || r.format !== "csv" || r.rid % 2 !== 0 || q.size !== 1) return missing;
      const fseed = hash32(seed, 0xd5a, r.rid);
      return { kind: "file", file: { format: "json", bytes: fileBytes("json", fseed), seed: fseed } };
    }
    return missing;
  }

  function route(path: string, q: Query): Resource {
    if (path === "/") return page((s) => odHome(s, m, frame));
    const parts = path.split("/");
    switch (parts[1]) {
      case "datasets":
        return routeDatasets(parts, q);
      case "api":
        return routeApi(parts, path, q);
      case "files": {
        const loc = parts.length === 5 ? resourceByRid(parseId(parts[3])) : null;
        const r = loc ? resources(m, loc.id)[loc.k]! : null;
        return r && r.fileHref === path ? { kind: "file", file: r.file } : missing;
      }
      case "organizations": {
        if (parts.length === 2) {
          const p = pageParam(q, m.orgs.length);
          return p < 0 ? missing : page((s) => orgsIndex(s, m, frame, p));
        }
        const o = parts.length === 3 ? orgBySlug.get(parts[2]!) : undefined;
        const p = o === undefined ? -1 : pageParam(q, m.byOrg[o]!.length);
        return o === undefined || p < 0 ? missing : page((s) => orgPage(s, m, frame, o, p));
      }
      case "reuses": {
        if (parts.length === 2) {
          const p = pageParam(q, m.reuseCount);
          return p < 0 ? missing : page((s) => reusesIndex(s, m, frame, p));
        }
        const id = parseId(parts[2]);
        return parts.length === 3 && id >= 1 && id <= m.reuseCount ? page((s) => reusePage(s, m, frame, id)) : missing;
      }
      case "images": {
        const id = parts.length === 4 && parts[2] === "reuses" ? parseId(parts[3]) : Number.NaN;
        const fseed = hash32(seed, 0x1a6, id);
        return id >= 1 && id <= m.reuseCount ? { kind: "file", file: { format: "jpg", bytes: fileBytes("jpg", fseed), seed: fseed } } : missing;
      }
      case "posts": {
        if (parts.length === 2) return page((s) => postPage(s, m, frame, null));
        const id = parseId(parts[2]);
        return parts.length === 3 && id >= 1 && id <= m.postCount ? page((s) => postPage(s, m, frame, id)) : missing;
      }
      case "en":
        return path === "/en/" ? page((s) => odStaticPage(s, m, frame, path)) : missing;
      case "de":
        return path === "/de/" ? { kind: "redirect", status: 302, location: "/en/" } : missing;
      case "search":
      case "admin":
        return page((s) => frame(s, { title: "Restricted", bodyClass: "restricted" }, () => s.el("h1", undefined, "Restricted")));
    }
    return OPEN_DATA_PAGES[path] !== undefined ? page((s) => odStaticPage(s, m, frame, path)) : missing;
  }

  return {
    siteName: OPEN_DATA_SITE_NAME,
    trapPrefixes: [],
    disallow: ["/admin/", "/search"],
    route,
    notFound: (s) => frame(s, { title: "Not found", bodyClass: "error-404" }, () => s.el("h1", undefined, "404 — Not found")),
  };
}
