/**
 * Research repository item pages: the simple record (`/handle/<prefix>/<n>`), the full
 * record (`?show=full`, a near-duplicate listing the same files) and the usage
 * statistics page (HTML only).
 */
import type { Frame } from "../html-layout";
import type { HtmlSink } from "../html-sink";
import { hash32, Rng } from "../random";
import { humanBytes, paragraph } from "../text";
import { valueHref } from "./research-browse";
import { bitstreams, EXPORT_FORMATS, type Bitstream } from "./research-files";
import {
  authorsOf, formatDate, handleHref, itemHref, itemType, subjectsOf, type RepoModel, type Scope,
} from "./research-model";
import { scopeBrowseBlock, scopeTrail } from "./research-parts";
import { journalName } from "./research-text";

const EXPORT_LABELS: Record<(typeof EXPORT_FORMATS)[number], string> = { ris: "RIS", bibtex: "BibTeX", endnote: "EndNote" };

function collectionScope(m: RepoModel, i: number): Scope {
  return { kind: "collection", index: m.itemColl[i]! };
}

function thumbnail(s: HtmlSink, b: Bitstream): void {
  if (b.thumbHref === null) return;
  // Opens the preview in a lightbox: a JPEG link, which crawlers skip for its extension.
  s.aWrap(b.thumbHref, "image-link", () => s.img(b.thumbHref!, "Thumbnail", "img-responsive img-thumbnail"), `data-lightbox="item"`);
}

function fileEntry(s: HtmlSink, b: Bitstream): void {
  s.open("div", b.access === "open" ? "file-wrapper" : "file-wrapper restricted");
  s.a(b.href, `${b.name} (${humanBytes(b.file.bytes)})`, "file-link", `title="${b.description}"`);
  if (b.access !== "open") s.el("span", "label label-warning", b.access === "login" ? "Restricted access" : "Embargoed");
  s.close("div");
}

/** The item's collection, as both record views list it. */
function collectionList(s: HtmlSink, m: RepoModel, i: number): void {
  const coll = m.collections[m.itemColl[i]!]!;
  s.open("ul", "ds-referenceSet-list");
  s.open("li");
  s.a(handleHref(m, coll.handle), coll.name);
  s.close("li");
  s.close("ul");
}

function sidebar(s: HtmlSink, m: RepoModel, i: number): void {
  scopeBrowseBlock(s, m, collectionScope(m, i));
  s.el("h2", "ds-option-set-head page-header h6", "Statistics");
  s.open("div", "list-group");
  s.a(`${itemHref(m, i)}/statistics`, "View Usage Statistics", "list-group-item ds-option");
  s.close("div");
}

export function itemPage(s: HtmlSink, m: RepoModel, frame: Frame, i: number): void {
  const files = bitstreams(m, i);
  const href = itemHref(m, i);
  const r = new Rng(hash32(m.seed, 0x17e, i));
  const coll = m.collections[m.itemColl[i]!]!;
  frame(s, { title: m.itemTitle[i]!, bodyClass: "item-view", crumbs: scopeTrail(m, collectionScope(m, i)) }, () => {
    s.open("div", "item-summary-view-metadata");
    s.el("h2", "page-header first-page-header", m.itemTitle[i]!);
    s.open("div", "row");
    s.open("div", "col-sm-4");
    s.open("div", "thumbnail");
    const first = files.find((b) => b.thumbHref !== null);
    if (first) thumbnail(s, first);
    s.close("div");
    s.open("div", "item-page-field-wrapper table word-break");
    s.el("h5", undefined, "Files in this item");
    if (files.length === 0) s.el("p", "metadata-only", "This item is a metadata-only record: no files are available from this repository.");
    for (const b of files) fileEntry(s, b);
    s.close("div");
    s.open("div", "simple-item-view-date word-break item-page-field-wrapper table");
    s.el("h5", undefined, "Date");
    s.text(formatDate(m.itemIssued[i]!));
    s.close("div");
    s.open("div", "simple-item-view-authors item-page-field-wrapper table");
    s.el("h5", undefined, "Author");
    for (const a of authorsOf(m, i)) {
      s.open("div");
      s.a(valueHref(m, { kind: "site" }, "author", a), m.authors[a]!);
      s.close("div");
    }
    s.close("div");
    s.open("div", "simple-item-view-show-full item-page-field-wrapper table");
    s.el("h5", undefined, "Metadata");
    s.a(`${href}?show=full`, "Show full item record");
    s.close("div");
    s.open("div", "item-page-field-wrapper export-citation");
    s.el("h5", undefined, "Export citation");
    for (const f of EXPORT_FORMATS) s.a(`${href}/export?format=${f}`, EXPORT_LABELS[f], "btn btn-default btn-xs");
    s.close("div");
    s.close("div");
    s.open("div", "col-sm-8");
    s.open("div", "simple-item-view-description item-page-field-wrapper table");
    s.el("h5", undefined, "Abstract");
    s.para(hash32(m.seed, 0xab5, i), 24);
    s.para(hash32(m.seed, 0xab6, i), 110);
    s.close("div");
    s.open("div", "simple-item-view-uri item-page-field-wrapper table");
    s.el("h5", undefined, "URI");
    s.a(`http://hdl.handle.net/${m.prefix}/${m.itemHandle[i]}`, `http://hdl.handle.net/${m.prefix}/${m.itemHandle[i]}`);
    if (itemType(m, i) === "article") {
      const doi = `10.${1000 + (hash32(m.seed, 0xd0, i) % 9000)}/${(hash32(m.seed, 0xd1, i) % 1_000_000).toString(36)}`;
      s.el("h5", undefined, `Published in ${journalName(hash32(m.seed, 0x10, i), m.communities[coll.community]!.faculty.topics)}`);
      s.a(`https://doi.org/${doi}`, `https://doi.org/${doi}`, "doi");
    }
    s.close("div");
    s.open("div", "simple-item-view-subjects item-page-field-wrapper table");
    s.el("h5", undefined, "Subject");
    for (const t of subjectsOf(m, i)) {
      s.a(valueHref(m, { kind: "site" }, "subject", t), m.subjects[t]!, "subject");
      s.text("; ");
    }
    s.close("div");
    s.open("div", "simple-item-view-collections item-page-field-wrapper table");
    s.el("h5", undefined, "Collections");
    collectionList(s, m, i);
    s.close("div");
    // Items migrated from the old JSPUI interface still cite their former address.
    if (r.chance(0.05)) {
      s.open("div", "item-page-field-wrapper former-uri");
      s.el("h5", undefined, "Previously available at");
      s.siteA(`/jspui/handle/${m.prefix}/${m.itemHandle[i]}`, "Former address", "absolute");
      s.close("div");
    }
    s.close("div");
    s.close("div");
    s.close("div");
    related(s, m, i, r);
  }, () => sidebar(s, m, i));
}

/** "Related items" (more like this): same collection; now and then a deleted item (404). */
function related(s: HtmlSink, m: RepoModel, i: number, r: Rng): void {
  const pool = m.collLists[m.itemColl[i]!]!.recent;
  if (pool.length < 2) return;
  s.open("div", "ds-static-div secondary related-items");
  s.el("h3", "ds-div-head page-header", "Related items");
  s.el("p", undefined, "Showing items related by title, author, creator and subject.");
  s.open("ul", "ds-artifact-list list-unstyled");
  for (let k = 0; k < 3; k++) {
    s.open("li", "ds-artifact-item");
    if (m.gaps.length > 0 && r.chance(0.02)) s.a(handleHref(m, m.gaps[r.int(m.gaps.length)]!), "Withdrawn item");
    else {
      const j = pool[r.int(pool.length)]!;
      s.a(itemHref(m, j), m.itemTitle[j]!);
    }
    s.close("li");
  }
  s.close("ul");
  s.close("div");
}

const DC_TYPES: Record<string, string> = {
  thesis: "Thesis", article: "Article", conference: "Conference paper", report: "Working paper", dataset: "Dataset", book: "Book chapter", image: "Image",
};

export function fullItemPage(s: HtmlSink, m: RepoModel, frame: Frame, i: number): void {
  const files = bitstreams(m, i);
  const href = itemHref(m, i);
  const row = (field: string, value: string) => {
    s.open("tr", "ds-table-row");
    s.el("td", "label-cell", field);
    s.el("td", "word-break", value);
    s.el("td", undefined, "en");
    s.close("tr");
  };
  frame(s, { title: m.itemTitle[i]!, bodyClass: "item-view-full", crumbs: scopeTrail(m, collectionScope(m, i)) }, () => {
    s.el("h2", "page-header first-page-header", m.itemTitle[i]!);
    s.open("div", "ds-table-responsive");
    s.open("table", "ds-includeSet-table detailtable table table-striped table-hover");
    for (const a of authorsOf(m, i)) row("dc.contributor.author", m.authors[a]!);
    const stamp = `${formatDate(m.itemAccessioned[i]!)}T10:${String(hash32(m.seed, 0xacc, i) % 60).padStart(2, "0")}:00Z`;
    row("dc.date.accessioned", stamp);
    row("dc.date.available", stamp);
    row("dc.date.issued", formatDate(m.itemIssued[i]!));
    s.open("tr", "ds-table-row");
    s.el("td", "label-cell", "dc.identifier.uri");
    s.open("td", "word-break");
    s.a(`http://hdl.handle.net/${m.prefix}/${m.itemHandle[i]}`, `http://hdl.handle.net/${m.prefix}/${m.itemHandle[i]}`);
    s.close("td");
    s.el("td", undefined, "");
    s.close("tr");
    if (s.withText) row("dc.description.abstract", paragraph(hash32(m.seed, 0xab6, i), 110));
    for (const t of subjectsOf(m, i)) row("dc.subject", m.subjects[t]!);
    row("dc.title", m.itemTitle[i]!);
    row("dc.type", DC_TYPES[itemType(m, i)]!);
    s.close("table");
    s.close("div");
    s.open("div", "file-list");
    s.el("h4", undefined, "Files in this item");
    if (files.length === 0) s.el("p", "metadata-only", "There are no files associated with this item.");
    for (const b of files) {
      s.open("div", "file-wrapper row");
      s.open("div", "col-xs-6 col-sm-3");
      thumbnail(s, b);
      s.close("div");
      s.open("div", "col-xs-6 col-sm-7");
      s.raw(`<dl class="file-metadata dl-horizontal"><dt>Name:</dt><dd>`);
      s.text(b.name);
      s.raw(`</dd><dt>Size:</dt><dd>${humanBytes(b.file.bytes)}</dd><dt>Format:</dt><dd>${b.format.toUpperCase()}</dd></dl>`);
      s.close("div");
      s.open("div", "file-link col-xs-6 col-xs-offset-6 col-sm-2 col-sm-offset-0");
      s.a(b.href, b.access === "open" ? "View/Open" : "Request a copy");
      s.close("div");
      s.close("div");
    }
    s.close("div");
    s.el("h4", undefined, "This item appears in the following Collection(s)");
    collectionList(s, m, i);
    s.a(href, "Show simple item record", "btn btn-default");
  }, () => sidebar(s, m, i));
}

export function statisticsPage(s: HtmlSink, m: RepoModel, frame: Frame, i: number): void {
  const r = new Rng(hash32(m.seed, 0x57a, i));
  const crumbs = [...scopeTrail(m, collectionScope(m, i)), [m.itemTitle[i]!, itemHref(m, i)] as const];
  frame(s, { title: "Statistics", bodyClass: "statistics", crumbs }, () => {
    s.el("h2", "page-header first-page-header", `Statistics for ${m.itemTitle[i]}`);
    s.el("h3", undefined, "Total visits");
    s.raw(`<table class="ds-table detailtable"><tr><th></th><th>views</th></tr><tr>`);
    s.el("td", "labelcell", m.itemTitle[i]!);
    s.el("td", "datacell", String(20 + r.int(2000)));
    s.raw(`</tr></table>`);
    s.el("h3", undefined, "Total visits per month");
    s.raw(`<table class="ds-table detailtable"><tr>${["Jan", "Feb", "Mar", "Apr", "May", "Jun"].map((mo) => `<th>${mo}</th>`).join("")}</tr><tr>${[0, 1, 2, 3, 4, 5].map(() => `<td>${r.int(80)}</td>`).join("")}</tr></table>`);
    s.el("h3", undefined, "File visits");
    s.open("table", "ds-table detailtable");
    for (const b of bitstreams(m, i)) {
      s.open("tr");
      s.el("td", "labelcell", b.name);
      s.el("td", "datacell", String(r.int(900)));
      s.close("tr");
    }
    s.close("table");
    s.el("h3", undefined, "Top country views");
    s.raw(`<table class="ds-table detailtable"><tr><td>United Kingdom</td><td>${r.int(300)}</td></tr><tr><td>United States</td><td>${r.int(200)}</td></tr><tr><td>Germany</td><td>${r.int(90)}</td></tr></table>`);
  }, () => sidebar(s, m, i));
}
