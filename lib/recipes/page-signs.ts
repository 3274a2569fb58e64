import { Parser } from "htmlparser2";

/**
 * What a page says about the software that made it, read from its head and headers only: the
 * `<meta name="generator">` text, `rel` values of `<link>` elements and of the `Link` header
 * (with their targets: WordPress names its API root there), script and stylesheet URLs, and
 * cookie names. Parsing stops at `<body>` or after `MAX_HEAD_CHARS`, so reading the signs of a
 * huge page costs no more than reading a small one.
 */
export interface PageSigns {
  generators: string[];
  /** rel value → the URLs it names, resolved against the page. */
  linkRels: Map<string, string[]>;
  assetUrls: string[];
  cookies: string[];
  /** Lower-case header name → value. */
  headers: Map<string, string>;
}

const MAX_HEAD_CHARS = 256 * 1024;
const MAX_SIGNS = 200;

export function pageSigns(pageUrl: string, html: string, headers: Iterable<[string, string]> = []): PageSigns {
  const signs: PageSigns = { generators: [], linkRels: new Map(), assetUrls: [], cookies: [], headers: new Map() };
  for (const [name, value] of headers) {
    const key = name.toLowerCase();
    if (key === "set-cookie") {
      const cookieName = /^\s*([^=;\s]+)=/.exec(value)?.[1];
      if (cookieName && signs.cookies.length < MAX_SIGNS) signs.cookies.push(cookieName);
    } else if (key === "link") {
      for (const [target, rel] of linkHeaderEntries(value)) addRel(signs, rel, resolve(target, pageUrl));
    } else {
      signs.headers.set(key, signs.headers.has(key) ? `${signs.headers.get(key)}, ${value}` : value);
    }
  }
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        if (name === "body") {
          parser.pause();
          return;
        }
        if (name === "meta" && attributes.name?.toLowerCase() === "generator" && attributes.content && signs.generators.length < MAX_SIGNS) {
          signs.generators.push(attributes.content.trim());
        } else if (name === "link" && attributes.rel) {
          const target = attributes.href ? resolve(attributes.href, pageUrl) : undefined;
          for (const rel of attributes.rel.split(/\s+/).filter(Boolean)) addRel(signs, rel, target);
          if (/\bstylesheet\b/i.test(attributes.rel) && target && signs.assetUrls.length < MAX_SIGNS) signs.assetUrls.push(target);
        } else if (name === "script" && attributes.src && signs.assetUrls.length < MAX_SIGNS) {
          const target = resolve(attributes.src, pageUrl);
          if (target) signs.assetUrls.push(target);
        }
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.end(html.length > MAX_HEAD_CHARS ? html.slice(0, MAX_HEAD_CHARS) : html);
  return signs;
}

function addRel(signs: PageSigns, rel: string, target: string | undefined): void {
  const key = rel.toLowerCase();
  const targets = signs.linkRels.get(key) ?? [];
  if (target && targets.length < MAX_SIGNS) targets.push(target);
  if (signs.linkRels.has(key) || signs.linkRels.size < MAX_SIGNS) signs.linkRels.set(key, targets);
}

/** `<https://x/wp-json/>; rel="https://api.w.org/", <…>; rel=alternate` → [target, rel] pairs. */
function linkHeaderEntries(value: string): Array<[string, string]> {
  const entries: Array<[string, string]> = [];
  for (const match of value.matchAll(/<([^>]*)>([^<]*)/g)) {
    const rel = /;\s*rel\s*=\s*(?:"([^"]*)"|([^;,\s]+))/i.exec(match[2]!);
    const rels = (rel?.[1] ?? rel?.[2] ?? "").split(/\s+/).filter(Boolean);
    for (const one of rels) entries.push([match[1]!, one]);
    if (entries.length >= MAX_SIGNS) break;
  }
  return entries;
}

function resolve(target: string, base: string): string | undefined {
  try {
    return new URL(target.trim(), base).href;
  } catch {
    return undefined;
  }
}
