/**
 * Wiki URLs, spelled as MediaWiki spells them: articles at `/wiki/<DB key>` (wfUrlencode:
 * `:`, `/`, `(`, `)`, `,` stay literal, `'` is `%27`), everything else through
 * `/index.php?title=<DB key>&…`, and uploads at `/images/<h>/<hh>/<name>` where
 * `<h><hh>` are the first hex digits of a hash of the name (rawurlencode: parentheses
 * and commas are escaped there), old versions at `/images/archive/<h>/<hh>/<ts>%21<name>`
 * and thumbnails at `/images/thumb/<h>/<hh>/<name>/<w>px-<name>`.
 */
import { hashString, mix32 } from "../random";
import { PROJECT_NS } from "./wiki-text";

/** Namespace numbers, as MediaWiki numbers them (Glossary is a custom one). */
export const NS = {
  main: 0, talk: 1, user: 2, userTalk: 3, project: 4, projectTalk: 5, file: 6, fileTalk: 7,
  template: 10, templateTalk: 11, help: 12, helpTalk: 13, category: 14, categoryTalk: 15, glossary: 3000, glossaryTalk: 3001,
  special: -1, media: -2,
} as const;

export const NS_NAMES: ReadonlyMap<number, string> = new Map([
  [0, ""], [1, "Talk"], [2, "User"], [3, "User talk"], [4, PROJECT_NS], [5, `${PROJECT_NS} talk`], [6, "File"], [7, "File talk"],
  [10, "Template"], [11, "Template talk"], [12, "Help"], [13, "Help talk"], [14, "Category"], [15, "Category talk"],
  [3000, "Glossary"], [3001, "Glossary talk"], [-1, "Special"], [-2, "Media"],
]);

/** Prefixes MediaWiki also accepts (and redirects to the canonical name). */
const NS_ALIASES: ReadonlyMap<string, number> = new Map([["project", 4], ["project talk", 5], ["image", 6], ["image talk", 7]]);
const NS_BY_NAME: ReadonlyMap<string, number> = new Map([...[...NS_NAMES].filter(([k]) => k !== 0).map(([k, v]) => [v.toLowerCase(), k] as const), ...NS_ALIASES]);

/** A page name: namespace number and title text (spaces, first letter upper case). */
export interface WikiTitle {
  ns: number;
  text: string;
}

/** "Talk:Foo bar" (display form). */
export function prefixedText(t: WikiTitle): string {
  const ns = NS_NAMES.get(t.ns) ?? "";
  return ns === "" ? t.text : `${ns}:${t.text}`;
}

/** "Talk:Foo_bar" (the DB key MediaWiki puts in URLs). */
export function dbKey(t: WikiTitle): string {
  return prefixedText(t).replace(/ /g, "_");
}

/** PHP urlencode: everything but `A-Za-z0-9-_.` escaped, spaces as `+`. */
export function phpUrlencode(s: string): string {
  return encodeURIComponent(s).replace(/[!'()*~]/g, (c) => "%" + c.charCodeAt(0).toString(16).toUpperCase()).replace(/%20/g, "+");
}

/** PHP rawurlencode: like urlencode, spaces as `%20`, `~` literal. */
export function rawUrlencode(s: string): string {
  return encodeURIComponent(s).replace(/[!'()*]/g, (c) => "%" + c.charCodeAt(0).toString(16).toUpperCase());
}

/** MediaWiki's wfUrlencode: urlencode, then `;@$!*(),/~:` back to literal characters. */
export function wfUrlencode(s: string): string {
  return phpUrlencode(s).replace(/%(3B|40|24|21|2A|28|29|2C|2F|7E|3A)/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
}

/** `/wiki/<key>`. */
export function viewHref(t: WikiTitle): string {
  return `/wiki/${wfUrlencode(dbKey(t))}`;
}

/** `/index.php?title=<key>&<query>` (query pairs already in MediaWiki's order). */
export function indexHref(t: WikiTitle, query: ReadonlyArray<readonly [string, string | number]>): string {
  return `/index.php?title=${wfUrlencode(dbKey(t))}` + query.map(([k, v]) => `&${k}=${phpUrlencode(String(v))}`).join("");
}

/** A red link: the page does not exist (anonymous users are sent back to the missing page). */
export function redlinkHref(t: WikiTitle): string {
  return indexHref(t, [["action", "edit"], ["redlink", "1"]]);
}

/** `Special:Name[/sub]` under `/wiki/`. */
export function specialHref(name: string, sub?: string): string {
  return `/wiki/Special:${name}${sub === undefined ? "" : "/" + wfUrlencode(sub.replace(/ /g, "_"))}`;
}

/** `/index.php?title=Special:Name&…`. */
export function specialIndexHref(name: string, query: ReadonlyArray<readonly [string, string | number]>): string {
  return indexHref({ ns: NS.special, text: name }, query);
}

/** Upper-cases the first letter, as MediaWiki does with page names. */
export function ucfirst(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/**
 * Parses a page name from a URL (already percent-decoded): underscores to spaces,
 * namespace prefix (aliases accepted), first letter upper-cased. Null for invalid names.
 */
export function parseTitle(raw: string): WikiTitle | null {
  const s = raw.replace(/_/g, " ").replace(/ +/g, " ").trim();
  if (s === "" || /[#<>[\]{}|\u0000-\u001f%]/.test(s)) return null;
  const colon = s.indexOf(":");
  if (colon > 0) {
    const ns = NS_BY_NAME.get(s.slice(0, colon).trim().toLowerCase());
    if (ns !== undefined) {
      const text = s.slice(colon + 1).trim();
      if (text === "" && ns !== NS.special) return null;
      return { ns, text: ns === NS.special ? text : ucfirst(text) };
    }
  }
  return { ns: 0, text: ucfirst(s) };
}

/** decodeURIComponent that answers null instead of throwing. */
export function safeDecodePath(s: string): string | null {
  try {
    return decodeURIComponent(s);
  } catch {
    return null;
  }
}

/** `a/ab`: the hashed upload directory of a file name (DB key). */
export function hashDir(name: string): string {
  const h = mix32(hashString(name)).toString(16).padStart(8, "0");
  return `${h[0]}/${h.slice(0, 2)}`;
}

/** `/images/a/ab/Name.ext` (`name` is the DB key, underscores). */
export function imageHref(name: string): string {
  return `/images/${hashDir(name)}/${rawUrlencode(name)}`;
}

/** An old version: `/images/archive/a/ab/20190301120000%21Name.ext`. */
export function archiveHref(name: string, ts: string): string {
  return `/images/archive/${hashDir(name)}/${rawUrlencode(`${ts}!${name}`)}`;
}

/** A thumbnail: `/images/thumb/a/ab/Name.png/220px-Name.png` (PDF: `page1-220px-Name.pdf.jpg`). */
export function thumbHref(name: string, width: number): string {
  const thumb = name.endsWith(".pdf") ? `page1-${width}px-${name}.jpg` : `${width}px-${name}`;
  return `/images/thumb/${hashDir(name)}/${rawUrlencode(name)}/${rawUrlencode(thumb)}`;
}
