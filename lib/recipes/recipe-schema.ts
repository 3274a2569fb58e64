import { RE2JS } from "re2js";
import { z } from "zod";
import { JsonPathError, parseJsonPath, type JsonPath } from "./json-path";

/**
 * What a recipe file says (docs/RECIPES.md explains each field with a worked example): how to
 * recognise one web application (CKAN, WordPress, …) from what its pages show anyway, and which
 * crawling actions it offers — enumerations (its own paged API or catalogue listing every file),
 * navigation hints (listing and record pages) and pages to avoid. Strict objects: a misspelt
 * field is an error, not a silent default.
 */

/** A pattern run on text a site sends: RE2 syntax (linear time, no lookarounds), case-insensitive. */
const patternSchema = z.string().min(1, "is empty").superRefine((source, context) => {
  try {
    RE2JS.compile(source, RE2JS.CASE_INSENSITIVE);
  } catch (error) {
    context.addIssue({ code: "custom", message: `is not a pattern Forage can run: ${error instanceof Error ? error.message : String(error)}` });
  }
});

const jsonPathSchema = z.string().transform((source, context): JsonPath => {
  try {
    return parseJsonPath(source);
  } catch (error) {
    context.addIssue({ code: "custom", message: `is not a JSON path: ${error instanceof JsonPathError ? error.message : String(error)}` });
    return z.NEVER;
  }
});

/** A path of the application, relative to where it lives (`api/3/action/package_search`): a CKAN under /data/ keeps its API under /data/api/. */
const appPathSchema = z
  .string()
  .min(1, "is empty")
  .refine((path) => !/^[a-z][a-z0-9+.-]*:/i.test(path) && !path.startsWith("//"), "must be a path of the site, not a URL of another");

/** URL globs as in crawl blocklists: `*` matches anything, everything else is literal. */
const globListSchema = z.array(z.string().min(1, "is empty")).default([]);

/** `{name}` is replaced by the record's field (any JSON path), URL-encoded. */
const templateSchema = z.string().min(1, "is empty");

/** A file's URL template: its `{…}` are JSON paths of the file, or `{record:…}` of its record. */
const urlTemplateSchema = templateSchema.superRefine((template, context) => {
  for (const [, field] of template.matchAll(/\{([^{}]*)\}/g)) {
    try {
      parseJsonPath(field!.replace(/^record:/, ""));
    } catch (error) {
      context.addIssue({ code: "custom", message: `has {${field}}, which is not a JSON path: ${error instanceof JsonPathError ? error.message : String(error)}` });
    }
  }
});

const probeSchema = z.strictObject({
  /** One counted request, sent only when a cheaper sign already points to the application. */
  path: appPathSchema,
  /** A field the answer must have for the probe to confirm the application. */
  expect: jsonPathSchema,
  /** Where the answer states the version. */
  version: jsonPathSchema.optional(),
});

const recogniseSchema = z
  .strictObject({
    /** Matched against `<meta name="generator">`; a group named `version` gives the version. */
    generator: patternSchema.optional(),
    /** `rel` values of `<link>` elements or of the `Link` header, e.g. "https://api.w.org/". */
    linkRel: z.array(z.string().min(1)).default([]),
    /** Path fragments of script and stylesheet URLs, e.g. "/wp-content/". */
    assetPaths: z.array(z.string().min(1)).default([]),
    /** Cookie names the application sets. */
    cookies: z.array(z.string().min(1)).default([]),
    /** Response header name → pattern its value matches. */
    headers: z.record(z.string().min(1), patternSchema).default({}),
    probe: probeSchema.optional(),
  })
  .refine((r) => r.generator !== undefined || r.linkRel.length + r.assetPaths.length + r.cookies.length + Object.keys(r.headers).length > 0, {
    message: "needs at least one sign seen on ordinary pages (generator, linkRel, assetPaths, cookies or headers): a probe alone would cost a request on every site",
  });

const pagingSchema = z.discriminatedUnion("kind", [
  /** page=1, 2, 3…: ends on an empty page or past the total the header or body states. */
  z.strictObject({
    kind: z.literal("page"),
    param: z.string().min(1),
    first: z.number().int().min(0).default(1),
    sizeParam: z.string().min(1).optional(),
    size: z.number().int().min(1).max(10_000).optional(),
    totalPagesHeader: z.string().min(1).optional(),
    totalPages: jsonPathSchema.optional(),
  }),
  /** start=0, 1000, 2000…: ends past the total the body states, or on an empty page. */
  z.strictObject({
    kind: z.literal("offset"),
    param: z.string().min(1),
    sizeParam: z.string().min(1),
    size: z.number().int().min(1).max(10_000),
    total: jsonPathSchema.optional(),
  }),
  /** The answer names the next page's cursor; ends when it names none. */
  z.strictObject({ kind: z.literal("cursor"), param: z.string().min(1), next: jsonPathSchema }),
  /**
   * The answer has an object whose every member is a query parameter of the next page (MediaWiki's
   * `continue: {"aicontinue": "B.pdf", "continue": "-||"}`); ends when the answer has no such object.
   */
  z.strictObject({ kind: z.literal("continue"), object: jsonPathSchema }),
  /** The answer (body field, or `Link: <…>; rel="next"` when `next` is absent) gives the next page's URL. */
  z.strictObject({ kind: z.literal("next-link"), next: jsonPathSchema.optional() }),
  z.strictObject({ kind: z.literal("none") }),
]);

const enumerationSchema = z.strictObject({
  id: z.string().regex(/^[a-z0-9][a-z0-9-]*$/, "must be lower-case letters, digits and dashes"),
  /** What the cockpit shows for this action, e.g. "CKAN package_search". */
  name: z.string().min(1),
  path: appPathSchema,
  /** Fixed query parameters; `{host}` in a value is the application's host name (Socrata's `domains`). */
  query: z.record(z.string().min(1), z.string()).default({}),
  paging: pagingSchema,
  /** At most this many pages in one crawl (the budget still applies). */
  maxPages: z.number().int().min(1).max(100_000).default(10_000),
  /** Each record (dataset, item, media) in an answer. */
  records: jsonPathSchema,
  record: z
    .strictObject({ title: jsonPathSchema.optional(), page: templateSchema.optional(), modified: jsonPathSchema.optional() })
    .default({}),
  /**
   * Each file of a record; absent when the record is itself the file (WordPress media). A list of
   * paths when the application answers in more than one shape (Zenodo's list of files, InvenioRDM's
   * object of them): the files every path finds, each URL once per record.
   */
  files: z.union([jsonPathSchema, z.array(jsonPathSchema).min(1, "name at least one path").max(8, "is more than 8 paths")]).optional(),
  file: z
    .strictObject({
      /** Where the file's URL is, resolved against the answer's URL. */
      url: jsonPathSchema.optional(),
      /**
       * The file's URL built from fields, for applications whose listing names a file without its URL
       * (Socrata's and Opendatasoft's exports): `{field}` is the file's field, `{record:field}` the
       * record's, URL-encoded; resolved against the application's root. Used when `url` is absent or
       * finds nothing.
       */
      urlTemplate: urlTemplateSchema.optional(),
      format: jsonPathSchema.optional(),
      /** The format of every file of this enumeration ("CSV" for an export), when `format` finds none. */
      fixedFormat: z.string().min(1, "is empty").max(100).optional(),
      mime: jsonPathSchema.optional(),
      size: jsonPathSchema.optional(),
      modified: jsonPathSchema.optional(),
      title: jsonPathSchema.optional(),
    })
    .refine((file) => file.url !== undefined || file.urlTemplate !== undefined, { message: "needs url (a JSON path) or urlTemplate" }),
  /** How to ask only for what changed since the previous run: `value` has `{since}` (ISO 8601). */
  changedSince: z.strictObject({ param: z.string().min(1), value: templateSchema.refine((v) => v.includes("{since}"), "must contain {since}") }).optional(),
});

export const recipeSchema = z.strictObject({
  /** Optional editor hint; ignored. */
  $schema: z.string().optional(),
  id: z.string().regex(/^[a-z0-9][a-z0-9-]*$/, "must be lower-case letters, digits and dashes"),
  name: z.string().min(1),
  /** The documentation and source the recipe was written from. */
  sources: z.array(z.string().url("must be a URL")).min(1, "name at least one: the documentation the recipe was written from"),
  recognise: recogniseSchema,
  enumerations: z.array(enumerationSchema).default([]),
  navigation: z.strictObject({ listing: globListSchema, record: globListSchema }).default({ listing: [], record: [] }),
  /** Sign-in, edit, search, feed, comment-reply and calendar pages of the application. */
  avoid: globListSchema,
  /** Pages the application builds in the browser with scripts: rendered when the crawl's `render` is "auto". */
  scriptBuilt: globListSchema,
});

export type Recipe = z.output<typeof recipeSchema>;
export type Enumeration = Recipe["enumerations"][number];
export type Paging = Enumeration["paging"];
