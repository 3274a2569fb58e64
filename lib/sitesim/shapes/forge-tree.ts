/**
 * Code tab pages: the repository home and tree views (`table#repo-files-table`: the
 * latest commit, then one row per entry with its last commit message and age, a `..`
 * row, the README below), and file views (`div.file-header` with Raw or, for Git LFS
 * files, the `/media/` link, Permalink, Blame, History; CSV rendered as a table with a
 * Source toggle, Markdown rendered, binaries with "View raw", images inline). At the
 * root of every ref: the summary bar (commits, branches, tags, size, languages); at the
 * root of a branch or tag also "Go to file" and the download menu (ZIP, TAR.GZ, BUNDLE),
 * which a commit view does not have. The branch dropdown is built
 * by JavaScript from a data attribute: it has no links.
 */
import type { HtmlSink } from "../html-sink";
import { hash32, Rng } from "../random";
import { humanBytes } from "../text";
import { dirMask, lastDirCommit } from "./forge-git";
import { revisionRef } from "./forge-files";
import { avatar, forgePage, relTime, repoHeader } from "./forge-layout";
import { markdownFile, readme } from "./forge-markdown";
import type { ForgeModel, ForgeRepo } from "./forge-model";
import { LANGUAGES } from "./forge-text";
import { refHref, refSub, repoPath, topicHref, userHref, type Ref } from "./forge-urls";

/** Short commit id as Gitea shows it (10 hex digits). */
export const short = (sha: string) => sha.slice(0, 10);

export function latestCommit(s: HtmlSink, m: ForgeModel, repo: ForgeRepo, c: number): void {
  const cm = repo.git.commits[c]!;
  const href = `${repoPath(m, repo)}/commit/${cm.sha}`;
  s.open("div", "latest-commit");
  avatar(s, m, cm.author);
  s.a(userHref(m, cm.author), m.owners[cm.author]!.name, "muted author-wrapper");
  s.a(href, short(cm.sha), "ui primary sha label");
  s.open("span", "grey commit-summary");
  s.a(href, cm.message, "default-link muted");
  s.close("span");
  s.close("div");
}

function branchSelector(s: HtmlSink, repo: ForgeRepo, ref: Ref): void {
  if (!s.withText) return;
  const data = JSON.stringify({ branches: repo.branches.map((b) => b.name), tags: repo.tags.map((t) => t.name), current: ref.kind === "commit" ? short(ref.name) : ref.name });
  s.raw(`<div class="fitted item choose reference"><div class="js-branch-tag-selector" data-data="${data.replace(/&/g, "&amp;").replace(/"/g, "&quot;")}"><div class="ui basic small compact button"><span class="text">${ref.kind === "commit" ? short(ref.name) : ref.name}</span></div></div></div>`);
}

/** `repo-path` breadcrumbs: the repository, then each folder; the last segment is not a link. */
function breadcrumbs(s: HtmlSink, m: ForgeModel, repo: ForgeRepo, ref: Ref, path: string): void {
  const base = repoPath(m, repo);
  s.open("span", "breadcrumb repo-path gt-ml-2");
  const parts = path === "" ? [] : path.split("/");
  if (parts.length === 0) s.el("span", "active section", repo.name);
  else s.a(refHref(base, "src", ref, ""), repo.name, "section");
  parts.forEach((p, i) => {
    s.el("span", "breadcrumb-divider", "/");
    if (i === parts.length - 1) s.el("span", "active section", p);
    else s.a(refHref(base, "src", ref, parts.slice(0, i + 1).join("/")), p, "section");
  });
  s.close("span");
}

function repoSummary(s: HtmlSink, m: ForgeModel, repo: ForgeRepo, ref: Ref): void {
  const base = repoPath(m, repo);
  let commits = 0;
  for (let k = ref.commit; k >= 0; k = repo.git.commits[k]!.parent) commits++;
  s.open("div", "ui segments repository-summary gt-mt-2 gt-mb-0");
  s.open("div", "ui segment sub-menu repository-menu");
  s.aWrap(`${base}/commits/${refSub(ref)}`, "item muted", () => s.raw(`<b>${commits}</b> Commits`));
  s.aWrap(`${base}/branches`, "item muted", () => s.raw(`<b>${repo.branches.length}</b> Branches`));
  s.aWrap(`${base}/tags`, "item muted", () => s.raw(`<b>${repo.tags.length}</b> Tags`));
  s.el("span", "item not-mobile", humanBytes(40_000 + (hash32(repo.git.seed, ref.commit) % 9_000_000)));
  s.close("div");
  if (repo.langStats.length > 0 && s.withText) {
    s.raw(`<div class="ui segment language-stats">${repo.langStats.map(([l, p]) => `<div class="bar" style="width: ${p}%; background-color: ${LANGUAGES[l]!.color}">&nbsp;</div>`).join("")}</div>`);
    s.raw(`<div class="ui segment sub-menu language-stats-details gt-hidden">${repo.langStats.map(([l, p]) => `<div class="item"><i class="color-icon" style="background-color: ${LANGUAGES[l]!.color}"></i><span class="gt-font-semibold">${LANGUAGES[l]!.name}</span> ${p}%</div>`).join("")}</div>`);
  }
  s.close("div");
}

/** The repository home (default branch root) or a tree view of folder `d` at `ref`. */
export function treePage(s: HtmlSink, m: ForgeModel, repo: ForgeRepo, ref: Ref, d: number): void {
  const g = repo.git;
  const base = repoPath(m, repo);
  const dir = g.dirs[d]!;
  const owner = m.owners[repo.owner]!.name;
  const title = d === 0 && ref.kind === "branch" && ref.name === repo.defaultBranch ? `${owner}/${repo.name}${repo.description ? ": " + repo.description : ""}` : `${repo.name}/${dir.path} at ${ref.kind === "commit" ? short(ref.name) : ref.name}`;
  forgePage(s, { title, cls: "repository file list", feed: base, description: repo.description }, () => {
    repoHeader(s, m, repo, "code", ref);
    s.open("div", "ui container");
    if (d === 0) {
      s.open("div", "repo-description", "repo-desc");
      s.el("span", "description", repo.description);
      if (repo.website) s.a(repo.website, repo.website, "link");
      s.close("div");
      if (repo.topics.length > 0) {
        s.open("div", "repo-topic-wrap", "repo-topics");
        for (const t of repo.topics) s.a(topicHref(t), t, "repo-topic ui large label topic");
        s.close("div");
      }
      repoSummary(s, m, repo, ref);
    }
    s.open("div", "repo-button-row");
    s.open("div", "gt-df gt-ac");
    branchSelector(s, repo, ref);
    breadcrumbs(s, m, repo, ref, dir.path);
    s.close("div");
    s.open("div", "gt-df gt-ac");
    if (d === 0 && ref.kind !== "commit") {
      s.a(`${base}/find/${refSub(ref)}`, "Go to file", "ui compact basic button");
      s.raw(`<div class="ui action tiny input" id="clone-panel"><input id="repo-clone-url" size="20" value="https://git.example-statistics.org${base}.git" readonly>`);
      s.open("div", "menu");
      for (const [ext, label] of [["zip", "Download ZIP"], ["tar.gz", "Download TAR.GZ"], ["bundle", "Download BUNDLE"]] as const) {
        s.a(`${base}/archive/${ref.name}.${ext}`, label, "item archive-link", `rel="nofollow"`);
      }
      s.close("div");
      s.raw(`</div>`);
    } else if (d !== 0) s.a(`${base}/commits/${refSub(ref)}/${dir.path}`, "History", "ui compact basic button");
    s.close("div");
    s.close("div");
    const mask = dirMask(g, ref.commit);
    const row = g.snap[ref.commit]!;
    s.open("table", "ui single line table gt-mt-0", "repo-files-table");
    s.open("thead");
    s.open("tr", "commit-list");
    s.open("th", undefined, undefined, `colspan="2"`);
    const latest = lastDirCommit(g, ref.commit, d);
    if (latest >= 0) latestCommit(s, m, repo, latest);
    s.close("th");
    s.open("th", "text grey right age");
    if (latest >= 0) relTime(s, g.commits[latest]!.time);
    s.close("th");
    s.close("tr");
    s.close("thead");
    s.open("tbody");
    if (d !== 0) {
      s.open("tr", "has-parent");
      s.open("td", undefined, undefined, `colspan="3"`);
      s.a(refHref(base, "src", ref, g.dirs[dir.parent]!.path), "..", "muted");
      s.close("td");
      s.close("tr");
    }
    const entryRow = (path: string, name: string, c: number) => {
      s.open("tr");
      s.open("td", "name four wide");
      s.a(refHref(base, "src", ref, path), name, "muted", `title="${name}"`);
      s.close("td");
      s.open("td", "message nine wide");
      if (c >= 0) s.a(`${base}/commit/${g.commits[c]!.sha}`, g.commits[c]!.message, "default-link muted");
      s.close("td");
      s.open("td", "text right age three wide");
      if (c >= 0) relTime(s, g.commits[c]!.time);
      s.close("td");
      s.close("tr");
    };
    for (const cd of dir.childDirs) if (mask[cd]) entryRow(g.dirs[cd]!.path, g.dirs[cd]!.name, lastDirCommit(g, ref.commit, cd));
    for (const f of dir.childFiles) if (row[f]! >= 0) entryRow(g.files[f]!.path, g.files[f]!.name, row[f]!);
    s.close("tbody");
    s.close("table");
    const rd = dir.childFiles.find((f) => row[f]! >= 0 && /^readme\.md$/i.test(g.files[f]!.name));
    if (rd !== undefined) {
      s.open("div", "ui top attached header readme-header");
      s.a(refHref(base, "src", ref, g.files[rd]!.path), g.files[rd]!.name);
      s.close("div");
      readme(s, m, repo, ref, rd);
    }
    s.close("div");
  });
}

function csvTable(s: HtmlSink, seed: number): void {
  if (!s.withText) return;
  const r = new Rng(seed);
  const rows: string[] = [`<tr><th class="line-num">1</th><th>id</th><th>region</th><th>year</th><th>value</th><th>unit</th><th>status</th></tr>`];
  for (let i = 1; i <= 12; i++) rows.push(`<tr><td class="line-num">${i + 1}</td><td>${i}</td><td>FR-${["ARA", "BRE", "IDF", "OCC", "NOR"][r.int(5)]}</td><td>${2000 + r.int(25)}</td><td>${(r.int(1_000_000) / 100).toFixed(2)}</td><td>persons</td><td>${r.chance(0.1) ? "p" : "f"}</td></tr>`);
  s.raw(`<div class="file-view csv"><table class="data-table">${rows.join("")}</table></div>`);
}

/** A file at `ref`; `source`: the `?display=source` view of a rendered (CSV, Markdown) file. */
export function filePage(s: HtmlSink, m: ForgeModel, repo: ForgeRepo, ref: Ref, f: number, source: boolean): void {
  const g = repo.git;
  const file = g.files[f]!;
  const base = repoPath(m, repo);
  const rev = g.snap[ref.commit]![f]!;
  const bytes = revisionRef(g, f, rev).bytes;
  const rawLink = refHref(base, file.lfs ? "media" : "raw", ref, file.path);
  const rendered = file.format === "csv" || file.format === "md";
  forgePage(s, { title: `${repo.name}/${file.path} at ${ref.kind === "commit" ? short(ref.name) : ref.name}`, cls: "repository file list", feed: base }, () => {
    repoHeader(s, m, repo, "code", ref);
    s.open("div", "ui container");
    s.open("div", "repo-button-row");
    branchSelector(s, repo, ref);
    breadcrumbs(s, m, repo, ref, file.path);
    s.close("div");
    s.open("div", "ui top attached header", "repo-file-commit-box");
    latestCommit(s, m, repo, rev);
    s.close("div");
    s.open("h4", "file-header ui top attached header gt-df gt-ac gt-sb gt-fw");
    s.open("div", "file-header-left gt-df gt-ac gt-py-3 gt-pr-4");
    s.el("div", "file-info-entry", file.text ? `${Math.max(1, Math.round(bytes / 38))} lines` : humanBytes(bytes));
    if (file.lfs) s.el("div", "file-info-entry", "Stored with Git LFS");
    s.close("div");
    s.open("div", "file-header-right file-actions gt-df gt-ac gt-fw");
    s.open("div", "ui buttons gt-mr-2");
    if (rendered) s.a(source ? s.pageKey.split("?")[0]! : "?display=source", source ? "Rendered" : "Source", "ui mini basic button");
    s.a(rawLink, "Raw", "ui mini basic button");
    if (ref.kind !== "commit") s.a(`${base}/src/commit/${g.commits[ref.commit]!.sha}/${file.path}`, "Permalink", "ui mini basic button");
    if (file.text) s.a(refHref(base, "blame", ref, file.path), "Blame", "ui mini basic button");
    s.a(refHref(base, "commits", ref, file.path), "History", "ui mini basic button");
    s.close("div");
    s.close("div");
    s.close("h4");
    s.open("div", "ui attached table unstackable segment");
    if (file.format === "csv" && !source) csvTable(s, hash32(file.seed, rev));
    else if (file.format === "md" && !source) markdownFile(s, m, repo, ref, f);
    else if (file.kind === "image") s.img(rawLink, file.name);
    else if (file.format === "pdf") s.raw(`<div class="pdf-content is-loading" data-src="${rawLink}" data-fallback-button-text="View Raw"></div>`);
    else if (!file.text) {
      s.open("div", "view-raw");
      s.a(rawLink, "View raw", undefined, `rel="nofollow"`);
      s.close("div");
    } else if (s.withText) {
      const lines = Math.min(30, Math.max(1, Math.round(bytes / 38)));
      s.raw(`<div class="file-view code-view"><table><tbody>${Array.from({ length: lines }, (_, i) => `<tr><td id="L${i + 1}" class="lines-num"><span data-line-number="${i + 1}"></span></td><td class="lines-code chroma"><code class="code-inner"></code></td></tr>`).join("")}</tbody></table></div>`);
    }
    s.close("div");
    s.close("div");
  });
}

/** "Go to file": the list is loaded by JavaScript. */
export function findPage(s: HtmlSink, m: ForgeModel, repo: ForgeRepo, ref: Ref): void {
  const base = repoPath(m, repo);
  forgePage(s, { title: `Find files - ${repo.name}`, cls: "repository" }, () => {
    repoHeader(s, m, repo, "code", ref);
    s.open("div", "ui container");
    s.raw(`<div class="repo-file-finder" data-repo-link="${base}" data-active-ref="${refSub(ref)}" data-no-results="No matching file found"><input name="q" placeholder="Find a file" autocomplete="off"></div>`);
    s.close("div");
  });
}
