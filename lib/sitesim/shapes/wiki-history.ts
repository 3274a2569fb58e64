/**
 * The revision views every wiki page has, through `/index.php?title=X&…`:
 * `action=history` (each row: "cur" and "prev" diffs with `curid`, the revision date as
 * `oldid`, the author; limit links 20 | 50 | 100 | 250 | 500 on every history),
 * `oldid=N` (an old revision, with "← Older revision | Latest revision | Newer revision →"
 * and their diffs: `direction=prev|next`, `diff=prev|cur|next`), `diff=N&oldid=M`
 * (the diff, then the newer revision rendered), `action=edit` ("View source": editing
 * needs an account) and `action=info` (page information).
 */
import type { HtmlSink } from "../html-sink";
import { hash32 } from "../random";
import { paragraph } from "../text";
import { parserOutput } from "./wiki-content";
import { formatMinute, latestRev, revId, type WikiModel } from "./wiki-model";
import { categoryLinks, pageLink, userLinks } from "./wiki-skin";
import { PROJECT_NS, TEMPLATES } from "./wiki-text";
import { indexHref, NS, prefixedText, specialIndexHref, viewHref } from "./wiki-urls";

/** History limit links, as MediaWiki shows them on histories longer than one page (the URLs answer on every history). */
export const HISTORY_LIMITS: readonly number[] = [20, 50, 100, 250, 500];

const num = (x: number) => x.toLocaleString("en-US");

export function historyBody(s: HtmlSink, m: WikiModel, p: number): void {
  const page = m.pages[p]!;
  const t = page.title;
  const latest = latestRev(page);
  s.open("div", "mw-history-legend");
  s.a(specialIndexHref("Log", [["page", prefixedText(t)]]), "View logs for this page");
  s.text(" (");
  s.a("https://www.mediawiki.org/wiki/Special:MyLanguage/Help:Page_history", "help", "external text", `rel="nofollow"`);
  s.text(")");
  s.close("div");
  s.raw(`<form action="/index.php" id="mw-history-searchform"><input type="hidden" value="${prefixedText(t).replace(/"/g, "")}" name="title"/><input type="hidden" value="history" name="action"/><input name="date-range-to" type="date"/><input name="tagfilter"/><button type="submit">Show revisions</button></form>`);
  // MediaWiki hides the pager ("(newest | oldest) View (newer 50 | older 50) (20 | 50 | 100 | 250 | 500)")
  // when the history fits on one page, which every history here does (MAX_REVS < 50).
  if (page.revs.length > 50) {
    s.open("div", "mw-history-navigation");
    s.text("(newest | oldest) View (newer 50 | older 50) (");
    HISTORY_LIMITS.forEach((limit, k) => {
      if (k > 0) s.text(" | ");
      s.a(indexHref(t, [["offset", ""], ["limit", limit], ["action", "history"]]), String(limit), "mw-numlink");
    });
    s.text(")");
    s.close("div");
  }
  s.raw(`<form action="/index.php" id="mw-history-compare"><input type="hidden" value="${prefixedText(t).replace(/"/g, "")}" name="title"/><button type="submit" class="historysubmit mw-history-compareselectedversions-button">Compare selected revisions</button>`);
  s.open("ul", undefined, "pagehistory");
  for (let k = page.revs.length - 1; k >= 0; k--) {
    const rev = page.revs[k]!;
    s.open("li", k === page.revs.length - 1 ? "mw-history-line-latest" : undefined, undefined, `data-mw-revid="${revId(rev)}"`);
    s.open("span", "mw-history-histlinks mw-changeslist-links");
    s.open("span");
    if (rev === latest) s.text("cur");
    else s.a(indexHref(t, [["curid", page.id], ["diff", revId(latest)], ["oldid", revId(rev)]]), "cur");
    s.close("span");
    s.open("span");
    if (k === 0) s.text("prev");
    else s.a(indexHref(t, [["curid", page.id], ["diff", revId(rev)], ["oldid", revId(page.revs[k - 1]!)]]), "prev");
    s.close("span");
    s.close("span");
    s.raw(`<input type="radio" value="${revId(rev)}" name="oldid"/><input type="radio" value="${revId(rev)}" name="diff"/>`);
    s.a(indexHref(t, [["oldid", revId(rev)]]), formatMinute(m.revMinute[rev]!), "mw-changeslist-date");
    s.text(" ");
    s.open("span", "history-user");
    userLinks(s, m, m.revUser[rev]!);
    s.close("span");
    s.el("span", "history-size mw-diff-bytes", ` . . (${num(m.revBytes[rev]!)} bytes)`);
    s.el("span", "comment comment--without-parentheses", k === 0 ? "Created page" : paragraph(hash32(rev, 0xc0), 4));
    s.close("li");
  }
  s.close("ul");
  s.raw(`</form>`);
}

/** Subtitle of an old revision view: who and when, and the revision navigation. */
export function revisionNav(s: HtmlSink, m: WikiModel, p: number, k: number): void {
  const page = m.pages[p]!;
  const t = page.title;
  const rev = page.revs[k]!;
  const isLatest = k === page.revs.length - 1;
  s.open("div", "mw-revision", "mw-revision-info");
  s.text(`${isLatest ? "Latest revision" : "Revision"} as of ${formatMinute(m.revMinute[rev]!)} by `);
  userLinks(s, m, m.revUser[rev]!);
  s.close("div");
  s.open("div", undefined, "mw-revision-nav");
  const id = revId(rev);
  if (k > 0) {
    s.text("(");
    s.a(indexHref(t, [["diff", "prev"], ["oldid", id]]), "diff");
    s.text(") ");
    s.a(indexHref(t, [["direction", "prev"], ["oldid", id]]), "← Older revision");
  } else s.text("(diff) ← Older revision");
  s.text(" | ");
  if (isLatest) s.text("Latest revision (diff) | Newer revision → (diff)");
  else {
    s.a(viewHref(t), "Latest revision");
    s.text(" (");
    s.a(indexHref(t, [["diff", "cur"], ["oldid", id]]), "diff");
    s.text(") | ");
    s.a(indexHref(t, [["direction", "next"], ["oldid", id]]), "Newer revision →");
    s.text(" (");
    s.a(indexHref(t, [["diff", "next"], ["oldid", id]]), "diff");
    s.text(")");
  }
  s.close("div");
}

function diffSide(s: HtmlSink, m: WikiModel, p: number, k: number, side: "o" | "n"): void {
  const page = m.pages[p]!;
  const t = page.title;
  const rev = page.revs[k]!;
  const isLatest = k === page.revs.length - 1;
  s.open("td", `diff-${side}title`, undefined, `colspan="2"`);
  s.open("div", undefined, `mw-diff-${side}title1`);
  s.open("strong");
  s.a(indexHref(t, [["oldid", revId(rev)]]), `${isLatest ? "Latest revision" : "Revision"} as of ${formatMinute(m.revMinute[rev]!)}`);
  s.text(" ");
  s.open("span", "mw-diff-edit");
  s.text("(");
  s.a(isLatest ? indexHref(t, [["action", "edit"]]) : indexHref(t, [["action", "edit"], ["oldid", revId(rev)]]), "view source");
  s.text(")");
  s.close("span");
  s.close("strong");
  s.close("div");
  s.open("div", undefined, `mw-diff-${side}title2`);
  userLinks(s, m, m.revUser[rev]!);
  s.close("div");
  s.open("div", undefined, `mw-diff-${side}title4`);
  if (side === "o" && k > 0) s.a(indexHref(t, [["diff", "prev"], ["oldid", revId(rev)]]), "← Older edit", undefined, `id="differences-prevlink"`);
  if (side === "n" && !isLatest) s.a(indexHref(t, [["diff", "next"], ["oldid", revId(rev)]]), "Newer edit →", undefined, `id="differences-nextlink"`);
  s.close("div");
  s.close("td");
}

/** Diff between revisions `a` < `b` (indices in the page's revisions), then revision `b` rendered. */
export function diffBody(s: HtmlSink, m: WikiModel, p: number, a: number, b: number): void {
  const page = m.pages[p]!;
  s.open("table", "diff diff-contentalign-left diff-editfont-monospace", undefined, `data-mw="interface"`);
  s.raw(`<col class="diff-marker"/><col class="diff-content"/><col class="diff-marker"/><col class="diff-content"/>`);
  s.open("tr", "diff-title", undefined, `lang="en"`);
  diffSide(s, m, p, a, "o");
  diffSide(s, m, p, b, "n");
  s.close("tr");
  const seed = hash32(page.revs[b]!, 0xd1ff);
  for (let k = 0; k < 2 + (seed % 4); k++) {
    s.raw(`<tr><td colspan="2" class="diff-lineno">Line ${1 + ((seed >> (k * 3)) % 40)}:</td><td colspan="2" class="diff-lineno">Line ${1 + ((seed >> (k * 3)) % 40)}:</td></tr>`);
    s.open("tr");
    s.raw(`<td class="diff-marker">−</td>`);
    s.el("td", "diff-deletedline", paragraph(hash32(seed, k), 12));
    s.raw(`<td class="diff-marker">+</td>`);
    s.el("td", "diff-addedline", paragraph(hash32(seed, k + 9), 13));
    s.close("tr");
  }
  s.close("table");
  s.raw(`<hr class="diff-hr" id="mw-oldid"/>`);
  s.el("h2", "diff-currentversion-title", `Revision as of ${formatMinute(m.revMinute[page.revs[b]!]!)}`);
  parserOutput(s, m, p);
}

/** "View source": the wikitext, the templates used, and "Return to". */
export function viewSourceBody(s: HtmlSink, m: WikiModel, p: number, k: number | null): void {
  const page = m.pages[p]!;
  s.open("p", "permissions-errors");
  s.text("You do not have permission to edit this page, for the following reason: The action you have requested is limited to users in the group: ");
  pageLink(s, m, { ns: NS.project, text: "Users" }, "Users");
  s.text(".");
  s.close("p");
  if (k !== null && k < page.revs.length - 1) s.el("div", "mw-warning", `You are viewing the source of an old revision of this page (${formatMinute(m.revMinute[page.revs[k]!]!)}).`);
  s.el("p", undefined, "You can view and copy the source of this page.");
  s.open("textarea", "mw-editfont-monospace", "wpTextbox1", `readonly="" rows="25" cols="80" name="wpTextbox1"`);
  s.text(`'''${page.title.text}''' ${paragraph(hash32(page.seed, 0x7e7), 60)}\n\n== Description ==\n${paragraph(hash32(page.seed, 1), 40)}`);
  s.close("textarea");
  templatesUsed(s, m, page.templates);
  s.open("p", undefined, "mw-returnto");
  s.text("Return to ");
  s.a(viewHref(page.title), prefixedText(page.title));
  s.text(".");
  s.close("p");
}

function templatesUsed(s: HtmlSink, m: WikiModel, templates: readonly number[]): void {
  if (templates.length === 0) return;
  s.open("div", "templatesUsed");
  s.el("p", undefined, "Templates used on this page:");
  s.open("ul");
  for (const k of templates) {
    const t = { ns: NS.template, text: TEMPLATES[k]! };
    s.open("li");
    pageLink(s, m, t, `Template:${t.text}`);
    s.text(" (");
    s.a(indexHref(t, [["action", "edit"]]), "view source");
    s.text(")");
    s.close("li");
  }
  s.close("ul");
  s.close("div");
}

/** `action=info`: basic information, history summary, templates and categories. */
export function infoBody(s: HtmlSink, m: WikiModel, p: number): void {
  const page = m.pages[p]!;
  const t = page.title;
  const first = page.revs[0]!;
  const latest = latestRev(page);
  const row = (label: string, value: () => void) => {
    s.open("tr");
    s.el("td", undefined, label);
    s.open("td");
    value();
    s.close("td");
    s.close("tr");
  };
  s.el("h2", undefined, "Basic information", "Basic_information");
  s.open("table", "wikitable mw-page-info");
  row("Display title", () => s.text(prefixedText(t)));
  row("Default sort key", () => s.text(t.text));
  row("Page length (in bytes)", () => s.text(num(m.revBytes[latest]!)));
  row("Page ID", () => s.text(String(page.id)));
  row("Page content language", () => s.text("en - English"));
  row("Number of redirects to this page", () => s.a(specialIndexHref("WhatLinksHere", [["target", prefixedText(t)], ["hidelinks", 1], ["hidetrans", 1]]), String(m.backlinks[p]!.filter((q) => m.pages[q]!.redirectTo === p).length)));
  row("Counted as a content page", () => s.text(t.ns === 0 || t.ns === NS.glossary ? "Yes" : "No"));
  s.close("table");
  s.el("h2", undefined, "Edit history", "Edit_history");
  s.open("table", "wikitable mw-page-info");
  row("Page creator", () => userLinks(s, m, m.revUser[first]!));
  row("Date of page creation", () => s.a(indexHref(t, [["oldid", revId(first)]]), formatMinute(m.revMinute[first]!)));
  row("Latest editor", () => userLinks(s, m, m.revUser[latest]!));
  row("Date of latest edit", () => s.a(indexHref(t, [["oldid", revId(latest)]]), formatMinute(m.revMinute[latest]!)));
  row("Total number of edits", () => s.text(String(page.revs.length)));
  s.close("table");
  s.el("h2", undefined, "Page properties", "Page_properties");
  templatesUsed(s, m, page.templates);
  s.a(`/wiki/${PROJECT_NS}:About`, "About page information");
}

/** The category box of page `p` (none for pages without categories). */
export function pageCategories(s: HtmlSink, m: WikiModel, p: number): (() => void) | undefined {
  const cats = m.pages[p]!.categories;
  if (m.pages[p]!.kind === "category") {
    const c = m.categories[m.pages[p]!.ref]!;
    return c.parent >= 0 ? () => categoryLinks(s, m, [m.categories[c.parent]!.page]) : undefined;
  }
  return cats.length > 0 ? () => categoryLinks(s, m, cats) : undefined;
}
