import { MAX_DATASETS, MAX_FILES, type GraphFiles } from "./catalog-graph";
import { absoluteHttpUrl } from "./catalog-url";
import { byteSizeOf, formatOf } from "./catalog-vocabulary";
import type { ListedFile } from "./listed-file";

/**
 * DCAT-US (Project Open Data metadata schema 1.1) `data.json`: plain JSON with fixed names,
 * `dataset[*].distribution[*].downloadURL|accessURL`, `mediaType`, `format`, `title`, and the
 * dataset's `title`, `modified`, `landingPage`. Its `@context` names a remote context whose terms
 * are these very names, so the file is read as JSON, without JSON-LD processing.
 * (https://resources.data.gov/resources/dcat-us/)
 */

/** Whether a parsed JSON document is a DCAT-US catalog: a `dataset` list, and a `conformsTo` or `@context` of Project Open Data, or no `@context` at all. */
export function isDcatUsCatalog(json: unknown): json is { dataset: unknown[] } {
  if (typeof json !== "object" || json === null || Array.isArray(json)) return false;
  const catalog = json as Record<string, unknown>;
  if (!Array.isArray(catalog.dataset)) return false;
  const says = (value: unknown) => typeof value === "string" && /project-open-data/i.test(value);
  return says(catalog.conformsTo) || says(catalog["@context"]) || catalog["@context"] === undefined;
}

export function filesOfDcatUs(catalog: { dataset: unknown[] }, pageUrl: string): GraphFiles {
  const files: ListedFile[] = [];
  const seenUrls = new Set<string>();
  let records = 0;
  let truncated: string | undefined;
  for (const dataset of catalog.dataset) {
    if (!isObject(dataset)) continue;
    if (records >= MAX_DATASETS) {
      truncated = `lists more than ${MAX_DATASETS} datasets; the first ${MAX_DATASETS} are read`;
      break;
    }
    records++;
    const record = recordOf(dataset, pageUrl);
    const distributions = Array.isArray(dataset.distribution) ? dataset.distribution : isObject(dataset.distribution) ? [dataset.distribution] : [];
    for (const distribution of distributions) {
      if (!isObject(distribution)) continue;
      const file = fileOf(distribution, pageUrl);
      if (!file || seenUrls.has(file.url)) continue;
      if (files.length >= MAX_FILES) {
        truncated ??= `lists more than ${MAX_FILES} files; the first ${MAX_FILES} are read`;
        break;
      }
      seenUrls.add(file.url);
      files.push(record ? { ...file, record } : file);
    }
  }
  const result: GraphFiles = { files, records, nextUrl: null };
  if (truncated) result.truncated = truncated;
  return result;
}

function recordOf(dataset: Record<string, unknown>, pageUrl: string): ListedFile["record"] {
  const record: NonNullable<ListedFile["record"]> = {};
  const title = text(dataset.title);
  if (title) record.title = title;
  const modified = text(dataset.modified);
  if (modified) record.modified = modified;
  const page = typeof dataset.landingPage === "string" ? absoluteHttpUrl(dataset.landingPage, pageUrl) : undefined;
  if (page) record.page = page;
  return Object.keys(record).length > 0 ? record : undefined;
}

/** The download URL, else the access URL (DCAT-US: an API or a page the file is reached through). */
function fileOf(distribution: Record<string, unknown>, pageUrl: string): ListedFile | undefined {
  const raw = text(distribution.downloadURL) ?? text(distribution.accessURL);
  const url = raw ? absoluteHttpUrl(raw, pageUrl) : undefined;
  if (!url) return undefined;
  const file: ListedFile = { url };
  const media = text(distribution.mediaType);
  const format = text(distribution.format);
  const mime = (media ? formatOf(media).mime : undefined) ?? (format ? formatOf(format).mime : undefined);
  if (mime) file.mime = mime;
  const label = format ?? media;
  if (label) file.format = label;
  const size = typeof distribution.byteSize === "number" ? String(distribution.byteSize) : text(distribution.byteSize);
  const bytes = size === undefined ? undefined : byteSizeOf(size);
  if (bytes !== undefined) file.size = bytes;
  const modified = text(distribution.modified);
  if (modified) file.modified = modified;
  const title = text(distribution.title);
  if (title) file.title = title;
  return file;
}

function text(value: unknown): string | undefined {
  if (typeof value !== "string") return undefined;
  const trimmed = value.trim();
  if (trimmed === "") return undefined;
  return trimmed.length > 500 ? trimmed.slice(0, 500) : trimmed;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
