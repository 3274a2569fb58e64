/**
 * Routing inside a repository (`/{owner}/{repo}/…`): refs are resolved as Gitea does
 * (the longest branch or tag name that prefixes the path, or a full commit id), the old
 * ref-less `/src/<path>` and `/raw/<path>` spellings redirect (a leading branch, tag or
 * commit name is taken as the ref, anything else is a path on the default branch),
 * `/archive/<ref>.<ext>` redirects to the archive store, issues and pull requests
 * redirect to each other, "New issue" sends visitors to the login page.
 */
import type { HtmlSink } from "../html-sink";
import type { Query, Resource } from "../types";
import { archiveName, archiveStoreHref, attachmentRef, feedRef, patchRef, revisionRef, wikiRawRef, type ArchiveExt } from "./forge-files";
import { dirMask } from "./forge-git";
import { blamePage, branchesPage, commitPage, comparePage, graphPage, historyPage, historyPages, tagsPage } from "./forge-history";
import { issueListPage, labelsPage, listPages, milestonesPage, threadPage } from "./forge-issues";
import { commitVisible, type ForgeModel, type ForgeRepo } from "./forge-model";
import { releasePage, releasesPage, RELEASES_PER_PAGE } from "./forge-releases";
import { ACTIVITY_PERIODS, activityPage, forksPage, peoplePage, wikiCommitPage, wikiPage, wikiPagesList, wikiRevisions } from "./forge-social";
import { filePage, findPage, treePage } from "./forge-tree";
import { loginHref, parseIssueFilter, repoPath, type Ref, type RefKind } from "./forge-urls";

const missing: Resource = { kind: "missing" };
const page = (render: (s: HtmlSink) => void): Resource => ({ kind: "page", render });

/** `{kind}/{name…}/{path…}` → the ref and the rest of the path; null when no such ref. */
export function parseRef(repo: ForgeRepo, kind: string, segs: readonly string[]): { ref: Ref; rest: string[] } | null {
  if (kind === "commit") {
    const c = repo.git.shaIndex.get(segs[0] ?? "");
    return c !== undefined && commitVisible(repo, c) ? { ref: { kind: "commit", name: segs[0]!, commit: c }, rest: segs.slice(1) } : null;
  }
  const named = kind === "branch" ? repo.branches.map((b) => ({ name: b.name, commit: b.head })) : kind === "tag" ? repo.tags : null;
  if (!named) return null;
  let best: { ref: Ref; rest: string[] } | null = null;
  for (const x of named) {
    const n = x.name.split("/").length;
    if (segs.slice(0, n).join("/") === x.name && (!best || n > best.ref.name.split("/").length)) best = { ref: { kind: kind as RefKind, name: x.name, commit: x.commit }, rest: segs.slice(n) };
  }
  return best;
}

/** Gitea's legacy ref guess for `/src/<rest>` and `/raw/<rest>`. */
function legacy(repo: ForgeRepo, segs: readonly string[]): string {
  for (const kind of ["branch", "tag", "commit"]) {
    const hit = parseRef(repo, kind, segs);
    if (hit) return `${kind}/${hit.ref.name}${hit.rest.length ? "/" + hit.rest.join("/") : ""}`;
  }
  return `branch/${repo.defaultBranch}/${segs.join("/")}`;
}

export function routeRepo(m: ForgeModel, repo: ForgeRepo, parts: readonly string[], q: Query): Resource {
  const base = repoPath(m, repo);
  const g = repo.git;
  const none = q.size === 0;
  const [a, b, c] = parts;
  if (parts.length === 0) return none ? page((s) => treePage(s, m, repo, { kind: "branch", name: repo.defaultBranch, commit: repo.branches[0]!.head }, 0)) : missing;
  switch (a) {
    case "src": case "raw": case "media": case "blame": case "commits": case "find": {
      const hit = b === undefined ? null : parseRef(repo, b, parts.slice(2));
      if (!hit) {
        if ((a === "src" || a === "raw") && parts.length > 1 && none && !["branch", "tag", "commit"].includes(b!)) return { kind: "redirect", status: 301, location: `${base}/${a}/${legacy(repo, parts.slice(1))}` };
        return missing;
      }
      const { ref } = hit;
      const path = hit.rest.join("/");
      const f = g.fileByPath.get(path);
      const d = g.dirByPath.get(path);
      const isFile = f !== undefined && g.snap[ref.commit]![f]! >= 0;
      const isDir = d !== undefined && dirMask(g, ref.commit)[d] === 1;
      if (!isFile && !isDir) return missing;
      if (a === "find") return none && path === "" ? page((s) => findPage(s, m, repo, ref)) : missing;
      if (a === "commits") {
        const p = q.size === 0 ? 1 : q.size === 1 ? q.int("page", Number.NaN) : Number.NaN;
        return Number.isFinite(p) && p <= historyPages(g, ref, path, isDir) ? page((s) => historyPage(s, m, repo, ref, path, isDir, p)) : missing;
      }
      if (a === "src") {
        if (isDir) return none ? page((s) => treePage(s, m, repo, ref, d!)) : missing;
        const source = q.size === 1 && q.get("display") === "source" && ["csv", "md"].includes(g.files[f!]!.format);
        return none || source ? page((s) => filePage(s, m, repo, ref, f!, source)) : missing;
      }
      if (!isFile || !none) return missing;
      if (a === "blame") return g.files[f!]!.text ? page((s) => blamePage(s, m, repo, ref, f!)) : missing;
      return { kind: "file", file: revisionRef(g, f!, g.snap[ref.commit]![f!]!) };
    }
    case "commit": {
      const mm = b === undefined || parts.length !== 2 ? null : /^([0-9a-f]{40})(\.patch|\.diff)?$/.exec(b);
      const k = mm ? g.shaIndex.get(mm[1]!) : undefined;
      if (k === undefined || !commitVisible(repo, k)) return missing;
      if (mm![2]) return none ? { kind: "file", file: patchRef(g.seed, k * 2 + (mm![2] === ".diff" ? 1 : 0)) } : missing;
      if (none) return page((s) => commitPage(s, m, repo, k, null));
      const style = q.get("style");
      return q.size === 3 && (style === "split" || style === "unified") && q.get("whitespace") === "" && q.get("show-outdated") === "" ? page((s) => commitPage(s, m, repo, k, style)) : missing;
    }
    case "archive": {
      const rest = parts.slice(1).join("/");
      const mm = /^(.+)\.(zip|tar\.gz|bundle)$/.exec(rest);
      if (!mm || !none) return missing;
      const name = mm[1]!;
      const hit = parseRef(repo, "branch", name.split("/")) ?? parseRef(repo, "tag", name.split("/")) ?? parseRef(repo, "commit", [name]);
      if (!hit || hit.rest.length > 0) return missing;
      const ext = mm[2] as ArchiveExt;
      return { kind: "redirect", status: 302, location: archiveStoreHref(repo, g.commits[hit.ref.commit]!.sha, ext, archiveName(repo, name, hit.ref.kind === "commit", ext)) };
    }
    case "releases": {
      if (parts.length === 1) {
        const p = none ? 1 : q.size === 1 ? q.int("page", Number.NaN) : Number.NaN;
        return Number.isFinite(p) && p <= Math.max(1, Math.ceil(repo.releases.length / RELEASES_PER_PAGE)) ? page((s) => releasesPage(s, m, repo, p)) : missing;
      }
      const tagName = b === "tag" ? parts.slice(2).join("/") : b === "download" ? parts.slice(2, -1).join("/") : null;
      const rel = repo.releases.find((r) => repo.tags[r.tag]!.name === tagName);
      if (!rel || !none) return missing;
      if (b === "tag") return page((s) => releasePage(s, m, repo, rel));
      const asset = rel.attachments.find((x) => x.name === parts[parts.length - 1]);
      return asset ? { kind: "file", file: attachmentRef(asset) } : missing;
    }
    case "compare": {
      const mm = /^(.+)\.\.\.(.+)$/.exec(parts.slice(1).join("/"));
      const tag = mm ? repo.tags.find((t) => t.name === mm[1]) : undefined;
      if (!tag || mm![2] !== repo.defaultBranch || !none) return missing;
      return page((s) => comparePage(s, m, repo, tag.commit, repo.branches[0]!.head, `${tag.name}...${repo.defaultBranch}`));
    }
    case "issues": case "pulls": {
      const pull = a === "pulls";
      if (parts.length === 1) {
        if (!(pull ? repo.units.pulls : repo.units.issues)) return missing;
        const f = parseIssueFilter(repo, q);
        return f && f.page <= listPages(repo, pull, f) ? page((s) => issueListPage(s, m, repo, pull, f)) : missing;
      }
      if (!pull && b === "new" && parts.length === 2) return repo.units.issues && none ? { kind: "redirect", status: 302, location: loginHref(`${base}/issues/new`) } : missing;
      const mm = /^([1-9][0-9]{0,5})(\.diff|\.patch)?$/.exec(b ?? "");
      const t = mm ? repo.threads[Number(mm[1]) - 1] : undefined;
      if (!t || !none) return missing;
      if (mm![2]) return pull && t.pull && parts.length === 2 ? { kind: "file", file: patchRef(t.seed, mm![2] === ".diff" ? 1 : 0) } : missing;
      if (t.pull !== pull) return parts.length === 2 ? { kind: "redirect", status: 302, location: `${base}/${t.pull ? "pulls" : "issues"}/${t.number}` } : missing;
      if (parts.length === 2) return page((s) => threadPage(s, m, repo, t, "conversation"));
      return pull && parts.length === 3 && (c === "commits" || c === "files") ? page((s) => threadPage(s, m, repo, t, c)) : missing;
    }
    case "wiki": {
      if (!repo.units.wiki) return missing;
      if (parts.length === 1) return none ? page((s) => wikiPage(s, m, repo, 0)) : missing;
      if (b === "" && parts.length === 2) return q.size === 1 && q.get("action") === "_pages" ? page((s) => wikiPagesList(s, m, repo)) : missing;
      if (b === "commit" && parts.length === 3) {
        const k = repo.wikiCommits.findIndex((w) => w.sha === c);
        return k >= 0 && none ? page((s) => wikiCommitPage(s, m, repo, k)) : missing;
      }
      if (b === "raw" && parts.length === 3) {
        const p = repo.wiki.findIndex((w) => w.name === c);
        return p >= 0 && none ? { kind: "file", file: wikiRawRef(repo.wiki[p]!.seed, `${c}.md`) } : missing;
      }
      const p = parts.length === 2 ? repo.wiki.findIndex((w) => w.name === b) : -1;
      if (p < 0) return missing;
      if (none) return page((s) => wikiPage(s, m, repo, p));
      return q.size === 1 && q.get("action") === "_revision" ? page((s) => wikiRevisions(s, m, repo, p)) : missing;
    }
    case "activity": {
      const period = parts.length === 1 ? "weekly" : parts.length === 2 ? b! : "";
      return none && ACTIVITY_PERIODS.some(([x]) => x === period) ? page((s) => activityPage(s, m, repo, period)) : missing;
    }
    case "rss": {
      const hit = b === "branch" ? parseRef(repo, "branch", parts.slice(2)) : null;
      return hit && hit.rest.length === 0 && none ? { kind: "file", file: feedRef(repo.seed + hit.ref.commit, false) } : missing;
    }
  }
  if (parts.length !== 1 || !none) return missing;
  switch (a) {
    case "graph": return page((s) => graphPage(s, m, repo));
    case "branches": return page((s) => branchesPage(s, m, repo));
    case "tags": return page((s) => tagsPage(s, m, repo));
    case "tags.rss": case "releases.rss": return { kind: "file", file: feedRef(repo.seed + (a === "tags.rss" ? 1 : 2), false) };
    case "labels": case "milestones":
      if (!repo.units.issues && !repo.units.pulls) return missing;
      return page((s) => (a === "labels" ? labelsPage(s, m, repo) : milestonesPage(s, m, repo)));
    case "stars": case "watchers": return page((s) => peoplePage(s, m, repo, a));
    case "forks": return page((s) => forksPage(s, m, repo));
  }
  return missing;
}
