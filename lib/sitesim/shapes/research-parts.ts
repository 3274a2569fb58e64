/** Research repository: blocks several page types share (item summaries, trails, scoped browse links). */
import type { LinkList } from "../html-layout";
import type { HtmlSink } from "../html-sink";
import { hash32 } from "../random";
import { BROWSE_LABELS, type BrowseType } from "./research-layout";
import {
  authorsOf, communityPath, formatDate, handleHref, itemHref, scopeHref, type RepoModel, type Scope,
} from "./research-model";

/** Trail from the home page down to `scope` included. */
export function scopeTrail(m: RepoModel, scope: Scope): LinkList {
  const out: Array<readonly [string, string]> = [["Repository Home", "/"]];
  if (scope.kind === "site") return out;
  const comm = scope.kind === "collection" ? m.collections[scope.index]!.community : scope.index;
  for (const c of communityPath(m, comm)) out.push([m.communities[c]!.name, handleHref(m, m.communities[c]!.handle)]);
  if (scope.kind === "collection") out.push([m.collections[scope.index]!.name, scopeHref(m, scope)]);
  return out;
}

/** Browse types offered inside a scope: collections have all four, communities the item indexes. */
export function scopedBrowseTypes(scope: Scope): readonly BrowseType[] {
  return scope.kind === "collection" ? ["dateissued", "author", "title", "subject"] : ["dateissued", "title"];
}

/** Sidebar "This Collection" / "This Community" block. */
export function scopeBrowseBlock(s: HtmlSink, m: RepoModel, scope: Scope): void {
  if (scope.kind === "site") return;
  s.open("div", "list-group", "aspect_viewArtifacts_Navigation_list_context");
  s.el("span", "list-group-item ds-option", scope.kind === "collection" ? "This Collection" : "This Community");
  for (const type of scopedBrowseTypes(scope)) s.a(`${scopeHref(m, scope)}/browse?type=${type}`, BROWSE_LABELS[type], "list-group-item ds-option");
  s.close("div");
}

/** "Smith, John; Lee, Wei; et al." as listings show authors (text, not links). */
export function authorLine(m: RepoModel, i: number): string {
  const a = authorsOf(m, i);
  const names = Array.from(a.subarray(0, 3), (k) => m.authors[k]!);
  return names.join("; ") + (a.length > 3 ? "; et al." : "");
}

/** One item of a listing (browse, recent submissions, search results). */
export function artifactItem(s: HtmlSink, m: RepoModel, i: number): void {
  s.open("div", "ds-artifact-item row");
  s.open("div", "col-sm-12 artifact-description");
  s.open("h4", "title");
  s.a(itemHref(m, i), m.itemTitle[i]!);
  s.close("h4");
  s.open("div", "artifact-info");
  s.el("span", "author h4", authorLine(m, i));
  s.el("span", "publisher-date h4", ` (${formatDate(m.itemIssued[i]!)})`);
  s.close("div");
  s.para(hash32(m.seed, 0xab5, i), 24, "artifact-abstract");
  s.close("div");
  s.close("div");
}

/** Items `from`..`to` (exclusive) of a list read through `at`. */
export function artifactList(s: HtmlSink, m: RepoModel, at: (k: number) => number, from: number, to: number): void {
  s.open("div", "ds-static-div primary");
  for (let k = from; k < to; k++) artifactItem(s, m, at(k));
  s.close("div");
}
