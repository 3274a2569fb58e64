/**
 * History pages: commit lists (`/commits/{ref}[/{path}]`, 50 a page, each row with the
 * commit and a "view at this point" link to the path at that commit), commit pages
 * (Browse Source, parent, split/unified toggle, patch and diff downloads, "View File" for
 * every changed file), blame (a hunk per revision, with "blame prior to this change"),
 * the commit graph, branches (with archive downloads) and tags, and compare pages.
 */
import type { HtmlSink } from "../html-sink";
import { ancestors, dirMask, pathHistory, type GitContent } from "./forge-git";
import { COMMITS_PER_PAGE } from "./forge-cost";
import { forgePage, giteaPager, relTime, repoHeader, userLink } from "./forge-layout";
import { commitVisible, type ForgeModel, type ForgeRepo } from "./forge-model";
import { latestCommit, short } from "./forge-tree";
import { refHref, refSub, repoPath, type Ref } from "./forge-urls";

export function commitTable(s: HtmlSink, m: ForgeModel, repo: ForgeRepo, commits: readonly number[], path: string, isDir: boolean): void {
  const g = repo.git;
  const base = repoPath(m, repo);
  s.open("div", "ui attached table segment commit-table");
  s.open("table", "ui very basic striped table unstackable", "commits-table");
  s.raw(`<thead><tr><th class="three wide">Author</th><th class="two wide sha">SHA1</th><th class="eight wide message">Message</th><th class="two wide right aligned">Date</th><th class="one wide"></th></tr></thead>`);
  s.open("tbody", "commit-list");
  for (const c of commits) {
    const cm = g.commits[c]!;
    s.open("tr");
    s.open("td", "author");
    userLink(s, m, cm.author);
    s.close("td");
    s.open("td", "sha");
    s.a(`${base}/commit/${cm.sha}`, short(cm.sha), "ui sha label", `rel="nofollow"`);
    s.close("td");
    s.open("td", "message");
    s.a(`${base}/commit/${cm.sha}`, cm.message, "default-link muted");
    s.close("td");
    s.open("td", "text right aligned");
    relTime(s, cm.time);
    s.close("td");
    s.open("td", "text right aligned tw-py-0");
    s.raw(`<button class="btn interact-bg tw-p-2 copy-commit-id" data-clipboard-text="${cm.sha}">Copy</button>`);
    const present = path === "" || (isDir ? dirMask(g, c)[g.dirByPath.get(path)!] === 1 : g.snap[c]![g.fileByPath.get(path)!]! >= 0);
    if (present) s.a(`${base}/src/commit/${cm.sha}${path === "" ? "" : "/" + path}`, "View at this point in history", "btn interact-bg tw-p-2 view-single-diff");
    s.close("td");
    s.close("tr");
  }
  s.close("tbody");
  s.close("table");
  s.close("div");
}

/** Commits touching `path` ("" for all) in the history of `ref`, page `page`. */
export function historyPage(s: HtmlSink, m: ForgeModel, repo: ForgeRepo, ref: Ref, path: string, isDir: boolean, page: number): void {
  const g = repo.git;
  const base = repoPath(m, repo);
  const all = pathHistory(g, ref.commit, path, isDir);
  const pages = Math.max(1, Math.ceil(all.length / COMMITS_PER_PAGE));
  forgePage(s, { title: `${path === "" ? "Commits" : `History for ${path}`} · ${m.owners[repo.owner]!.name}/${repo.name}`, cls: "repository commits", feed: base }, () => {
    repoHeader(s, m, repo, "code", ref);
    s.open("div", "ui container");
    s.open("div", "repo-button-row");
    if (path !== "") s.el("span", "commits-path", path);
    s.a(`${base}/graph`, "Commit Graph", "ui basic small compact button");
    if (ref.kind === "branch" && path === "") s.a(`${base}/rss/branch/${ref.name}`, "RSS", "btn-octicon", `data-tooltip-content="RSS Feed"`);
    s.raw(`<form class="ignore-dirty" action="${base}/commits/${refSub(ref)}/search"><input name="q" placeholder="Search commits…"><button type="submit" class="ui primary button">Search</button></form>`);
    s.close("div");
    s.el("h4", "ui top attached header", `${all.length} Commits`);
    commitTable(s, m, repo, all.slice((page - 1) * COMMITS_PER_PAGE, page * COMMITS_PER_PAGE), path, isDir);
    giteaPager(s, page, pages, (p) => `${refHref(base, "commits", ref, path)}?page=${p}`);
    s.close("div");
  });
}

export function historyPages(g: GitContent, ref: Ref, path: string, isDir: boolean): number {
  return Math.max(1, Math.ceil(pathHistory(g, ref.commit, path, isDir).length / COMMITS_PER_PAGE));
}

/** A commit page; `style` is set on the split / unified views. */
export function commitPage(s: HtmlSink, m: ForgeModel, repo: ForgeRepo, c: number, style: "split" | "unified" | null): void {
  const g = repo.git;
  const cm = g.commits[c]!;
  const base = repoPath(m, repo);
  forgePage(s, { title: `${cm.message} · ${short(cm.sha)}`, cls: "repository diff" }, () => {
    repoHeader(s, m, repo, "code");
    s.open("div", "ui container fluid padded");
    s.open("div", "ui top attached header clearing segment gt-relative commit-header");
    s.el("h3", "gt-mb-0", cm.message);
    s.a(`${base}/src/commit/${cm.sha}`, "Browse Source", "ui primary tiny button", `title="Browse Source"`);
    s.close("div");
    s.open("div", "ui attached segment gt-df gt-ac gt-sb gt-py-2 commit-header-row gt-fw");
    userLink(s, m, cm.author);
    relTime(s, cm.time);
    s.open("div", "gt-df gt-ac gt-fw");
    if (cm.parent >= 0) {
      s.el("span", "text grey", "parent");
      s.a(`${base}/commit/${g.commits[cm.parent]!.sha}`, short(g.commits[cm.parent]!.sha), "ui primary sha label");
    }
    s.el("span", "text grey", "commit");
    s.el("span", "ui primary sha label", short(cm.sha));
    s.close("div");
    s.close("div");
    s.open("div", "diff-detail-box diff-box sticky");
    s.el("span", "diff-detail-stats", `${cm.changes.length} changed files`);
    s.a(`?style=${style === "split" ? "unified" : "split"}&whitespace=&show-outdated=`, style === "split" ? "Unified View" : "Split View", "ui tiny basic toggle button");
    s.open("div", "menu");
    s.a(`${base}/commit/${cm.sha}.patch`, "Download Patch File", "item", `download="${short(cm.sha)}.patch"`);
    s.a(`${base}/commit/${cm.sha}.diff`, "Download Diff File", "item", `download="${short(cm.sha)}.diff"`);
    s.close("div");
    s.close("div");
    diffFiles(s, base, g, cm.sha, cm.changes);
    s.close("div");
  });
}

/** One box per changed file with its "View File" link at `sha` (deleted files have none). */
export function diffFiles(s: HtmlSink, base: string, g: GitContent, sha: string, changes: ReadonlyArray<{ file: number; op: string }>): void {
  s.open("div", "diff-file-list", "diff-file-boxes");
  for (const ch of changes) {
    const f = g.files[ch.file]!;
    s.open("div", "diff-file-box diff-box file-content tab-size-4 diff-box");
    s.open("h4", "diff-file-header sticky-2nd-row ui top attached normal header gt-df gt-ac gt-sb");
    s.el("span", "file gt-mono", f.path);
    if (f.lfs) s.el("span", "ui label", "Stored with Git LFS");
    if (ch.op !== "D") s.a(`${base}/src/commit/${sha}/${f.path}`, "View File", "ui basic tiny button", `rel="nofollow"`);
    s.close("h4");
    s.el("div", "diff-file-body ui attached unstackable table segment", f.text ? `@@ ${ch.op === "A" ? "-0,0 +1" : "-1 +1"} @@` : "Binary file not shown.");
    s.close("div");
  }
  s.close("div");
}

/** Blame of a text file at `ref`: a hunk per revision, newest first. */
export function blamePage(s: HtmlSink, m: ForgeModel, repo: ForgeRepo, ref: Ref, f: number): void {
  const g = repo.git;
  const base = repoPath(m, repo);
  const file = g.files[f]!;
  const revs = pathHistory(g, ref.commit, file.path, false);
  forgePage(s, { title: `${repo.name}/${file.path} at ${ref.kind === "commit" ? short(ref.name) : ref.name}`, cls: "repository file list blame" }, () => {
    repoHeader(s, m, repo, "code", ref);
    s.open("div", "ui container");
    s.open("h4", "file-header ui top attached header");
    s.el("div", "file-info-entry", `${revs.length} revisions`);
    s.open("div", "ui buttons");
    s.a(refHref(base, file.lfs ? "media" : "raw", ref, file.path), "Raw", "ui mini basic button");
    s.a(refHref(base, "src", ref, file.path), "Normal View", "ui mini basic button");
    s.a(refHref(base, "commits", ref, file.path), "History", "ui mini basic button");
    s.close("div");
    s.close("h4");
    s.open("table", "blame");
    s.open("tbody");
    for (const c of revs) {
      const cm = g.commits[c]!;
      s.open("tr", "top-line-blame");
      s.open("td", "lines-commit");
      s.open("div", "blame-info");
      s.open("div", "blame-data");
      s.open("div", "blame-message");
      s.a(`${base}/commit/${cm.sha}`, cm.message, "suppressed tw-text-text-light", `title="${cm.message.replace(/"/g, "&quot;")}"`);
      s.close("div");
      s.open("div", "blame-time");
      relTime(s, cm.time);
      s.close("div");
      s.close("div");
      s.close("div");
      s.close("td");
      s.open("td", "lines-blame-btn");
      if (cm.parent >= 0 && g.snap[cm.parent]![f]! >= 0) s.a(`${base}/blame/commit/${g.commits[cm.parent]!.sha}/${file.path}`, "", "tw-p-1", `data-tooltip-content="View blame prior to this change"`);
      s.close("td");
      s.el("td", "lines-num", "");
      s.el("td", "lines-code blame-code chroma", "");
      s.close("tr");
    }
    s.close("tbody");
    s.close("table");
    s.close("div");
  });
}

/** Commit graph: every visible commit, with branch and tag labels. */
export function graphPage(s: HtmlSink, m: ForgeModel, repo: ForgeRepo): void {
  const g = repo.git;
  const base = repoPath(m, repo);
  const commits = g.commits.map((_, c) => c).filter((c) => commitVisible(repo, c)).sort((a, b) => g.commits[b]!.time - g.commits[a]!.time || b - a);
  forgePage(s, { title: `Commit Graph · ${m.owners[repo.owner]!.name}/${repo.name}`, cls: "repository commits" }, () => {
    repoHeader(s, m, repo, "code");
    s.open("div", "ui container");
    s.open("ul", undefined, "graph-list");
    for (const c of commits) {
      const cm = g.commits[c]!;
      s.open("li", "gt-df gt-ac");
      s.a(`${base}/commit/${cm.sha}`, short(cm.sha), "ui primary sha label");
      for (const b of repo.branches) if (b.head === c) s.a(`${base}/src/branch/${b.name}`, b.name, "ui labelled basic tiny button");
      for (const t of repo.tags) if (t.commit === c) s.a(`${base}/src/tag/${t.name}`, t.name, "ui labelled basic tiny button");
      s.el("span", "message", cm.message);
      userLink(s, m, cm.author);
      s.close("li");
    }
    s.close("ul");
    s.close("div");
  });
}

export function branchesPage(s: HtmlSink, m: ForgeModel, repo: ForgeRepo): void {
  const g = repo.git;
  const base = repoPath(m, repo);
  forgePage(s, { title: `Branches · ${m.owners[repo.owner]!.name}/${repo.name}`, cls: "repository branches" }, () => {
    repoHeader(s, m, repo, "code");
    s.open("div", "ui container");
    s.open("table", "ui very basic striped fixed table single line");
    s.open("tbody");
    repo.branches.forEach((b, k) => {
      s.open("tr");
      s.open("td", "nine wide");
      s.a(`${base}/src/branch/${b.name}`, b.name, "gt-ellipsis");
      if (k === 0) s.el("span", "ui basic label", "Default Branch");
      s.open("p", "info gt-df gt-ac");
      s.a(`${base}/commit/${g.commits[b.head]!.sha}`, short(g.commits[b.head]!.sha), "muted gt-mono");
      s.text(` · ${g.commits[b.head]!.message} · `);
      relTime(s, g.commits[b.head]!.time);
      s.close("p");
      s.close("td");
      s.open("td", "two wide ui");
      if (k > 0) s.el("span", "ui label", `${ancestors(g, b.head).filter((c) => c >= g.mainCount).length} ahead`);
      s.close("td");
      s.open("td", "three wide right aligned overflow-visible");
      s.a(`${base}/archive/${b.name}.zip`, "ZIP", "archive-link", `rel="nofollow"`);
      s.a(`${base}/archive/${b.name}.tar.gz`, "TAR.GZ", "archive-link", `rel="nofollow"`);
      s.close("td");
      s.close("tr");
    });
    s.close("tbody");
    s.close("table");
    s.close("div");
  });
}

export function tagsPage(s: HtmlSink, m: ForgeModel, repo: ForgeRepo): void {
  const g = repo.git;
  const base = repoPath(m, repo);
  forgePage(s, { title: `Tags · ${m.owners[repo.owner]!.name}/${repo.name}`, cls: "repository tags", feed: `${base}/tags` }, () => {
    repoHeader(s, m, repo, "releases");
    s.open("div", "ui container");
    s.open("div", "gt-df gt-sb");
    s.a(`${base}/releases`, "Releases", "item");
    s.a(`${base}/tags`, "Tags", "active item");
    s.a(`${base}/tags.rss`, "RSS", "btn-octicon", `data-tooltip-content="RSS Feed"`);
    s.close("div");
    if (repo.tags.length === 0) s.el("p", "empty-placeholder", "This repository doesn't have any tags yet.");
    s.open("table", "ui very basic table");
    s.open("tbody", "tag-list");
    for (const [k, t] of [...repo.tags.entries()].reverse()) {
      const sha = g.commits[t.commit]!.sha;
      s.open("tr");
      s.open("td", "tag");
      s.a(`${base}/src/tag/${t.name}`, t.name, "tag-name", `rel="nofollow"`);
      s.open("div", "download");
      s.a(`${base}/src/commit/${sha}`, short(sha), "muted gt-mono", `rel="nofollow"`);
      s.a(`${base}/archive/${t.name}.zip`, "ZIP", "archive-link", `rel="nofollow"`);
      s.a(`${base}/archive/${t.name}.tar.gz`, "TAR.GZ", "archive-link", `rel="nofollow"`);
      if (repo.releases.some((r) => r.tag === k)) s.a(`${base}/releases/tag/${t.name}`, "Release", "muted");
      s.close("div");
      s.close("td");
      s.close("tr");
    }
    s.close("tbody");
    s.close("table");
    s.close("div");
  });
}

/** `/compare/<tag>...<default>`: commits since a release and the files they changed. */
export function comparePage(s: HtmlSink, m: ForgeModel, repo: ForgeRepo, from: number, to: number, title: string): void {
  const g = repo.git;
  const base = repoPath(m, repo);
  const before = new Set(ancestors(g, from));
  const commits = ancestors(g, to).filter((c) => !before.has(c));
  const changed = new Map<number, string>();
  for (const c of commits) for (const ch of g.commits[c]!.changes) if (!changed.has(ch.file)) changed.set(ch.file, ch.op);
  forgePage(s, { title: `Comparing ${title}`, cls: "repository diff compare pull" }, () => {
    repoHeader(s, m, repo, "code");
    s.open("div", "ui container fluid padded");
    s.el("h2", "ui header", `Comparing ${title}`);
    if (commits.length > 0) latestCommit(s, m, repo, commits[0]!);
    commitTable(s, m, repo, commits, "", true);
    diffFiles(s, base, g, g.commits[to]!.sha, [...changed].filter(([f]) => g.snap[to]![f]! >= 0).map(([file, op]) => ({ file, op })));
    s.close("div");
  });
}
