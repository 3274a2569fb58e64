/**
 * How many finite URLs a forge repository and the instance's listings bring, for
 * sizing (the model adds repositories until the estimate reaches the requested size).
 * Mirrors what the pages link: per ref (every visible commit, branch and tag) the tree
 * views, file views, raw files, blame, histories, "Go to file" and archive downloads;
 * per commit its page, diff styles and patches; the repository tabs; issue and pull
 * request listings (state × sort × label selections, paged); issue pages, releases,
 * wiki. Listings: explore pages and owner profiles with their sort and language links.
 */
import { dirMask, type GitContent } from "./forge-git";
import type { ForgeModel, ForgeRepo, ForgeThread } from "./forge-model";
import { commitVisible } from "./forge-model";
import { issueSortCount, labelSelections } from "./forge-urls";

export const ISSUES_PER_PAGE = 20;
export const COMMITS_PER_PAGE = 50;
export const REPOS_PER_PAGE = 15;
export const EXPLORE_PER_PAGE = 20;
export const REPO_SORTS = ["newest", "oldest", "alphabetically", "reversealphabetically", "recentupdate", "leastupdate", "moststars", "feweststars", "mostforks", "fewestforks"] as const;
export const USER_SORTS = ["newest", "oldest", "alphabetically", "reversealphabetically"] as const;

const snapCost = new WeakMap<GitContent, Map<number, number>>();

/** URLs one ref brings (tree and file views, raw, blame, histories); branches and tags add "Go to file" and three archives (302 and file each). */
export function refCost(g: GitContent, c: number): number {
  let cache = snapCost.get(g);
  if (!cache) snapCost.set(g, (cache = new Map()));
  const known = cache.get(c);
  if (known !== undefined) return known;
  const mask = dirMask(g, c);
  let cost = 0;
  for (let d = 0; d < g.dirs.length; d++) if (mask[d]) cost += 2;
  const row = g.snap[c]!;
  g.files.forEach((f, i) => {
    if (row[i]! < 0) return;
    cost += 2 + (f.kind === "image" ? 0 : 1) + (f.text ? 1 : 0) + (f.format === "csv" || f.format === "md" ? 1 : 0);
  });
  const history = ancestorsCount(g, c);
  if (history > COMMITS_PER_PAGE) cost += Math.ceil(history / COMMITS_PER_PAGE);
  cache.set(c, cost);
  return cost;
}

function ancestorsCount(g: GitContent, c: number): number {
  let n = 0;
  for (let k = c; k >= 0; k = g.commits[k]!.parent) n++;
  return n;
}

/** Threads matching a label selection (every selected label present). */
export function matching(threads: readonly ForgeThread[], pull: boolean, state: "open" | "closed", labels: readonly number[]): number {
  let n = 0;
  for (const t of threads) {
    if (t.pull !== pull || (state === "open") !== (t.state === "open")) continue;
    if (labels.every((l) => t.labels.includes(l))) n++;
  }
  return n;
}

/** Issue or pull request listing URLs (filters, pages, other spellings). */
export function listCost(repo: ForgeRepo, pull: boolean): number {
  let cost = 1 + repo.labels.length;
  for (const state of ["open", "closed"] as const) {
    for (const sel of labelSelections(repo.labels)) {
      const pages = Math.ceil(matching(repo.threads, pull, state, sel) / ISSUES_PER_PAGE);
      cost += issueSortCount() * (1 + (pages > 1 ? pages : 0));
    }
    const used = new Set(repo.threads.filter((t) => t.pull === pull && (t.state === "open") === (state === "open")).flatMap((t) => t.labels));
    cost += used.size;
  }
  return cost;
}

export function repoCost(repo: ForgeRepo): number {
  const g = repo.git;
  let cost = 19;
  for (let c = 0; c < g.commits.length; c++) if (commitVisible(repo, c)) cost += refCost(g, c) + 5;
  for (const b of repo.branches) cost += refCost(g, b.head) + 8;
  for (const t of repo.tags) cost += refCost(g, t.commit) + 7;
  if (repo.units.issues) cost += listCost(repo, false) + 1;
  if (repo.units.pulls) cost += listCost(repo, true);
  if (repo.units.issues || repo.units.pulls) cost += 2;
  for (const t of repo.threads) cost += (t.pull ? 5 : 1) + t.attachments.length + t.links.length * 0.3;
  for (const rel of repo.releases) cost += 2 + rel.attachments.length;
  if (repo.wiki.length > 0) cost += 2 + 2 * repo.wiki.length + repo.wikiCommits.length + repo.wiki.reduce((s, p) => s + p.links.length * 0.2, 0);
  cost += repo.xrefs.length * 0.5;
  return Math.round(cost);
}

/** Explore pages and owner profiles (sort × language links, pages). */
export function listingCost(m: ForgeModel): number {
  const langs = (repos: readonly ForgeRepo[]) => new Set(repos.map((r) => r.language).filter((l) => l !== null)).size;
  const variants = (repos: readonly ForgeRepo[], per: number) => (REPO_SORTS.length + 1) * (1 + langs(repos)) * Math.max(1, Math.ceil(repos.length / per));
  let cost = 1 + variants(m.repos, EXPLORE_PER_PAGE);
  const topics = new Set(m.repos.flatMap((r) => r.topics));
  for (const t of topics) {
    const hits = m.repos.filter((r) => r.topics.includes(t) || r.name.includes(t) || r.description.toLowerCase().includes(t));
    cost += (REPO_SORTS.length + 1) * (1 + langs(hits));
  }
  const users = m.owners.filter((o) => o.kind === "user");
  const orgs = m.owners.filter((o) => o.kind === "org");
  cost += (USER_SORTS.length + 1) * (Math.ceil(users.length / EXPLORE_PER_PAGE) + Math.ceil(orgs.length / EXPLORE_PER_PAGE));
  for (const o of m.owners) {
    const own = o.repos.map((i) => m.repos[i]!);
    cost += 2 + variants(own, REPOS_PER_PAGE);
    if (o.kind === "user") cost += 4 + variants(o.starred.map((i) => m.repos[i]!), REPOS_PER_PAGE);
    else cost += 1;
  }
  return cost;
}
