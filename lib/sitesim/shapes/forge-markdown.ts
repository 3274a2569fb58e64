/**
 * Rendered Markdown (`div.markup.markdown`): READMEs, documentation chapters, wiki pages,
 * issue comments and release notes. Relative links are resolved against the ref being
 * viewed (Gitea writes `/{owner}/{repo}/src/{ref}/{path}`), so a README lists the files
 * that existed when it was last edited, which may be gone at a later commit (404);
 * images are wrapped in links to `/media/…` (media, skipped). Authors also paste
 * absolute links: raw downloads, other repositories under old or deleted names.
 */
import type { HtmlSink } from "../html-sink";
import { Rng } from "../random";
import type { GitContent } from "./forge-git";
import type { ForgeModel, ForgeRepo } from "./forge-model";
import { refHref, repoPath, type Ref } from "./forge-urls";

export function markupStart(s: HtmlSink): void {
  s.open("div", "markup markdown");
}

/** Files present at commit `c`, optionally of some kinds. */
export function presentFiles(g: GitContent, c: number, pred: (f: number) => boolean): number[] {
  const row = g.snap[c]!;
  const out: number[] = [];
  for (let f = 0; f < g.files.length; f++) if (row[f]! >= 0 && pred(f)) out.push(f);
  return out;
}

function list(s: HtmlSink, items: ReadonlyArray<readonly [string, string]>): void {
  if (items.length === 0) return;
  s.open("ul");
  for (const [href, label] of items) {
    s.open("li");
    s.a(href, label);
    s.close("li");
  }
  s.close("ul");
}

/** The repository README at `ref` (its content is that of revision `rev`). */
export function readme(s: HtmlSink, m: ForgeModel, repo: ForgeRepo, ref: Ref, f: number): void {
  const g = repo.git;
  const rev = g.snap[ref.commit]![f]!;
  const base = repoPath(m, repo);
  const rel = (path: string) => refHref(base, "src", ref, path);
  const r = new Rng(g.files[f]!.seed ^ rev);
  s.open("div", "file-view markup markdown", "readme");
  s.el("h1", undefined, repo.name);
  s.para(g.files[f]!.seed + rev, 30);
  if (repo.template === "data") {
    s.el("h2", undefined, "Data");
    const data = presentFiles(g, rev, (x) => g.files[x]!.kind === "data");
    list(s, data.map((x) => [rel(g.files[x]!.path), g.files[x]!.path] as const));
    const csv = data.filter((x) => g.files[x]!.format === "csv");
    if (csv.length > 0 && r.chance(0.6)) {
      s.el("h3", undefined, "Direct download");
      const x = csv[csv.length - 1]!;
      s.siteA(`${base}/raw/branch/${repo.defaultBranch}/${g.files[x]!.path}`, `${g.files[x]!.name} (raw)`, "absolute");
    }
  } else if (repo.template === "docs") {
    s.el("h2", undefined, "Contents");
    list(s, presentFiles(g, rev, (x) => g.files[x]!.format === "md" && x !== f || g.files[x]!.format === "pdf").map((x) => [rel(g.files[x]!.path), g.files[x]!.name] as const));
    for (const x of presentFiles(g, rev, (y) => g.files[y]!.kind === "image").slice(0, 2)) {
      s.aWrap(refHref(base, "media", ref, g.files[x]!.path), undefined, () => s.raw(`<img src="${refHref(base, "media", ref, g.files[x]!.path)}" alt="${g.files[x]!.name}">`), `target="_blank" rel="nofollow noopener"`);
    }
  } else {
    s.aWrap(`https://ci.example-statistics.org/repos/${repo.id}`, undefined, () => s.raw(`<img src="https://ci.example-statistics.org/api/badges/${repo.id}/status.svg" alt="Build Status">`), `rel="nofollow"`);
    s.el("h2", undefined, "Installation");
    s.raw(`<pre class="code-block"><code>${repo.template === "r" ? `remotes::install_git("https://git.example-statistics.org${base}.git")` : `pip install git+https://git.example-statistics.org${base}.git`}</code></pre>`);
    const docs = presentFiles(g, rev, (x) => /^(docs\/|vignettes\/|CHANGELOG|NEWS|LICENSE)/.test(g.files[x]!.path) || g.files[x]!.kind === "data");
    list(s, docs.map((x) => [rel(g.files[x]!.path), g.files[x]!.name] as const));
  }
  if (repo.units.wiki) {
    s.open("p");
    s.text("More in the ");
    s.a(`${base}/wiki`, "wiki");
    s.text(".");
    s.close("p");
  }
  if (repo.xrefs.length > 0) {
    s.el("h2", undefined, "See also");
    list(s, repo.xrefs.map((x) => [x, x.slice(1)] as const));
  }
  s.close("div");
}

/** A Markdown file (documentation chapter, notes) rendered at `ref`. */
export function markdownFile(s: HtmlSink, m: ForgeModel, repo: ForgeRepo, ref: Ref, f: number): void {
  const g = repo.git;
  const rev = g.snap[ref.commit]![f]!;
  const r = new Rng(g.files[f]!.seed ^ (rev * 31));
  const dir = g.dirs[g.files[f]!.dir]!.path;
  const siblings = presentFiles(g, rev, (x) => x !== f && g.files[x]!.dir === g.files[f]!.dir && (g.files[x]!.format === "md" || g.files[x]!.kind === "data"));
  markupStart(s);
  s.el("h1", undefined, g.files[f]!.name.replace(/\.(md|Rmd)$/, "").replace(/-/g, " "));
  s.para(g.files[f]!.seed, 40);
  const links = siblings.filter(() => r.chance(0.5)).slice(0, 3);
  list(s, links.map((x) => [refHref(repoPath(m, repo), "src", ref, (dir === "" ? "" : dir + "/") + g.files[x]!.name), g.files[x]!.name] as const));
  s.para(g.files[f]!.seed + 1, 25);
  s.close("div");
}

/** Paragraphs with the given links woven in (comments, wiki pages, release notes). */
export function prose(s: HtmlSink, seed: number, links: ReadonlyArray<readonly [string, string]>, words = 30): void {
  markupStart(s);
  s.para(seed, words);
  if (links.length > 0) {
    s.open("p");
    links.forEach(([href, label], k) => {
      if (k > 0) s.text(k === links.length - 1 ? " and " : ", ");
      s.a(href, label);
    });
    s.close("p");
  }
  s.close("div");
}
