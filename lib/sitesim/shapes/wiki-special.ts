/**
 * Special pages, all disallowed in robots.txt but served: Recent changes (with the
 * "last 50 | 100 | 250 | 500 changes in last 1 | 3 | 7 | 14 | 30 days" options), Random
 * page (302 to one article fixed per seed), All pages and List files (paged), What
 * links here, Related changes, Contributions, Categories, Search, Log, the upload form
 * and the account pages (log in first), and the list of special pages. Unknown names
 * and bad parameters answer 404, as "No such special page" does.
 */
import type { HtmlSink } from "../html-sink";
import type { Query, Resource } from "../types";
import { humanBytes } from "../text";
import { fileBytesOf } from "./wiki-files";
import { formatMinute, revId, type WikiModel } from "./wiki-model";
import { pageLink, userLinks } from "./wiki-skin";
import { indexHref, NS, parseTitle, prefixedText, specialIndexHref, viewHref, imageHref, dbKey } from "./wiki-urls";

const ALL_PAGES_PER_PAGE = 345;
const LIST_LIMITS = [20, 50, 100, 250, 500];

type Render = (s: HtmlSink) => void;

function list(s: HtmlSink, m: WikiModel, pages: readonly number[]): void {
  s.open("ul");
  for (const q of pages) {
    s.open("li");
    pageLink(s, m, m.pages[q]!.title, prefixedText(m.pages[q]!.title));
    s.close("li");
  }
  s.close("ul");
}

function changeRow(s: HtmlSink, m: WikiModel, rev: number): void {
  const p = m.revPage[rev]!;
  const page = m.pages[p]!;
  const k = page.revs.indexOf(rev);
  s.open("li", "mw-changeslist-line");
  s.text("(");
  if (k > 0) s.a(indexHref(page.title, [["curid", page.id], ["diff", revId(rev)], ["oldid", revId(page.revs[k - 1]!)]]), "diff");
  else s.text("diff");
  s.text(" | ");
  s.a(indexHref(page.title, [["curid", page.id], ["action", "history"]]), "hist");
  s.text(") . . ");
  s.a(viewHref(page.title), prefixedText(page.title), "mw-changeslist-title");
  s.text(`; ${formatMinute(m.revMinute[rev]!)} . . `);
  userLinks(s, m, m.revUser[rev]!);
  s.close("li");
}

/** Resource for `Special:<name>[/<sub>]` with its query (title excluded). */
export function specialPage(m: WikiModel, name: string, sub: string | null, q: Query, page: (title: string, body: Render) => Resource): Resource {
  const missing: Resource = { kind: "missing" };
  const only = (...keys: string[]) => q.pairs.every(([k]) => keys.includes(k));
  const total = m.revPage.length;
  switch (name) {
    case "Random":
      return sub === null && q.size === 0 ? { kind: "redirect", status: 302, location: viewHref(m.pages[m.randomTarget]!.title) } : missing;
    case "RecentChanges": {
      const days = q.int("days", 30);
      const limit = q.int("limit", 50);
      if (sub !== null || !only("days", "limit") || !(days <= 90) || !(limit <= 500)) return missing;
      return page("Recent changes", (s) => {
        s.open("div", "rcoptions");
        s.text("Show last ");
        for (const l of [50, 100, 250, 500]) s.a(specialIndexHref("RecentChanges", [["days", days], ["limit", l]]), String(l));
        s.text(" changes in last ");
        for (const d of [1, 3, 7, 14, 30]) s.a(specialIndexHref("RecentChanges", [["days", d], ["limit", limit]]), String(d));
        s.text(" days");
        s.close("div");
        s.open("ul", "special");
        const since = m.revMinute[total - 1]! - days * 1440;
        for (let r = total - 1, shown = 0; r >= 0 && shown < limit && m.revMinute[r]! >= since; r--, shown++) changeRow(s, m, r);
        s.close("ul");
      });
    }
    case "AllPages": {
      const from = q.get("from");
      if (sub !== null || !only("from")) return missing;
      const all = m.pages.map((_, i) => i).filter((i) => m.pages[i]!.title.ns === 0).sort((a, b) => (m.pages[a]!.key < m.pages[b]!.key ? -1 : 1));
      let start = 0;
      if (from !== undefined) while (start < all.length && m.pages[all[start]!]!.title.text < from.replace(/_/g, " ")) start++;
      const slice = all.slice(start, start + ALL_PAGES_PER_PAGE);
      return page("All pages", (s) => {
        list(s, m, slice);
        const next = all[start + ALL_PAGES_PER_PAGE];
        if (next !== undefined) s.a(specialIndexHref("AllPages", [["from", m.pages[next]!.title.text.replace(/ /g, "_")]]), `Next page (${m.pages[next]!.title.text})`);
      });
    }
    case "ListFiles": {
      const limit = q.int("limit", 50);
      const offset = q.get("offset") === undefined ? 0 : q.int("offset", 0);
      if (sub !== null || !only("limit", "offset") || !LIST_LIMITS.includes(limit) || !(offset >= 0 && offset < Math.max(1, m.files.length))) return missing;
      const order = m.files.map((_, k) => k).sort((a, b) => m.files[b]!.uploads.at(-1)! - m.files[a]!.uploads.at(-1)! || a - b);
      return page("File list", (s) => {
        s.open("table", "mw-datatable listfiles");
        for (const k of order.slice(offset, offset + limit)) {
          const f = m.files[k]!;
          s.open("tr");
          s.el("td", "TablePager_col_img_timestamp", formatMinute(f.uploads.at(-1)!));
          s.open("td", "TablePager_col_img_name");
          s.a(viewHref(m.pages[f.page]!.title), f.name.replace(/_/g, " "));
          if (f.status !== "deleted") {
            s.text(" (");
            s.a(imageHref(f.name), "file");
            s.text(")");
          }
          s.close("td");
          s.el("td", "TablePager_col_img_size", f.status === "deleted" ? "" : humanBytes(fileBytesOf(m, k)));
          s.open("td", "TablePager_col_actor");
          userLinks(s, m, f.uploader);
          s.close("td");
          s.close("tr");
        }
        s.close("table");
        if (offset + limit < m.files.length) s.a(specialIndexHref("ListFiles", [["limit", limit], ["offset", offset + limit]]), `next ${limit}`);
        for (const l of LIST_LIMITS) s.a(specialIndexHref("ListFiles", [["limit", l]]), String(l));
      });
    }
    case "WhatLinksHere":
    case "RecentChangesLinked": {
      const raw = sub ?? q.get("target");
      const t = raw === undefined ? null : parseTitle(raw);
      const p = t ? m.byKey.get(dbKey(t)) : undefined;
      if (p === undefined || (sub !== null && q.size > 0) || !only("target", "hidelinks", "hidetrans")) return missing;
      return name === "WhatLinksHere"
        ? page(`Pages that link to "${prefixedText(t!)}"`, (s) => list(s, m, m.backlinks[p]!))
        : page(`Changes related to "${prefixedText(t!)}"`, (s) => {
            s.open("ul", "special");
            for (const q2 of m.pages[p]!.links) changeRow(s, m, m.pages[q2]!.revs.at(-1)!);
            s.close("ul");
          });
    }
    case "Contributions": {
      const u = sub === null ? -1 : m.users.indexOf(sub.replace(/_/g, " "));
      if (u < 0 || q.size > 0) return missing;
      return page(`User contributions for ${m.users[u]}`, (s) => {
        s.open("ul", "mw-contributions-list");
        for (let r = m.revPage.length - 1, shown = 0; r >= 0 && shown < 50; r--) if (m.revUser[r] === u) (changeRow(s, m, r), shown++);
        s.close("ul");
      });
    }
    case "Categories":
      return sub === null && q.size === 0 ? page("Categories", (s) => list(s, m, m.categories.map((c) => c.page))) : missing;
    case "Search": {
      const term = (sub ?? q.get("search") ?? "").trim();
      const offset = q.get("offset") === undefined ? 0 : q.int("offset", 0);
      if (!only("search", "title", "fulltext", "go", "offset", "ns0") || !(offset >= 0)) return missing;
      const t = term === "" ? null : parseTitle(term);
      const exact = t ? m.byKey.get(dbKey(t)) : undefined;
      if (q.get("go") !== undefined && exact !== undefined) return { kind: "redirect", status: 302, location: viewHref(m.pages[exact]!.title) };
      const words = term.toLowerCase().split(/\s+/).filter(Boolean);
      const hits = words.length === 0 ? [] : m.pages.map((_, i) => i).filter((i) => words.every((w) => m.pages[i]!.title.text.toLowerCase().includes(w)));
      return page("Search results", (s) => {
        s.raw(`<form action="/index.php" id="search"><input type="hidden" name="title" value="Special:Search"/><input name="search"/></form>`);
        if (exact === undefined && t && t.ns !== NS.special) {
          s.text("Create the page ");
          pageLink(s, m, t, prefixedText(t));
          s.text(" on this wiki!");
        }
        list(s, m, hits.slice(offset, offset + 20));
        if (offset + 20 < hits.length) s.a(`/index.php?search=${encodeURIComponent(term).replace(/%20/g, "+")}&title=Special%3ASearch&fulltext=1&offset=${offset + 20}`, "next 20");
      });
    }
    case "Upload":
      return only("wpDestFile", "wpForReUpload") ? page("Login required", (s) => {
        s.text("Please ");
        s.a(specialIndexHref("UserLogin", [["returnto", "Special:Upload"]]), "log in");
        s.text(" to upload files.");
      }) : missing;
    case "UserLogin":
    case "CreateAccount":
      return only("returnto", "returntoquery") ? page(name === "UserLogin" ? "Log in" : "Create account", (s) => {
        s.raw(`<form name="userlogin" method="post" action="/index.php?title=Special:${name}"><input name="wpName"/><input type="password" name="wpPassword"/><button type="submit">${name === "UserLogin" ? "Log in" : "Create your account"}</button></form>`);
        s.a(name === "UserLogin" ? specialIndexHref("CreateAccount", []) : specialIndexHref("UserLogin", []), name === "UserLogin" ? "Join StatWiki" : "Log in");
        s.a(specialIndexHref("PasswordReset", []), "Forgot your password?");
      }) : missing;
    case "SpecialPages":
      return sub === null && q.size === 0 ? page("Special pages", (s) => {
        s.open("ul");
        for (const n of ["AllPages", "Categories", "ListFiles", "RecentChanges", "Random", "Search", "Upload", "UserLogin", "MediaStatistics", "Log"]) {
          s.open("li");
          s.a(`/wiki/Special:${n}`, n);
          s.close("li");
        }
        s.close("ul");
      }) : missing;
    case "Log":
    case "MediaStatistics":
    case "MyTalk":
    case "MyContributions":
    case "PasswordReset":
      return page(name, (s) => s.el("p", undefined, name === "Log" ? "Combined display of all available logs." : "You need to be logged in."));
  }
  return missing;
}

