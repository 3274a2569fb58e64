/**
 * WordPress's REST API as the REST API Handbook documents it: the index `/wp-json/` with its
 * `namespaces`, and `/wp-json/wp/v2/media` (page, per_page 1–100, orderby, order,
 * modified_after, _fields) with X-WP-Total / X-WP-TotalPages and Link rel="next"/"prev"
 * headers; errors `{"code", "message", "data": {"status"}}`: rest_invalid_param (400),
 * rest_post_invalid_page_number (400, past the last page), rest_no_route (404).
 */
import type { Query, Resource } from "../types";
import type { WpMedia, WpModel } from "./wordpress-model";

const JSON_TYPE = "application/json; charset=UTF-8";
export const WP_PER_PAGE_MAX = 100;

export function wpError(code: string, message: string, status: number, extra: Record<string, unknown> = {}): Resource {
  return { kind: "json", status, contentType: JSON_TYPE, body: () => ({ code, message, data: { status, ...extra } }) };
}

export const wpNoRoute = () => wpError("rest_no_route", "No route was found matching the URL and request method.", 404);

function invalidParam(name: string, why: string): Resource {
  return wpError("rest_invalid_param", `Invalid parameter(s): ${name}`, 400, { params: { [name]: why } });
}

export function wpIndex(siteName: string): Resource {
  return {
    kind: "json", status: 200, contentType: JSON_TYPE,
    body: (origin) => ({
      name: siteName, description: "Official statistics", url: origin, home: origin, gmt_offset: "0", timezone_string: "",
      namespaces: ["oembed/1.0", "wp/v2", "wp-site-health/v1", "wp-block-editor/v1"], authentication: [],
      routes: {
        "/": { namespace: "", methods: ["GET"], endpoints: [{ methods: ["GET"], args: { context: { default: "view", required: false } } }], _links: { self: [{ href: `${origin}/wp-json/` }] } },
        "/wp/v2/media": {
          namespace: "wp/v2", methods: ["GET", "POST"],
          endpoints: [{ methods: ["GET"], args: { page: { default: 1, minimum: 1, type: "integer" }, per_page: { default: 10, minimum: 1, maximum: 100, type: "integer" }, modified_after: { type: "string", format: "date-time" } } }],
          _links: { self: [{ href: `${origin}/wp-json/wp/v2/media` }] },
        },
      },
      site_logo: 0, site_icon: 0, site_icon_url: "", _links: { help: [{ href: "https://developer.wordpress.org/rest-api/" }] },
    }),
  };
}

/** The `_fields` filter: "a,b.c" keeps `a` whole and `b` with only `c`. */
function pickFields(item: Record<string, unknown>, fields: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of fields) {
    const [head, ...rest] = field.split(".");
    if (!(head! in item)) continue;
    if (rest.length === 0) out[head!] = item[head!];
    else if (typeof item[head!] === "object" && item[head!] !== null) {
      const inner = pickFields(item[head!] as Record<string, unknown>, [rest.join(".")]);
      out[head!] = { ...(out[head!] as Record<string, unknown> | undefined), ...inner };
    }
  }
  return out;
}

export function mediaItem(origin: string, f: WpMedia): Record<string, unknown> {
  const url = origin + f.path;
  const image = f.mime.startsWith("image/");
  return {
    id: f.id, date: f.date, date_gmt: f.date, guid: { rendered: url }, modified: f.modified, modified_gmt: f.modified,
    slug: f.title.replace(/ /g, "-"), status: "inherit", type: "attachment",
    // Attachment pages are off by default since WordPress 6.4: the link is the file itself.
    link: url, title: { rendered: f.title }, author: 1, featured_media: 0, comment_status: "open", ping_status: "closed", template: "", meta: [],
    description: { rendered: `<p class="attachment"><a href='${url}'>${f.title}</a></p>\n` }, caption: { rendered: "" }, alt_text: "",
    media_type: image ? "image" : "file", mime_type: f.mime,
    media_details: image ? { width: 1200, height: 800, file: f.path.slice("/wp-content/uploads/".length), filesize: f.file.bytes, sizes: {}, image_meta: {} } : { filesize: f.file.bytes },
    post: f.post, source_url: url,
    _links: { self: [{ href: `${origin}/wp-json/wp/v2/media/${f.id}` }], collection: [{ href: `${origin}/wp-json/wp/v2/media` }] },
  };
}

const ORDERBY = ["author", "date", "id", "include", "modified", "parent", "relevance", "slug", "include_slugs", "title"];

export function wpMedia(m: WpModel, q: Query): Resource {
  const page = q.int("page", 1);
  if (Number.isNaN(page)) return invalidParam("page", "page is not of type integer.");
  const perPageRaw = q.get("per_page");
  const perPage = perPageRaw === undefined ? 10 : /^[0-9]{1,7}$/.test(perPageRaw) ? Number(perPageRaw) : Number.NaN;
  if (!(perPage >= 1 && perPage <= WP_PER_PAGE_MAX)) return invalidParam("per_page", "per_page must be between 1 (inclusive) and 100 (inclusive)");
  const orderby = q.get("orderby") ?? "date";
  if (!ORDERBY.includes(orderby)) return invalidParam("orderby", `orderby is not one of ${ORDERBY.join(", ")}.`);
  const order = q.get("order") ?? "desc";
  if (order !== "asc" && order !== "desc") return invalidParam("order", "order is not one of asc and desc.");
  let items = m.media;
  const after = q.get("modified_after");
  if (after !== undefined) {
    const t = Date.parse(/Z$|[+-]\d\d:\d\d$/.test(after) ? after : after + "Z");
    if (Number.isNaN(t)) return invalidParam("modified_after", "Invalid date.");
    items = items.filter((f) => Date.parse(f.modified + "Z") > t);
  }
  const key = (f: WpMedia): string | number =>
    orderby === "modified" ? f.modified : orderby === "title" || orderby === "slug" ? f.title : orderby === "date" ? f.date : orderby === "parent" ? f.post ?? 0 : f.id;
  items = [...items].sort((a, b) => {
    const ka = key(a);
    const kb = key(b);
    const c = ka < kb ? -1 : ka > kb ? 1 : a.id - b.id; // WordPress breaks ties by ID in the same direction
    return order === "asc" ? c : -c;
  });
  const total = items.length;
  const totalPages = Math.ceil(total / perPage);
  if (page > totalPages && total > 0) return wpError("rest_post_invalid_page_number", "The page number requested is larger than the number of pages available.", 400);
  const fields = q.get("_fields")?.split(",").map((f) => f.trim()).filter(Boolean);
  return {
    kind: "json", status: 200, contentType: JSON_TYPE,
    headers: (origin) => {
      const self = (n: number) => `${origin}/wp-json/wp/v2/media?` + q.pairs.filter(([k]) => k !== "page").concat([["page", String(n)]]).map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join("&");
      const links = [...(page > 1 ? [`<${self(page - 1)}>; rel="prev"`] : []), ...(page < totalPages ? [`<${self(page + 1)}>; rel="next"`] : [])];
      return {
        "x-wp-total": String(total), "x-wp-totalpages": String(totalPages), "access-control-expose-headers": "X-WP-Total, X-WP-TotalPages, Link",
        allow: "GET, POST", ...(links.length > 0 ? { link: links.join(", ") } : {}),
      };
    },
    body: (origin) => items.slice((page - 1) * perPage, page * perPage).map((f) => (fields ? pickFields(mediaItem(origin, f), fields) : mediaItem(origin, f))),
  };
}
