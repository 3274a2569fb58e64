import { Parser } from "htmlparser2";
import { filesOfGraph } from "./catalog-graph";
import { SCHEMA_ORG_CONTEXT, type ContextLoader } from "./jsonld-contexts";
import { readJsonLdQuads } from "./jsonld-quads";
import type { ListedFile } from "./listed-file";

/**
 * The files a page describes in schema.org JSON-LD (`<script type="application/ld+json">`), as
 * Google's dataset search reads them: a `Dataset` (alone, in a list, in an `@graph`, or in a
 * `DataCatalog`'s `dataset`) with `distribution`s (`DataDownload`: `contentUrl`,
 * `encodingFormat`, `contentSize`, `dateModified`); the dataset's `name` and `url` are the
 * record. Read through jsonld with the offline context loader; a block without `@context` is
 * read as schema.org. Cheap where there is nothing: a page that does not mention
 * `application/ld+json` is not parsed, and a block that names no dataset type is not expanded.
 */
export const MAX_JSONLD_BLOCKS = 20;
/** A larger block is skipped (a dataset description is a few kilobytes). */
export const MAX_BLOCK_CHARS = 256 * 1024;
/** All blocks read from one page together. */
export const MAX_PAGE_JSONLD_CHARS = 1024 * 1024;

export interface SchemaOrgReading {
  /** For contexts named by URL; the default never fetches (jsonld-contexts.ts). */
  contextLoader?: ContextLoader;
}

export async function schemaOrgFiles(html: string, pageUrl: string, reading: SchemaOrgReading = {}): Promise<ListedFile[]> {
  if (!/application\/ld\+json/i.test(html)) return [];
  const files: ListedFile[] = [];
  const seen = new Set<string>();
  for (const block of jsonLdBlocks(html)) {
    if (!/Dataset|DataDownload|DataCatalog/.test(block)) continue;
    let json: unknown;
    try {
      json = JSON.parse(unwrapped(block));
    } catch {
      continue; // a block that is not JSON is skipped, as search engines skip it
    }
    const read = await readJsonLdQuads(json, pageUrl, { loader: reading.contextLoader, defaultContext: SCHEMA_ORG_CONTEXT });
    // Each block is its own graph: blank node labels of two blocks must not meet.
    for (const file of filesOfGraph(read.quads, pageUrl).files) {
      if (seen.has(file.url)) continue;
      seen.add(file.url);
      files.push(file);
    }
  }
  return files;
}

/** The text of each `application/ld+json` script, within the block and page caps. */
export function jsonLdBlocks(html: string): string[] {
  const blocks: string[] = [];
  let total = 0;
  let inside = false;
  let text = "";
  let tooLong = false;
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        if (name !== "script") return;
        inside = (attributes.type ?? "").split(";")[0]!.trim().toLowerCase() === "application/ld+json";
        text = "";
        tooLong = false;
      },
      ontext(data) {
        if (!inside || tooLong) return;
        if (text.length + data.length > MAX_BLOCK_CHARS) {
          tooLong = true;
          text = "";
        } else text += data;
      },
      onclosetag(name) {
        if (name !== "script" || !inside) return;
        inside = false;
        if (tooLong || text.trim() === "" || total + text.length > MAX_PAGE_JSONLD_CHARS) return;
        total += text.length;
        blocks.push(text);
        if (blocks.length >= MAX_JSONLD_BLOCKS) parser.pause();
      },
    },
    { decodeEntities: false, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.end(html);
  return blocks;
}

/** Some pages wrap the JSON in an HTML comment or CDATA section, as for old browsers. */
function unwrapped(block: string): string {
  return block
    .trim()
    .replace(/^(<!--|<!\[CDATA\[)/, "")
    .replace(/(-->|\]\]>)$/, "");
}
