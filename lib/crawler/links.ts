/**
 * Link extraction with tag paths (docs/ALGORITHM.md, "Links and tag paths").
 *
 * htmlparser2's `Tokenizer` (the streaming layer under its `Parser`) plus our own element
 * stack, no DOM: building a DOM (cheerio) costs several times the whole tokenizing. `Parser` was
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
import { MAX_URL_CHARS, PAGE_LIMITS } from "./defaults";
import { textOfUtf8Bytes } from "./html-decoding";
import {
  CLOSE_RULES, CLOSES_P, type CloseRule, DEFAULT_SCOPE, END_TAG_SCOPES, HEAD_ONLY, HEADINGS, noop, P_RULE, SPECIAL, VOID,
} from "./html-tree-rules";
import { LinkResolver } from "./link-resolver";
import { decode, MAX_ANCHOR_CHARS, refreshUrl } from "./link-text";
import { stableClassNames } from "./tag-path-classes";
import type { ExtractedLink, LinkTag, PageContext, PageLimitCounts, PageLinks, ParsedPage, RawLink } from "./link-types";

export { refreshUrl } from "./link-text";
export { LinkResolver } from "./link-resolver";
export type { ExtractedLink, LinkTag, PageContext, PageLimitCounts, PageLinks } from "./link-types";

const { maxElementDepth, maxLinksPerPage, maxTagPathChars, maxAttributeChars, maxStackScanSteps } = PAGE_LIMITS;
/** How far down a search may walk once the page has spent `maxStackScanSteps`. */
const SHORT_SCAN = 32;

/** An href / src over `MAX_URL_CHARS`: the link is dropped and counted. */
const TOO_LONG = "\u0000too-long";
const [A_CLASS, A_ID, A_HREF, A_SRC, A_ALT, A_TITLE, A_HTTP_EQUIV, A_CONTENT] = [1, 2, 3, 4, 5, 6, 7, 8] as const;
/** Slots of the attributes we keep; the others (style, rel, data-*…) are never copied. */
const ATTRIBUTE_SLOTS = new Map([
  ["class", A_CLASS], ["id", A_ID], ["href", A_HREF], ["src", A_SRC], ["alt", A_ALT], ["title", A_TITLE], ["http-equiv", A_HTTP_EQUIV], ["content", A_CONTENT],
]);

function lowerName(html: string, start: number, end: number, utf8Bytes: boolean): string {
  let name = html.slice(start, end);
  if (!/[A-Z\x80-\uffff]/.test(name)) return name;
  if (utf8Bytes) name = textOfUtf8Bytes(name);
  return /[A-Z]/.test(name) ? name.toLowerCase() : name;
}

/**
 * An open element; `step` (from its class and id) and `path` are filled lazily, only for
 * ancestors of links: most elements of a page have no link inside.
 */
type Entry = { readonly name: string; readonly cls: string | undefined; readonly id: string | undefined; step: string | undefined; path: string | undefined };

/** Cuts a tag path (or one step) to `maxTagPathChars`; `slice` also flattens the concatenation. */
function capPath(path: string, limits: PageLimitCounts): string {
  if (path.length <= maxTagPathChars) return path;
  limits.valuesCut++;
  return path.slice(0, maxTagPathChars);
}

class LinkCollector implements TokenizerCallbacks, ParsedPage {
  private mode: "before-body" | "in-body" | "in-frameset" = "before-body";
  private htmlStep: string | null = null;
  private rootPath = "";
  private readonly stack: Entry[] = [];
  /**
   * End tags, and implied-close rules, that closed nothing since the stack last changed: a hostile
   * page repeating one (`</i>` × 300 000 under 512 open elements) scans the stack once, not each time.
   */
  private readonly idleEndTags = new Set<string>();
  private readonly idleRules = new Set<CloseRule>();
  private linkCount = 0;
  readonly limits: PageLimitCounts = { linksOverLimit: 0, urlsTooLong: 0, elementsTooDeep: 0, valuesCut: 0, scansCut: 0 };
  /** Stack entries walked by searches that closed nothing (see `scanBottom`). */
  private scanSteps = 0;
  private openA = 0;
  private openP = 0;
  private foreign = 0;
  private textEntry: Entry | null = null;
  private textLink: RawLink | null = null;
  // current start tag
  private tag = "";
  private attrKind = 0;
  private attrValue = "";
  /** Characters of the current attribute's value, kept or not. */
  private attrChars = 0;
  /** Values of the kept attributes of the current start tag, indexed by A_* slot. */
  private readonly attrs: (string | undefined)[] = new Array(9).fill(undefined);
  baseHref: string | null = null;
  readonly links: Record<LinkTag, RawLink[]> = { a: [], area: [], frame: [], iframe: [], meta: [] };

  /** `utf8Bytes`: see {@link PageContext.utf8Bytes}; names and kept values are decoded as they are cut. */
  constructor(
    private readonly html: string,
    private readonly utf8Bytes: boolean,
    private readonly stableNames: boolean,
  ) {}

  onopentagname(start: number, end: number): void {
    this.tag = lowerName(this.html, start, end, this.utf8Bytes);
    this.attrs.fill(undefined);
  }
  onattribname(start: number, end: number): void {
    // Names over 5 characters are kept on <meta> only (http-equiv, content): elsewhere no lookup.
    this.attrKind = end - start > 5 && this.tag !== "meta" ? 0 : (ATTRIBUTE_SLOTS.get(lowerName(this.html, start, end, this.utf8Bytes)) ?? 0);
    this.attrValue = "";
    this.attrChars = 0;
  }
  onattribdata(start: number, end: number): void {
    if (this.attrKind === 0) return;
    // Only the first `maxAttributeChars` are kept: an 8 MB class must not become an 8 MB tag path.
    const room = maxAttributeChars - this.attrValue.length;
    if (room > 0) this.attrValue += this.html.slice(start, Math.min(end, start + room));
    this.attrChars += end - start;
  }
  onattribend(): void {
    // The first of duplicate attributes wins, as in HTML5.
    if (this.attrKind !== 0 && this.attrs[this.attrKind] === undefined) {
      const isUrl = this.attrKind === A_HREF || this.attrKind === A_SRC;
      if (isUrl && this.attrChars > MAX_URL_CHARS) {
        this.attrs[this.attrKind] = TOO_LONG;
      } else {
        if (this.attrChars > maxAttributeChars) this.limits.valuesCut++;
        this.attrs[this.attrKind] = decode(this.utf8Bytes ? textOfUtf8Bytes(this.attrValue) : this.attrValue, true);
      }
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

  /** The current start tag's step. */
  private step(name: string): string {
    return this.stepFrom(name, this.attrs[A_CLASS], this.attrs[A_ID]);
  }

  private stepFrom(name: string, classAttribute: string | undefined, idAttribute: string | undefined): string {
    let step = name;
    const cls = classAttribute?.trim();
    // The regex split only runs on untidy attributes (tabs, newlines, double spaces).
    if (cls) {
      const list = /[\t\n\f\r]| {2}/.test(cls) ? cls.split(/[\t\n\f\r ]+/).join(" ") : cls;
      step += "." + (this.stableNames ? stableClassNames(list) : list);
    }
    const id = idAttribute?.trim();
    if (id) step += "#" + (this.stableNames ? stableClassNames(id) : id);
    return capPath(step, this.limits);
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
      if (this.baseHref === null && this.attrs[A_HREF] !== undefined && this.attrs[A_HREF] !== TOO_LONG) this.baseHref = this.attrs[A_HREF];
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

    const tooDeep = this.stack.length >= maxElementDepth;
    if (tooDeep) this.limits.elementsTooDeep++;
    const cls = this.attrs[A_CLASS];
    const id = this.attrs[A_ID];
    const entry: Entry = { name, cls, id, step: undefined, path: undefined };
    // A step can only be cut when its parts are that long (trimming and stable names only shorten
    // it): such a step is made now, so the page's cut values count every element, as when all were.
    if (name.length + (cls?.length ?? 0) + (id?.length ?? 0) + 2 > maxTagPathChars) entry.step = this.stepFrom(name, cls, id);
    let href = name === "a" || name === "area" ? this.attrs[A_HREF] : name === "frame" || name === "iframe" ? this.attrs[A_SRC] : undefined;
    if (href === TOO_LONG) {
      this.limits.urlsTooLong++;
      href = undefined;
    } else if (href !== undefined && this.linkCount >= maxLinksPerPage) {
      this.limits.linksOverLimit++;
      href = undefined;
    }
    if (href !== undefined) {
      this.linkCount++;
      entry.path = capPath(this.topPath() + "/" + this.stepOf(entry), this.limits);
      const text = name === "area" ? this.attrs[A_ALT] : name === "a" ? "" : this.attrs[A_TITLE];
      const link: RawLink = { href, tagPath: entry.path, text: text ?? "", tag: name as LinkTag };
      this.links[link.tag].push(link);
      if (name === "a") {
        this.textEntry = entry;
        this.textLink = link;
      }
    }
    if (VOID.has(name) || (selfClosing && this.foreign > 0) || tooDeep) return;
    this.stack.push(entry);
    this.stackChanged();
    if (name === "a") this.openA++;
    else if (name === "p") this.openP++;
    else if (name === "svg" || name === "math") this.foreign++;
  }

  /** The first `<meta http-equiv="refresh" content="…; url=…">`, in the head or the body, is a link. */
  private metaRefresh(): void {
    if (this.links.meta.length > 0 || this.attrs[A_HTTP_EQUIV]?.trim().toLowerCase() !== "refresh") return;
    const href = refreshUrl(this.attrs[A_CONTENT] ?? "");
    if (href === null) return;
    if (href.length > MAX_URL_CHARS) return void this.limits.urlsTooLong++;
    const parent = this.mode === "before-body" ? "/" + (this.htmlStep ?? "html") + "/head" : this.topPath();
    this.links.meta.push({ href, tagPath: parent + "/" + this.step("meta"), text: "", tag: "meta" });
  }

  private closeTag(name: string): void {
    if (name === "html" || name === "body" || name === "head" || VOID.has(name) || this.idleEndTags.has(name)) return;
    // Non-special end tags (span, b, a…) stop at any special element, as HTML5's "any other end tag".
    const scope = SPECIAL.has(name) ? (END_TAG_SCOPES.get(name) ?? DEFAULT_SCOPE) : SPECIAL;
    const bottom = this.scanBottom();
    for (let i = this.stack.length - 1; i >= bottom; i--) {
      const other = this.stack[i]!.name;
      if (other === name) return this.popTo(i);
      if (scope.has(other)) break;
    }
    this.scanned(bottom);
    this.idleEndTags.add(name);
  }

  /**
   * Lowest stack index a search for an element to close may reach. Each search walks down from the
   * top; past `PAGE_LIMITS.maxStackScanSteps` on one page (a page alternating `<x></x></b>` under
   * hundreds of open elements), searches stop {@link SHORT_SCAN} entries down and count as cut.
   */
  private scanBottom(): number {
    return this.scanSteps > maxStackScanSteps ? Math.max(0, this.stack.length - SHORT_SCAN) : 0;
  }

  /** Counts a search that walked down to `bottom` without closing anything. */
  private scanned(bottom: number): void {
    this.scanSteps += this.stack.length - bottom;
    if (bottom > 0) this.limits.scansCut++;
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
      path = e.path = capPath(path + "/" + this.stepOf(e), this.limits);
    }
    return path;
  }

  private stepOf(entry: Entry): string {
    return (entry.step ??= this.stepFrom(entry.name, entry.cls, entry.id));
  }

  /** Pops stack[index] and everything above it. */
  private popTo(index: number): void {
    if (this.stack.length > index) this.stackChanged();
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

  private stackChanged(): void {
    if (this.idleEndTags.size > 0) this.idleEndTags.clear();
    if (this.idleRules.size > 0) this.idleRules.clear();
  }

  /** Closes the nearest `closes` element unless a `stops` element comes first. */
  private closeNearest(rule: CloseRule): void {
    if (this.idleRules.has(rule)) return;
    const bottom = this.scanBottom();
    for (let i = this.stack.length - 1; i >= bottom; i--) {
      const n = this.stack[i]!.name;
      if (rule.closes.has(n)) return this.popTo(i);
      if (rule.stops.has(n)) {
        if (rule.popAbove && i + 1 < this.stack.length) return this.popTo(i + 1);
        break;
      }
    }
    this.scanned(bottom);
    this.idleRules.add(rule);
  }
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
  return extractPageLinks(html, pageUrl, page).links;
}

/** {@link extractLinks} with what the page limits cut (defaults.ts `PAGE_LIMITS`). */
export function extractPageLinks(html: string, pageUrl: string, page: PageContext = {}): PageLinks {
  const parser = new PageLinkParser(html, pageUrl, page);
  parser.write(0, html.length);
  return parser.finish();
}

/**
 * The parse of one page in steps, so that a caller can yield to the event loop between slices
 * (page-links-async.ts). The tokenizer reports absolute offsets, so slices cut anywhere, even
 * inside a tag or an attribute, give the links of one `write` of the whole page.
 */
export class PageLinkParser {
  private readonly collector: LinkCollector;
  private readonly tokenizer: Tokenizer;

  constructor(
    private readonly html: string,
    private readonly pageUrl: string,
    private readonly page: PageContext = {},
  ) {
    this.collector = new LinkCollector(html, page.utf8Bytes ?? false, page.stableClassNames ?? false);
    this.tokenizer = new Tokenizer({ decodeEntities: false }, this.collector);
  }

  /** Tokenizes `html[start, end)`; slices must follow each other. */
  write(start: number, end: number): void {
    this.tokenizer.write(start === 0 && end === this.html.length ? this.html : this.html.slice(start, end));
  }

  /** Ends the parse and resolves every link. */
  finish(): PageLinks {
    const resolver = this.end();
    resolver.resolveUpTo(Number.POSITIVE_INFINITY);
    return resolver.result();
  }

  /** Ends the parse; the returned resolver turns raw links into ExtractedLinks, in as many steps as the caller likes. */
  end(): LinkResolver {
    this.tokenizer.end();
    return new LinkResolver(this.collector, this.pageUrl, this.page);
  }
}

