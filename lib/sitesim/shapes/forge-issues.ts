/**
 * Issues and pull requests: the lists (Open / Closed tabs, label dropdown toggling
 * labels with Gitea's exclusive scopes, sort dropdown, labels on items, pager: every
 * combination is its own URL), the Labels and Milestones pages, issue pages (comments
 * with links to data files, commits and other issues, attachments under
 * `/attachments/<uuid>`, label links, "Sign in to join this conversation") and pull
 * request pages with their Conversation, Commits and Files Changed tabs.
 */
import type { HtmlSink } from "../html-sink";
import { hash32, Rng } from "../random";
import { ISSUES_PER_PAGE } from "./forge-cost";
import { commitTable, diffFiles } from "./forge-history";
import { avatar, emptyPlaceholder, forgePage, giteaPager, relTime, repoHeader, userLink } from "./forge-layout";
import { prose } from "./forge-markdown";
import type { ForgeModel, ForgeRepo, ForgeThread } from "./forge-model";
import {
  filterHref, filterPageHref, ISSUE_SORTS, itemLabelHref, loginHref, repoPath, toggleLabel, userHref, type IssueFilter,
} from "./forge-urls";

const SORT_LABELS: Record<string, string> = {
  newest: "Newest", oldest: "Oldest", recentupdate: "Recently updated", leastupdate: "Least recently updated",
  mostcomment: "Most commented", leastcomment: "Least commented", nearduedate: "Nearest due date", farduedate: "Farthest due date",
};

function sorted(threads: ForgeThread[], sort: string): ForgeThread[] {
  const by: Record<string, (a: ForgeThread, b: ForgeThread) => number> = {
    oldest: (a, b) => a.created - b.created,
    recentupdate: (a, b) => b.updated - a.updated,
    leastupdate: (a, b) => a.updated - b.updated,
    mostcomment: (a, b) => b.comments - a.comments,
    leastcomment: (a, b) => a.comments - b.comments,
  };
  const cmp = by[sort] ?? ((a: ForgeThread, b: ForgeThread) => b.created - a.created);
  return threads.sort((a, b) => cmp(a, b) || b.number - a.number);
}

/** Number of pages of a filtered list (at least one). */
export function listPages(repo: ForgeRepo, pull: boolean, f: IssueFilter): number {
  const n = repo.threads.filter((t) => t.pull === pull && (t.state === "open") === (f.state === "open") && f.labels.every((l) => t.labels.includes(l))).length;
  return Math.max(1, Math.ceil(n / ISSUES_PER_PAGE));
}

export function threadHref(base: string, t: ForgeThread): string {
  return `${base}/${t.pull ? "pulls" : "issues"}/${t.number}`;
}

function labelChip(s: HtmlSink, repo: ForgeRepo, l: number, href: string): void {
  const label = repo.labels[l]!;
  s.a(href, label.name, label.scope ? "ui label scope-parent" : "ui label", `style="color: #fff; background-color: ${label.color}"`);
}

export function issueListPage(s: HtmlSink, m: ForgeModel, repo: ForgeRepo, pull: boolean, f: IssueFilter): void {
  const base = repoPath(m, repo);
  const list = `${base}/${pull ? "pulls" : "issues"}`;
  const mine = repo.threads.filter((t) => t.pull === pull);
  const match = (state: string) => mine.filter((t) => (t.state === "open") === (state === "open") && f.labels.every((l) => t.labels.includes(l)));
  const shown = sorted(match(f.state), f.sort);
  const pages = Math.max(1, Math.ceil(shown.length / ISSUES_PER_PAGE));
  const noun = pull ? "Pull Requests" : "Issues";
  forgePage(s, { title: `${noun} - ${m.owners[repo.owner]!.name}/${repo.name}`, cls: `repository ${pull ? "pulls" : "issue"} list` }, () => {
    repoHeader(s, m, repo, pull ? "pulls" : "issues");
    s.open("div", "ui container");
    s.open("div", "list-header");
    s.open("div", "small-menu-items ui compact tiny menu list-header-toggle");
    for (const state of ["open", "closed"] as const) {
      s.a(filterHref(repo, { state, sort: f.sort, labels: f.labels }), `${match(state).length} ${state === "open" ? "Open" : "Closed"}`, f.state === state ? "item active" : "item");
    }
    s.close("div");
    s.raw(`<form class="list-header-search ui form ignore-dirty"><input type="hidden" name="state" value="${f.state}"><input name="q" placeholder="Search…"></form>`);
    s.a(`${base}/labels`, "Labels", "ui small basic button");
    s.a(`${base}/milestones`, "Milestones", "ui small basic button");
    if (!pull) s.a(`${base}/issues/new`, "New Issue", "ui small primary button");
    s.close("div");
    s.open("div", "issue-list-toolbar");
    s.open("div", "ui secondary filter menu labels");
    if (repo.labels.length > 0) {
      s.open("div", "ui dropdown jump item label-filter");
      s.el("span", "text", "Label");
      s.open("div", "menu");
      if (f.labels.length > 0) s.a(filterHref(repo, { state: f.state, sort: f.sort, labels: [] }), "Clear selected labels", "item");
      repo.labels.forEach((l, i) => {
        s.a(filterHref(repo, { state: f.state, sort: f.sort, labels: toggleLabel(repo.labels, f.labels, i) }), l.name, f.labels.includes(i) ? "item label-filter-item checked" : "item label-filter-item", `data-label-id="${l.id}"`);
      });
      s.close("div");
      s.close("div");
    }
    s.open("div", "ui dropdown type jump item");
    s.el("span", "text", "Sort");
    s.open("div", "menu");
    for (const sort of ISSUE_SORTS) s.a(filterHref(repo, { state: f.state, sort, labels: f.labels }), SORT_LABELS[sort]!, f.sort === sort ? "active item" : "item");
    s.close("div");
    s.close("div");
    s.close("div");
    s.close("div");
    if (shown.length === 0) emptyPlaceholder(s, pull ? "There are no pull requests." : "There are no issues.");
    s.open("div", "flex-list", "issue-list");
    for (const t of shown.slice((f.page - 1) * ISSUES_PER_PAGE, f.page * ISSUES_PER_PAGE)) {
      s.open("div", "flex-item");
      s.open("div", "flex-item-main");
      s.open("div", "flex-item-header");
      s.a(threadHref(base, t), t.title, "flex-text-inline issue-title");
      for (const l of t.labels) labelChip(s, repo, l, itemLabelHref(list, repo, f.state, l));
      s.close("div");
      s.open("div", "flex-item-body");
      s.text(`#${t.number} opened `);
      relTime(s, t.created);
      s.text(" by ");
      s.a(userHref(m, t.author), m.owners[t.author]!.name, "muted");
      s.close("div");
      s.close("div");
      if (t.comments > 0) s.a(threadHref(base, t), String(t.comments), "text grey flex-text-inline");
      s.close("div");
    }
    s.close("div");
    giteaPager(s, f.page, pages, (p) => filterPageHref(list, repo, { ...f, page: p }));
    s.close("div");
  });
}

function sidebar(s: HtmlSink, m: ForgeModel, repo: ForgeRepo, t: ForgeThread, participants: number[]): void {
  const base = repoPath(m, repo);
  s.open("div", "issue-content-right ui segment");
  s.el("span", "text", "Labels");
  s.open("div", "ui labels list");
  if (t.labels.length === 0) s.el("span", "no-select item", "No labels");
  for (const l of t.labels) labelChip(s, repo, l, `${base}/${t.pull ? "pulls" : "issues"}?labels=${repo.labels[l]!.id}`);
  s.close("div");
  s.el("span", "text", "Milestone");
  s.el("span", "no-select item", "No milestone");
  s.el("span", "text", "Assignees");
  s.el("span", "no-select item", "No one assigned");
  s.el("span", "text", `${participants.length} participants`);
  s.open("div", "ui list gt-df gt-fw");
  for (const u of participants) s.aWrap(userHref(m, u), undefined, () => avatar(s, m, u, 28));
  s.close("div");
  s.close("div");
}

type PullTab = "conversation" | "commits" | "files";

/** An issue or a pull request (tab `tab`). */
export function threadPage(s: HtmlSink, m: ForgeModel, repo: ForgeRepo, t: ForgeThread, tab: PullTab): void {
  const g = repo.git;
  const base = repoPath(m, repo);
  const r = new Rng(hash32(t.seed, 0xc0));
  const commenters = Array.from({ length: t.comments }, () => r.pick(m.owners.filter((o) => o.kind === "user")).index);
  const participants = [...new Set([t.author, ...commenters])];
  const head = t.commits.length > 0 ? t.commits[t.commits.length - 1]! : -1;
  forgePage(s, { title: `${t.title} - #${t.number} - ${m.owners[repo.owner]!.name}/${repo.name}`, cls: `repository view issue${t.pull ? " pull" : ""}` }, () => {
    repoHeader(s, m, repo, t.pull ? "pulls" : "issues");
    s.open("div", "ui container");
    s.open("div", "issue-title-header");
    s.open("h1", "gt-word-break");
    s.el("span", "issue-title", t.title);
    s.el("span", "index", `#${t.number}`);
    s.close("h1");
    s.el("div", `ui ${t.state === "open" ? "green" : t.state === "merged" ? "purple" : "red"} label issue-state-label`, t.state === "open" ? "Open" : t.state === "merged" ? "Merged" : "Closed");
    s.open("span", "time-desc");
    userLink(s, m, t.author);
    if (t.pull) {
      s.text(` ${t.state === "merged" ? "merged" : "wants to merge"} ${t.commits.length} commits into `);
      s.a(`${base}/src/branch/${repo.defaultBranch}`, repo.defaultBranch, "branch_target");
      if (t.branch >= 0) {
        s.text(" from ");
        s.a(`${base}/src/branch/${repo.branches[t.branch]!.name}`, repo.branches[t.branch]!.name, "branch_target");
      }
    } else s.text(` opened this issue · ${t.comments} comments`);
    s.close("span");
    if (!t.pull) s.a(`${base}/issues/new`, "New Issue", "ui small primary button");
    s.close("div");
    if (t.pull) {
      s.open("div", "ui top attached pull tabular menu");
      s.a(`${base}/pulls/${t.number}`, "Conversation", tab === "conversation" ? "active item" : "item");
      s.a(`${base}/pulls/${t.number}/commits`, `Commits ${t.commits.length}`, tab === "commits" ? "active item" : "item");
      s.a(`${base}/pulls/${t.number}/files`, "Files Changed", tab === "files" ? "active item" : "item");
      s.close("div");
    }
    if (tab === "commits") commitTable(s, m, repo, [...t.commits].reverse(), "", true);
    else if (tab === "files") {
      s.open("div", "diff-detail-box");
      s.a(`${base}/pulls/${t.number}.patch`, "Download Patch File", "item");
      s.a(`${base}/pulls/${t.number}.diff`, "Download Diff File", "item");
      s.close("div");
      const files = new Map<number, string>();
      for (const c of t.commits) for (const ch of g.commits[c]!.changes) files.set(ch.file, ch.op);
      diffFiles(s, base, g, g.commits[head]!.sha, [...files].map(([file, op]) => ({ file, op })));
    } else {
      s.open("div", "issue-content");
      s.open("div", "ui timeline issue-content-left");
      const links = t.links.map((l) => [`${base}/${l}`, l.replace(/^src\/(branch|commit)\/[^/]+\//, "").replace(/^src\//, "")] as const);
      const split = links.length > 0 && t.comments > 0 ? 1 : links.length;
      s.open("div", "timeline-item comment first");
      userLink(s, m, t.author);
      prose(s, t.seed, links.slice(0, split));
      if (t.attachments.length > 0) {
        s.open("div", "dropzone-attachments");
        for (const a of t.attachments) s.a(`/attachments/${a.uuid}`, a.name, "ui image", `target="_blank" rel="nofollow"`);
        s.close("div");
      }
      s.close("div");
      for (const l of t.labels) {
        s.open("div", "timeline-item event");
        userLink(s, m, t.author);
        s.text(" added the ");
        labelChip(s, repo, l, `${base}/${t.pull ? "pulls" : "issues"}?labels=${repo.labels[l]!.id}`);
        s.text(" label");
        s.close("div");
      }
      commenters.forEach((u, k) => {
        s.open("div", "timeline-item comment");
        userLink(s, m, u);
        prose(s, hash32(t.seed, k), k === 0 ? links.slice(split) : [], 18);
        s.close("div");
      });
      if (t.state === "merged") {
        s.open("div", "timeline-item event");
        userLink(s, m, t.author);
        s.text(" merged commit ");
        s.a(`${base}/commit/${g.commits[head]!.sha}`, g.commits[head]!.sha.slice(0, 10), "ui sha");
        s.text(` into ${repo.defaultBranch} `);
        relTime(s, t.updated);
        s.close("div");
      } else if (t.state === "closed") {
        s.open("div", "timeline-item event");
        userLink(s, m, t.author);
        s.text(" closed this issue ");
        relTime(s, t.updated);
        s.close("div");
      }
      s.open("div", "timeline-item comment form");
      s.a(loginHref(s.pageKey), "Sign in", undefined, `rel="nofollow"`);
      s.text(" to join this conversation.");
      s.close("div");
      s.close("div");
      sidebar(s, m, repo, t, participants);
      s.close("div");
    }
    s.close("div");
  });
}

export function labelsPage(s: HtmlSink, m: ForgeModel, repo: ForgeRepo): void {
  const base = repoPath(m, repo);
  forgePage(s, { title: `Labels - ${m.owners[repo.owner]!.name}/${repo.name}`, cls: "repository labels" }, () => {
    repoHeader(s, m, repo, "issues");
    s.open("div", "ui container");
    s.el("h4", "ui top attached header", `${repo.labels.length} Labels`);
    s.open("div", "ui attached segment labels-list");
    if (repo.labels.length === 0) emptyPlaceholder(s, "This repository doesn't have any labels yet.");
    repo.labels.forEach((l, i) => {
      const open = repo.threads.filter((t) => !t.pull && t.state === "open" && t.labels.includes(i)).length;
      s.open("li", "item");
      labelChip(s, repo, i, `${base}/issues?labels=${l.id}`);
      s.a(`${base}/issues?labels=${l.id}`, `${open} open issues`, "open-issues");
      s.close("li");
    });
    s.close("div");
    s.close("div");
  });
}

export function milestonesPage(s: HtmlSink, m: ForgeModel, repo: ForgeRepo): void {
  forgePage(s, { title: `Milestones - ${m.owners[repo.owner]!.name}/${repo.name}`, cls: "repository milestones" }, () => {
    repoHeader(s, m, repo, "issues");
    s.open("div", "ui container");
    emptyPlaceholder(s, "There are no milestones yet.");
    s.close("div");
  });
}
