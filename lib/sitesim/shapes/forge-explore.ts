/**
 * Explore pages (repositories, users, organisations) and owner profiles: organisation
 * home (repository list, People), user profile (card with followers / following and
 * organisations; Repositories, Public Activity and Starred Repositories tabs),
 * organisation members. Repository lists have Gitea's sort dropdown, language links on
 * every item and topic links, so each list exists under many near-duplicate URLs,
 * bounded by what the list holds.
 */
import type { HtmlSink } from "../html-sink";
import { EXPLORE_PER_PAGE, REPO_SORTS, REPOS_PER_PAGE, USER_SORTS } from "./forge-cost";
import { isoTime } from "./forge-git";
import { avatar, emptyPlaceholder, forgePage, giteaPager, relTime, userCards, userLink } from "./forge-layout";
import type { ForgeModel, ForgeOwner, ForgeRepo } from "./forge-model";
import { LANGUAGES } from "./forge-text";
import { listLanguageHref, listPageHref, listSortHref, repoPath, topicHref, userHref, type ListState } from "./forge-urls";

const SORT_LABELS: Record<string, string> = {
  newest: "Newest", oldest: "Oldest", alphabetically: "Alphabetically", reversealphabetically: "Reverse alphabetically",
  recentupdate: "Recently updated", leastupdate: "Least recently updated", moststars: "Most stars", feweststars: "Fewest stars",
  mostforks: "Most forks", fewestforks: "Fewest forks",
};

/** Repositories matching a list state, in its order. */
export function filterRepos(m: ForgeModel, repos: readonly ForgeRepo[], st: ListState): ForgeRepo[] {
  const q = st.q.toLowerCase();
  const out = repos.filter((r) => {
    if (st.language !== "" && (r.language === null || LANGUAGES[r.language]!.name !== st.language)) return false;
    if (q === "") return true;
    if (st.topic) return r.topics.includes(q);
    return r.name.includes(q) || r.topics.includes(q) || r.description.toLowerCase().includes(q);
  });
  const name = (r: ForgeRepo) => `${m.owners[r.owner]!.name}/${r.name}`;
  const by: Record<string, (a: ForgeRepo, b: ForgeRepo) => number> = {
    newest: (a, b) => b.created - a.created, oldest: (a, b) => a.created - b.created,
    alphabetically: (a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0), reversealphabetically: (a, b) => (a.name < b.name ? 1 : a.name > b.name ? -1 : 0),
    leastupdate: (a, b) => a.updated - b.updated, moststars: (a, b) => b.stars.length - a.stars.length, feweststars: (a, b) => a.stars.length - b.stars.length,
    mostforks: (a, b) => b.forks.length - a.forks.length, fewestforks: (a, b) => a.forks.length - b.forks.length,
  };
  const cmp = by[st.sort] ?? ((a: ForgeRepo, b: ForgeRepo) => b.updated - a.updated);
  return out.sort((a, b) => cmp(a, b) || (name(a) < name(b) ? -1 : 1));
}

/** Search box, sort dropdown, list with language and topic links, pager. */
function repoList(s: HtmlSink, m: ForgeModel, base: string, all: readonly ForgeRepo[], st: ListState, per: number, withTab: boolean, showOwner: boolean): void {
  const sortType = st.sort === "" ? "recentupdate" : st.sort;
  s.raw(`<form class="ui form ignore-dirty" method="get"><input type="hidden" name="sort" value="${sortType}"><input name="q" value="${st.q.replace(/"/g, "&quot;")}" placeholder="Search repos…"></form>`);
  s.open("div", "ui dropdown type jump item");
  s.el("span", "text", "Sort");
  s.open("div", "menu");
  for (const sort of REPO_SORTS) s.a(listSortHref(st, sort, withTab), SORT_LABELS[sort]!, sortType === sort ? "active item" : "item");
  s.close("div");
  s.close("div");
  const repos = filterRepos(m, all, st);
  const pages = Math.max(1, Math.ceil(repos.length / per));
  if (repos.length === 0) emptyPlaceholder(s, "No matching repositories found.");
  s.open("div", "flex-list");
  for (const r of repos.slice((st.page - 1) * per, st.page * per)) {
    s.open("div", "flex-item");
    s.open("div", "flex-item-main");
    s.open("div", "flex-item-header");
    s.a(repoPath(m, r), showOwner ? `${m.owners[r.owner]!.name} / ${r.name}` : r.name, "text primary name");
    if (r.forkOf >= 0) s.el("span", "ui basic label", "Fork");
    s.open("div", "flex-item-trailing");
    if (r.language !== null) s.a(listLanguageHref(base, st, sortType, LANGUAGES[r.language]!.name, withTab), LANGUAGES[r.language]!.name, "muted");
    s.a(`${repoPath(m, r)}/stars`, String(r.stars.length), "text grey flex-text-inline");
    s.a(`${repoPath(m, r)}/forks`, String(r.forks.length), "text grey flex-text-inline");
    s.close("div");
    s.close("div");
    if (r.description) s.el("div", "flex-item-body", r.description);
    if (r.topics.length > 0) {
      s.open("div", "label-list");
      for (const t of r.topics) s.a(topicHref(t), t, "ui label");
      s.close("div");
    }
    s.open("div", "flex-item-body");
    s.text("Updated ");
    relTime(s, r.updated);
    s.close("div");
    s.close("div");
    s.close("div");
  }
  s.close("div");
  giteaPager(s, st.page, pages, (p) => listPageHref(base, st, sortType, p, withTab));
}

function exploreNav(s: HtmlSink, active: string): void {
  s.open("div", "ui secondary pointing tabular top attached borderless menu new-menu navbar");
  for (const [key, label] of [["repos", "Repositories"], ["users", "Users"], ["organizations", "Organizations"]] as const) s.a(`/explore/${key}`, label, key === active ? "active item" : "item");
  s.close("div");
}

export function exploreReposPage(s: HtmlSink, m: ForgeModel, st: ListState): void {
  forgePage(s, { title: "Explore", cls: "explore repositories" }, () => {
    exploreNav(s, "repos");
    s.open("div", "ui container");
    repoList(s, m, "/explore/repos", m.repos, st, EXPLORE_PER_PAGE, false, true);
    s.close("div");
  });
}

export function filterOwners(m: ForgeModel, kind: "user" | "org", sort: string, q: string): ForgeOwner[] {
  const out = m.owners.filter((o) => o.kind === kind && (q === "" || o.name.includes(q.toLowerCase()) || o.fullName.toLowerCase().includes(q.toLowerCase())));
  const by: Record<string, (a: ForgeOwner, b: ForgeOwner) => number> = {
    oldest: (a, b) => a.created - b.created, alphabetically: (a, b) => (a.name < b.name ? -1 : 1), reversealphabetically: (a, b) => (a.name < b.name ? 1 : -1),
  };
  return out.sort(by[sort] ?? ((a, b) => b.created - a.created || a.index - b.index));
}

export function exploreOwnersPage(s: HtmlSink, m: ForgeModel, kind: "user" | "org", sort: string, q: string, page: number): void {
  const base = kind === "user" ? "/explore/users" : "/explore/organizations";
  const owners = filterOwners(m, kind, sort, q);
  const pages = Math.max(1, Math.ceil(owners.length / EXPLORE_PER_PAGE));
  const sortType = sort === "" ? "newest" : sort;
  forgePage(s, { title: "Explore", cls: `explore ${kind === "user" ? "users" : "organizations"}` }, () => {
    exploreNav(s, kind === "user" ? "users" : "organizations");
    s.open("div", "ui container");
    s.open("div", "ui dropdown type jump item");
    s.el("span", "text", "Sort");
    s.open("div", "menu");
    for (const x of USER_SORTS) s.a(`?sort=${x}&q=${encodeURIComponent(q)}`, SORT_LABELS[x]!, sortType === x ? "active item" : "item");
    s.close("div");
    s.close("div");
    s.open("div", "flex-list");
    for (const o of owners.slice((page - 1) * EXPLORE_PER_PAGE, page * EXPLORE_PER_PAGE)) {
      s.open("div", "flex-item flex-item-center");
      s.aWrap(userHref(m, o.index), undefined, () => avatar(s, m, o.index, 48));
      s.open("div", "flex-item-main");
      s.a(userHref(m, o.index), o.name, "text muted");
      if (o.fullName) s.el("span", "text grey", o.fullName);
      if (o.location) s.el("div", "flex-item-body", o.location);
      s.el("div", "flex-item-body", `Joined on ${isoTime(o.created).slice(0, 10)}`);
      s.close("div");
      s.close("div");
    }
    s.close("div");
    giteaPager(s, page, pages, (p) => `${base}?page=${p}&sort=${sortType}&q=${encodeURIComponent(q)}`);
    s.close("div");
  });
}

function ownerCard(s: HtmlSink, m: ForgeModel, o: ForgeOwner): void {
  const base = userHref(m, o.index);
  s.open("div", "ui card", undefined, `id="profile-avatar"`);
  avatar(s, m, o.index, 256);
  s.open("div", "content");
  s.el("span", "header text center", o.fullName || o.name);
  s.el("span", "username text center", o.name);
  s.a(`${base}.rss`, "RSS", "btn-octicon", `data-tooltip-content="RSS Feed"`);
  if (o.kind === "user") {
    s.a(`${base}?tab=followers`, `${o.followers.length} followers`, "muted");
    s.a(`${base}?tab=following`, `${o.following.length} following`, "muted");
  }
  s.close("div");
  s.open("div", "extra content");
  if (o.location) s.el("li", undefined, o.location);
  if (o.description) s.el("li", undefined, o.description);
  s.el("li", undefined, `Joined on ${isoTime(o.created).slice(0, 10)}`);
  if (o.orgs.length > 0) {
    s.open("li");
    s.open("ul", "user-orgs");
    for (const org of o.orgs) s.aWrap(userHref(m, org), undefined, () => avatar(s, m, org, 28), `data-tooltip-content="${m.owners[org]!.name}"`);
    s.close("ul");
    s.close("li");
  }
  s.close("div");
  s.close("div");
}

/** Public actions of a user, newest first: commits pushed, issues opened, releases published. */
export function userActions(m: ForgeModel, u: number): Array<{ time: number; repo: ForgeRepo; kind: "push" | "issue" | "release"; ref: number }> {
  const out: Array<{ time: number; repo: ForgeRepo; kind: "push" | "issue" | "release"; ref: number }> = [];
  for (const repo of m.repos) {
    if (repo.forkOf >= 0) continue;
    repo.git.commits.forEach((c, k) => c.author === u && out.push({ time: c.time, repo, kind: "push", ref: k }));
    repo.threads.forEach((t, k) => t.author === u && !t.pull && out.push({ time: t.created, repo, kind: "issue", ref: k }));
    repo.releases.forEach((r, k) => r.author === u && out.push({ time: r.time, repo, kind: "release", ref: k }));
  }
  return out.sort((a, b) => b.time - a.time || a.repo.index - b.repo.index || a.ref - b.ref);
}

export function ownerPage(s: HtmlSink, m: ForgeModel, o: ForgeOwner, st: ListState): void {
  const base = userHref(m, o.index);
  forgePage(s, { title: o.fullName || o.name, cls: o.kind === "org" ? "organization profile" : "user profile", feed: base, description: o.description }, () => {
    s.open("div", "ui container");
    if (o.kind === "org") {
      s.open("div", "ui vertically grid head");
      avatar(s, m, o.index, 100);
      s.el("span", "org-title", o.fullName || o.name);
      s.a(`${base}.rss`, "RSS", "btn-octicon", `data-tooltip-content="RSS Feed"`);
      s.el("div", "org-description", o.description);
      s.el("div", "text grey meta", o.location);
      s.close("div");
      s.open("div", "ui secondary stackable pointing menu");
      s.a(base, "Repositories", "active item");
      s.a(`/org/${o.name}/members`, "Members", "item");
      s.close("div");
      s.open("div", "ui stackable grid");
      s.open("div", "ui twelve wide column");
      repoList(s, m, base, o.repos.map((i) => m.repos[i]!), st, REPOS_PER_PAGE, false, false);
      s.close("div");
      s.open("div", "ui four wide column");
      s.open("h4", "ui top attached header gt-df");
      s.text("People");
      s.a(`/org/${o.name}/members`, String(o.members.length), "text grey");
      s.close("h4");
      s.open("div", "ui attached segment members");
      for (const u of o.members) s.aWrap(userHref(m, u), undefined, () => avatar(s, m, u, 48), `data-tooltip-content="${m.owners[u]!.name}"`);
      s.close("div");
      s.close("div");
      s.close("div");
    } else {
      s.open("div", "ui stackable grid");
      s.open("div", "ui four wide column");
      ownerCard(s, m, o);
      s.close("div");
      s.open("div", "ui twelve wide column");
      s.open("div", "ui secondary stackable pointing tight menu");
      for (const [tab, label] of [["repositories", "Repositories"], ["activity", "Public Activity"], ["stars", "Starred Repositories"]] as const) s.a(`${base}?tab=${tab}`, label, st.tab === tab ? "active item" : "item");
      s.close("div");
      if (st.tab === "repositories" || st.tab === "stars") repoList(s, m, base, (st.tab === "stars" ? o.starred : o.repos).map((i) => m.repos[i]!), st, REPOS_PER_PAGE, true, st.tab === "stars");
      else if (st.tab === "followers" || st.tab === "following") userCards(s, m, st.tab === "followers" ? o.followers : o.following, "No one here yet.");
      else activityFeed(s, m, o, st.page);
      s.close("div");
      s.close("div");
    }
    s.close("div");
  });
}

function activityFeed(s: HtmlSink, m: ForgeModel, o: ForgeOwner, page: number): void {
  const actions = userActions(m, o.index);
  const pages = Math.max(1, Math.ceil(actions.length / EXPLORE_PER_PAGE));
  if (actions.length === 0) emptyPlaceholder(s, "This user has not made any public activity yet.");
  s.open("div", "flex-list", "activity-feed");
  for (const a of actions.slice((page - 1) * EXPLORE_PER_PAGE, page * EXPLORE_PER_PAGE)) {
    const base = repoPath(m, a.repo);
    const full = `${m.owners[a.repo.owner]!.name}/${a.repo.name}`;
    s.open("div", "flex-item");
    s.open("div", "flex-item-main");
    s.open("div", "flex-item-title");
    userLink(s, m, o.index);
    if (a.kind === "push") {
      const c = a.repo.git.commits[a.ref]!;
      const branch = c.branch === 0 ? a.repo.defaultBranch : a.repo.branches.find((b) => a.repo.git.commits[b.head]!.branch === c.branch)?.name ?? null;
      s.text(" pushed to ");
      if (branch) s.a(`${base}/src/branch/${branch}`, branch);
      s.text(" at ");
      s.a(base, full);
      s.open("div", "flex-item-body");
      s.a(`${base}/commit/${c.sha}`, c.sha.slice(0, 10), "ui sha label");
      s.text(` ${c.message}`);
      s.close("div");
    } else if (a.kind === "issue") {
      const t = a.repo.threads[a.ref]!;
      s.text(" opened issue ");
      s.a(`${base}/issues/${t.number}`, `${full}#${t.number}`);
    } else {
      const rel = a.repo.releases[a.ref]!;
      s.text(" released ");
      s.a(`${base}/releases/tag/${a.repo.tags[rel.tag]!.name}`, a.repo.tags[rel.tag]!.name);
      s.text(" at ");
      s.a(base, full);
    }
    s.close("div");
    relTime(s, a.time);
    s.close("div");
    s.close("div");
  }
  s.close("div");
  giteaPager(s, page, pages, (p) => `${userHref(m, o.index)}?tab=activity&page=${p}`);
}

export function membersPage(s: HtmlSink, m: ForgeModel, o: ForgeOwner): void {
  forgePage(s, { title: `Members - ${o.fullName || o.name}`, cls: "organization members" }, () => {
    s.open("div", "ui container");
    s.open("div", "ui secondary stackable pointing menu");
    s.a(userHref(m, o.index), "Repositories", "item");
    s.a(`/org/${o.name}/members`, "Members", "active item");
    s.close("div");
    userCards(s, m, o.members, "No one here yet.");
    s.close("div");
  });
}
