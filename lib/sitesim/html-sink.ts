/**
 * One rendering code path, two outputs. Page generators write through an HtmlSink:
 * in "html" mode it builds the document; in "links" mode it only records the in-site
 * links, in the order a crawler extracts them (all `a[href]`, then `area[href]`, then
 * `iframe[src]`), and skips text. Ground truth walks tens of thousands of pages in
 * links mode, so it never builds or parses HTML, yet cannot disagree with what the
 * server sends.
 */
import { paragraph } from "./text";

export type SinkMode = "html" | "links";

/** How an in-site link is spelled in the HTML (all resolve to the same URL). */
export type LinkForm = "path" | "absolute" | "protocol-relative";

const SCHEME = /^[a-zA-Z][a-zA-Z0-9+.-]*:/;

const TEXT_SPECIAL = /[&<>]/;
const ATTR_SPECIAL = /[&"<]/;

function escapeText(s: string): string {
  return TEXT_SPECIAL.test(s) ? s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;") : s;
}

function escapeAttr(s: string): string {
  return ATTR_SPECIAL.test(s) ? s.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;") : s;
}

function stripFragment(s: string): string {
  const i = s.indexOf("#");
  return i < 0 ? s : s.slice(0, i);
}

function pathnameOf(key: string): string {
  const i = key.indexOf("?");
  return i < 0 ? key : key.slice(0, i);
}

/**
 * The in-site key (path + query, no fragment) an href resolves to from `pageKey`, or
 * null for other hosts and schemes. Handles only the href forms the generators emit
 * (root-relative, `?query`, `#fragment`, one-segment relative); the unit tests check it
 * against WHATWG URL resolution on real pages.
 */
export function resolveKey(href: string, pageKey: string): string | null {
  const h = href.trim();
  if (h === "" || h.startsWith("#")) return stripFragment(pageKey);
  if (h.startsWith("//") || SCHEME.test(h)) return null;
  const noFrag = stripFragment(h);
  if (noFrag.startsWith("?")) return pathnameOf(pageKey) + noFrag;
  if (noFrag.startsWith("/")) return noFrag;
  return pathnameOf(pageKey).replace(/[^/]*$/, "") + noFrag;
}

export class HtmlSink {
  /** False in links mode: generators may skip building text. */
  readonly withText: boolean;
  /** In-site keys of `a[href]`, document order, duplicates kept. */
  readonly links: string[] = [];
  /** In-site keys of `area[href]` and `iframe[src]`: crawlers read these after all anchors. */
  readonly lateLinks: string[] = [];
  /** Hrefs to other hosts or schemes (mailto:, javascript:…), links mode only. */
  readonly external: string[] = [];
  private readonly parts: string[] = [];

  /**
   * @param pageKey path + query of the page being rendered (resolves relative hrefs)
   * @param host value of the request's Host header; absolute in-site links need it and
   *   fall back to root-relative paths without it
   */
  constructor(
    readonly mode: SinkMode,
    readonly pageKey: string,
    /** Request Host header (null: links stay root-relative); heads that write absolute URLs read it. */
    readonly host: string | null = null,
  ) {
    this.withText = mode === "html";
  }

  raw(html: string): void {
    if (this.withText) this.parts.push(html);
  }

  open(tag: string, cls?: string, id?: string, attrs?: string): void {
    if (!this.withText) return;
    let s = "<" + tag;
    if (cls) s += ` class="${cls}"`;
    if (id) s += ` id="${id}"`;
    if (attrs) s += " " + attrs;
    this.parts.push(s + ">");
  }

  close(tag: string): void {
    if (this.withText) this.parts.push(`</${tag}>`);
  }

  text(s: string): void {
    if (this.withText) this.parts.push(escapeText(s));
  }

  /** `<tag class>text</tag>`. */
  el(tag: string, cls: string | undefined, text: string, id?: string): void {
    if (!this.withText) return;
    this.open(tag, cls, id);
    this.parts.push(escapeText(text));
    this.parts.push(`</${tag}>`);
  }

  /** A paragraph of filler text; free in links mode. */
  para(seed: number, nWords: number, cls?: string): void {
    if (this.withText) this.el("p", cls, paragraph(seed, nWords));
  }

  /** An anchor whose href is written verbatim (relative, `?q`, `#f`, or another host). */
  a(href: string, label: string, cls?: string, attrs?: string): void {
    if (this.withText) {
      let s = `<a href="${escapeAttr(href)}"`;
      if (cls) s += ` class="${cls}"`;
      if (attrs) s += " " + attrs;
      this.parts.push(s + ">" + escapeText(label) + "</a>");
      return;
    }
    const key = resolveKey(href, this.pageKey);
    if (key === null) this.external.push(href);
    else this.links.push(key);
  }

  /** An anchor wrapping other markup (a thumbnail image, a card). */
  aWrap(href: string, cls: string | undefined, inner: () => void, attrs?: string): void {
    if (!this.withText) {
      const key = resolveKey(href, this.pageKey);
      if (key === null) this.external.push(href);
      else this.links.push(key);
      return;
    }
    this.open("a", cls, undefined, `href="${escapeAttr(href)}"` + (attrs ? " " + attrs : ""));
    inner();
    this.parts.push("</a>");
  }

  /** An in-site anchor spelled with scheme and host (or `//host`), as some CMSs do. */
  siteA(path: string, label: string, form: LinkForm, cls?: string, attrs?: string): void {
    if (!this.withText) {
      this.links.push(stripFragment(path));
      return;
    }
    const href =
      this.host === null || form === "path" ? path
      : form === "absolute" ? `http://${this.host}${path}`
      : `//${this.host}${path}`;
    let s = `<a href="${escapeAttr(href)}"`;
    if (cls) s += ` class="${cls}"`;
    if (attrs) s += " " + attrs;
    this.parts.push(s + ">" + escapeText(label) + "</a>");
  }

  /** `<area>` inside a `<map>`: in-site hrefs only. */
  area(href: string, alt: string, coords: string): void {
    if (!this.withText) {
      const key = resolveKey(href, this.pageKey);
      if (key === null) this.external.push(href);
      else this.lateLinks.push(key);
      return;
    }
    this.parts.push(`<area shape="rect" coords="${coords}" href="${escapeAttr(href)}" alt="${escapeAttr(alt)}">`);
  }

  iframe(src: string, title: string, cls?: string): void {
    if (!this.withText) {
      const key = resolveKey(src, this.pageKey);
      if (key === null) this.external.push(src);
      else this.lateLinks.push(key);
      return;
    }
    this.parts.push(`<iframe src="${escapeAttr(src)}" title="${escapeAttr(title)}"${cls ? ` class="${cls}"` : ""} loading="lazy"></iframe>`);
  }

  img(src: string, alt: string, cls?: string): void {
    if (this.withText) this.parts.push(`<img src="${escapeAttr(src)}" alt="${escapeAttr(alt)}"${cls ? ` class="${cls}"` : ""}>`);
  }

  html(): string {
    return this.parts.join("");
  }

  /** Every in-site link key in crawler extraction order. */
  allLinks(): string[] {
    return this.lateLinks.length === 0 ? this.links : this.links.concat(this.lateLinks);
  }
}
