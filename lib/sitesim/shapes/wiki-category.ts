/**
 * Category pages (`/wiki/Category:<name>`): subcategories, "Pages in category" and
 * "Media in category" (a gallery of description pages), 200 of each a page. A section
 * with more pages links "(previous page) (next page)" above and below it as
 * `/index.php?title=Category:X&pagefrom=<title>#mw-pages` and `pageuntil=` (`filefrom`,
 * `fileuntil`, `subcatfrom`, `subcatuntil` for the other sections), keeping the other
 * sections' positions in the query, as MediaWiki does.
 */
import type { HtmlSink } from "../html-sink";
import { parserOutput } from "./wiki-content";
import { CATEGORY_PAGE_SIZE, type WikiModel } from "./wiki-model";
import { indexHref, thumbHref, viewHref } from "./wiki-urls";

export type CategorySection = "subcat" | "page" | "file";
const SECTIONS: readonly CategorySection[] = ["subcat", "page", "file"];

/** Position of each section: `from` (first title shown) or `until` (first title not shown). */
export type CategoryQuery = Partial<Record<`${CategorySection}${"from" | "until"}`, string>>;

const PARAMS = new Set(SECTIONS.flatMap((x) => [`${x}from`, `${x}until`]));

/** Category paging parameters from a query; null when it holds anything else or both from and until. */
export function parseCategoryQuery(pairs: ReadonlyArray<readonly [string, string]>): CategoryQuery | null {
  const q: CategoryQuery = {};
  for (const [k, v] of pairs) {
    if (!PARAMS.has(k) || v === "") return null;
    q[k as keyof CategoryQuery] = v;
  }
  for (const x of SECTIONS) if (q[`${x}from`] !== undefined && q[`${x}until`] !== undefined) return null;
  return q;
}

function sectionItems(m: WikiModel, c: number, x: CategorySection): number[] {
  const cat = m.categories[c]!;
  return x === "page" ? cat.members : x === "file" ? cat.files : cat.subcats.map((k) => m.categories[k]!.page);
}

const sortKey = (m: WikiModel, p: number) => m.pages[p]!.title.text.toUpperCase();

/** [start, end) of the slice a section shows. */
function window(m: WikiModel, items: readonly number[], from?: string, until?: string): [number, number] {
  if (from !== undefined) {
    const key = from.toUpperCase();
    let i = 0;
    while (i < items.length && sortKey(m, items[i]!) < key) i++;
    return [i, Math.min(items.length, i + CATEGORY_PAGE_SIZE)];
  }
  if (until !== undefined) {
    const key = until.toUpperCase();
    let i = 0;
    while (i < items.length && sortKey(m, items[i]!) < key) i++;
    return [Math.max(0, i - CATEGORY_PAGE_SIZE), i];
  }
  return [0, Math.min(items.length, CATEGORY_PAGE_SIZE)];
}

function pagingHref(m: WikiModel, c: number, q: CategoryQuery, x: CategorySection, dir: "from" | "until", value: string): string {
  const next: CategoryQuery = { ...q, [`${x}from`]: undefined, [`${x}until`]: undefined, [`${x}${dir}`]: value };
  const pairs: Array<[string, string]> = [];
  for (const y of SECTIONS) for (const d of ["from", "until"] as const) {
    const v = next[`${y}${d}`];
    if (v !== undefined) pairs.push([`${y}${d}`, v]);
  }
  return indexHref(m.pages[m.categories[c]!.page]!.title, pairs) + (x === "page" ? "#mw-pages" : x === "file" ? "#mw-category-media" : "#mw-subcategories");
}

function pagingLinks(s: HtmlSink, m: WikiModel, c: number, q: CategoryQuery, x: CategorySection, items: readonly number[], lo: number, hi: number): void {
  if (lo === 0 && hi === items.length) return;
  s.text("(");
  if (lo > 0) s.a(pagingHref(m, c, q, x, "until", m.pages[items[lo]!]!.title.text), "previous page");
  else s.text("previous page");
  s.text(") (");
  if (hi < items.length) s.a(pagingHref(m, c, q, x, "from", m.pages[items[hi]!]!.title.text), "next page");
  else s.text("next page");
  s.text(")");
}

/** The inside of `#mw-content-text` on a category page. */
export function categoryBody(s: HtmlSink, m: WikiModel, p: number, q: CategoryQuery): void {
  const c = m.pages[p]!.ref;
  const name = m.pages[p]!.title.text;
  parserOutput(s, m, p);
  for (const x of SECTIONS) {
    const items = sectionItems(m, c, x);
    if (items.length === 0) continue;
    const [lo, hi] = window(m, items, q[`${x}from`], q[`${x}until`]);
    const id = x === "page" ? "mw-pages" : x === "file" ? "mw-category-media" : "mw-subcategories";
    s.open("div", undefined, id);
    s.el("h2", undefined, x === "page" ? `Pages in category "${name}"` : x === "file" ? `Media in category "${name}"` : "Subcategories");
    s.el("p", undefined, `The following ${hi - lo} ${x === "page" ? "pages are" : x === "file" ? "files are" : "subcategories are"} in this category, out of ${items.length.toLocaleString("en-US")} total.`);
    pagingLinks(s, m, c, q, x, items, lo, hi);
    if (x === "file") {
      s.open("ul", "gallery mw-gallery-traditional");
      for (let k = lo; k < hi; k++) {
        const fp = m.pages[items[k]!]!;
        const file = m.files[fp.ref]!;
        const href = viewHref(fp.title);
        s.open("li", "gallerybox");
        s.open("div", "thumb");
        s.aWrap(href, "image", () => s.img(file.image || file.format === "pdf" ? thumbHref(file.name, 120) : "/resources/assets/file-type-icons/fileicon.png", ""));
        s.close("div");
        s.open("div", "gallerytext");
        s.a(href, fp.title.text, "galleryfilename galleryfilename-truncate");
        s.close("div");
        s.close("li");
      }
      s.close("ul");
    } else {
      s.open("div", "mw-category");
      let letter = "";
      for (let k = lo; k < hi; k++) {
        const member = m.pages[items[k]!]!;
        const first = member.title.text.charAt(0).toUpperCase();
        if (first !== letter) {
          if (letter !== "") s.raw("</ul></div>");
          letter = first;
          s.raw(`<div class="mw-category-group"><h3>${s.withText ? letter.replace(/&/g, "&amp;").replace(/</g, "&lt;") : ""}</h3><ul>`);
        }
        s.open("li");
        s.a(viewHref(member.title), x === "subcat" ? member.title.text : member.title.ns === 0 ? member.title.text : `${member.title.ns === 3000 ? "Glossary:" : ""}${member.title.text}`, member.redirectTo >= 0 ? "mw-redirect" : undefined);
        s.close("li");
      }
      if (letter !== "") s.raw("</ul></div>");
      s.close("div");
    }
    pagingLinks(s, m, c, q, x, items, lo, hi);
    s.close("div");
  }
}
