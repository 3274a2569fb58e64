/**
 * The repository wiki (a page per wiki page with its Pages dropdown and revision count,
 * `?action=_pages`, `?action=_revision`, `/wiki/commit/<sha>`; links to missing pages
 * are 404 for visitors), the Activity tab (seven periods, linking the issues, pull
 * requests and releases of the period; releases in the old `/src/<tag>` spelling, as
 * Gitea 1.21 writes them), and the stargazers, watchers and forks lists.
 */
import type { HtmlSink } from "../html-sink";
import { NOW } from "./forge-git";
import { emptyPlaceholder, forgePage, relTime, repoHeader, userCards, userLink } from "./forge-layout";
import { presentFiles, prose } from "./forge-markdown";
import type { ForgeModel, ForgeRepo } from "./forge-model";
import { threadHref } from "./forge-issues";
import { short } from "./forge-tree";
import { repoPath, userHref } from "./forge-urls";

function wikiFrame(s: HtmlSink, m: ForgeModel, repo: ForgeRepo, title: string, body: () => void): void {
  const base = repoPath(m, repo);
  forgePage(s, { title: `${title} - ${m.owners[repo.owner]!.name}/${repo.name} Wiki`, cls: "repository wiki view" }, () => {
    repoHeader(s, m, repo, "wiki");
    s.open("div", "ui container");
    s.open("div", "repo-button-row");
    s.open("div", "ui floating filter dropdown");
    s.el("div", "ui basic small button", "Pages");
    s.open("div", "scrolling menu");
    for (const p of repo.wiki) s.a(`${base}/wiki/${p.name}`, p.name.replace(/-/g, " "), "item");
    s.close("div");
    s.close("div");
    s.a(`${base}/wiki/?action=_pages`, "Pages", "ui basic button");
    s.raw(`<input id="repo-clone-url" size="20" value="https://git.example-statistics.org${base}.wiki.git" readonly>`);
    s.close("div");
    body();
    s.close("div");
  });
}

export function wikiPage(s: HtmlSink, m: ForgeModel, repo: ForgeRepo, p: number): void {
  const page = repo.wiki[p]!;
  const base = repoPath(m, repo);
  const g = repo.git;
  const last = repo.wikiCommits[page.revs[page.revs.length - 1]!]!;
  wikiFrame(s, m, repo, page.name.replace(/-/g, " "), () => {
    s.open("div", "wiki-title");
    s.el("h2", "ui header", page.name.replace(/-/g, " "));
    userLink(s, m, last.author);
    s.text(" edited this page ");
    relTime(s, last.time);
    s.aWrap(`${base}/wiki/${page.name}?action=_revision`, "file-revisions-btn ui basic button", () => s.raw(`<span>${page.revs.length}</span> revisions`));
    s.close("div");
    const head = repo.visibleMain - 1;
    const data = repo.template === "data" ? presentFiles(g, head, (f) => g.files[f]!.kind === "data") : [];
    const links: Array<readonly [string, string]> = page.links.map((l) => [`${base}/wiki/${l}`, l.replace(/-/g, " ")] as const);
    if (data.length > 0) links.push([`${base}/src/branch/${repo.defaultBranch}/${g.files[data[page.seed % data.length]!]!.path}`, "the data"]);
    if (p === 0) for (const x of repo.xrefs) links.push([x, x.slice(1)]);
    prose(s, page.seed, links, 45);
  });
}

export function wikiPagesList(s: HtmlSink, m: ForgeModel, repo: ForgeRepo): void {
  const base = repoPath(m, repo);
  wikiFrame(s, m, repo, "Pages", () => {
    s.open("table", "ui table wiki-pages-list");
    s.open("tbody");
    for (const p of repo.wiki) {
      s.open("tr");
      s.open("td");
      s.a(`${base}/wiki/${p.name}`, p.name.replace(/-/g, " "));
      s.close("td");
      s.open("td", "text right grey");
      relTime(s, repo.wikiCommits[p.revs[p.revs.length - 1]!]!.time);
      s.close("td");
      s.close("tr");
    }
    s.close("tbody");
    s.close("table");
  });
}

export function wikiRevisions(s: HtmlSink, m: ForgeModel, repo: ForgeRepo, p: number): void {
  const page = repo.wiki[p]!;
  const base = repoPath(m, repo);
  wikiFrame(s, m, repo, `${page.name.replace(/-/g, " ")} revisions`, () => {
    s.open("h2", "ui header");
    s.a(`${base}/wiki/${page.name}`, page.name.replace(/-/g, " "));
    s.close("h2");
    s.el("div", "ui top attached header", `${page.revs.length} revisions`);
    s.open("table", "ui very basic striped table", "commits-table");
    s.open("tbody", "commit-list");
    for (const k of [...page.revs].reverse()) {
      const wc = repo.wikiCommits[k]!;
      s.open("tr");
      s.open("td", "author");
      userLink(s, m, wc.author);
      s.close("td");
      s.open("td", "sha");
      s.a(`${base}/wiki/commit/${wc.sha}`, short(wc.sha), "ui sha label");
      s.close("td");
      s.el("td", "message", `Update page '${page.name}'`);
      s.open("td");
      relTime(s, wc.time);
      s.close("td");
      s.close("tr");
    }
    s.close("tbody");
    s.close("table");
  });
}

export function wikiCommitPage(s: HtmlSink, m: ForgeModel, repo: ForgeRepo, k: number): void {
  const wc = repo.wikiCommits[k]!;
  const page = repo.wiki[wc.page]!;
  wikiFrame(s, m, repo, `Update page '${page.name}'`, () => {
    s.open("div", "ui top attached header clearing segment commit-header");
    s.el("h3", undefined, `Update page '${page.name}'`);
    userLink(s, m, wc.author);
    relTime(s, wc.time);
    s.close("div");
    s.open("div", "diff-file-box diff-box file-content");
    s.open("h4", "diff-file-header ui top attached normal header");
    s.el("span", "file gt-mono", `${page.name}.md`);
    s.a(`${repoPath(m, repo)}/wiki/${page.name}`, "View File", "ui basic tiny button");
    s.close("h4");
    s.close("div");
  });
}

export const ACTIVITY_PERIODS: ReadonlyArray<readonly [string, string, number]> = [
  ["daily", "1 day", 1], ["halfweekly", "3 days", 3], ["weekly", "1 week", 7], ["monthly", "1 month", 30],
  ["quarterly", "3 months", 90], ["semiyearly", "6 months", 180], ["yearly", "1 year", 365],
];

export function activityPage(s: HtmlSink, m: ForgeModel, repo: ForgeRepo, period: string): void {
  const base = repoPath(m, repo);
  const days = ACTIVITY_PERIODS.find(([p]) => p === period)![2];
  const from = NOW - days * 1440;
  const g = repo.git;
  forgePage(s, { title: `Activity - ${m.owners[repo.owner]!.name}/${repo.name}`, cls: "repository commits activity" }, () => {
    repoHeader(s, m, repo, "activity");
    s.open("div", "ui container");
    s.open("div", "ui dropdown jump");
    s.el("span", "text", `Period: ${ACTIVITY_PERIODS.find(([p]) => p === period)![1]}`);
    s.open("div", "menu");
    for (const [p, label] of ACTIVITY_PERIODS) s.a(`${base}/activity/${p}`, label, p === period ? "active item" : "item");
    s.close("div");
    s.close("div");
    const commits = g.commits.filter((c, k) => c.time >= from && (k < repo.visibleMain || repo.forkOf < 0));
    s.el("p", "activity-summary", `Excluding merges, ${new Set(commits.map((c) => c.author)).size} authors have pushed ${commits.filter((c) => c.branch === 0).length} commits to ${repo.defaultBranch} and ${commits.length} commits to all branches.`);
    const section = (title: string, items: ReadonlyArray<readonly [string, string]>) => {
      if (items.length === 0) return;
      s.el("h4", "ui horizontal divider header", title);
      s.open("div", "list");
      for (const [href, label] of items) {
        s.open("p", "desc");
        s.a(href, label, "title");
        s.close("p");
      }
      s.close("div");
    };
    const threads = repo.threads.filter((t) => t.updated >= from || t.created >= from);
    section(`${repo.releases.filter((r) => r.time >= from).length} Releases Published`, repo.releases.filter((r) => r.time >= from).map((r) => [`${base}/src/${repo.tags[r.tag]!.name}`, r.title] as const));
    section("Merged Pull Requests", threads.filter((t) => t.pull && t.state === "merged").map((t) => [threadHref(base, t), `#${t.number} ${t.title}`] as const));
    section("Proposed Pull Requests", threads.filter((t) => t.pull && t.state === "open").map((t) => [threadHref(base, t), `#${t.number} ${t.title}`] as const));
    section("Closed Issues", threads.filter((t) => !t.pull && t.state === "closed").map((t) => [threadHref(base, t), `#${t.number} ${t.title}`] as const));
    section("New Issues", threads.filter((t) => !t.pull && t.state === "open" && t.created >= from).map((t) => [threadHref(base, t), `#${t.number} ${t.title}`] as const));
    if (commits.length === 0 && threads.length === 0) emptyPlaceholder(s, "No activity during this period.");
    s.close("div");
  });
}

/** Stargazers or watchers (`kind`) of a repository. */
export function peoplePage(s: HtmlSink, m: ForgeModel, repo: ForgeRepo, kind: "stars" | "watchers"): void {
  const people = kind === "stars" ? repo.stars : repo.watchers;
  forgePage(s, { title: `${kind === "stars" ? "Stargazers" : "Watchers"} - ${m.owners[repo.owner]!.name}/${repo.name}`, cls: "repository watchers" }, () => {
    repoHeader(s, m, repo, "none");
    s.open("div", "ui container");
    s.el("h2", "ui dividing header", kind === "stars" ? "Stargazers" : "Watchers");
    userCards(s, m, people, "No one yet.");
    s.close("div");
  });
}

export function forksPage(s: HtmlSink, m: ForgeModel, repo: ForgeRepo): void {
  forgePage(s, { title: `Forks - ${m.owners[repo.owner]!.name}/${repo.name}`, cls: "repository forks" }, () => {
    repoHeader(s, m, repo, "none");
    s.open("div", "ui container");
    s.el("h2", "ui dividing header", "Forks");
    if (repo.forks.length === 0) emptyPlaceholder(s, "No forks yet.");
    for (const f of repo.forks) {
      const fork = m.repos[f]!;
      s.open("div", "item");
      s.a(userHref(m, fork.owner), m.owners[fork.owner]!.name);
      s.text(" / ");
      s.a(repoPath(m, fork), fork.name);
      s.close("div");
    }
    s.close("div");
  });
}
