import { evaluateJsonPath, firstValue, parseJsonPath, type JsonPath } from "./json-path";
import { mimeOfFormat, type ListedFile } from "./listed-file";
import type { Enumeration } from "./recipe-schema";

/**
 * An enumeration read page by page: the URL of its first page, and from each answer the files it
 * lists and the URL of the next page. Stateless: where a page is in the paging is read back from
 * its own URL, so a crawl resumed from a checkpoint goes on from any page. Reading never throws:
 * an answer the recipe does not expect ends the enumeration with a `problem` in words, and the
 * crawl goes on through the site's HTML.
 */
export interface EnumerationAnswer {
  status: number;
  /** Lower-case header names. */
  headers: ReadonlyMap<string, string>;
  body: string;
}

export interface EnumerationPage {
  files: ListedFile[];
  records: number;
  /** The next page to ask for, or null at the end (or after a problem). */
  nextUrl: string | null;
  /** Why the enumeration cannot go on ("answered 404", "its JSON has no result.results"). */
  problem?: string;
}

/** `since`: the previous run's start, for `changedSince` (ISO 8601). */
export function firstPageUrl(enumeration: Enumeration, base: string, since?: Date): string {
  const url = new URL(enumeration.path, base);
  const host = new URL(base).hostname;
  for (const [name, value] of Object.entries(enumeration.query)) url.searchParams.set(name, value.replaceAll("{host}", host));
  const paging = enumeration.paging;
  if (paging.kind === "page") {
    url.searchParams.set(paging.param, String(paging.first));
    if (paging.sizeParam && paging.size) url.searchParams.set(paging.sizeParam, String(paging.size));
  } else if (paging.kind === "offset") {
    url.searchParams.set(paging.param, "0");
    url.searchParams.set(paging.sizeParam, String(paging.size));
  }
  if (since && enumeration.changedSince) {
    url.searchParams.set(enumeration.changedSince.param, enumeration.changedSince.value.replaceAll("{since}", since.toISOString()));
  }
  return url.href;
}

export function readEnumerationPage(enumeration: Enumeration, base: string, pageUrl: string, answer: EnumerationAnswer): EnumerationPage {
  if (answer.status < 200 || answer.status >= 300) return ended(`answered ${answer.status}`);
  let json: unknown;
  try {
    json = JSON.parse(answer.body);
  } catch {
    return ended("did not answer JSON");
  }
  if (!containerExists(enumeration.records, json)) return ended(`its JSON has no ${enumeration.records.source}`);
  const records = evaluateJsonPath(enumeration.records, json);
  const files: ListedFile[] = [];
  for (const record of records) {
    const about = recordOf(enumeration, base, pageUrl, record);
    const seen = new Set<string>();
    for (const item of filesOf(enumeration, record)) {
      const file = fileOf(enumeration, base, pageUrl, item, record, about);
      if (file && !seen.has(file.url)) {
        seen.add(file.url);
        files.push(file);
      }
    }
  }
  return { files, records: records.length, nextUrl: records.length === 0 ? null : nextPageUrl(enumeration, pageUrl, json, answer.headers, records.length) };
}

function ended(problem: string): EnumerationPage {
  return { files: [], records: 0, nextUrl: null, problem };
}

function nextPageUrl(enumeration: Enumeration, pageUrl: string, json: unknown, headers: ReadonlyMap<string, string>, records: number): string | null {
  const paging = enumeration.paging;
  const url = new URL(pageUrl);
  switch (paging.kind) {
    case "none":
      return null;
    case "page": {
      const page = wholeNumber(url.searchParams.get(paging.param)) ?? paging.first;
      const header = paging.totalPagesHeader ? wholeNumber(headers.get(paging.totalPagesHeader.toLowerCase()) ?? null) : undefined;
      const stated = paging.totalPages ? wholeNumber(firstValue(paging.totalPages, json)) : undefined;
      const lastPage = header ?? stated;
      const lastIndex = lastPage === undefined ? undefined : lastPage - 1 + paging.first;
      if (lastIndex !== undefined && page >= lastIndex) return null;
      if (lastIndex === undefined && paging.size && records < paging.size) return null;
      url.searchParams.set(paging.param, String(page + 1));
      return url.href;
    }
    case "offset": {
      const offset = wholeNumber(url.searchParams.get(paging.param)) ?? 0;
      const total = paging.total ? wholeNumber(firstValue(paging.total, json)) : undefined;
      // By what the answer held, not the size asked for: servers cap a page silently (CKAN's
      // ckan.search.rows_max), and stepping by the size asked would skip the rest.
      const next = offset + records;
      if ((total !== undefined && next >= total) || (total === undefined && records < paging.size)) return null;
      url.searchParams.set(paging.param, String(next));
      return url.href;
    }
    case "cursor": {
      const cursor = firstValue(paging.next, json);
      if (typeof cursor !== "string" && typeof cursor !== "number") return null;
      if (String(cursor) === url.searchParams.get(paging.param)) return null; // the same cursor again: it would loop
      url.searchParams.set(paging.param, String(cursor));
      return url.href;
    }
    case "continue": {
      const members = firstValue(paging.object, json);
      if (typeof members !== "object" || members === null || Array.isArray(members)) return null;
      let changed = false;
      for (const [name, value] of Object.entries(members)) {
        if (typeof value !== "string" && typeof value !== "number") continue;
        if (url.searchParams.get(name) !== String(value)) changed = true;
        url.searchParams.set(name, String(value));
      }
      return changed ? url.href : null; // the same continuation again: it would loop
    }
    case "next-link": {
      const next = paging.next ? firstValue(paging.next, json) : linkHeaderNext(headers.get("link"));
      if (typeof next !== "string" || next === "") return null;
      const resolved = resolveUrl(next, pageUrl);
      return resolved && resolved !== pageUrl ? resolved : null;
    }
  }
}

function recordOf(enumeration: Enumeration, base: string, pageUrl: string, record: unknown): ListedFile["record"] {
  const about: NonNullable<ListedFile["record"]> = {};
  const title = text(enumeration.record.title, record);
  if (title) about.title = title;
  const modified = text(enumeration.record.modified, record);
  if (modified) about.modified = modified;
  if (enumeration.record.page) {
    const page = fillTemplate(enumeration.record.page, record);
    const resolved = page === undefined ? undefined : resolveUrl(page, base) ?? resolveUrl(page, pageUrl);
    if (resolved) about.page = resolved;
  }
  return Object.keys(about).length > 0 ? about : undefined;
}

function filesOf(enumeration: Enumeration, record: unknown): unknown[] {
  if (!enumeration.files) return [record];
  const paths = Array.isArray(enumeration.files) ? enumeration.files : [enumeration.files];
  return paths.flatMap((path) => evaluateJsonPath(path, record));
}

function fileOf(enumeration: Enumeration, base: string, pageUrl: string, item: unknown, record: unknown, about: ListedFile["record"]): ListedFile | null {
  const { file } = enumeration;
  const raw = text(file.url, item);
  let url = raw ? resolveUrl(raw, pageUrl) : undefined;
  if (!url && file.urlTemplate) {
    const built = fillFileTemplate(file.urlTemplate, item, record);
    url = built === undefined ? undefined : resolveUrl(built, base);
  }
  if (!url || !/^https?:$/.test(new URL(url).protocol)) return null;
  const listed: ListedFile = { url };
  const format = text(file.format, item) ?? file.fixedFormat;
  const declaredMime = text(file.mime, item);
  const mime = (declaredMime && mimeOfFormat(declaredMime)) || (format && mimeOfFormat(format));
  if (mime) listed.mime = mime;
  if (format) listed.format = format;
  const size = Number(firstValueOf(file.size, item));
  if (Number.isFinite(size) && size >= 0) listed.size = size;
  const modified = text(file.modified, item);
  if (modified) listed.modified = modified;
  const title = text(file.title, item);
  if (title) listed.title = title;
  if (about) listed.record = about;
  return listed;
}

/** A file's URL template: `{field}` of the file, `{record:field}` of its record; undefined when a field is missing. */
function fillFileTemplate(template: string, item: unknown, record: unknown): string | undefined {
  let missing = false;
  const filled = template.replace(/\{([^{}]+)\}/g, (_all, source: string) => {
    const fromRecord = source.startsWith("record:");
    const value = text(parsePathOrUndefined(fromRecord ? source.slice("record:".length) : source), fromRecord ? record : item);
    if (value === undefined) missing = true;
    return encodeURIComponent(value ?? "");
  });
  return missing ? undefined : filled;
}

/**
 * `{name}` → the record's field, URL-encoded; a template that is one `{field}` alone takes the
 * field as a URL. undefined when a field is missing.
 */
export function fillTemplate(template: string, record: unknown): string | undefined {
  const whole = /^\{([^{}]+)\}$/.exec(template);
  if (whole) return text(parsePathOrUndefined(whole[1]!), record);
  let missing = false;
  const filled = template.replace(/\{([^{}]+)\}/g, (_all, source: string) => {
    const value = text(parsePathOrUndefined(source), record);
    if (value === undefined) missing = true;
    return encodeURIComponent(value ?? "");
  });
  return missing ? undefined : filled;
}

function parsePathOrUndefined(source: string): JsonPath | undefined {
  try {
    return parseJsonPath(source);
  } catch {
    return undefined;
  }
}

/** Whether the part of `records` before its last `[*]`/`*` leads to a list or object: an empty list is an empty page, a missing one is another shape. */
function containerExists(records: JsonPath, json: unknown): boolean {
  const last = Math.max(records.steps.findLastIndex((step) => step.kind === "items" || step.kind === "values" || step.kind === "filter"), -1);
  if (last < 0) return evaluateJsonPath(records, json).length > 0;
  const prefix: JsonPath = { source: records.source, steps: records.steps.slice(0, last) };
  return evaluateJsonPath(prefix, json).some((value) => typeof value === "object" && value !== null);
}

function text(path: JsonPath | undefined, value: unknown): string | undefined {
  const found = firstValueOf(path, value);
  if (typeof found === "string") return found.trim() === "" ? undefined : found.trim();
  if (typeof found === "number" || typeof found === "boolean") return String(found);
  return undefined;
}

function firstValueOf(path: JsonPath | undefined, value: unknown): unknown {
  return path ? firstValue(path, value) : undefined;
}

function wholeNumber(value: unknown): number | undefined {
  const number = typeof value === "string" && value.trim() !== "" ? Number(value) : typeof value === "number" ? value : NaN;
  return Number.isSafeInteger(number) && number >= 0 ? number : undefined;
}

function linkHeaderNext(header: string | undefined): string | undefined {
  if (!header) return undefined;
  for (const match of header.matchAll(/<([^>]*)>([^<]*)/g)) {
    if (/;\s*rel\s*=\s*"?([^";,]*\s)?next(\s[^";,]*)?"?/i.test(match[2]!)) return match[1];
  }
  return undefined;
}

function resolveUrl(target: string, base: string): string | undefined {
  try {
    return new URL(target, base).href;
  } catch {
    return undefined;
  }
}
