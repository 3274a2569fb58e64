/**
 * Gitea's URLs: `/{owner}/{repo}/src|raw|media|blame|commits/{branch|tag|commit}/{ref}/{path}`,
 * issue and pull request filters as Gitea 1.21's templates write them
 * (`?q=&type=all&sort=&state=open&labels=3,5&milestone=0&project=0&assignee=0&poster=0`,
 * the pager putting `page=` first, list-item labels in another order), repository lists
 * (`?sort=…&q=…&language=…`, language links `?q=…&sort=…&language=…`, topics
 * `/explore/repos?q=…&topic=1`), and their parsing (parameters in any order).
 */
import type { Query } from "../types";
import type { ForgeLabel, ForgeModel, ForgeRepo } from "./forge-model";

export type RefKind = "branch" | "tag" | "commit";

/** A resolved ref: what `{branch|tag|commit}/{name}` designates. */
export interface Ref {
  kind: RefKind;
  /** Branch or tag name, or the full commit id. */
  name: string;
  commit: number;
}

export function repoPath(m: ForgeModel, repo: ForgeRepo): string {
  return `/${m.owners[repo.owner]!.name}/${repo.name}`;
}

/** `branch/main`, `tag/v1.0`, `commit/<sha>` (Gitea's BranchNameSubURL). */
export function refSub(ref: Ref): string {
  return `${ref.kind}/${ref.name}`;
}

/** `/{owner}/{repo}/{action}/{ref}[/{path}]` with action src, raw, media, blame or commits. */
export function refHref(base: string, action: string, ref: Ref, path: string): string {
  return `${base}/${action}/${refSub(ref)}${path === "" ? "" : "/" + path}`;
}

export function userHref(m: ForgeModel, owner: number): string {
  return `/${m.owners[owner]!.name}`;
}

/** "Sign in" from any page. */
export function loginHref(pageKey: string): string {
  return `/user/login?redirect_to=${encodeURIComponent(pageKey)}`;
}

// ---- issue and pull request filters ----

export const ISSUE_SORTS = ["newest", "oldest", "recentupdate", "leastupdate", "mostcomment", "leastcomment", "nearduedate", "farduedate"] as const;

/** Sort values a listing can carry: none (the default order) and the eight of the dropdown. */
export function issueSortCount(): number {
  return ISSUE_SORTS.length + 1;
}

export interface IssueFilter {
  state: "open" | "closed";
  sort: string;
  /** Selected label indices (into the repository's labels), ascending. */
  labels: number[];
  page: number;
}

function labelIds(repo: ForgeRepo, labels: readonly number[]): string {
  return labels.map((l) => repo.labels[l]!.id).join(",");
}

/** Filter links (state tabs, sort dropdown, label dropdown): all in one order. */
export function filterHref(repo: ForgeRepo, f: Omit<IssueFilter, "page">): string {
  return `?q=&type=all&sort=${f.sort}&state=${f.state}&labels=${labelIds(repo, f.labels)}&milestone=0&project=0&assignee=0&poster=0`;
}

/** Pager links put `page` first. */
export function filterPageHref(base: string, repo: ForgeRepo, f: IssueFilter): string {
  return `${base}?page=${f.page}&q=&type=all&sort=${f.sort}&state=${f.state}&labels=${labelIds(repo, f.labels)}&milestone=0&project=0&assignee=0&poster=0`;
}

/** A label shown on a list item: that label alone, in the list's state, without sort. */
export function itemLabelHref(base: string, repo: ForgeRepo, state: string, label: number): string {
  return `${base}?q=&type=all&state=${state}&labels=${repo.labels[label]!.id}&milestone=0&assignee=0&poster=0`;
}

/** Label selections reachable by clicking: at most one label per exclusive scope. */
export function labelSelections(labels: readonly ForgeLabel[]): number[][] {
  let out: number[][] = [[]];
  const scopes = new Map<string, number[]>();
  labels.forEach((l, i) => {
    if (l.scope === null) out = out.flatMap((s) => [s, [...s, i]]);
    else scopes.set(l.scope, [...(scopes.get(l.scope) ?? []), i]);
  });
  for (const members of scopes.values()) out = out.flatMap((s) => [s, ...members.map((i) => [...s, i])]);
  return out.map((s) => s.sort((a, b) => a - b));
}

/** Selection after clicking label `i` (Gitea's LoadSelectedLabelsAfterClick). */
export function toggleLabel(labels: readonly ForgeLabel[], sel: readonly number[], i: number): number[] {
  if (sel.includes(i)) return sel.filter((x) => x !== i);
  const scope = labels[i]!.scope;
  return [...sel.filter((x) => scope === null || labels[x]!.scope !== scope), i].sort((a, b) => a - b);
}

const ISSUE_KEYS = new Set(["page", "q", "type", "sort", "state", "labels", "milestone", "project", "assignee", "poster"]);

/** Parses an issue list query; null when it is not one Gitea would answer the same way. */
export function parseIssueFilter(repo: ForgeRepo, q: Query): IssueFilter | null {
  for (const [k] of q.pairs) if (!ISSUE_KEYS.has(k)) return null;
  if (new Set(q.pairs.map(([k]) => k)).size !== q.pairs.length) return null;
  const state = q.get("state") ?? "open";
  const sort = q.get("sort") ?? "";
  if ((state !== "open" && state !== "closed") || (sort !== "" && !(ISSUE_SORTS as readonly string[]).includes(sort))) return null;
  if ((q.get("q") ?? "") !== "" || !["", "all"].includes(q.get("type") ?? "")) return null;
  for (const k of ["milestone", "project", "assignee", "poster"]) if (!["", "0"].includes(q.get(k) ?? "")) return null;
  const page = q.int("page", 1);
  if (!Number.isFinite(page)) return null;
  const raw = q.get("labels") ?? "";
  const labels: number[] = [];
  for (const part of raw === "" ? [] : raw.split(",")) {
    const i = repo.labels.findIndex((l) => String(l.id) === part);
    if (i < 0 || labels.includes(i)) return null;
    labels.push(i);
  }
  labels.sort((a, b) => a - b);
  return { state, sort, labels, page };
}

// ---- repository lists (explore, owners) ----

export interface ListState {
  sort: string;
  q: string;
  topic: boolean;
  language: string;
  page: number;
  /** User profiles: "repositories", "stars", "activity", "followers", "following". */
  tab: string;
}

const enc = encodeURIComponent;

/** Sort dropdown item (relative `?` link). */
export function listSortHref(s: ListState, sort: string, withTab: boolean): string {
  return `?${withTab ? `tab=${s.tab}&` : ""}sort=${sort}&q=${enc(s.q)}${s.topic ? "&topic=1" : ""}&language=${enc(s.language)}`;
}

/** A repository's language, filtering the list (keeps the keyword, drops the topic flag). */
export function listLanguageHref(base: string, s: ListState, sortType: string, language: string, withTab: boolean): string {
  return `${base}?q=${enc(s.q)}&sort=${sortType}&language=${enc(language)}${withTab ? `&tab=${s.tab}` : ""}`;
}

export function listPageHref(base: string, s: ListState, sortType: string, page: number, withTab: boolean): string {
  return `${base}?page=${page}${withTab ? `&tab=${s.tab}` : ""}&sort=${sortType}&q=${enc(s.q)}${s.topic ? "&topic=1" : ""}&language=${enc(s.language)}`;
}

export function topicHref(topic: string): string {
  return `/explore/repos?q=${enc(topic)}&topic=1`;
}

/** Parses a list query; `sorts` are the allowed sort values, `tabs` the allowed tabs ([""] when none). */
export function parseListState(q: Query, sorts: readonly string[], tabs: readonly string[]): ListState | null {
  const keys = new Set(q.pairs.map(([k]) => k));
  if (keys.size !== q.pairs.length) return null;
  for (const k of keys) if (!["sort", "q", "topic", "language", "page", "tab"].includes(k)) return null;
  const sort = q.get("sort") ?? "";
  const tab = q.get("tab") ?? tabs[0]!;
  const topic = q.get("topic");
  const page = q.int("page", 1);
  if ((sort !== "" && !sorts.includes(sort)) || !tabs.includes(tab) || (topic !== undefined && topic !== "1" && topic !== "") || !Number.isFinite(page)) return null;
  return { sort, q: q.get("q") ?? "", topic: topic === "1", language: q.get("language") ?? "", page, tab };
}
