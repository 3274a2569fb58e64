/**
 * The social side of a forge repository: labels (Gitea's default scoped set), issues
 * and pull requests sharing one numbering (merged pull requests are commits of the
 * default branch, open ones are feature branches), their links (data files at the
 * default branch, at a commit, or in the old `/src/<branch>/` spelling; commits; other
 * issues) and attachments, releases with their assets, and the repository wiki.
 */
import type { FormatName } from "../formats";
import { hash32, Rng } from "../random";
import { ancestors, NOW, sha40 } from "./forge-git";
import type { Attachment, ForgeLabel, ForgeRelease, ForgeRepo, ForgeThread, WikiCommit, WikiPage } from "./forge-model";
import { ISSUE_TITLES, LABEL_SET, labelScope, WIKI_PAGES } from "./forge-text";

/** Attachment ids look like Gitea's (UUID v4). */
export function uuidOf(seed: number, k: number): string {
  const h = (i: number) => hash32(seed, 0xa77a, k, i).toString(16).padStart(8, "0");
  const a = h(1);
  const b = h(2);
  const c = h(3);
  return `${a}-${b.slice(0, 4)}-4${b.slice(5, 8)}-${(8 + (parseInt(c[0]!, 16) & 3)).toString(16)}${c.slice(1, 4)}-${c.slice(4)}${h(4)}`;
}

function attachment(seed: number, k: number, name: string, format: FormatName): Attachment {
  return { uuid: uuidOf(seed, k), name, format, seed: hash32(seed, 0xa7, k) };
}

/** Labels, issues and pull requests of a repository (numbers from 1, in creation order). */
export function buildThreads(repo: ForgeRepo, users: readonly number[], nextLabelId: () => number): void {
  const r = new Rng(hash32(repo.seed, 0x7e4d));
  const g = repo.git;
  type Draft = Omit<ForgeThread, "number">;
  const drafts: Draft[] = [];
  const dataFiles = g.files.map((f, i) => (f.kind === "data" ? i : -1)).filter((i) => i >= 0);
  const anyFiles = g.files.map((f, i) => (f.kind !== "image" ? i : -1)).filter((i) => i >= 0);
  const mainAt = (t: number) => {
    let c = 0;
    while (c + 1 < repo.visibleMain && g.commits[c + 1]!.time <= t) c++;
    return c;
  };
  if (repo.units.pulls) {
    for (let c = 1; c < repo.visibleMain; c++) {
      if (!r.chance(0.22)) continue;
      const cm = g.commits[c]!;
      drafts.push({ pull: true, state: "merged", title: cm.message, author: cm.author, created: cm.time - 60 * (1 + r.int(96)), updated: cm.time, labels: [], comments: r.int(4), links: [], attachments: [], commits: [c], branch: -1, seed: hash32(repo.seed, 0x9e, c) });
    }
    repo.branches.forEach((br, k) => {
      if (k === 0 || !r.chance(0.7)) return;
      const commits = ancestors(g, br.head).filter((c) => g.commits[c]!.branch !== 0).reverse();
      const first = g.commits[commits[0]!]!;
      drafts.push({ pull: true, state: "open", title: `WIP: ${first.message}`, author: first.author, created: first.time + 30, updated: g.commits[br.head]!.time, labels: [], comments: r.int(3), links: [], attachments: [], commits, branch: k, seed: hash32(repo.seed, 0x9f, k) });
    });
  }
  if (repo.units.issues) {
    const n = Math.floor(repo.scale * (repo.template === "data" || repo.template === "docs" ? 14 : 34) * r.float() + (r.chance(0.5) ? 1 : 0));
    const start = g.commits[0]!.time;
    const end = Math.min(NOW - 60, Math.max(start + 1440, g.commits[repo.visibleMain - 1]!.time + 1440 * 60));
    for (let k = 0; k < n; k++) {
      const created = start + Math.floor(r.float() * (end - start));
      const at = mainAt(created);
      const present = (g.snap[at] ?? g.snap[0]!);
      const pool = (repo.template === "data" ? dataFiles : anyFiles).filter((f) => present[f]! >= 0);
      const subject = pool.length > 0 ? g.files[r.pick(pool)]! : g.files[0]!;
      const closed = r.chance(created < end - 1440 * 200 ? 0.75 : 0.35);
      const links: string[] = [];
      if (pool.length > 0 && r.chance(repo.template === "data" ? 0.55 : 0.2)) {
        const form = r.float();
        links.push(form < 0.7 ? `src/branch/${repo.defaultBranch}/${subject.path}` : form < 0.9 ? `src/commit/${g.commits[at]!.sha}/${subject.path}` : `src/${repo.defaultBranch}/${subject.path}`);
      }
      const later = closed ? [...Array(repo.visibleMain).keys()].filter((c) => g.commits[c]!.time > created) : [];
      if (later.length > 0 && r.chance(0.4)) links.push(`commit/${g.commits[r.pick(later)]!.sha}`);
      const attachments: Attachment[] = [];
      if (r.chance(0.12)) {
        const [ext, format] = r.pick([["png", "png"], ["png", "png"], ["png", "png"], ["csv", "csv"], ["xlsx", "xlsx"], ["pdf", "pdf"]] as const);
        attachments.push(attachment(repo.seed, 100 + k, ext === "png" ? "screenshot.png" : `${subject.name.replace(/\.[^.]+$/, "")}_corrected.${ext}`, format));
      }
      drafts.push({
        pull: false, state: closed ? "closed" : "open", title: r.pick(ISSUE_TITLES).replace("%s", subject.name), author: r.pick(users), created,
        updated: Math.min(NOW - 30, created + r.int(1440 * 90)), labels: [], comments: r.int(7), links, attachments, commits: [], branch: -1, seed: hash32(repo.seed, 0x155, k),
      });
    }
  }
  drafts.sort((a, b) => a.created - b.created || a.seed - b.seed);
  repo.threads = drafts.map((d, i) => ({ ...d, number: i + 1 }));
  // Cross references to earlier issues (#n: pull requests answer with a redirect).
  for (const t of repo.threads) if (t.number > 1 && r.chance(0.2)) t.links.push(`issues/${1 + r.int(t.number - 1)}`);
  if (repo.units.issues && repo.threads.length >= 8 && r.chance(0.5)) {
    // The "Default" label set is offered at creation; most repositories keep a few Kind/ labels.
    const pick = (name: string) => LABEL_SET.find((l) => l.name === name)!;
    const chosen = [pick("Kind/Bug"), pick("Kind/Feature")];
    if (r.chance(0.3)) chosen.push(pick(repo.template === "data" ? "Kind/Data" : "Kind/Documentation"));
    if (r.chance(0.2)) chosen.push(pick("Priority/High"));
    if (r.chance(0.2)) chosen.push(pick(repo.template === "data" ? "data-quality" : "good first issue"));
    repo.labels = chosen.map<ForgeLabel>((l) => ({ id: nextLabelId(), name: l.name, color: l.color, exclusive: l.exclusive, scope: labelScope(l.name, l.exclusive) }));
    for (const t of repo.threads) {
      for (let k = 0, n = r.chance(0.35) ? 0 : 1 + (r.chance(0.3) ? 1 : 0); k < n; k++) {
        const l = r.int(repo.labels.length);
        const scope = repo.labels[l]!.scope;
        if (!t.labels.includes(l) && (scope === null || !t.labels.some((x) => repo.labels[x]!.scope === scope))) t.labels.push(l);
      }
      t.labels.sort((a, b) => a - b);
    }
  }
}

/** A release per tag (most tags), with assets. */
export function buildReleases(repo: ForgeRepo, stem: string): void {
  const r = new Rng(hash32(repo.seed, 0x4e1));
  const pkg = repo.name.replace(/-/g, "_");
  repo.releases = [];
  repo.tags.forEach((t, k) => {
    if (!r.chance(0.85)) return;
    const cm = repo.git.commits[t.commit]!;
    const ver = t.name.replace(/^v/, "");
    const assets: Attachment[] = [];
    const add = (name: string, format: FormatName) => assets.push(attachment(repo.seed, 1000 + k * 8 + assets.length, name, format));
    if (repo.template === "data") {
      add(`${stem}_${ver}_all.zip`, "zip");
      if (r.chance(0.5)) add(`${stem}_${ver}.xlsx`, "xlsx");
      if (r.chance(0.3)) add(`${stem}_${ver}_release_notes.pdf`, "pdf");
    } else if (repo.template === "python" && r.chance(0.6)) add(`${pkg}-${ver}.tar.gz`, "targz");
    else if (repo.template === "r" && r.chance(0.6)) add(`${pkg}_${ver}.tar.gz`, "targz");
    else if (repo.template === "js" && r.chance(0.5)) add(`${repo.name}-${ver}-dist.zip`, "zip");
    else if (repo.template === "docs" && r.chance(0.7)) add(`${repo.name}-${ver}.pdf`, "pdf");
    repo.releases.push({
      tag: k, title: repo.template === "data" ? `${ver} release` : t.name, author: cm.author, time: cm.time + 30 + r.int(1440 * 3),
      pre: repo.template !== "data" && r.chance(0.1), attachments: assets, seed: hash32(repo.seed, 0x4e2, k),
    } satisfies ForgeRelease);
  });
  repo.releases.sort((a, b) => b.time - a.time);
}

/** Wiki pages (Home first) and the wiki repository's commits, one per page revision. */
export function buildWiki(repo: ForgeRepo, users: readonly number[]): void {
  const r = new Rng(hash32(repo.seed, 0x3141));
  const names = ["Home", ...WIKI_PAGES.filter(() => r.chance(0.25 + repo.scale * 0.4)).slice(0, 1 + Math.floor(repo.scale * 8))];
  const start = repo.git.commits[0]!.time + 1440;
  const drafts: Array<{ page: number; time: number; author: number }> = [];
  repo.wiki = names.map<WikiPage>((name, p) => {
    const revs = 1 + (r.chance(0.45) ? 1 + r.int(3) : 0);
    for (let k = 0; k < revs; k++) drafts.push({ page: p, time: start + r.int(Math.max(1, repo.updated - start)), author: r.pick(users) });
    const links = names.filter((_, q) => q !== p && r.chance(0.35));
    if (r.chance(0.15)) links.push(r.pick(["Data-dictionary", "Old-release-notes", "Mirrors", "Contacts"]));
    return { name, revs: [], links, seed: hash32(repo.seed, 0x3142, p) };
  });
  drafts.sort((a, b) => a.time - b.time || a.page - b.page);
  repo.wikiCommits = drafts.map<WikiCommit>((d, k) => {
    repo.wiki[d.page]!.revs.push(k);
    return { sha: sha40(repo.seed, 0x3143, k), time: d.time, author: d.author, page: d.page };
  });
}
