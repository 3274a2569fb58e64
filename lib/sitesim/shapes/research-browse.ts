/**
 * Browse indexes as DSpace XMLUI has them: `/browse?type=dateissued|title|author|subject`
 * for the whole repository and `/handle/<prefix>/<n>/browse?type=…` inside a community
 * or a collection. Item indexes list items; author and subject indexes list values,
 * each linking to a value page (`&value=Smith%2C+John`) that lists its items.
 *
 * Site-wide pages carry the "gear" menu (sort by, order, results per page): each
 * combination is a near-duplicate listing of the same items with its own offset pager,
 * and the first page of each has up to three URLs (entry link, menu link, `offset=0`
 * from the pager). Every option has a fixed set of values and offsets stay inside the
 * list, so the space is large but finite.
 */
import type { Frame } from "../html-layout";
import type { HtmlSink } from "../html-sink";
import { REPO_SITE_NAME, BROWSE_LABELS, type BrowseType } from "./research-layout";
import { scopeHref, scopeLists, scopeName, type ItemLists, type RepoModel, type Scope } from "./research-model";
import { artifactList, scopeBrowseBlock, scopedBrowseTypes, scopeTrail } from "./research-parts";

export const RPP_OPTIONS: readonly number[] = [20, 50, 100];
/** `sort_by` values of the site-wide item indexes: 1 title, 2 date issued, 3 date submitted. */
const SITE_SORTS: Readonly<Record<"dateissued" | "title", readonly number[]>> = { dateissued: [2], title: [1, 2, 3] };
const SORT_LABELS = ["", "title", "issue date", "submit date"];
const BROWSE_TYPES: readonly BrowseType[] = ["dateissued", "author", "title", "subject"];

export interface BrowseQuery {
  type: BrowseType;
  /** 1–3 on item indexes, 0 elsewhere. */
  sortBy: number;
  order: "ASC" | "DESC";
  rpp: number;
  offset: number;
  /** Author or subject of a value page; -1 on an index page. */
  value: number;
}

const isItemIndex = (t: BrowseType) => t === "dateissued" || t === "title";

/** Query keys a browse page of this kind takes, in the order its links spell them. */
function keysOf(scope: Scope, q: Pick<BrowseQuery, "type" | "value">): readonly string[] {
  if (q.value >= 0) return ["type", "value"];
  if (isItemIndex(q.type)) return scope.kind === "site" ? ["type", "sort_by", "order", "rpp"] : ["type", "order"];
  return scope.kind === "site" ? ["type", "order", "rpp"] : ["type"];
}

/** `+` for spaces, as DSpace writes browse values. */
export function encodeValue(v: string): string {
  return encodeURIComponent(v).replace(/%20/g, "+");
}

function valueName(m: RepoModel, type: BrowseType, v: number): string {
  return type === "author" ? m.authors[v]! : m.subjects[v]!;
}

/** Entry link of a browse index (what menus link to). */
export function browseEntry(m: RepoModel, scope: Scope, type: BrowseType): string {
  return `${scope.kind === "site" ? "" : scopeHref(m, scope)}/browse?type=${type}`;
}

/** Value page of an author or subject. */
export function valueHref(m: RepoModel, scope: Scope, type: "author" | "subject", v: number): string {
  return `${browseEntry(m, scope, type)}&value=${encodeValue(valueName(m, type, v))}`;
}

/** A browse URL with every option spelled out, plus `offset` when given. */
export function browseHref(m: RepoModel, scope: Scope, q: BrowseQuery, offset?: number): string {
  const parts = keysOf(scope, q).map((k) =>
    k === "type" ? `type=${q.type}`
    : k === "value" ? `value=${encodeValue(valueName(m, q.type, q.value))}`
    : k === "sort_by" ? `sort_by=${q.sortBy}`
    : k === "order" ? `order=${q.order}`
    : `rpp=${q.rpp}`);
  if (offset !== undefined) parts.push(`offset=${offset}`);
  return `${scope.kind === "site" ? "" : scopeHref(m, scope)}/browse?${parts.join("&")}`;
}

/** Items of a value page, newest issued first (restricted to the collection when scoped). */
function valueItems(m: RepoModel, scope: Scope, type: BrowseType, v: number): ArrayLike<number> {
  const all = type === "author" ? m.authorItems[v]! : m.subjectItems[v]!;
  return scope.kind === "collection" ? all.filter((i) => m.itemColl[i] === scope.index) : all;
}

/** Values of an author or subject index, in name order. */
function indexValues(m: RepoModel, scope: Scope, type: BrowseType): Int32Array {
  if (scope.kind === "collection") return type === "author" ? m.collAuthors[scope.index]! : m.collSubjects[scope.index]!;
  return type === "author" ? m.authorOrder : m.subjectOrder;
}

function itemOrder(lists: ItemLists, sortBy: number): { arr: Int32Array; reversed: boolean } {
  return sortBy === 1 ? { arr: lists.title, reversed: false } : sortBy === 2 ? { arr: lists.issued, reversed: false } : { arr: lists.recent, reversed: true };
}

/** Number of entries (items or values) the page's list has. */
function listLength(m: RepoModel, scope: Scope, q: BrowseQuery): number {
  if (q.value >= 0) return valueItems(m, scope, q.type, q.value).length;
  return isItemIndex(q.type) ? scopeLists(m, scope).recent.length : indexValues(m, scope, q.type).length;
}

/** Parses a browse query; null when the site does not serve it (→ 404). Keys may come in any order. */
export function parseBrowse(m: RepoModel, scope: Scope, pairs: ReadonlyArray<readonly [string, string]>): BrowseQuery | null {
  const got = new Map<string, string>();
  for (const [k, v] of pairs) {
    if (got.has(k)) return null;
    got.set(k, v);
  }
  const type = got.get("type") as BrowseType | undefined;
  if (type === undefined || !BROWSE_TYPES.includes(type)) return null;
  if (scope.kind !== "site" && !scopedBrowseTypes(scope).includes(type)) return null;
  const rawValue = got.get("value");
  let value = -1;
  if (rawValue !== undefined) {
    const v = type === "author" ? m.authorByName.get(rawValue) : type === "subject" ? m.subjectByName.get(rawValue) : undefined;
    if (v === undefined) return null;
    value = v;
  }
  const allowed = [...keysOf(scope, { type, value }), "offset"];
  for (const k of got.keys()) if (!allowed.includes(k)) return null;
  const sorts = isItemIndex(type) ? SITE_SORTS[type as "dateissued" | "title"] : [0];
  const sortBy = got.has("sort_by") ? Number(got.get("sort_by")) : sorts[0]!;
  const order = got.get("order") ?? "ASC";
  const rpp = got.has("rpp") ? Number(got.get("rpp")) : RPP_OPTIONS[0]!;
  const rawOffset = got.get("offset") ?? "0";
  if (!sorts.includes(sortBy) || (order !== "ASC" && order !== "DESC") || !RPP_OPTIONS.includes(rpp) || !/^(0|[1-9][0-9]{0,6})$/.test(rawOffset)) return null;
  const q: BrowseQuery = { type, sortBy, order, rpp, offset: Number(rawOffset), value };
  const total = listLength(m, scope, q);
  if (total === 0 || q.offset % rpp !== 0 || q.offset >= total) return null;
  return q;
}

function pager(s: HtmlSink, m: RepoModel, scope: Scope, q: BrowseQuery, total: number, cls: string): void {
  s.open("div", `pagination-masked clearfix ${cls}`);
  s.el("p", "pagination-info", `Now showing items ${q.offset + 1}-${Math.min(total, q.offset + q.rpp)} of ${total}`);
  s.open("ul", "pagination pull-right");
  if (q.offset > 0) {
    s.open("li", "previous");
    s.a(browseHref(m, scope, q, q.offset - q.rpp), "← Previous", "previous-page-link");
    s.close("li");
  }
  if (q.offset + q.rpp < total) {
    s.open("li", "next");
    s.a(browseHref(m, scope, q, q.offset + q.rpp), "Next →", "next-page-link");
    s.close("li");
  }
  s.close("ul");
  s.close("div");
}

/** The gear menu (site-wide) or the order switch (inside a scope). */
function optionsMenu(s: HtmlSink, m: RepoModel, scope: Scope, q: BrowseQuery): void {
  const option = (label: string, next: BrowseQuery, active: boolean) => {
    s.open("li", active ? "gear-option gear-option-selected" : "gear-option");
    s.a(browseHref(m, scope, next), label);
    s.close("li");
  };
  s.open("div", "btn-group sort-options-menu pull-right");
  s.open("ul", "dropdown-menu pull-right", undefined, `role="menu"`);
  const keys = keysOf(scope, q);
  if (keys.includes("sort_by") && SITE_SORTS[q.type as "dateissued" | "title"].length > 1) {
    s.el("li", "dropdown-header", "Sort by:");
    for (const sortBy of SITE_SORTS[q.type as "dateissued" | "title"]) option(SORT_LABELS[sortBy]!, { ...q, sortBy }, sortBy === q.sortBy);
  }
  if (keys.includes("order")) {
    s.el("li", "dropdown-header", "Order:");
    option("ascending", { ...q, order: "ASC" }, q.order === "ASC");
    option("descending", { ...q, order: "DESC" }, q.order === "DESC");
  }
  if (keys.includes("rpp")) {
    s.el("li", "dropdown-header", "Results:");
    for (const rpp of RPP_OPTIONS) option(String(rpp), { ...q, rpp }, rpp === q.rpp);
  }
  s.close("ul");
  s.close("div");
}

export function browsePage(s: HtmlSink, m: RepoModel, frame: Frame, scope: Scope, q: BrowseQuery): void {
  const total = listLength(m, scope, q);
  const label = BROWSE_LABELS[q.type].replace(/^By /, "");
  const where = scopeName(m, scope, REPO_SITE_NAME);
  const title = q.value >= 0 ? `Browsing ${where} by ${label.replace(/s$/, "")} "${valueName(m, q.type, q.value)}"` : `Browsing ${where} by ${label}`;
  const end = Math.min(total, q.offset + q.rpp);
  frame(s, { title, bodyClass: "browse", crumbs: scopeTrail(m, scope) }, () => {
    s.el("h2", "page-header first-page-header", title);
    if (q.value < 0 && keysOf(scope, q).length > 1) optionsMenu(s, m, scope, q);
    pager(s, m, scope, q, total, "top");
    if (q.value >= 0) {
      const ids = valueItems(m, scope, q.type, q.value);
      artifactList(s, m, (k) => ids[k]!, q.offset, end);
    } else if (isItemIndex(q.type)) {
      const { arr, reversed } = itemOrder(scopeLists(m, scope), q.sortBy);
      const n = arr.length;
      const desc = q.order === "DESC";
      artifactList(s, m, (k) => arr[desc !== reversed ? n - 1 - k : k]!, q.offset, end);
    } else {
      const values = indexValues(m, scope, q.type);
      const type = q.type as "author" | "subject";
      s.open("ul", "ds-artifact-list list-unstyled browse-values");
      for (let k = q.offset; k < end; k++) {
        const v = values[q.order === "DESC" ? values.length - 1 - k : k]!;
        s.open("li", "ds-table-row");
        s.a(valueHref(m, scope, type, v), valueName(m, type, v));
        s.el("span", "badge", String(valueItems(m, scope, type, v).length));
        s.close("li");
      }
      s.close("ul");
    }
    pager(s, m, scope, q, total, "bottom");
  }, () => scopeBrowseBlock(s, m, scope));
}
