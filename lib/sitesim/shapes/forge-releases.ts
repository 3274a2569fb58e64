/**
 * Releases: the paged list (ten a page) and one page per release, each with its tag
 * (`/src/tag/…`), commit, "N commits to <default> since this release" (a compare page),
 * notes that point at the data files of the tag, its assets
 * (`/releases/download/<tag>/<name>`) and the source code archives
 * (`/archive/<tag>.zip`, `.tar.gz`).
 */
import type { HtmlSink } from "../html-sink";
import { ancestors } from "./forge-git";
import { attachmentRef } from "./forge-files";
import { emptyPlaceholder, forgePage, giteaPager, relTime, repoHeader, userLink } from "./forge-layout";
import { presentFiles, prose } from "./forge-markdown";
import type { ForgeModel, ForgeRelease, ForgeRepo } from "./forge-model";
import { humanBytes } from "../text";
import { short } from "./forge-tree";
import { repoPath } from "./forge-urls";

export const RELEASES_PER_PAGE = 10;

function release(s: HtmlSink, m: ForgeModel, repo: ForgeRepo, rel: ForgeRelease): void {
  const g = repo.git;
  const base = repoPath(m, repo);
  const tag = repo.tags[rel.tag]!;
  const sha = g.commits[tag.commit]!.sha;
  const since = ancestors(g, repo.branches[0]!.head).length - ancestors(g, tag.commit).length;
  s.open("li", "ui grid");
  s.open("div", "ui four wide column meta");
  s.a(`${base}/src/tag/${tag.name}`, tag.name, "muted", `rel="nofollow"`);
  s.a(`${base}/src/commit/${sha}`, short(sha), "muted gt-mono", `rel="nofollow"`);
  s.close("div");
  s.open("div", "ui twelve wide column detail");
  s.open("h4", "release-list-title gt-word-break");
  s.a(`${base}/releases/tag/${tag.name}`, rel.title);
  if (rel.pre) s.el("span", "ui orange label", "Pre-release");
  s.close("h4");
  s.open("p", "text grey");
  userLink(s, m, rel.author);
  s.text(" released this ");
  relTime(s, rel.time);
  if (since > 0) {
    s.text(" | ");
    s.a(`${base}/compare/${tag.name}...${repo.defaultBranch}`, `${since} commits to ${repo.defaultBranch} since this release`);
  }
  s.close("p");
  const data = repo.template === "data" ? presentFiles(g, tag.commit, (f) => g.files[f]!.kind === "data" && g.snap[tag.commit]![f] === tag.commit) : [];
  prose(s, rel.seed, data.slice(0, 4).map((f) => [`${base}/src/tag/${tag.name}/${g.files[f]!.path}`, g.files[f]!.name] as const), 25);
  s.open("details", "download", undefined, "open");
  s.el("summary", "gt-my-4", `Assets ${rel.attachments.length + 2}`);
  s.open("ul", "list");
  for (const a of rel.attachments) {
    s.open("li");
    s.a(`${base}/releases/download/${tag.name}/${a.name}`, a.name, undefined, `rel="nofollow" download`);
    s.el("span", "ui text grey right", humanBytes(attachmentRef(a).bytes));
    s.close("li");
  }
  s.open("li");
  s.a(`${base}/archive/${tag.name}.zip`, "Source code (ZIP)", "archive-link", `rel="nofollow"`);
  s.close("li");
  s.open("li");
  s.a(`${base}/archive/${tag.name}.tar.gz`, "Source code (TAR.GZ)", "archive-link", `rel="nofollow"`);
  s.close("li");
  s.close("ul");
  s.close("details");
  s.close("div");
  s.close("li");
}

function frame(s: HtmlSink, m: ForgeModel, repo: ForgeRepo, title: string, body: () => void): void {
  const base = repoPath(m, repo);
  forgePage(s, { title: `${title} - ${m.owners[repo.owner]!.name}/${repo.name}`, cls: "repository new release", feed: `${base}/releases` }, () => {
    repoHeader(s, m, repo, "releases");
    s.open("div", "ui container");
    s.open("div", "gt-df gt-sb gt-ac");
    s.a(`${base}/releases`, "Releases", "active item");
    s.a(`${base}/tags`, "Tags", "item");
    s.a(`${base}/releases.rss`, "RSS", "btn-octicon", `data-tooltip-content="RSS Feed"`);
    s.close("div");
    body();
    s.close("div");
  });
}

export function releasesPage(s: HtmlSink, m: ForgeModel, repo: ForgeRepo, page: number): void {
  const pages = Math.max(1, Math.ceil(repo.releases.length / RELEASES_PER_PAGE));
  frame(s, m, repo, "Releases", () => {
    if (repo.releases.length === 0) emptyPlaceholder(s, "No releases");
    s.open("ul", undefined, "release-list");
    for (const rel of repo.releases.slice((page - 1) * RELEASES_PER_PAGE, page * RELEASES_PER_PAGE)) release(s, m, repo, rel);
    s.close("ul");
    giteaPager(s, page, pages, (p) => `${repoPath(m, repo)}/releases?page=${p}`);
  });
}

export function releasePage(s: HtmlSink, m: ForgeModel, repo: ForgeRepo, rel: ForgeRelease): void {
  frame(s, m, repo, rel.title, () => {
    s.open("ul", undefined, "release-list");
    release(s, m, repo, rel);
    s.close("ul");
  });
}
