/**
 * The small path language recipes use to point into an application's JSON answers, kept simple
 * enough for someone who has never programmed: names joined by dots, `[*]` for every item of a
 * list, `*` for every value of an object (InvenioRDM keys its files by name), `[n]` for one item,
 * `[?field=="text"]` for the items of a list whose field is that text (DSpace's ORIGINAL bundle).
 *
 *   result.results[*].resources[*].url
 *   hits.hits[*].files.entries.*.links.content
 *   _embedded.bundles._embedded.bundles[?name=="ORIGINAL"]._embedded.bitstreams._embedded.bitstreams[*]
 *
 * A name that is not an identifier is quoted: `media_details["file size"]`. Evaluating never
 * throws: a path that leads nowhere gives no values.
 */
export type PathStep =
  | { kind: "key"; key: string }
  | { kind: "index"; index: number }
  | { kind: "items" }
  | { kind: "values" }
  /** The items of a list whose `field` (a path without filters) is the text `equals`. */
  | { kind: "filter"; field: JsonPath; equals: string };

export interface JsonPath {
  source: string;
  steps: PathStep[];
}

export class JsonPathError extends Error {
  override name = "JsonPathError";
}

const IDENTIFIER = /^[A-Za-z_$@][\w$@:-]*/;
/** Longer paths are a mistake, not a recipe: the limit keeps evaluation cheap. */
const MAX_STEPS = 32;

/** @throws JsonPathError saying where the path stops making sense */
export function parseJsonPath(source: string): JsonPath {
  const steps: PathStep[] = [];
  let rest = source.trim();
  if (rest === "") throw new JsonPathError("is empty: name a field, e.g. result.results[*].url");
  let first = true;
  while (rest !== "") {
    if (rest.startsWith("[*]")) {
      steps.push({ kind: "items" });
      rest = rest.slice(3);
    } else if (rest.startsWith("[")) {
      const index = /^\[(\d{1,6})\]/.exec(rest);
      const quoted = /^\["((?:[^"\\]|\\.)*)"\]/.exec(rest);
      const filter = /^\[\?([^="\]]+)=="((?:[^"\\]|\\.)*)"\]/.exec(rest);
      if (filter) {
        const field = parseJsonPath(filter[1]!);
        if (field.steps.some((step) => step.kind === "filter")) throw new JsonPathError(`has a filter inside a filter at "${rest.slice(0, 20)}"`);
        steps.push({ kind: "filter", field, equals: JSON.parse(`"${filter[2]}"`) as string });
        rest = rest.slice(filter[0].length);
      } else if (index) {
        steps.push({ kind: "index", index: Number(index[1]) });
        rest = rest.slice(index[0].length);
      } else if (quoted) {
        steps.push({ kind: "key", key: JSON.parse(`"${quoted[1]}"`) as string });
        rest = rest.slice(quoted[0].length);
      } else {
        throw new JsonPathError(`has a bracket that is not [*], [number], ["name"] or [?field=="text"] at "${rest.slice(0, 20)}"`);
      }
    } else {
      if (!first) {
        if (!rest.startsWith(".")) throw new JsonPathError(`expects a dot or a bracket at "${rest.slice(0, 20)}"`);
        rest = rest.slice(1);
      }
      if (rest.startsWith("*")) {
        steps.push({ kind: "values" });
        rest = rest.slice(1);
      } else {
        const name = IDENTIFIER.exec(rest);
        if (!name) throw new JsonPathError(`expects a field name at "${rest.slice(0, 20)}"`);
        steps.push({ kind: "key", key: name[0] });
        rest = rest.slice(name[0].length);
      }
    }
    first = false;
    if (steps.length > MAX_STEPS) throw new JsonPathError(`has more than ${MAX_STEPS} steps`);
  }
  return { source, steps };
}

/** Every value the path leads to, in document order. */
export function evaluateJsonPath(path: JsonPath, value: unknown): unknown[] {
  let current: unknown[] = [value];
  for (const step of path.steps) {
    const next: unknown[] = [];
    for (const item of current) {
      if (step.kind === "items") {
        if (Array.isArray(item)) next.push(...item);
      } else if (step.kind === "filter") {
        if (Array.isArray(item)) next.push(...item.filter((entry) => evaluateJsonPath(step.field, entry).some((value) => value === step.equals)));
      } else if (step.kind === "values") {
        if (isObject(item)) next.push(...Object.values(item));
      } else if (step.kind === "index") {
        if (Array.isArray(item) && step.index < item.length) next.push(item[step.index]);
      } else if (isObject(item) && Object.hasOwn(item, step.key)) {
        next.push(item[step.key]);
      }
    }
    current = next;
  }
  return current.filter((item) => item !== undefined && item !== null);
}

/** The first value the path leads to, or undefined. */
export function firstValue(path: JsonPath, value: unknown): unknown {
  return evaluateJsonPath(path, value)[0];
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
