/**
 * Making the forge's repositories: a data, code or documentation repository from its
 * subject (owner, name, content sized by `scale`, retried with less history until it
 * fits the size's cap, units, topics, language statistics) or a fork of an existing
 * one (the parent's history up to a commit, under a user). Then what needs every
 * repository: database ids in creation order, stars and watchers, renamed repositories
 * and organisation, deleted repositories, and the cross references READMEs and wikis
 * make to other repositories, some under old or deleted names.
 */
import type { FormatName } from "../formats";
import { hash32, Rng } from "../random";
import { buildContent } from "./forge-content";
import { repoCost } from "./forge-cost";
import { minuteOf, NOW } from "./forge-git";
import type { ForgeModel, ForgeRepo } from "./forge-model";
import { CODE_SUBJECTS, DATA_SUBJECTS, DOCS_SUBJECTS, type RepoTemplate } from "./forge-text";

const LANG_OF: Partial<Record<FormatName, string>> = { py: "python", rscript: "r", js: "js", ipynb: "notebook", sql: "sql", css: "css" };

export function makeRepo(m: ForgeModel, r: Rng, kind: "data" | "code" | "docs", k: number, orgs: number[], users: number[], sMax: number, cap: number, n: number): ForgeRepo | null {
  let template: RepoTemplate = kind === "data" ? "data" : kind === "docs" ? "docs" : "python";
  let name: string;
  let stem = "";
  let tables: readonly string[] = [];
  let description: string;
  let topics: readonly string[];
  if (kind === "data") {
    const s = r.pick(DATA_SUBJECTS);
    name = r.chance(0.3) ? `${s.repo}-${2015 + r.int(9)}` : s.repo;
    stem = s.stem;
    tables = s.tables;
    description = s.title;
    topics = s.topics;
  } else if (kind === "code") {
    const s = r.pick(CODE_SUBJECTS);
    name = s.repo;
    template = s.template;
    description = s.description;
    topics = s.topics;
  } else {
    const s = r.pick(DOCS_SUBJECTS);
    name = s.repo;
    description = s.description;
    topics = s.topics;
  }
  const owner = kind === "data" || r.chance(0.5) ? r.pick(orgs) : r.pick(users);
  if (m.repoByKey.has(`${m.owners[owner]!.name}/${name}`.toLowerCase())) return null;
  const members = m.owners[owner]!.kind === "org" ? m.owners[owner]!.members : [owner];
  const authors = [...members, ...users.filter(() => r.chance(0.1))];
  const created = minuteOf(2016, 6, 1) + r.int(1440 * 365 * 7);
  const end = Math.min(NOW - 1440, created + 1440 * (30 + r.int(365 * 5)));
  const defaultBranch = created < minuteOf(2020, 10, 1) && r.chance(0.7) ? "master" : "main";
  // Data repositories are the big ones: many tables, every year.
  let scale = (k === 0 ? sMax * 1.2 : k === 1 ? sMax * 0.7 : Math.exp(Math.log(0.06) + r.float() * (Math.log(sMax) - Math.log(0.06)))) * (kind === "data" ? 1.5 : 0.8);
  scale = Math.min(1, scale);
  const index = m.repos.length;
  const rseed = hash32(m.seed, 0x4e9, index);
  // Retry with less history until the repository fits; keep the cheapest attempt.
  let best: ForgeRepo | null = null;
  let bestCost = Infinity;
  for (let attempt = 0; attempt < 6; attempt++) {
    const built = buildContent(hash32(rseed, attempt), { template, repo: name, stem, tables, scale, defaultBranch, authors, start: created, end });
    const units = {
      issues: r.chance(kind === "code" ? 0.95 : kind === "data" ? 0.65 : 0.5),
      pulls: r.chance(kind === "code" ? 0.9 : kind === "data" ? 0.45 : 0.6),
      wiki: n >= 600 && r.chance(kind === "docs" ? 0.1 : 0.3),
    };
    const repo: ForgeRepo = {
      index, id: 0, owner, name, oldName: null, template, forkOf: -1, description, website: template === "js" ? `https://dashboards.example-statistics.org/${name}/` : null,
      // A handful of repositories: nobody has set topics yet.
      topics: n < 600 ? [] : topics.filter((_, i) => i === 0 || r.chance(0.35)), language: null, langStats: [], scale, git: built.content, visibleMain: built.content.mainCount, defaultBranch,
      branches: built.branches, tags: built.tags, releases: [], units, labels: [], threads: [], wiki: [], wikiCommits: [], stars: [], watchers: [], forks: [],
      created, updated: built.content.commits.reduce((t, c) => Math.max(t, c.time), created), xrefs: [], seed: rseed,
    };
    languageStats(repo);
    const cost = repoCost(repo);
    if (cost < bestCost) [best, bestCost] = [repo, cost];
    if (cost <= cap) break;
    scale *= 0.7;
  }
  return best;
}

export function makeFork(m: ForgeModel, r: Rng, parent: ForgeRepo, users: number[]): ForgeRepo | null {
  const owner = r.pick(users.filter((u) => u !== parent.owner));
  if (owner === undefined || m.repoByKey.has(`${m.owners[owner]!.name}/${parent.name}`.toLowerCase())) return null;
  const at = 1 + r.int(parent.visibleMain - 1);
  const index = m.repos.length;
  const time = parent.git.commits[at]!.time;
  const repo: ForgeRepo = {
    ...parent, index, id: 0, owner, oldName: null, forkOf: parent.index, topics: [], visibleMain: at + 1, website: null,
    branches: [{ name: parent.defaultBranch, head: at }], tags: parent.tags.filter((t) => t.commit <= at), releases: [],
    units: { issues: false, pulls: false, wiki: false }, labels: [], threads: [], wiki: [], wikiCommits: [], stars: [], watchers: [], forks: [],
    created: time + 1440 * (1 + r.int(30)), updated: time + 1440 * (1 + r.int(30)), xrefs: [], seed: hash32(m.seed, 0x4e9, index),
  };
  repo.updated = Math.min(NOW - 60, Math.max(repo.updated, repo.created));
  parent.forks.push(index);
  return repo;
}

function languageStats(repo: ForgeRepo): void {
  const bytes = new Map<string, number>();
  repo.git.files.forEach((f, i) => {
    const lang = LANG_OF[f.format];
    if (lang && repo.git.snap[repo.visibleMain - 1]![i]! >= 0) bytes.set(lang, (bytes.get(lang) ?? 0) + 1 + (f.seed % 9));
  });
  const sum = [...bytes.values()].reduce((a, b) => a + b, 0);
  repo.langStats = [...bytes.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([l, b]) => [l, Math.round((1000 * b) / sum) / 10]);
  repo.language = repo.langStats[0]?.[0] ?? null;
}

/** Ids in creation order, stars, watchers, renames, deleted repositories and cross references. */
export function finishModel(m: ForgeModel, rng: Rng, users: number[]): void {
  [...m.owners].sort((a, b) => a.created - b.created || a.index - b.index).forEach((o, i) => (o.id = i + 1));
  [...m.repos].sort((a, b) => a.created - b.created || a.index - b.index).forEach((x, i) => (x.id = i + 1));
  for (const repo of m.repos) {
    const r = new Rng(hash32(repo.seed, 0x57a));
    repo.stars = users.filter(() => r.chance(repo.forkOf >= 0 ? 0.02 : 0.04 + repo.scale * 0.15));
    for (const u of repo.stars) m.owners[u]!.starred.push(repo.index);
    const owner = m.owners[repo.owner]!;
    repo.watchers = [...(owner.kind === "org" ? owner.members : [owner.index]), ...users.filter((u) => u !== repo.owner && r.chance(0.06))];
    repo.watchers = [...new Set(repo.watchers)].sort((a, b) => a - b);
  }
  // Renames: a few repositories and one organisation changed their name; old links still work.
  for (const repo of m.repos) {
    const r = new Rng(hash32(repo.seed, 0x0d1));
    if (repo.forkOf >= 0 || !r.chance(0.1)) continue;
    const old = repo.name.includes("-") ? repo.name.replace(/-/g, "_") : `${repo.name}-old`;
    const key = `${m.owners[repo.owner]!.name}/${old}`.toLowerCase();
    if (m.repoByKey.has(key)) continue;
    repo.oldName = old;
    m.repoByKey.set(key, repo.index);
  }
  const org = m.owners.find((o) => o.kind === "org" && o.repos.length > 0);
  if (org && m.owners.filter((o) => o.kind === "org").length >= 2) {
    org.oldName = `${org.name.split("-")[0]}-group`;
    if (m.ownerByName.has(org.oldName)) org.oldName = null;
    else m.ownerByName.set(org.oldName, org.index);
  }
  for (const o of m.owners) {
    if (o.repos.length === 0 || !rng.chance(0.4)) continue;
    const name = rng.pick(["test", "sandbox", "old-site", "draft-tables", "scratch"]);
    if (!m.repoByKey.has(`${o.name}/${name}`)) m.deleted.push(`${o.name}/${name}`);
  }
  // README "See also" and wiki links to other repositories, in the spelling their authors once copied.
  for (const repo of m.repos) {
    if (repo.forkOf >= 0) continue;
    const r = new Rng(hash32(repo.seed, 0x5ee));
    for (let k = 0, count = r.int(3); k < count; k++) {
      const other = r.pick(m.repos);
      if (other.index === repo.index || other.forkOf >= 0) continue;
      const owner = m.owners[other.owner]!;
      const ownerName = owner.oldName && r.chance(0.5) ? owner.oldName : owner.name;
      repo.xrefs.push(`/${ownerName}/${other.oldName && r.chance(0.7) ? other.oldName : other.name}`);
    }
    if (m.deleted.length > 0 && r.chance(0.2)) repo.xrefs.push(`/${r.pick(m.deleted)}`);
    repo.xrefs = [...new Set(repo.xrefs)];
  }
}
