/**
 * The pages of a family site: home, section listings (with their pagination kind and template),
 * group indexes, mega-pages, item details, download pages, hubs. Every page goes through one
 * frame (site navigation to every section, footer), as CMS sites do.
 */
import { breadcrumb, docEnd, docStart, linkList, nextOnlyPager, numberedPager, socialLinks, type LinkList, type PageMeta } from "../html-layout";
import type { HtmlSink } from "../html-sink";
import { hash32, scrambleId } from "../random";
import { dateString, humanBytes } from "../text";
import { versionDateText } from "./version-dates";
import {
  directFilePath, downloadPagePath, evolvedItem, FACET_FIRST_YEAR, fileFormat, fileIndexes, fileLinkPath, fileRef, fileViewPath, groupBase,
  itemPath, itemSeed, itemTitle, itemViewPath, listPath, sectionBase, stableItemCount, stableSectionCount, type ListQuery,
} from "./addresses";
import type { FamilyParams } from "./params";

/** The version a page is rendered in, when the site has versions (`FamilyParams.versions`). */
export interface PageVersion {
  current: string;
  all: readonly string[];
}

/** Renders a family site's pages; `items(section, group, query)` is the (cached) listing content. */
export class FamilyPages {
  constructor(
    private readonly p: FamilyParams,
    private readonly items: (section: number, group: number, q: ListQuery) => readonly number[],
    private readonly version?: PageVersion,
  ) {}

  frame(s: HtmlSink, meta: PageMeta, main: () => void): void {
    const p = this.p;
    docStart(s, p.siteName, meta);
    s.open("header", "site-header");
    s.a("/", p.siteName, "site-header__logo");
    s.open("nav", "main-nav", undefined, `aria-label="Main"`);
    linkList(s, p.sections.map((sec) => [sec.title, sectionBase(sec)] as const), "main-nav__menu", "main-nav__item");
    s.close("nav");
    s.a("/search", "Search", "site-header__search");
    s.close("header");
    // A 404 page has no "same page" in the other versions.
    if (this.version && meta.bodyClass !== "page-404") this.versionMenu(s, this.version);
    s.open("main", "site-main", "content");
    if (meta.crumbs) breadcrumb(s, meta.crumbs, meta.title, this.crumbClass(meta));
    main();
    s.close("main");
    s.open("footer", "site-footer");
    linkList(s, [["About", "/about"], ["Contact", "/contact"], ["Legal notice", "/legal"], ["Admin", "/admin/login"]], "site-footer__menu");
    socialLinks(s, "familysite");
    s.close("footer");
    docEnd(s);
  }

  /** The same page in every version (the page's own path is its key without the version prefix). */
  private versionMenu(s: HtmlSink, v: PageVersion): void {
    const own = s.pageKey.slice(v.current.length + 1);
    s.open("nav", "version-menu", undefined, `aria-label="Versions"`);
    linkList(s, v.all.map((w) => [w, `/${w}${own}`] as const), "version-menu__list", "version-menu__item");
    s.close("nav");
  }

  private crumbClass(meta: PageMeta): string {
    const m = /template-(\d+)/.exec(meta.bodyClass);
    return m ? this.p.templates[Number(m[1])]!.crumbs : "breadcrumb";
  }

  home(s: HtmlSink): void {
    const p = this.p;
    this.frame(s, { title: "Home", bodyClass: "page-home" }, () => {
      s.el("h1", "home__title", p.siteName);
      s.para(p.seed, 30);
      s.open("div", "home__sections");
      for (const sec of p.sections) {
        s.open("section", "home__section");
        s.el("h2", undefined, sec.title);
        s.a(sectionBase(sec), `All ${sec.slug}`, "home__more");
        s.close("section");
      }
      s.close("div");
      if (p.hubs > 0) {
        s.open("div", "home__topics");
        s.el("h2", undefined, "Topics");
        linkList(s, Array.from({ length: p.hubs }, (_, h) => [`Topic ${h + 1}`, `/topics/${h + 1}`] as const), "topics");
        s.close("div");
      }
    });
  }

  staticPage(s: HtmlSink, title: string): void {
    this.frame(s, { title, bodyClass: "page-static", crumbs: [["Home", "/"]] }, () => {
      s.el("h1", undefined, title);
      s.para(hash32(this.p.seed, title.length), 60);
    });
  }

  /** A paginated listing of a section (group 0) or of one group of a depth-3 section. */
  listing(s: HtmlSink, section: number, group: number, q: ListQuery, pages: number): void {
    const p = this.p;
    const sec = p.sections[section]!;
    const t = p.templates[sec.template]!;
    const base = group > 0 ? groupBase(sec, group) : sectionBase(sec);
    const all = this.items(section, group, q);
    const shown = all.slice((q.page - 1) * sec.perPage, q.page * sec.perPage);
    const crumbs: [string, string][] = [["Home", "/"]];
    if (group > 0) crumbs.push([sec.title, sectionBase(sec)]);
    const title = group > 0 ? `${sec.title}: group ${group}` : sec.title;
    this.frame(s, { title, bodyClass: `page-listing template-${sec.template}`, crumbs }, () => {
      s.el("h1", "listing__title", title);
      if (sec.sort) {
        s.open("div", "sort-links");
        for (const sort of [undefined, "title", "date"] as const) s.a(listPath(base, { ...q, sort, page: 1 }), sort ? `Sort by ${sort}` : "Default order", "sort-links__link");
        s.close("div");
      }
      if (sec.pagination === "facets") this.facets(s, section, base, q);
      if (sec.pagination === "calendar") s.a(`/${sec.slug}/calendar`, "Calendar view", "calendar-link");
      s.open("div", t.list);
      for (const n of shown) this.card(s, section, n);
      s.close("div");
      const href = (page: number) => listPath(base, { ...q, page });
      if (sec.pagination === "next-only") nextOnlyPager(s, q.page < pages ? href(q.page + 1) : null, t.pager);
      else numberedPager(s, q.page, pages, href, t.pager);
      if (group === 0 && q.page === 1 && q.topic === undefined && q.year === undefined && q.sort === undefined) {
        s.a(`/${sec.slug}/feed.xml`, "RSS feed", "feed-link");
        if (sec.megaPage) s.a(`/${sec.slug}/all`, "Show all on one page", "all-link");
      }
    });
  }

  private facets(s: HtmlSink, section: number, base: string, q: ListQuery): void {
    const sec = this.p.sections[section]!;
    s.open("aside", "facets");
    s.el("h2", "facets__title", "Filter");
    s.open("ul", "facets__topics");
    for (let topic = 0; topic < sec.facetTopics; topic++) {
      s.open("li", "facets__item");
      s.a(listPath(base, { topic, year: q.year, sort: q.sort, page: 1 }), `Topic ${topic + 1}`, "facets__link");
      s.close("li");
    }
    s.close("ul");
    s.open("ul", "facets__years");
    for (let year = FACET_FIRST_YEAR; year < FACET_FIRST_YEAR + sec.facetYears; year++) {
      s.open("li", "facets__item");
      s.a(listPath(base, { topic: q.topic, year, sort: q.sort, page: 1 }), String(year), "facets__link");
      s.close("li");
    }
    s.close("ul");
    s.close("aside");
  }

  /** One entry of a listing: a link to the item's page, or (depth 1) the item's files themselves. */
  card(s: HtmlSink, section: number, n: number): void {
    const p = this.p;
    const sec = p.sections[section]!;
    const t = p.templates[sec.template]!;
    s.open("article", t.card);
    if (sec.depth === 1) {
      s.el("h3", `${t.card}__title`, itemTitle(p, section, n));
      s.para(itemSeed(p, section, n), 12, `${t.card}__summary`);
      this.updatedMarker(s, section, n, `${t.card}__updated`);
      this.fileLinks(s, section, n, `${t.card}__files`);
    } else {
      s.open("h3", `${t.card}__title`);
      s.a(itemPath(p, section, n), itemTitle(p, section, n), `${t.card}__link`);
      s.close("h3");
      s.el("time", `${t.card}__date`, dateString(itemSeed(p, section, n)));
      this.updatedMarker(s, section, n, `${t.card}__updated`);
      if (sec.listFiles) this.fileLinks(s, section, n, `${t.card}__files`);
    }
    if (this.broken(section, n, 1)) s.a(`/${sec.slug}/removed-${n}`, "Archived version", `${t.card}__archived`);
    s.close("article");
  }

  private broken(section: number, n: number, salt: number): boolean {
    return this.p.brokenLinkRate > 0 && hash32(this.p.seed, 0xb40c, section * 8 + salt, n) / 4294967296 < this.p.brokenLinkRate;
  }

  /** "updated <date>" on an item a later version changed, when the site marks its changes. */
  private updatedMarker(s: HtmlSink, section: number, n: number, cls: string): void {
    const evolved = this.p.evolved;
    const updatedIn = evolvedItem(this.p, section, n)?.updatedIn ?? 1;
    if (evolved?.marksChanges && updatedIn > 1) s.el("span", cls, `updated ${versionDateText(updatedIn)}`);
  }

  /** The item's files as its section links them (one link to a download page, or one link per file). */
  private fileLinks(s: HtmlSink, section: number, n: number, cls: string): void {
    const p = this.p;
    const indexes = fileIndexes(p, section, n);
    const count = indexes.length;
    if (count === 0) return;
    s.open("ul", cls);
    if (p.sections[section]!.fileLink === "download-page") {
      s.open("li");
      s.a(downloadPagePath(p, section, n), `Downloads (${count})`, "download-page-link");
      s.close("li");
    } else {
      for (const k of indexes) {
        const ref = fileRef(p, section, n, k, false);
        s.open("li", "file");
        s.a(fileLinkPath(p, section, n, k), `Download ${fileFormat(p, section, n, k).toUpperCase()} (${humanBytes(ref.bytes)})`, "file__link");
        s.close("li");
      }
    }
    s.close("ul");
  }

  /** A depth-3 section's front page: its groups. */
  groupIndex(s: HtmlSink, section: number): void {
    const sec = this.p.sections[section]!;
    const t = this.p.templates[sec.template]!;
    this.frame(s, { title: sec.title, bodyClass: `page-groups template-${sec.template}`, crumbs: [["Home", "/"]] }, () => {
      s.el("h1", undefined, sec.title);
      s.open("div", t.list);
      for (let g = 1; g <= sec.groups; g++) {
        s.open("article", `${t.card} ${t.card}--group`);
        s.a(groupBase(sec, g), `${sec.title}: group ${g}`, `${t.card}__link`);
        s.close("article");
      }
      s.close("div");
      if (sec.pagination === "calendar") s.a(`/${sec.slug}/calendar`, "Calendar view", "calendar-link");
      s.a(`/${sec.slug}/feed.xml`, "RSS feed", "feed-link");
      if (sec.megaPage) s.a(`/${sec.slug}/all`, "Show all on one page", "all-link");
    });
  }

  megaPage(s: HtmlSink, section: number): void {
    const sec = this.p.sections[section]!;
    this.frame(s, { title: `All ${sec.slug}`, bodyClass: "page-all", crumbs: [["Home", "/"], [sec.title, sectionBase(sec)]] }, () => {
      s.el("h1", undefined, `All ${sec.slug}`);
      s.open("div", "all-items");
      for (const n of this.items(section, 0, { page: 1 })) this.card(s, section, n);
      s.close("div");
    });
  }

  /** An item's page; `variant` is its printable copy or its translation (same links but the switch back). */
  detail(s: HtmlSink, section: number, n: number, variant: "main" | "print" | "fr"): void {
    const p = this.p;
    const sec = p.sections[section]!;
    const t = p.templates[sec.template]!;
    const path = itemPath(p, section, n);
    const crumbs: [string, string][] = [["Home", "/"], [sec.title, sectionBase(sec)]];
    if (sec.depth === 3) crumbs.push([`Group ${((n - 1) % sec.groups) + 1}`, groupBase(sec, ((n - 1) % sec.groups) + 1)]);
    const seed = itemSeed(p, section, n);
    this.frame(s, { title: itemTitle(p, section, n), bodyClass: `page-item template-${sec.template}`, crumbs, lang: variant === "fr" ? "fr" : "en" }, () => {
      s.open("article", "item");
      s.el("h1", "item__title", itemTitle(p, section, n));
      s.el("time", "item__date", dateString(seed));
      this.updatedMarker(s, section, n, "item__updated");
      s.para(seed, 50);
      this.fileLinks(s, section, n, "item__files");
      if (this.broken(section, n, 2)) s.a(`/files/${sec.slug}/${n}-9.pdf`, "Previous edition (PDF)", "item__old-file");
      if (p.extensionlessImages) s.aWrap(`/img/${scrambleId(hash32(section, n))}`, "item__figure", () => s.img(`/img/${scrambleId(hash32(section, n))}`, "Figure"));
      if (p.extensionImages) s.a(`/media/photo-${section}-${n}.jpg`, "Photo", "item__photo");
      const tools: [string, string][] = [];
      if (variant === "main" && sec.print) tools.push(["Printable version", sec.itemUrl === "query" ? `${path}&print=1` : `${path}?print=1`]);
      if (sec.lang) tools.push(variant === "fr" ? ["English", path] : ["Français", `/fr${path}`]);
      if (sec.pagination === "calendar") tools.push(["In the calendar", `/${sec.slug}/calendar`]);
      linkList(s, tools, "item__tools", "item__tool");
      s.el("h2", "related__title", "Related");
      const related: LinkList = [1, 2, 3].map((i) => {
        const m = 1 + (hash32(seed, i) % stableItemCount(p, section));
        return [itemTitle(p, section, m), itemPath(p, section, m)] as const;
      });
      linkList(s, related, "related", `${t.card} related__item`);
      s.close("article");
      if (variant === "main" && sec.views) this.viewTabs(s, section, n);
    });
  }

  /** Tabs to the item's page and each of its views; after the content, as MediaWiki's skin writes them. */
  private viewTabs(s: HtmlSink, section: number, n: number): void {
    const views = this.p.sections[section]!.views ?? [];
    linkList(s, [["Page", itemPath(this.p, section, n)], ...views.map((view) => [view, itemViewPath(this.p, section, n, view)] as const)], "item__views", "item__view");
  }

  /** An auxiliary view of an item's page (history, diff, old revision…): its tabs, no files. */
  view(s: HtmlSink, section: number, n: number, view: string): void {
    const p = this.p;
    const sec = p.sections[section]!;
    const title = `${itemTitle(p, section, n)}: ${view}`;
    this.frame(s, { title, bodyClass: `page-view page-view-${view}`, crumbs: [["Home", "/"], [sec.title, sectionBase(sec)]] }, () => {
      s.el("h1", "view__title", title);
      this.viewTabs(s, section, n);
      s.para(hash32(itemSeed(p, section, n), view.length), 40);
    });
  }

  /** A file shown as an HTML page named like the file, linking the file itself ("view-page" sections). */
  fileView(s: HtmlSink, section: number, n: number, k: number): void {
    const p = this.p;
    const sec = p.sections[section]!;
    const name = fileViewPath(p, section, n, k).slice(sec.slug.length + 6);
    this.frame(s, { title: name, bodyClass: "page-file-view", crumbs: [["Home", "/"], [sec.title, sectionBase(sec)]] }, () => {
      s.el("h1", "file-view__title", name);
      s.a(directFilePath(p, section, n, k), "Raw", "file-view__raw");
      if (sec.depth !== 1) s.a(itemPath(p, section, n), itemTitle(p, section, n), "file-view__item");
      s.para(hash32(itemSeed(p, section, n), k), 60, "file-view__preview");
    });
  }

  downloadPage(s: HtmlSink, section: number, n: number): void {
    const p = this.p;
    const sec = p.sections[section]!;
    const back = sec.depth === 1 ? sectionBase(sec) : itemPath(p, section, n);
    this.frame(s, { title: `Downloads: ${itemTitle(p, section, n)}`, bodyClass: "page-downloads", crumbs: [["Home", "/"], [sec.title, sectionBase(sec)]] }, () => {
      s.el("h1", undefined, `Downloads: ${itemTitle(p, section, n)}`);
      s.open("ul", "downloads");
      for (const k of fileIndexes(p, section, n)) {
        s.open("li", "downloads__file");
        s.a(directFilePath(p, section, n, k), `File ${k} (${fileFormat(p, section, n, k).toUpperCase()})`, "downloads__link");
        s.close("li");
      }
      s.close("ul");
      s.a(back, "Back", "downloads__back");
    });
  }

  /** A topic hub: links to items of several sections (their listings for depth-1 sections). */
  hub(s: HtmlSink, h: number): void {
    const p = this.p;
    this.frame(s, { title: `Topic ${h}`, bodyClass: "page-hub", crumbs: [["Home", "/"]] }, () => {
      s.el("h1", undefined, `Topic ${h}`);
      const links: [string, string][] = [];
      for (let i = 0; i < p.hubLinks; i++) {
        const r = hash32(p.seed, 0x4b, h, i);
        const section = r % stableSectionCount(p);
        const sec = p.sections[section]!;
        const n = 1 + ((r >>> 8) % stableItemCount(p, section));
        if (sec.depth === 1) links.push([sec.title, sectionBase(sec)]);
        else links.push([itemTitle(p, section, n), itemPath(p, section, n)]);
      }
      linkList(s, links, "hub__links", "hub__item");
    });
  }

  notFound(s: HtmlSink): void {
    this.frame(s, { title: "Page not found", bodyClass: "page-404", crumbs: [["Home", "/"]] }, () => {
      s.el("h1", undefined, "Page not found");
      s.para(this.p.seed, 12);
    });
  }
}
