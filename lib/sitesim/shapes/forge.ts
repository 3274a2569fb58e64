/**
 * Shape "code-forge" (Gitea 1.21, LANDING_PAGE = explore): the self-hosted forge of a
 * statistics community. `/` answers 302 to `/explore/repos`; explore pages and owner
 * profiles list repositories with sort and language links; each repository has its
 * Code tab at every branch, tag and commit (`/src/{branch|tag|commit}/…`, file views
 * are HTML even for `.csv` and `.xlsx`; the files themselves are `/raw/…` or, for Git
 * LFS files, `/media/…`), blame and histories, commit pages with patches, releases with
 * assets and source archives (302 to the archive store's pre-signed URL), issues and
 * pull requests with their filter combinations, a wiki, activity, stargazers, watchers,
 * forks and RSS/Atom feeds. Data files sit mostly in a minority of data repositories;
 * the revision space (every file at every commit) is most of the site, finite.
 * Renamed repositories and organisations redirect (301), deleted ones are 404, the old
 * ref-less `/src/<path>` spelling redirects to the default branch, "New issue" and
 * "Fork" send visitors to `/user/login`, which robots.txt disallows with `/api/`.
 */
import type { HtmlSink } from "../html-sink";
import type { Query, Resource, ShapeModel } from "../types";
import { REPO_SORTS, USER_SORTS } from "./forge-cost";
import { archiveRef, attachmentRef, feedRef, parseArchiveStore } from "./forge-files";
import { exploreOwnersPage, exploreReposPage, membersPage, ownerPage } from "./forge-explore";
import { forgePage, notFoundBody } from "./forge-layout";
import { buildForgeModel, commitVisible, type ForgeModel } from "./forge-model";
import { routeRepo } from "./forge-repo-routes";
import { FORGE_SITE_NAME } from "./forge-text";
import { parseListState } from "./forge-urls";

const missing: Resource = { kind: "missing" };
const page = (render: (s: HtmlSink) => void): Resource => ({ kind: "page", render });

/** robots.txt of the instance: the API, account pages (login, sign-up), avatars, fork and migrate forms, code search. */
export const FORGE_DISALLOW: readonly string[] = ["/api/", "/user/", "/avatars/", "/repo/", "/explore/code"];

function safeDecode(s: string): string | null {
  try {
    return decodeURIComponent(s);
  } catch {
    return null;
  }
}

function accountPage(title: string, text: string): Resource {
  return page((s) => forgePage(s, { title, cls: "user signin" }, () => {
    s.open("div", "ui middle very relaxed page grid");
    s.el("h4", "ui top attached header center", title);
    s.raw(`<form class="ui form" action="${title === "Sign In" ? "/user/login" : "/user/sign_up"}" method="post"><input name="user_name"><input type="password" name="password"><button class="ui primary button">${title}</button></form>`);
    s.el("p", undefined, text);
    s.close("div");
  }));
}

function routeOwner(m: ForgeModel, parts: string[], q: Query): Resource {
  const first = parts[0]!;
  const feed = /^(.+)\.(rss|atom)$/.exec(first);
  const name = feed && parts.length === 1 ? feed[1]! : first;
  const o = m.ownerByName.get(name);
  if (o === undefined) return missing;
  const owner = m.owners[o]!;
  if (owner.name !== name) {
    // A renamed organisation: every address under the old name redirects.
    const rest = parts.slice(1).join("/");
    const qs = q.pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join("&");
    return { kind: "redirect", status: 301, location: `/${owner.name}${feed && parts.length === 1 ? "." + feed[2] : ""}${rest ? "/" + rest : ""}${qs ? "?" + qs : ""}` };
  }
  if (feed && parts.length === 1) return q.size === 0 ? { kind: "file", file: feedRef(owner.seed, feed[2] === "atom") } : missing;
  if (parts.length === 1) {
    const tabs = owner.kind === "org" ? [""] : ["repositories", "activity", "stars", "followers", "following"];
    const st = parseListState(q, REPO_SORTS, tabs);
    if (!st) return missing;
    if ((st.tab !== "repositories" && st.tab !== "stars" && st.tab !== "") && (st.sort !== "" || st.q !== "" || st.language !== "" || st.topic)) return missing;
    if ((st.tab === "followers" || st.tab === "following") && st.page !== 1) return missing;
    return page((s) => ownerPage(s, m, owner, st));
  }
  const repoSeg = parts[1]!;
  const rfeed = parts.length === 2 ? /^(.+)\.(rss|atom)$/.exec(repoSeg) : null;
  const ri = m.repoByKey.get(`${owner.name}/${rfeed ? rfeed[1] : repoSeg}`.toLowerCase());
  if (ri === undefined) return missing;
  const repo = m.repos[ri]!;
  if (repo.name !== (rfeed ? rfeed[1] : repoSeg)) {
    // Renamed (or differently cased) repository: redirect, keeping the rest of the address.
    if (q.size !== 0) return missing;
    const rest = parts.slice(2).join("/");
    return { kind: "redirect", status: 301, location: `/${owner.name}/${repo.name}${rfeed ? "." + rfeed[2] : ""}${rest ? "/" + rest : ""}` };
  }
  if (rfeed) return q.size === 0 ? { kind: "file", file: feedRef(repo.seed, rfeed[2] === "atom") } : missing;
  return routeRepo(m, repo, parts.slice(2), q);
}

export function buildCodeForge(seed: number, n: number): ShapeModel {
  const m = buildForgeModel(seed, n);
  const byId = new Map(m.repos.map((r) => [r.id, r]));

  function route(path: string, q: Query): Resource {
    if (path === "/") return q.size === 0 ? { kind: "redirect", status: 302, location: "/explore/repos" } : missing;
    const raw = path.slice(1).split("/");
    const dec = raw.map(safeDecode);
    if (dec.some((x) => x === null)) return missing;
    const parts = dec as string[];
    switch (parts[0]) {
      case "explore": {
        if (parts.length === 1) return q.size === 0 ? { kind: "redirect", status: 302, location: "/explore/repos" } : missing;
        if (parts.length !== 2) return missing;
        if (parts[1] === "repos") {
          const st = parseListState(q, REPO_SORTS, [""]);
          return st ? page((s) => exploreReposPage(s, m, st)) : missing;
        }
        if (parts[1] === "users" || parts[1] === "organizations") {
          if (q.pairs.some(([k]) => !["sort", "q", "page"].includes(k))) return missing;
          const sort = q.get("sort") ?? "";
          const p = q.int("page", 1);
          if ((sort !== "" && !(USER_SORTS as readonly string[]).includes(sort)) || !Number.isFinite(p)) return missing;
          return page((s) => exploreOwnersPage(s, m, parts[1] === "users" ? "user" : "org", sort, q.get("q") ?? "", p));
        }
        return missing;
      }
      case "user":
        if (parts[1] === "login" && parts.length === 2) return accountPage("Sign In", "Need an account? Ask the administrators.");
        if (parts[1] === "sign_up" && parts.length === 2) return accountPage("Register", "Registration is disabled. Please contact your site administrator.");
        return missing;
      case "assets": {
        const file = path === "/assets/css/index.css" ? "css" : path === "/assets/js/index.js" ? "js" : null;
        return file ? { kind: "file", file: { format: file, bytes: 40_000 + (seed % 1000), seed: seed ^ (file === "css" ? 1 : 2) } } : missing;
      }
      case "attachments": {
        const a = parts.length === 2 && q.size === 0 ? m.attachments.get(parts[1]!) : undefined;
        return a ? { kind: "file", file: attachmentRef(a) } : missing;
      }
      case "gitea-storage": {
        const hit = parseArchiveStore(path, (k) => q.get(k));
        const repo = hit ? byId.get(hit.repoId) : undefined;
        const c = hit && repo ? repo.git.shaIndex.get(hit.sha) : undefined;
        return hit && repo && c !== undefined && commitVisible(repo, c) ? { kind: "file", file: archiveRef(repo.git, c, hit.ext, hit.name) } : missing;
      }
      case "org": {
        const o = parts.length === 3 && parts[2] === "members" ? m.ownerByName.get(parts[1]!) : undefined;
        const org = o === undefined ? undefined : m.owners[o]!;
        return org && org.kind === "org" && org.name === parts[1] && q.size === 0 ? page((s) => membersPage(s, m, org)) : missing;
      }
      case "api": case "repo": case "avatars": case "":
        return missing;
    }
    return routeOwner(m, parts, q);
  }

  return {
    siteName: FORGE_SITE_NAME,
    trapPrefixes: [],
    disallow: FORGE_DISALLOW,
    route,
    notFound: (s) => forgePage(s, { title: "Page Not Found", cls: "page-not-found" }, () => notFoundBody(s)),
  };
}
