/**
 * Link extraction with tag paths (docs/ALGORITHM.md, "Links and tag paths").
 *
 * htmlparser2's `Tokenizer` (the streaming layer under its `Parser`) plus our own element
 * stack, no DOM: a DOM (cheerio) costs ~5 ms on a 40 KB page, this ~0.7 ms. `Parser` was
 * dropped too: its attribute objects and `unshift` stack cost as much as this whole file,
 * and its implied end tags only look at the top of the stack. The stack follows the HTML5
 * tree-construction rules that change paths on real, sloppy pages:
 * - `html`/`body` are implied: body paths start `/html/body`, frames of a `<frameset>` page
 *   `/html/frameset`; head-only elements before the body do not open it;
 * - implied end tags (`<li>`, `<dd>`/`<dt>`, `<p>` before a block, `<a>` before an `<a>`,
 *   rows/cells/sections, `<option>`): without them a list of unclosed `<li><a>` items
 *   nests `/ul/li/a/li/a/…` and every item becomes its own action;
 * - end tags close through the matching element in scope and are ignored otherwise.
 * Like lxml (the kit's parser), no `<tbody>` is inserted and nothing is foster-parented.
 */
import { Tokenizer, type TokenizerCallbacks } from "htmlparser2";
import { hrefResolver } from "./href-resolver";
import { textOfUtf8Bytes } from "./html-decoding";
import { encodeQueryFor } from "./query-encoding";
import { normalizeUrl, stripSessionIds } from "./url-rules";

/** `meta`: the URL of a `<meta http-equiv="refresh">` (a Forage addition, see {@link extractLinks}). */
export type LinkTag = "a" | "area" | "frame" | "iframe" | "meta";

/** What else than its HTML and URL tells a page's links. */
export interface PageContext {
  /** The response's `Refresh` header, followed like a `<meta>` refresh. */
  readonly refreshHeader?: string;
  /** WHATWG name of the page's encoding (html-decoding.ts): queries are percent-encoded in it. @default "utf-8" */
  readonly encoding?: string;
  /** The HTML is a UTF-8 page's bytes, one char each (html-decoding.ts, `DecodedHtml.utf8Bytes`). @default false */
  readonly utf8Bytes?: boolean;
}

/** One outgoing link of a page. */
export interface ExtractedLink {
  /** Absolute http(s) URL, normalised by `normalizeUrl`, without fragment. */
  readonly url: string;
  /** `/html/body/div.container#main/ul.menu/li/a.btn primary` */
  readonly tagPath: string;
  /** Whitespace-collapsed text of the `a` (`alt` of an `area`, `title` of a frame, "" for a refresh), ≤ 120 chars. */
  readonly anchorText: string;
  readonly tag: LinkTag;
}

const MAX_ANCHOR_CHARS = 120;

const noop = (): void => {};
const set = (names: string): ReadonlySet<string> => new Set(names.split(" "));

const VOID = set("area base basefont bgsound br col embed frame hr image img input keygen link meta param source track wbr");
/** Elements that stay in `<head>` when they come before any body content. */
const HEAD_ONLY = set("base basefont bgsound link meta noscript script style template title");
/** HTML5 "special" elements (stop the search for an element to close). */
const SPECIAL = set(
  "address applet area article aside base basefont bgsound blockquote body br button caption center col colgroup dd details dir div " +
    "dl dt embed fieldset figcaption figure footer form frame frameset h1 h2 h3 h4 h5 h6 head header hgroup hr html iframe img input " +
    "keygen li link listing main marquee menu meta nav noembed noframes noscript object ol p param plaintext pre script search section " +
    "select source style summary table tbody td template textarea tfoot th thead title tr track ul wbr xmp",
);
/** Start tags that close an open `<p>` in button scope. */
const CLOSES_P = set(
  "address article aside blockquote center dd details dialog dir div dl dt fieldset figcaption figure footer " +
    "form h1 h2 h3 h4 h5 h6 header hgroup hr li listing main menu nav ol p plaintext pre search section summary table ul xmp",
);
const HEADINGS = set("h1 h2 h3 h4 h5 h6");
const DEFAULT_SCOPE = set("applet caption html table td th marquee object template");
const BUTTON_SCOPE = set("applet caption html table td th marquee object template button");
const LIST_ITEM_SCOPE = set("applet caption html table td th marquee object template ol ul");
const TABLE_SCOPE = set("html table template");
/** End tag of a special element → the scope it must be in to close anything. */
const END_TAG_SCOPES = new Map<string, ReadonlySet<string>>([
  ["p", BUTTON_SCOPE], ["li", LIST_ITEM_SCOPE], ..."table tbody thead tfoot tr td th caption colgroup col".split(" ").map((n) => [n, TABLE_SCOPE] as const),
]);
/** `<li>`/`<dd>` look through `address`, `div`, `p` for one to close, and stop at other special elements. */
const LI_STOPS: ReadonlySet<string> = new Set([...SPECIAL].filter((n) => n !== "address" && n !== "div" && n !== "p"));

/** Start tag → the open element it closes, searched from the top until a `stops` one; rows
 * and cells also close what is above their container (`popAbove`). */
type CloseRule = { readonly closes: ReadonlySet<string>; readonly stops: ReadonlySet<string>; readonly popAbove: boolean };
const rule = (closes: string, stops: ReadonlySet<string>, popAbove = false): CloseRule => ({ closes: set(closes), stops, popAbove });
const P_RULE = rule("p", BUTTON_SCOPE);
const ROW_RULE = rule("tr", set("tbody thead tfoot table template"), true);
const CELL_RULE = rule("td th", set("tr tbody thead tfoot table template"), true);
const SECTION_RULE = rule("tbody thead tfoot", set("table template"), true);
const CLOSE_RULES = new Map<string, CloseRule>([
  ...["li", "dd", "dt"].map((n) => [n, rule(n === "li" ? "li" : "dd dt", LI_STOPS)] as const),
  ["a", rule("a", DEFAULT_SCOPE)], ["button", rule("button", DEFAULT_SCOPE)], ["tr", ROW_RULE], ["td", CELL_RULE], ["th", CELL_RULE],
  ["tbody", SECTION_RULE], ["thead", SECTION_RULE], ["tfoot", SECTION_RULE],
]);

const [A_CLASS, A_ID, A_HREF, A_SRC, A_ALT, A_TITLE, A_HTTP_EQUIV, A_CONTENT] = [1, 2, 3, 4, 5, 6, 7, 8] as const;
/** Slots of the attributes we keep; the others (style, rel, data-*…) are never copied. */
const ATTRIBUTE_SLOTS = new Map([
  ["class", A_CLASS], ["id", A_ID], ["href", A_HREF], ["src", A_SRC], ["alt", A_ALT], ["title", A_TITLE], ["http-equiv", A_HTTP_EQUIV], ["content", A_CONTENT],
]);

/**
 * The URL of a refresh's `content` ("5; url='/next'", "0;URL=/next", "0, /next"), following
 * HTML's "shared declarative refresh steps"; null when it only reloads the page.
 */
export function refreshUrl(content: string): string | null {
  const match = /^\s*[\d.]*\s*[;,]?\s*(?:url\s*=\s*)?(.*)$/is.exec(content);
  let url = match?.[1]?.trim() ?? "";
  const quote = url[0];
  if (quote === "'" || quote === '"') {
    const end = url.indexOf(quote, 1);
    url = url.slice(1, end < 0 ? undefined : end);
  }
  return url === "" ? null : url;
}

function lowerName(html: string, start: number, end: number, utf8Bytes: boolean): string {
  let name = html.slice(start, end);
  if (!/[A-Z\x80-\uffff]/.test(name)) return name;
  if (utf8Bytes) name = textOfUtf8Bytes(name);
  return /[A-Z]/.test(name) ? name.toLowerCase() : name;
}

/**
 * Entity decoding on demand. The main pass runs with `decodeEntities: false`, so the
 * tokenizer jumps through text to the next `<` instead of checking every character for
 * `&` (0.28 → 0.17 ms on 40 KB). The few kept values containing `&` (`?a=1&amp;b=2`,
 * anchor texts) go through this second tokenizer, ~0.7 µs each: decoding stays
 * htmlparser2's own, HTML5-exact (`?a=1&copy=2` stays literal in an attribute).
 */
const decode = (() => {
  let buffer = "";
  let out = "";
  const append = (start: number, end: number): void => void (out += buffer.slice(start, end));
  const appendCodePoint = (codepoint: number): void => void (out += String.fromCodePoint(codepoint));
  const tokenizer = new Tokenizer({ decodeEntities: true }, {
    onattribdata: append, onattribentity: appendCodePoint, ontext: append, ontextentity: appendCodePoint,
    onattribend: noop, onattribname: noop, oncdata: noop, onclosetag: noop, oncomment: noop, ondeclaration: noop,
    onend: noop, onopentagend: noop, onopentagname: noop, onprocessinginstruction: noop, onselfclosingtag: noop,
  });
  return (value: string, inAttribute: boolean): string => {
    if (!value.includes("&")) return value;
    out = "";
    buffer = inAttribute ? '<a b="' + value.replace(/"/g, "&quot;") + '">' : value;
    tokenizer.reset();
    tokenizer.write(buffer);
    tokenizer.end();
    return out;
  };
})();

/** An open element; `path` is filled lazily, only for ancestors of links. */
type Entry = { readonly name: string; readonly step: string; path: string | undefined };
type RawLink = { readonly href: string; readonly tagPath: string; text: string; readonly tag: LinkTag };

class LinkCollector implements TokenizerCallbacks {
  private mode: "before-body" | "in-body" | "in-frameset" = "before-body";
  private htmlStep: string | null = null;
  private rootPath = "";
  private readonly stack: Entry[] = [];
  private openA = 0;
  private openP = 0;
  private foreign = 0;
  private textEntry: Entry | null = null;
  private textLink: RawLink | null = null;
  // current start tag
  private tag = "";
  private attrKind = 0;
  private attrValue = "";
  /** Values of the kept attributes of the current start tag, indexed by A_* slot. */
  private readonly attrs: (string | undefined)[] = new Array(9).fill(undefined);
  baseHref: string | null = null;
  readonly links: Record<LinkTag, RawLink[]> = { a: [], area: [], frame: [], iframe: [], meta: [] };

  /** `utf8Bytes`: see {@link PageContext.utf8Bytes}; names and kept values are decoded as they are cut. */
  constructor(
    private readonly html: string,
    private readonly utf8Bytes: boolean,
  ) {}

  onopentagname(start: number, end: number): void {
    this.tag = lowerName(this.html, start, end, this.utf8Bytes);
    this.attrs.fill(undefined);
  }
  onattribname(start: number, end: number): void {
    // Names over 5 characters are kept on <meta> only (http-equiv, content): elsewhere no lookup.
    this.attrKind = end - start > 5 && this.tag !== "meta" ? 0 : (ATTRIBUTE_SLOTS.get(lowerName(this.html, start, end, this.utf8Bytes)) ?? 0);
    this.attrValue = "";
  }
  onattribdata(start: number, end: number): void { if (this.attrKind !== 0) this.attrValue += this.html.slice(start, end); }
  onattribend(): void {
    // The first of duplicate attributes wins, as in HTML5.
    if (this.attrKind !== 0 && this.attrs[this.attrKind] === undefined) {
      this.attrs[this.attrKind] = decode(this.utf8Bytes ? textOfUtf8Bytes(this.attrValue) : this.attrValue, true);
    }
    this.attrKind = 0;
  }
  onopentagend(): void { this.openTag(false); }
  onselfclosingtag(): void { this.openTag(true); }
  onclosetag(start: number, end: number): void { this.closeTag(lowerName(this.html, start, end, this.utf8Bytes)); }
  ontext(start: number, end: number): void {
    // 4× the kept length survives whitespace collapsing (4 bytes a character in UTF-8 bytes); no
    // megabyte strings for a link that wraps a whole article.
    if (this.textLink && this.textLink.text.length < (this.utf8Bytes ? 16 : 4) * MAX_ANCHOR_CHARS) this.textLink.text += this.html.slice(start, end);
  }
  readonly onattribentity = noop; readonly ontextentity = noop; readonly oncdata = noop; readonly oncomment = noop;
  readonly ondeclaration = noop; readonly onprocessinginstruction = noop; readonly onend = noop;

  private step(name: string): string {
    let step = name;
    const cls = this.attrs[A_CLASS]?.trim();
    // The regex split only runs on untidy attributes (tabs, newlines, double spaces).
    if (cls) step += "." + (/[\t\n\f\r]| {2}/.test(cls) ? cls.split(/[\t\n\f\r ]+/).join(" ") : cls);
    const id = this.attrs[A_ID]?.trim();
    if (id) step += "#" + id;
    return step;
  }

  private openTag(selfClosing: boolean): void {
    const name = this.tag;
    this.tag = "";
    if (name === "" || name === "head") return;
    if (name === "html") {
      if (this.mode === "before-body" && this.htmlStep === null) this.htmlStep = this.step(name);
      return;
    }
    if (name === "body") {
      if (this.mode === "before-body") this.startBody(this.step(name));
      return;
    }
    if (name === "base") {
      if (this.baseHref === null && this.attrs[A_HREF] !== undefined) this.baseHref = this.attrs[A_HREF];
      return;
    }
    if (name === "meta") this.metaRefresh();
    if (this.mode === "before-body") {
      if (HEAD_ONLY.has(name)) return;
      if (name === "frameset") {
        this.mode = "in-frameset";
        this.rootPath = "/" + (this.htmlStep ?? "html");
      } else {
        this.startBody("body");
      }
    } else if (this.mode === "in-body" && this.foreign === 0) {
      this.impliedCloses(name);
    }

    const entry: Entry = { name, step: this.step(name), path: undefined };
    const href = name === "a" || name === "area" ? this.attrs[A_HREF] : name === "frame" || name === "iframe" ? this.attrs[A_SRC] : undefined;
    if (href !== undefined) {
      entry.path = this.topPath() + "/" + entry.step;
      const text = name === "area" ? this.attrs[A_ALT] : name === "a" ? "" : this.attrs[A_TITLE];
      const link: RawLink = { href, tagPath: entry.path, text: text ?? "", tag: name as LinkTag };
      this.links[link.tag].push(link);
      if (name === "a") {
        this.textEntry = entry;
        this.textLink = link;
      }
    }
    if (VOID.has(name) || (selfClosing && this.foreign > 0)) return;
    this.stack.push(entry);
    if (name === "a") this.openA++;
    else if (name === "p") this.openP++;
    else if (name === "svg" || name === "math") this.foreign++;
  }

  /** The first `<meta http-equiv="refresh" content="…; url=…">`, in the head or the body, is a link. */
  private metaRefresh(): void {
    if (this.links.meta.length > 0 || this.attrs[A_HTTP_EQUIV]?.trim().toLowerCase() !== "refresh") return;
    const href = refreshUrl(this.attrs[A_CONTENT] ?? "");
    if (href === null) return;
    const parent = this.mode === "before-body" ? "/" + (this.htmlStep ?? "html") + "/head" : this.topPath();
    this.links.meta.push({ href, tagPath: parent + "/" + this.step("meta"), text: "", tag: "meta" });
  }

  private closeTag(name: string): void {
    if (name === "html" || name === "body" || name === "head" || VOID.has(name)) return;
    // Non-special end tags (span, b, a…) stop at any special element, as HTML5's "any other end tag".
    const scope = SPECIAL.has(name) ? (END_TAG_SCOPES.get(name) ?? DEFAULT_SCOPE) : SPECIAL;
    for (let i = this.stack.length - 1; i >= 0; i--) {
      const other = this.stack[i]!.name;
      if (other === name) return this.popTo(i);
      if (scope.has(other)) return;
    }
  }

  private startBody(step: string): void {
    this.mode = "in-body";
    this.rootPath = "/" + (this.htmlStep ?? "html") + "/" + step;
  }

  private topPath(): string {
    const stack = this.stack;
    let i = stack.length - 1;
    while (i >= 0 && stack[i]!.path === undefined) i--;
    let path = i >= 0 ? stack[i]!.path! : this.rootPath;
    for (i++; i < stack.length; i++) {
      const e = stack[i]!;
      path = e.path = path + "/" + e.step;
    }
    return path;
  }

  /** Pops stack[index] and everything above it. */
  private popTo(index: number): void {
    while (this.stack.length > index) {
      const e = this.stack.pop()!;
      if (e.name === "a") this.openA--;
      else if (e.name === "p") this.openP--;
      else if (e.name === "svg" || e.name === "math") this.foreign--;
      if (e === this.textEntry) {
        this.textEntry = null;
        this.textLink = null;
      }
    }
  }

  private impliedCloses(name: string): void {
    if (this.openP > 0 && CLOSES_P.has(name)) this.closeNearest(P_RULE);
    const rule = CLOSE_RULES.get(name);
    if (rule !== undefined) {
      if (name !== "a" || this.openA > 0) this.closeNearest(rule);
      return;
    }
    const top = this.stack.length - 1;
    if (top < 0) return;
    const topName = this.stack[top]!.name;
    if ((HEADINGS.has(name) && HEADINGS.has(topName)) || ((name === "option" || name === "optgroup") && topName === "option")) {
      this.popTo(top);
      if (name === "optgroup" && this.stack[top - 1]?.name === "optgroup") this.popTo(top - 1);
    }
  }

  /** Closes the nearest `closes` element unless a `stops` element comes first. */
  private closeNearest(rule: CloseRule): void {
    for (let i = this.stack.length - 1; i >= 0; i--) {
      const n = this.stack[i]!.name;
      if (rule.closes.has(n)) return this.popTo(i);
      if (rule.stops.has(n)) return rule.popAbove ? this.popTo(i + 1) : undefined;
    }
  }
}

/** `utf8Bytes`: the text was cut from a UTF-8 byte string (an `a`'s content; the alt and title attributes are decoded already). */
function cleanText(text: string, utf8Bytes: boolean): string {
  if (text === "") return text;
  let collapsed = decode(utf8Bytes ? textOfUtf8Bytes(text) : text, false).trim();
  if (/\s\s|[^\S ]/.test(collapsed)) collapsed = collapsed.replace(/\s+/g, " ");
  return collapsed.length > MAX_ANCHOR_CHARS ? collapsed.slice(0, MAX_ANCHOR_CHARS).trimEnd() : collapsed;
}

/**
 * Every http(s) link of `html`: all `a[href]`, then `area[href]`, `frame[src]`,
 * `iframe[src]`, each group in document order, then the URL of the first
 * `<meta http-equiv="refresh">` (tag path `/html/head/meta`; `page.refreshHeader`, the response's
 * `Refresh` header, which browsers follow the same way, wins over it with the same tag path),
 * deduplicated by normalised URL
 * (first occurrence wins, and so fixes the tag path). The refresh is Forage's addition to
 * ALGORITHM.md's four tags: documentation hosted on static servers (GitHub Pages, Sphinx and
 * MkDocs redirect plugins) moves pages and roots with refresh-only pages, which would otherwise
 * be dead ends (a crawl rooted at one found nothing). Session ids are stripped
 * ({@link stripSessionIds}). Queries are percent-encoded in the page's encoding
 * ({@link encodeQueryFor}). Relative URLs resolve against the first
 * `<base href>` (itself resolved against `pageUrl`), else `pageUrl`. Never throws on
 * malformed HTML; non-http(s) links (`javascript:`, `mailto:`, `tel:`, `data:`) are
 * dropped.
 */
export function extractLinks(html: string, pageUrl: string, page: PageContext = {}): ExtractedLink[] {
  const { refreshHeader, encoding = "utf-8", utf8Bytes = false } = page;
  const collector = new LinkCollector(html, utf8Bytes);
  const tokenizer = new Tokenizer({ decodeEntities: false }, collector);
  tokenizer.write(html);
  tokenizer.end();
  const headerRefresh = refreshHeader === undefined ? null : refreshUrl(refreshHeader);
  if (headerRefresh !== null) collector.links.meta = [{ href: headerRefresh, tagPath: "/html/head/meta", text: "", tag: "meta" }];

  let baseHref = pageUrl;
  if (collector.baseHref !== null) baseHref = normalizeUrl(encodeQueryFor(collector.baseHref, encoding), pageUrl) ?? pageUrl;
  // The base is parsed once per page, not once per link.
  let resolveHref: (href: string) => string | null;
  try {
    resolveHref = hrefResolver(new URL(baseHref));
  } catch {
    // An unparsable base: every link goes through normalizeUrl, which drops what cannot resolve.
    resolveHref = (href) => normalizeUrl(href, baseHref);
  }
  const resolve = encoding === "utf-8" ? resolveHref : (href: string) => resolveHref(encodeQueryFor(href, encoding));

  const seen = new Set<string>();
  const out: ExtractedLink[] = [];
  for (const tag of ["a", "area", "frame", "iframe", "meta"] as const) {
    for (const link of collector.links[tag]) {
      const resolved = resolve(link.href);
      if (resolved === null) continue;
      const url = stripSessionIds(resolved);
      if (seen.has(url)) continue;
      seen.add(url);
      out.push({ url, tagPath: link.tagPath, anchorText: cleanText(link.text, utf8Bytes && tag === "a"), tag });
    }
  }
  return out;
}
