/**
 * Code forge (Gitea) data model: users and organisations of a statistics community,
 * their repositories (data, code and documentation repositories, forks), each with its
 * git content, branches, tags, releases, issues and pull requests, wiki, stars and
 * watchers; renamed repositories and owners (their old names redirect), deleted
 * repositories (still linked, 404). Repositories are added until the estimated number
 * of finite URLs (see forge-cost.ts) reaches the requested size; the first is a data
 * repository and the second a code repository, so every site has both.
 */
import type { FormatName } from "../formats";
import { hash32, Rng } from "../random";
import { listingCost, repoCost } from "./forge-cost";
import { minuteOf, type GitContent } from "./forge-git";
import { finishModel, makeFork, makeRepo } from "./forge-repos";
import { buildReleases, buildThreads, buildWiki } from "./forge-threads";
import { ORGS, type RepoTemplate, userName } from "./forge-text";

export interface ForgeOwner {
  index: number;
  /** Database id (creation order). */
  id: number;
  name: string;
  /** Former name: `/<old>` redirects. */
  oldName: string | null;
  kind: "user" | "org";
  fullName: string;
  description: string;
  location: string;
  created: number;
  /** Organisations: member users; users: organisations they belong to. */
  members: number[];
  orgs: number[];
  followers: number[];
  following: number[];
  repos: number[];
  starred: number[];
  seed: number;
}

export interface ForgeLabel {
  id: number;
  name: string;
  color: string;
  exclusive: boolean;
  scope: string | null;
}

export interface Attachment {
  uuid: string;
  name: string;
  format: FormatName;
  seed: number;
}

export interface ForgeThread {
  number: number;
  pull: boolean;
  state: "open" | "closed" | "merged";
  title: string;
  author: number;
  created: number;
  updated: number;
  /** Indices into the repository's labels. */
  labels: number[];
  comments: number;
  /** Links written in the text, relative to the repository (`src/branch/main/…`, `commit/<sha>`, `issues/3`). */
  links: string[];
  attachments: Attachment[];
  /** Pull requests: their commits; open ones: the feature branch (index in branches). */
  commits: number[];
  branch: number;
  seed: number;
}

export interface ForgeRelease {
  /** Index into the repository's tags. */
  tag: number;
  title: string;
  author: number;
  time: number;
  pre: boolean;
  attachments: Attachment[];
  seed: number;
}

export interface WikiPage {
  /** Web path ("Data-sources"). */
  name: string;
  /** Wiki commits of this page, oldest first. */
  revs: number[];
  /** Pages it links to (some do not exist). */
  links: string[];
  seed: number;
}

export interface WikiCommit {
  sha: string;
  time: number;
  author: number;
  page: number;
}

export interface ForgeRepo {
  index: number;
  id: number;
  owner: number;
  name: string;
  oldName: string | null;
  template: RepoTemplate;
  forkOf: number;
  description: string;
  website: string | null;
  topics: string[];
  /** Key of LANGUAGES, null when the repository has no code. */
  language: string | null;
  langStats: Array<[string, number]>;
  scale: number;
  git: GitContent;
  /** Default-branch commits visible here (forks stop at the fork point). */
  visibleMain: number;
  defaultBranch: string;
  branches: Array<{ name: string; head: number }>;
  tags: Array<{ name: string; commit: number }>;
  releases: ForgeRelease[];
  units: { issues: boolean; pulls: boolean; wiki: boolean };
  labels: ForgeLabel[];
  threads: ForgeThread[];
  wiki: WikiPage[];
  wikiCommits: WikiCommit[];
  stars: number[];
  watchers: number[];
  forks: number[];
  created: number;
  updated: number;
  /** Links to other repositories in its README and wiki (some old names, some deleted repositories). */
  xrefs: string[];
  seed: number;
}

export interface ForgeModel {
  seed: number;
  owners: ForgeOwner[];
  repos: ForgeRepo[];
  ownerByName: Map<string, number>;
  /** "owner/name" (lower case) → repo index. */
  repoByKey: Map<string, number>;
  attachments: Map<string, Attachment>;
  /** "owner/name" of deleted repositories (404). */
  deleted: string[];
}

export function commitVisible(repo: ForgeRepo, c: number): boolean {
  return c >= 0 && c < repo.git.commits.length && (c < repo.visibleMain || (repo.forkOf < 0 && c >= repo.git.mainCount));
}

/** @param n approximate number of finite URLs wanted */
export function buildForgeModel(seed: number, n: number): ForgeModel {
  const rng = new Rng(hash32(seed, 0xf0e6));
  const owners: ForgeOwner[] = [];
  const ownerByName = new Map<string, number>();
  const addOwner = (o: Omit<ForgeOwner, "index" | "id" | "members" | "orgs" | "followers" | "following" | "repos" | "starred" | "seed" | "oldName">) => {
    if (ownerByName.has(o.name)) return -1;
    const index = owners.length;
    owners.push({ ...o, index, id: 0, oldName: null, members: [], orgs: [], followers: [], following: [], repos: [], starred: [], seed: hash32(seed, 0x0e1, index) });
    ownerByName.set(o.name, index);
    return index;
  };
  const orgCount = Math.min(ORGS.length, Math.max(1, 1 + Math.round(n / 2200)));
  const userCount = Math.min(60, Math.max(1, Math.round(Math.sqrt(n) / 8) - (n < 600 ? 1 : 0)));
  const orgPool = [...ORGS];
  for (let i = orgPool.length - 1; i > 0; i--) {
    const j = rng.int(i + 1);
    [orgPool[i], orgPool[j]] = [orgPool[j]!, orgPool[i]!];
  }
  const orgs = orgPool.slice(0, orgCount).map((o) => addOwner({ kind: "org", name: o.name, fullName: o.fullName, description: o.description, location: o.location, created: minuteOf(2016, 2, 1) + rng.int(1440 * 365 * 6) }));
  const users: number[] = [];
  for (let guard = 0; users.length < userCount && guard < 1000; guard++) {
    const u = userName(rng);
    const i = addOwner({ kind: "user", name: u.name, fullName: rng.chance(0.8) ? u.fullName : "", description: "", location: rng.chance(0.5) ? rng.pick(ORGS).location : "", created: minuteOf(2016, 1, 10) + rng.int(1440 * 365 * 8) });
    if (i >= 0) users.push(i);
  }
  for (const o of orgs) {
    const members = users.filter(() => rng.chance(0.35));
    if (members.length === 0) members.push(rng.pick(users));
    owners[o]!.members = members;
    for (const u of members) owners[u]!.orgs.push(o);
  }
  for (const u of users) {
    for (const v of users) if (v !== u && rng.chance(0.12)) {
      owners[u]!.following.push(v);
      owners[v]!.followers.push(u);
    }
  }

  const model: ForgeModel = { seed, owners, repos: [], ownerByName, repoByKey: new Map(), attachments: new Map(), deleted: [] };
  let labelId = 1;
  const sMax = n < 600 ? 0.22 : n < 4000 ? 0.4 : n < 15_000 ? 0.7 : 1;
  const cap = n < 600 ? n * 0.5 : n < 4000 ? n * 0.3 : n * 0.15;
  let total = 0;
  for (let k = 0; k < 2000 && (k < 2 || total + listingCost(model) < n); k++) {
    const r = new Rng(hash32(seed, 0x4e90, k));
    const sources = model.repos.filter((x) => x.forkOf < 0 && x.visibleMain >= 2 && x.template !== "docs");
    const kind = k === 0 ? "data" : k === 1 ? "code" : sources.length > 0 && r.chance(0.12) ? "fork" : r.chance(0.4) ? "data" : r.chance(0.8) ? "code" : "docs";
    const repo = kind === "fork" ? makeFork(model, r, r.pick(sources), users) : makeRepo(model, r, kind, k, orgs, users, sMax, cap, n);
    if (!repo) continue;
    if (kind !== "fork") {
      buildThreads(repo, users, () => labelId++);
      buildReleases(repo, repo.template === "data" ? repo.name.split("-")[0]! : repo.name);
      if (repo.units.wiki) buildWiki(repo, users);
    }
    for (const t of [...repo.threads, ...repo.releases]) for (const a of t.attachments) model.attachments.set(a.uuid, a);
    model.repos.push(repo);
    owners[repo.owner]!.repos.push(repo.index);
    model.repoByKey.set(`${owners[repo.owner]!.name}/${repo.name}`.toLowerCase(), repo.index);
    total += repoCost(repo);
  }
  finishModel(model, rng, users);
  return model;
}
