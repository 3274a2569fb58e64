/**
 * Parser output (`div.mw-parser-output`) of wiki pages by kind: the main page, area
 * portals, articles (lead, table of contents, infobox, file tables with `[[Media:…]]`
 * links straight to `/images/…`, `[[:File:…]]` links and thumbnails to the description
 * pages, see also, references, navbox, stub box), glossary entries, help, project and
 * template pages, user and talk pages (signatures), and redirect pages seen with
 * `redirect=no`.
 */
import type { HtmlSink } from "../html-sink";
import { hash32, Rng } from "../random";
import { humanBytes } from "../text";
import { fileBytesOf, fileLabel } from "./wiki-files";
import type { WikiModel, WikiPage } from "./wiki-model";
import { pageLink, userLinks } from "./wiki-skin";
import { HELP_PAGES, PROJECT_NS, WIKI_AREAS, WIKI_SITE_NAME } from "./wiki-text";
import { imageHref, indexHref, NS, prefixedText, redlinkHref, specialHref, specialIndexHref, thumbHref, viewHref, type WikiTitle } from "./wiki-urls";

const EXTERNAL = [
  ["Eurostat database", "https://ec.europa.eu/eurostat/data/database"],
  ["OECD.Stat", "https://stats.oecd.org/"],
  ["UN Statistics Division", "https://unstats.un.org/"],
  ["IMF data", "https://data.imf.org/"],
  ["World Bank open data", "https://data.worldbank.org/"],
  ["SDMX", "https://sdmx.org/"],
] as const;

function heading(s: HtmlSink, text: string, level = 2): void {
  s.open(`h${level}`);
  s.el("span", "mw-headline", text, text.replace(/ /g, "_"));
  s.close(`h${level}`);
}

function link(s: HtmlSink, m: WikiModel, p: number, label?: string): void {
  const page = m.pages[p]!;
  pageLink(s, m, page.title, label ?? prefixedText(page.title));
}

/** Table of contents: MediaWiki adds one to pages with four headings or more. */
function toc(s: HtmlSink, sections: readonly string[]): void {
  if (sections.length < 4) return;
  s.open("div", "toc", "toc", `role="navigation" aria-labelledby="mw-toc-heading"`);
  s.raw(`<input type="checkbox" role="button" id="toctogglecheckbox" class="toctogglecheckbox" style="display:none"/>`);
  s.open("div", "toctitle", undefined, `lang="en" dir="ltr"`);
  s.el("h2", undefined, "Contents", "mw-toc-heading");
  s.close("div");
  s.open("ul");
  sections.forEach((sec, k) => {
    s.open("li", `toclevel-1 tocsection-${k + 1}`);
    s.aWrap(`#${sec.replace(/ /g, "_")}`, undefined, () => {
      s.el("span", "tocnumber", String(k + 1));
      s.text(" ");
      s.el("span", "toctext", sec);
    });
    s.close("li");
  });
  s.close("ul");
  s.close("div");
}

/** `[[Media:X]]`: a direct link to the upload; a deleted file's link asks to upload it again. */
export function mediaLink(s: HtmlSink, m: WikiModel, f: number, label?: string): void {
  const file = m.files[f]!;
  const text = label ?? file.name.replace(/_/g, " ");
  if (file.status === "deleted") s.a(specialIndexHref("Upload", [["wpDestFile", file.name]]), text, "new", `title="${file.name.replace(/_/g, " ")}"`);
  else s.a(imageHref(file.name), text, "internal", `title="${file.name.replace(/_/g, " ")}"`);
}

/** `[[File:X.png|thumb|caption]]`: a thumbnail linking the description page. */
function thumbnail(s: HtmlSink, m: WikiModel, f: number, caption: string): void {
  const file = m.files[f]!;
  const href = viewHref(m.pages[file.page]!.title);
  s.open("div", "thumb tright");
  s.open("div", "thumbinner", undefined, `style="width:222px;"`);
  s.aWrap(href, "image", () => s.img(thumbHref(file.name, 220), "", "thumbimage"));
  s.open("div", "thumbcaption");
  s.open("div", "magnify");
  s.a(href, "", "internal", `title="Enlarge"`);
  s.close("div");
  s.text(caption);
  s.close("div");
  s.close("div");
  s.close("div");
}

function filesTable(s: HtmlSink, m: WikiModel, page: WikiPage): void {
  const rows = page.files.filter((x) => !m.files[x.file]!.image && x.link !== "none");
  if (rows.length === 0) return;
  heading(s, page.area === 0 ? "Data files" : "Documents");
  s.open("table", "wikitable sortable");
  s.raw("<tr><th>File</th><th>Format</th><th>Size</th><th>Description page</th></tr>");
  for (const { file: f, link: mode } of rows) {
    const file = m.files[f]!;
    s.open("tr");
    s.open("td");
    if (mode === "page") pageLink(s, m, m.pages[file.page]!.title, file.name.replace(/_/g, " "));
    else mediaLink(s, m, f);
    // Someone pasted the full address once; it broke when the file was deleted.
    if (file.status === "deleted" && hash32(file.seed, 0x57a1e) % 2 === 0) {
      s.text(" (");
      s.siteA(imageHref(file.name), "old copy", "absolute", "external text", `rel="nofollow"`);
      s.text(")");
    }
    s.close("td");
    s.el("td", undefined, fileLabel(file.format));
    s.el("td", undefined, file.status === "deleted" ? "–" : humanBytes(fileBytesOf(m, f)));
    s.open("td");
    if (mode === "both") pageLink(s, m, m.pages[file.page]!.title, "details");
    s.close("td");
    s.close("tr");
  }
  s.close("table");
}

function infobox(s: HtmlSink, m: WikiModel, page: WikiPage, r: Rng): void {
  s.open("table", "infobox vcard");
  s.raw(`<tr><th colspan="2" class="infobox-above">${s.withText ? page.title.text.replace(/&/g, "&amp;").replace(/</g, "&lt;") : ""}</th></tr>`);
  s.raw(`<tr><th>Frequency</th><td>${r.pick(["Annual", "Quarterly", "Monthly", "Ad hoc"])}</td></tr>`);
  s.open("tr");
  s.el("th", undefined, "Area");
  s.open("td");
  link(s, m, m.portals[page.area]!, WIKI_AREAS[page.area]!.name);
  s.close("td");
  s.close("tr");
  const first = page.files.find((x) => !m.files[x.file]!.image && x.link !== "none" && x.link !== "page");
  if (first) {
    s.open("tr");
    s.el("th", undefined, "Latest release");
    s.open("td");
    mediaLink(s, m, first.file, "Download");
    s.close("td");
    s.close("tr");
  }
  s.close("table");
}

function references(s: HtmlSink, r: Rng, count: number): void {
  if (count === 0) return;
  heading(s, "References");
  s.open("div", "mw-references-wrap");
  s.open("ol", "references");
  for (let k = 1; k <= count; k++) {
    const [label, href] = r.pick(EXTERNAL);
    s.open("li", undefined, `cite_note-${k}`);
    s.open("span", "mw-cite-backlink");
    s.a(`#cite_ref-${k}`, "↑");
    s.close("span");
    s.text(" ");
    s.open("span", "reference-text");
    s.a(href, label, "external text", `rel="nofollow"`);
    s.text(`. Retrieved ${2015 + r.int(9)}.`);
    s.close("span");
    s.close("li");
  }
  s.close("ol");
  s.close("div");
}

function navbox(s: HtmlSink, m: WikiModel, page: WikiPage): void {
  const nav: WikiTitle = { ns: NS.template, text: "Navbox" };
  s.open("div", "navbox", undefined, `role="navigation" aria-labelledby="${WIKI_AREAS[page.area]!.name}"`);
  s.open("div", "plainlinks hlist navbar mini");
  s.a(viewHref(nav), "v", undefined, `title="Template:Navbox"`);
  s.a(redlinkHref({ ns: NS.templateTalk, text: "Navbox" }), "t", "new");
  s.siteA(indexHref(nav, [["action", "edit"]]), "e", "absolute", "external text");
  s.close("div");
  s.el("div", "navbox-title", WIKI_AREAS[page.area]!.name);
  s.open("ul", "navbox-list");
  const portal = m.pages[m.portals[page.area]!]!;
  for (const q of page.links.slice(0, 12)) {
    s.open("li");
    link(s, m, q, m.pages[q]!.title.text);
    s.close("li");
  }
  s.open("li");
  pageLink(s, m, portal.title, `All ${portal.title.text.toLowerCase()}`);
  s.close("li");
  s.close("ul");
  s.close("div");
}

function articleBody(s: HtmlSink, m: WikiModel, p: number): void {
  const page = m.pages[p]!;
  const r = new Rng(hash32(page.seed, 0xb0d7));
  const refs = r.int(4);
  const hasFiles = page.files.some((x) => !m.files[x.file]!.image && x.link !== "none");
  if (page.templates.includes(0) || page.templates.includes(1)) infobox(s, m, page, r);
  for (const x of page.files) if (m.files[x.file]!.image) thumbnail(s, m, x.file, m.files[x.file]!.name.replace(/_/g, " ").replace(/\.[a-z]+$/, ""));
  // PDFs shown with their first page, as PdfHandler renders `[[File:X.pdf|thumb|page=1]]`.
  const pdf = page.files.find((x) => m.files[x.file]!.format === "pdf" && m.files[x.file]!.status === "ok" && x.link !== "media" && x.link !== "none");
  if (pdf) thumbnail(s, m, pdf.file, "First page");
  s.open("p");
  s.el("b", undefined, page.title.text);
  s.text(` ${s.withText ? "is documented here by the statistics network." : ""} `);
  page.links.slice(0, 3).forEach((q) => {
    link(s, m, q, m.pages[q]!.title.text.toLowerCase());
    s.text(", ");
  });
  for (const red of page.redLinks) {
    pageLink(s, m, red, red.text);
    s.text(", ");
  }
  if (refs > 0) {
    s.open("sup", "reference", "cite_ref-1");
    s.a("#cite_note-1", "[1]");
    s.close("sup");
  }
  s.close("p");
  const sections = ["Description", ...(hasFiles ? [page.area === 0 ? "Data files" : "Documents"] : []), "See also", ...(refs > 0 ? ["References"] : []), "External links"];
  toc(s, sections);
  heading(s, "Description");
  s.para(hash32(page.seed, 1), 70);
  s.para(hash32(page.seed, 2), 50);
  filesTable(s, m, page);
  heading(s, "See also");
  s.open("ul");
  for (const q of page.links.slice(3)) {
    s.open("li");
    link(s, m, q, m.pages[q]!.title.text);
    s.close("li");
  }
  s.close("ul");
  references(s, r, refs);
  heading(s, "External links");
  s.open("ul");
  const [label, href] = r.pick(EXTERNAL);
  s.open("li");
  s.a(href, label, "external text", `rel="nofollow"`);
  s.close("li");
  s.close("ul");
  if (page.templates.includes(4)) navbox(s, m, page);
  if (page.templates.includes(3)) {
    s.open("table", "metadata plainlinks stub", undefined, `role="presentation"`);
    s.open("tr");
    s.open("td");
    s.text(`This article is a stub. You can help ${WIKI_SITE_NAME} by `);
    s.siteA(indexHref(page.title, [["action", "edit"]]), "expanding it", "absolute", "external text");
    s.text(".");
    s.close("td");
    s.close("tr");
    s.close("table");
  }
}

function mainPageBody(s: HtmlSink, m: WikiModel): void {
  const articles = m.pages.filter((x) => x.kind === "article").length;
  s.open("div", undefined, "mp-welcome");
  s.text(`Welcome to ${WIKI_SITE_NAME}, the community wiki of the national statistics network: ${articles} articles, ${m.files.length} files.`);
  s.close("div");
  s.open("div", undefined, "mp-portals");
  heading(s, "Portals");
  s.open("ul");
  for (const p of m.portals) {
    s.open("li");
    link(s, m, p, m.pages[p]!.title.text);
    s.close("li");
  }
  s.close("ul");
  s.close("div");
  // Featured dataset: the Datasets article with most files.
  let best = -1;
  m.pages.forEach((x, i) => {
    if (x.kind === "article" && x.area === 0 && (best < 0 || x.files.length > m.pages[best]!.files.length)) best = i;
  });
  if (best >= 0) {
    s.open("div", undefined, "mp-featured");
    heading(s, "Featured dataset");
    link(s, m, best, m.pages[best]!.title.text);
    s.open("ul");
    for (const x of m.pages[best]!.files) {
      if (m.files[x.file]!.image) continue;
      s.open("li");
      mediaLink(s, m, x.file);
      s.close("li");
    }
    s.close("ul");
    s.close("div");
  }
  const recent = m.files.map((f, k) => [f.uploads[f.uploads.length - 1]!, k] as const).sort((a, b) => b[0] - a[0] || a[1] - b[1]).slice(0, 8);
  s.open("div", undefined, "mp-uploads");
  heading(s, "Recent uploads");
  s.open("ul", "gallery mw-gallery-traditional");
  for (const [, k] of recent) {
    const f = m.files[k]!;
    const href = viewHref(m.pages[f.page]!.title);
    s.open("li", "gallerybox");
    if (f.image) s.aWrap(href, "image", () => s.img(thumbHref(f.name, 120), ""));
    s.open("div", "gallerytext");
    s.a(href, f.name.replace(/_/g, " "), "galleryfilename galleryfilename-truncate");
    s.close("div");
    s.close("li");
  }
  s.close("ul");
  s.close("div");
  s.open("div", undefined, "mp-more");
  heading(s, "Find your way");
  s.open("ul");
  for (const [label, href] of [
    ["All pages", specialHref("AllPages")], ["All uploaded files", specialHref("ListFiles")], ["Glossary", "/wiki/Category:Glossary"],
    ["Help", "/wiki/Help:Contents"], ["Community portal", `/wiki/${PROJECT_NS}:Community_portal`], ["Categories", specialHref("Categories")],
  ] as const) {
    s.open("li");
    s.a(href, label);
    s.close("li");
  }
  s.close("ul");
  s.close("div");
}

function portalBody(s: HtmlSink, m: WikiModel, p: number): void {
  const page = m.pages[p]!;
  s.para(hash32(page.seed, 3), 60);
  const members = m.pages.map((x, i) => [x, i] as const).filter(([x]) => x.kind === "article" && x.area === page.area);
  heading(s, `Selected ${page.title.text.toLowerCase()}`);
  s.open("ul");
  for (const [, i] of members.slice(0, 60)) {
    s.open("li");
    link(s, m, i, m.pages[i]!.title.text);
    s.close("li");
  }
  s.close("ul");
  s.open("p");
  s.text("All pages: ");
  pageLink(s, m, { ns: NS.category, text: page.title.text }, `Category:${page.title.text}`);
  s.close("p");
}

function talkBody(s: HtmlSink, m: WikiModel, p: number): void {
  const page = m.pages[p]!;
  const r = new Rng(hash32(page.seed, 0x7a1));
  for (let k = 0, sections = 1 + Math.min(3, page.revs.length - 1); k < sections; k++) {
    heading(s, r.pick(["Update for the new release", "Broken link", "Source of the figures", "Merge proposal", "Welcome!", "Question about the definition"]) + (k > 0 ? ` (${k + 1})` : ""));
    for (let c = 0, comments = 1 + r.int(3); c < comments; c++) {
      s.open("p");
      s.text(s.withText ? `${r.pick(["I think", "Could someone check whether", "Thanks,", "Agreed:"])} the ${r.pick(["figures", "files", "definition", "links"])} ${r.pick(["need an update.", "are fine now.", "should be merged."])} ` : "");
      userLinks(s, m, m.revUser[page.revs[Math.min(c, page.revs.length - 1)]!]!);
      s.text(" 12:00, 1 March 2021");
      s.close("p");
    }
  }
  if (page.talk >= 0) {
    s.open("p");
    s.text("Back to ");
    link(s, m, page.talk);
    s.close("p");
  }
}

function userBody(s: HtmlSink, m: WikiModel, p: number): void {
  const page = m.pages[p]!;
  s.para(hash32(page.seed, 4), 40);
  heading(s, "Pages I look after");
  s.open("ul");
  const r = new Rng(hash32(page.seed, 0x05e));
  for (let k = 0; k < 4; k++) {
    const q = r.int(m.pages.length);
    if (m.pages[q]!.kind !== "article") continue;
    s.open("li");
    link(s, m, q);
    s.close("li");
  }
  s.close("ul");
}

function helpBody(s: HtmlSink, m: WikiModel, p: number): void {
  const page = m.pages[p]!;
  s.para(hash32(page.seed, 5), 80);
  s.open("ul");
  for (const h of HELP_PAGES) {
    if (h === page.title.text) continue;
    s.open("li");
    pageLink(s, m, { ns: NS.help, text: h }, h);
    s.close("li");
  }
  s.close("ul");
  s.a(`https://www.mediawiki.org/wiki/Help:${page.title.text.replace(/ /g, "_")}`, "MediaWiki's help on this topic", "external text", `rel="nofollow"`);
}

function projectBody(s: HtmlSink, m: WikiModel, p: number): void {
  const page = m.pages[p]!;
  s.para(hash32(page.seed, 6), 90);
  s.para(hash32(page.seed, 7), 60);
  if (page.title.text === "Community portal" || page.title.text === "About") {
    s.open("ul");
    for (const [label, title] of [["Help", { ns: NS.help, text: "Contents" }], ["Editors' handbook", { ns: NS.project, text: "Editors' handbook" }], ["Upload guidelines", { ns: NS.project, text: "Upload guidelines" }], ["Style guide", { ns: NS.project, text: "Style guide" }]] as const) {
      s.open("li");
      pageLink(s, m, title, label);
      s.close("li");
    }
    s.close("ul");
  }
  if (page.title.text === "Upload guidelines") {
    s.a(specialHref("Upload"), "Upload a file");
    s.a("/wiki/Help:Uploading_files", "How to upload");
  }
}

function templateBody(s: HtmlSink, m: WikiModel, p: number): void {
  const page = m.pages[p]!;
  s.open("div", "template-documentation");
  s.el("p", undefined, `This template is used on many pages. Usage: {{${page.title.text}|…}}`);
  s.a("/wiki/Help:Templates", "Help on templates");
  s.close("div");
}

/** Glossary entry: a definition linking related articles. */
function glossaryBody(s: HtmlSink, m: WikiModel, p: number): void {
  const page = m.pages[p]!;
  s.open("div", "glossary-definition");
  s.para(hash32(page.seed, 8), 45);
  s.close("div");
  heading(s, "Related articles");
  s.open("ul");
  for (const q of page.links) {
    s.open("li");
    link(s, m, q);
    s.close("li");
  }
  s.close("ul");
}

/** `div.mw-parser-output` of page `p` (redirect pages render their "Redirect to:" box). */
export function parserOutput(s: HtmlSink, m: WikiModel, p: number): void {
  const page = m.pages[p]!;
  s.open("div", "mw-parser-output");
  switch (page.kind) {
    case "main":
      mainPageBody(s, m);
      break;
    case "portal":
      portalBody(s, m, p);
      break;
    case "article":
      articleBody(s, m, p);
      break;
    case "glossary":
      glossaryBody(s, m, p);
      break;
    case "talk":
      talkBody(s, m, p);
      break;
    case "user":
      userBody(s, m, p);
      break;
    case "help":
      helpBody(s, m, p);
      break;
    case "project":
      projectBody(s, m, p);
      break;
    case "template":
      templateBody(s, m, p);
      break;
    case "redirect": {
      s.open("div", "redirectMsg");
      s.el("p", undefined, "Redirect to:");
      s.open("ul", "redirectText");
      s.open("li");
      link(s, m, page.redirectTo);
      s.close("li");
      s.close("ul");
      s.close("div");
      break;
    }
    case "file":
    case "category":
      s.para(hash32(page.seed, 9), 30);
      break;
  }
  s.close("div");
}
