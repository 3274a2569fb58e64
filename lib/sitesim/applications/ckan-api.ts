/**
 * CKAN's Action API as ckan/views/api.py and ckan/logic/action/get.py answer it:
 * `{"help", "success": true, "result"}`; errors `{"help", "success": false, "error": {"__type", …}}`
 * with 404 / 409 (Validation Error) / 400 (Search Query Error) / 500; an unknown action is a
 * 400 whose body is the JSON string "Bad request - Action name not known: …".
 * package_search: `q` (`*:*` or words of the title), `fq` (`metadata_modified:[A TO B]`,
 * `organization:`, `groups:`, `res_format:`), `sort`, `rows` (default 10, capped at 1000:
 * `ckan.search.rows_max`), `start`.
 */
import type { Query, Resource } from "../types";
import type { CkanDataset, CkanModel } from "./ckan-model";
import { ckanTime } from "./ckan-model";
import { CKAN_VERSION, type CkanView } from "./ckan-pages";

const JSON_TYPE = "application/json;charset=utf-8";
export const CKAN_ROWS_MAX = 1000;

type ApiError = { status: number; error: Record<string, unknown> };

function answer(v: CkanView, action: string, status: number, payload: Record<string, unknown>): Resource {
  return {
    kind: "json", status, contentType: JSON_TYPE,
    body: (origin) => ({ help: `${origin}${v.u(`api/3/action/help_show?name=${action}`)}`, ...payload }),
  };
}

/** Every answer of the API in the "api-error" variant (an unhandled exception in the action). */
export function ckanInternalError(v: CkanView, action: string): Resource {
  return answer(v, action, 500, { error: { __type: "Internal Server Error", message: "Internal Server Error" }, success: false });
}

export function ckanApi(v: CkanView, siteTitle: string, rest: string, q: Query): Resource | null {
  if (rest === "api/3" || rest === "api/3/") return { kind: "json", status: 200, contentType: JSON_TYPE, body: () => ({ version: 3 }) };
  const match = /^api\/(?:3\/)?action\/([a-z_]+)$/.exec(rest);
  if (!match) return null;
  const action = match[1]!;
  if (action === "status_show") {
    return {
      kind: "json", status: 200, contentType: JSON_TYPE,
      body: (origin) => ({
        help: `${origin}${v.u("api/3/action/help_show?name=status_show")}`, success: true,
        result: {
          site_title: siteTitle, site_description: "", site_url: origin + v.u("").replace(/\/$/, ""), ckan_version: CKAN_VERSION,
          error_emails_to: null, locale_default: "en", extensions: ["activity", "stats", "text_view", "image_view", "datatables_view"],
        },
      }),
    };
  }
  if (action !== "package_search") {
    return { kind: "json", status: 400, contentType: JSON_TYPE, body: () => `Bad request - Action name not known: ${action}` };
  }
  const found = search(v.m, q);
  if ("error" in found) return answer(v, action, found.status, { error: found.error, success: false });
  const { ids, start, rows, sort } = found;
  return {
    kind: "json", status: 200, contentType: JSON_TYPE,
    body: (origin) => ({
      help: `${origin}${v.u("api/3/action/help_show?name=package_search")}`, success: true,
      result: { count: ids.length, facets: {}, results: ids.slice(start, start + rows).map((i) => datasetDict(v, origin, v.m.datasets[i]!)), sort, search_facets: {} },
    }),
  };
}

function natural(q: Query, key: string, fallback: number): number | ApiError {
  const raw = q.get(key);
  if (raw === undefined || raw === "") return fallback;
  if (!/^-?[0-9]+$/.test(raw)) return { status: 409, error: { __type: "Validation Error", [key]: ["Invalid integer"] } };
  const n = Number(raw);
  return n < 0 ? { status: 409, error: { __type: "Validation Error", [key]: ["Must be a natural number"] } } : n;
}

const queryError = (message: string): ApiError => ({ status: 400, error: { __type: "Search Query Error", message: `Search Query is invalid: ('${message}',)` } });

function search(m: CkanModel, q: Query): { ids: number[]; start: number; rows: number; sort: string } | ApiError {
  const rows = natural(q, "rows", 10);
  if (typeof rows !== "number") return rows;
  const start = natural(q, "start", 0);
  if (typeof start !== "number") return start;
  const sort = q.get("sort") || "score desc, metadata_modified desc";
  let ids: number[];
  if (/^(score desc, )?metadata_modified desc$/.test(sort)) ids = m.newestFirst;
  else if (sort === "metadata_modified asc") ids = [...m.newestFirst].reverse();
  else if (sort === "name asc" || sort === "title_string asc") ids = m.datasets.map((d) => d.index).sort((a, b) => m.datasets[a]!.name.localeCompare(m.datasets[b]!.name));
  else return queryError(`Can't determine a sort order for "${sort}"`);
  const words = (q.get("q") ?? "").trim();
  if (words !== "" && words !== "*:*") {
    const want = words.toLowerCase().split(/\s+/);
    ids = ids.filter((i) => want.every((w) => m.datasets[i]!.title.toLowerCase().includes(w)));
  }
  for (const clause of (q.get("fq") ?? "").match(/[+]?[a-z_]+:(?:\[[^\]]*\]|"[^"]*"|\S+)/g) ?? []) {
    const filter = fqFilter(m, clause.replace(/^\+/, ""));
    if (typeof filter !== "function") return filter;
    ids = ids.filter((i) => filter(m.datasets[i]!));
  }
  const rest = (q.get("fq") ?? "").replace(/[+]?[a-z_]+:(?:\[[^\]]*\]|"[^"]*"|\S+)/g, "").trim();
  if (rest !== "") return queryError(`cannot parse '${rest}'`);
  return { ids, start, rows: Math.min(rows, CKAN_ROWS_MAX), sort };
}

/** A Solr time bound: `*`, `NOW`, or ISO 8601 (`2024-01-01T00:00:00Z`, with or without milliseconds). */
function bound(s: string): number | null {
  if (s === "*") return null;
  const t = Date.parse(/Z$/.test(s) ? s : s + "Z");
  return Number.isNaN(t) ? Number.NaN : t;
}

function fqFilter(m: CkanModel, clause: string): ((d: CkanDataset) => boolean) | ApiError {
  const colon = clause.indexOf(":");
  const field = clause.slice(0, colon);
  const value = clause.slice(colon + 1).replace(/^"(.*)"$/, "$1");
  switch (field) {
    case "metadata_modified":
    case "metadata_created": {
      const range = /^\[(\S+) TO (\S+)\]$/.exec(value);
      const lo = range ? bound(range[1]!) : Number.NaN;
      const hi = range ? bound(range[2]!) : Number.NaN;
      if (Number.isNaN(lo) || Number.isNaN(hi)) return queryError(`Invalid Date String:'${value}'`);
      return (d) => {
        const t = Date.parse((field === "metadata_modified" ? d.modified : d.created) + "Z");
        return (lo === null || t >= lo) && (hi === null || t <= hi);
      };
    }
    case "organization":
      return (d) => m.orgs[d.org]!.name === value;
    case "groups":
      return (d) => d.groups.some((g) => m.groups[g]!.name === value);
    case "res_format":
      return (d) => d.resources.some((r) => r.format === value);
    default:
      return queryError(`undefined field ${field}`);
  }
}

function datasetDict(v: CkanView, origin: string, d: CkanDataset): Record<string, unknown> {
  const org = v.m.orgs[d.org]!;
  return {
    author: null, author_email: null, creator_user_id: "5f2b8d8e-4c3a-4b1e-9d7a-2a1c3e4f5a6b", id: d.id, isopen: true,
    license_id: "cc-by", license_title: "Creative Commons Attribution", maintainer: null, maintainer_email: null,
    metadata_created: ckanTime(d.created), metadata_modified: ckanTime(d.modified), name: d.name, notes: "",
    num_resources: d.resources.length, num_tags: 0,
    organization: { id: `org-${org.name}`, name: org.name, title: org.title, type: "organization", description: "", image_url: "", is_organization: true, approval_status: "approved", state: "active" },
    owner_org: `org-${org.name}`, private: false, state: "active", title: d.title, type: "dataset", url: "", version: null,
    groups: d.groups.map((g) => ({ name: v.m.groups[g]!.name, title: v.m.groups[g]!.title, display_name: v.m.groups[g]!.title, description: "", image_display_url: "" })),
    resources: d.resources.map((r, position) => ({
      cache_last_updated: null, cache_url: null, created: ckanTime(r.created), datastore_active: false, description: "",
      format: r.format, hash: "", id: r.id, last_modified: r.file ? ckanTime(r.lastModified) : null, metadata_modified: ckanTime(r.lastModified),
      mimetype: r.mimetype, mimetype_inner: null, name: r.name, package_id: d.id, position, resource_type: null,
      size: r.file ? r.file.bytes : null, state: "active", url: r.onSite ? origin + v.u(r.url) : r.url, url_type: r.onSite ? "upload" : "",
    })),
    tags: [], extras: [], relationships_as_object: [], relationships_as_subject: [],
  };
}
