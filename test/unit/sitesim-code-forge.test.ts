import * as cheerio from "cheerio";
import { describe, expect, it } from "vitest";
import { buildSite, hasMediaExtension, mimeOf, SIM_TARGET_MIME_TYPES, sizeToUrlCount } from "../../lib/sitesim";
import { buildForgeModel, type ForgeModel } from "../../lib/sitesim/shapes/forge-model";
import { finiteUrls, servedPages } from "../helpers/sitesim-pages";

const HOST = "git.test";
const { html, linksFromHtml } = servedPages(HOST);

/** The model behind `buildSite({ shape: "code-forge", seed, size })`. */
function model(seed: number, size: "tiny" | "small" | "medium"): ForgeModel {
  return buildForgeModel(seed >>> 0, sizeToUrlCount(size));
}

describe("code-forge", () => {
  const site = buildSite({ shape: "code-forge", seed: 1, size: "small" });
  const g = site.groundTruth();
  const m = model(1, "small");
  const targets = new Set(g.targets.map((t) => t.path));
  const pages = new Set(g.htmlPages);
  const allLinks = new Set(g.htmlPages.flatMap((p) => site.links(p)!));

  it("/ answers 302 to /explore/repos, a Gitea explore page with sort, language and topic links", () => {
    const root = site.respond("GET", "/", { host: HOST });
    expect(root.status).toBe(302);
    expect(root.headers.location).toBe(`http://${HOST}/explore/repos`);
    expect(g.htmlPages[0]).toBe("/explore/repos");
    const $ = cheerio.load(html(site, "/explore/repos"));
    for (const sel of ["nav#navbar", "div.page-content.explore.repositories", "div.flex-list", "footer.page-footer"]) expect($(sel).length, sel).toBe(1);
    expect($("title").text()).toBe("Explore - Statistics Commons Git");
    expect($("a.item[href^='?sort=']").length).toBe(10);
    expect($("a[href^='/explore/repos?q=&sort=recentupdate&language=']").length).toBeGreaterThan(0);
    expect($("a[href*='&topic=1']").length).toBeGreaterThan(0);
    // Every combination is a near-duplicate listing, bounded by what the list holds.
    const explore = g.htmlPages.filter((p) => p.startsWith("/explore/repos?"));
    expect(explore.length).toBeGreaterThan(30);
    expect(site.respond("GET", "/explore/repos?sort=nosuchsort").status).toBe(404);
    expect(site.respond("GET", "/explore/repos?page=99&sort=newest&q=&language=").status).toBe(200);
  });

  it("a file view is HTML even for .csv and .xlsx; the file is at /raw/ (or /media/ for Git LFS) with its MIME type", () => {
    const views = g.htmlPages.filter((p) => /\/src\/branch\/[^?]+\.(csv|xlsx)$/.test(p));
    expect(views.length).toBeGreaterThan(5);
    for (const view of views.slice(0, 20)) {
      const res = site.respond("GET", view);
      expect(res.status).toBe(200);
      expect(res.headers["content-type"]).toBe("text/html; charset=utf-8");
      const raw = site.links(view)!.find((l) => /\/(raw|media)\/branch\//.test(l) && l.endsWith(view.slice(view.lastIndexOf("/"))))!;
      expect(raw).toBeDefined();
      const file = site.respond("GET", raw);
      expect(file.status).toBe(200);
      expect(mimeOf(file.headers["content-type"]!)).toBe(view.endsWith(".csv") ? "text/csv" : "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet");
      expect(targets.has(raw)).toBe(true);
      // /raw/ and /media/ serve the same bytes.
      const other = raw.includes("/raw/") ? raw.replace("/raw/", "/media/") : raw.replace("/media/", "/raw/");
      expect(site.respond("GET", other).body.equals(file.body)).toBe(true);
    }
    // CSV files are rendered as a table, with a Source toggle.
    const csv = views.find((v) => v.endsWith(".csv"))!;
    const $ = cheerio.load(html(site, csv));
    expect($("table.data-table tr").length).toBeGreaterThan(5);
    expect(site.links(csv)).toContain(`${csv}?display=source`);
    expect(site.respond("GET", `${csv}?display=source`).status).toBe(200);
  });

  it("targets are data files (raw, LFS media, release assets, attachments, ZIP archives); source files are served with other types", () => {
    expect(g.targets.length).toBeGreaterThan(50);
    for (const t of g.targets) {
      expect(t.path).toMatch(/^\/([^/]+\/[^/]+\/(raw|media)\/(branch|tag|commit)\/|[^/]+\/[^/]+\/releases\/download\/|attachments\/|gitea-storage\/repo-archive\/)/);
      expect(SIM_TARGET_MIME_TYPES).toContain(t.mime);
      const name = t.path.startsWith("/attachments/") ? site.respond("HEAD", t.path).headers["content-disposition"]!.slice(22, -1) : t.path.split("?")[0]!;
      if (t.path.startsWith("/gitea-storage/")) expect(t.mime).toBe("application/zip");
      else expect(name).toMatch(/\.(csv|xlsx|xls|ods|json|xml|zip|pdf|txt)$/);
    }
    const mimes: Record<string, string> = {};
    for (const l of allLinks) {
      const ext = /\/raw\/[^?]+\.(py|md|R|Rmd|js|yml|toml|sql|css|ipynb)$/.exec(l)?.[1];
      if (ext && !(ext in mimes)) mimes[ext] = mimeOf(site.respond("HEAD", l).headers["content-type"]!);
    }
    expect(mimes.md).toBe("text/markdown");
    expect(Object.keys(mimes).length).toBeGreaterThanOrEqual(4);
    for (const mime of Object.values(mimes)) expect(SIM_TARGET_MIME_TYPES).not.toContain(mime);
    const share = g.targets.length / finiteUrls(site);
    expect(share).toBeGreaterThan(0.02);
    expect(share).toBeLessThan(0.15);
  });

  it("commit pages list the changed files at that commit; old revisions of a data file are distinct files", () => {
    const commits = g.htmlPages.filter((p) => /\/commit\/[0-9a-f]{40}$/.test(p));
    expect(commits.length).toBeGreaterThan(10);
    const $ = cheerio.load(html(site, commits[0]!));
    expect($("a:contains('Browse Source')").attr("href")).toBe(commits[0]!.replace("/commit/", "/src/commit/"));
    expect(site.links(commits[0]!)).toContain(`${commits[0]}.patch`);
    const views = commits.flatMap((c) => site.links(c)!.filter((l) => l.startsWith(c.replace("/commit/", "/src/commit/") + "/")));
    expect(views.length).toBeGreaterThan(10);
    for (const v of views.slice(0, 20)) expect(pages.has(v), v).toBe(true);
    // The same data file at commits that changed it: different bytes; at a commit that did not: the same as before.
    const byPath = new Map<string, string[]>();
    for (const t of g.targets) {
      const hit = /^(\/[^/]+\/[^/]+)\/(?:raw|media)\/commit\/[0-9a-f]{40}\/(.+)$/.exec(t.path);
      if (hit) byPath.set(hit[1] + "|" + hit[2], [...(byPath.get(hit[1] + "|" + hit[2]) ?? []), t.path]);
    }
    let revised = 0;
    for (const keys of byPath.values()) {
      const bodies = new Set(keys.map((k) => site.respond("GET", k).body.toString("base64")));
      expect(bodies.size).toBeLessThanOrEqual(4);
      if (bodies.size > 1) revised++;
    }
    expect(revised).toBeGreaterThan(0);
    expect([...byPath.values()].some((keys) => keys.length > new Set(keys.map((k) => site.respond("GET", k).body.toString("base64"))).size)).toBe(true);
    expect(site.respond("GET", commits[0]!.replace(/[0-9a-f]{40}$/, "0".repeat(40))).status).toBe(404);
  });

  it("branches and tags show (mostly) the same tree; blame and history exist for every file; histories are paged", () => {
    const trees = g.htmlPages.filter((p) => /\/src\/(branch|tag)\/[^?]+$/.test(p));
    const refs = new Set(trees.map((p) => /^(\/[^/]+\/[^/]+\/src\/(?:branch|tag)\/[^/]+)/.exec(p)![1]));
    expect(refs.size).toBeGreaterThan(m.repos.length);
    expect(g.htmlPages.some((p) => /\/blame\/(branch|commit)\//.test(p))).toBe(true);
    expect(g.htmlPages.some((p) => /\/commits\/commit\/[0-9a-f]{40}\/.+/.test(p))).toBe(true);
    const repo = m.repos.find((r) => r.branches.length > 1 && r.forkOf < 0)!;
    const base = `/${m.owners[repo.owner]!.name}/${repo.name}`;
    expect(site.links(`${base}/branches`)).toContain(`${base}/src/branch/${repo.branches[1]!.name}`);
    expect(html(site, `${base}/src/branch/${repo.branches[1]!.name}`)).toContain("repo-files-table");
    // A commit view has no download menu and no "Go to file"; a branch view has both.
    const sha = repo.git.commits[repo.branches[0]!.head]!.sha;
    expect(site.links(`${base}/src/commit/${sha}`)!.some((l) => l.includes("/archive/"))).toBe(false);
    expect(site.links(base)).toContain(`${base}/archive/${repo.defaultBranch}.zip`);
    expect(site.respond("GET", `${base}/commits/branch/${repo.defaultBranch}?page=99`).status).toBe(404);
  });

  it("archives answer 302 to the archive store's pre-signed URL, which serves the ZIP with its name", () => {
    const archives = [...allLinks].filter((l) => /\/archive\/.+\.zip$/.test(l));
    expect(archives.length).toBeGreaterThan(3);
    for (const a of archives.slice(0, 10)) {
      const res = site.respond("GET", a);
      expect(res.status).toBe(302);
      const loc = res.headers.location!;
      expect(loc).toMatch(/^\/gitea-storage\/repo-archive\/[0-9]+\/[0-9a-f]{2}\/[0-9a-f]{40}\.zip\?response-content-disposition=attachment/);
      expect(loc).toContain("X-Amz-Signature=");
      const file = site.respond("GET", loc);
      expect(file.status).toBe(200);
      expect(file.headers["content-type"]).toBe("application/zip");
      expect(file.headers["content-disposition"]).toMatch(/^attachment; filename=".+\.zip"$/);
      expect(targets.has(loc)).toBe(true);
      expect(site.respond("GET", loc.replace(/X-Amz-Signature=[0-9a-f]{4}/, "X-Amz-Signature=ffff")).status).toBe(404);
    }
    const tgz = [...allLinks].find((l) => /\/archive\/.+\.tar\.gz$/.test(l))!;
    expect(mimeOf(site.respond("GET", site.respond("GET", tgz).headers.location!).headers["content-type"]!)).toBe("application/gzip");
  });

  it("old addresses redirect: renamed repositories and organisations (301), ref-less /src/ paths (301 to the default branch)", () => {
    let checked = 0;
    for (const seed of [1, 2, 3, 4, 5, 6]) {
      const mm = model(seed, "small");
      const s = seed === 1 ? site : buildSite({ shape: "code-forge", seed, size: "small" });
      for (const r of mm.repos.filter((x) => x.oldName)) {
        const owner = mm.owners[r.owner]!.name;
        const res = s.respond("GET", `/${owner}/${r.oldName}/src/branch/${r.defaultBranch}`);
        expect(res.status).toBe(301);
        expect(res.headers.location).toBe(`/${owner}/${r.name}/src/branch/${r.defaultBranch}`);
        checked++;
      }
      for (const o of mm.owners.filter((x) => x.oldName && x.repos.length > 0)) {
        const r = mm.repos[o.repos[0]!]!;
        expect(s.respond("GET", `/${o.oldName}/${r.name}`).headers.location).toBe(`/${o.name}/${r.name}`);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(2);
    const repo = m.repos.find((r) => r.template === "data")!;
    const base = `/${m.owners[repo.owner]!.name}/${repo.name}`;
    const readme = site.respond("GET", `${base}/src/README.md`);
    expect(readme.status).toBe(301);
    expect(readme.headers.location).toBe(`${base}/src/branch/${repo.defaultBranch}/README.md`);
    expect(site.respond("GET", `${base}/src/${repo.defaultBranch}/README.md`).headers.location).toBe(`${base}/src/branch/${repo.defaultBranch}/README.md`);
    expect(site.respond("GET", `${base}/raw/README.md`).headers.location).toBe(`${base}/raw/branch/${repo.defaultBranch}/README.md`);
  });

  it("deleted repositories and files are 404; a deleted file is still there at older commits", () => {
    let deletedRepos = 0;
    let deletedFiles = 0;
    for (const seed of [1, 2, 3, 4, 5, 6, 7, 8]) {
      const mm = model(seed, "small");
      const s = seed === 1 ? site : buildSite({ shape: "code-forge", seed, size: "small" });
      for (const d of mm.deleted) {
        expect(s.respond("GET", `/${d}`).status).toBe(404);
        deletedRepos++;
      }
      for (const r of mm.repos.filter((x) => x.forkOf < 0)) {
        const head = r.branches[0]!.head;
        r.git.files.forEach((f, i) => {
          if (r.git.snap[head]![i]! >= 0) return;
          const c = r.git.snap.findIndex((row, k) => k < r.git.mainCount && row[i]! >= 0);
          if (c < 0) return;
          const base = `/${mm.owners[r.owner]!.name}/${r.name}`;
          expect(s.respond("GET", `${base}/src/branch/${r.defaultBranch}/${f.path}`).status).toBe(404);
          expect(s.respond("GET", `${base}/raw/commit/${r.git.commits[c]!.sha}/${f.path}`).status).toBe(200);
          deletedFiles++;
        });
      }
    }
    expect(deletedRepos).toBeGreaterThan(0);
    expect(deletedFiles).toBeGreaterThan(0);
    const page404 = site.respond("GET", "/no-such-owner/no-such-repo");
    expect(page404.status).toBe(404);
    expect(page404.body.toString()).toContain("does not exist");
  });

  it("robots.txt disallows the API and account pages; login-only actions send visitors to /user/login", () => {
    expect(site.robotsTxt).toMatch(/^User-agent: \*\nDisallow: \/api\/\nDisallow: \/user\/\n/);
    expect(g.disallowedLinks).toBeGreaterThan(100);
    expect(g.htmlPages.some((p) => p.startsWith("/user/") || p.startsWith("/api/"))).toBe(false);
    const repo = m.repos.find((r) => r.units.issues)!;
    const base = `/${m.owners[repo.owner]!.name}/${repo.name}`;
    const res = site.respond("GET", `${base}/issues/new`);
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe(`/user/login?redirect_to=${encodeURIComponent(`${base}/issues/new`)}`);
    expect(site.respond("GET", res.headers.location!).status).toBe(200);
    expect(html(site, base)).toContain(`href="/user/login?redirect_to=%2Frepo%2Ffork%2F${repo.id}"`);
  });

  it("issue and pull request lists multiply by state × sort × label selection; issues link data files and attachments", () => {
    const lists = g.htmlPages.filter((p) => /\/(issues|pulls)\?/.test(p));
    expect(lists.length).toBeGreaterThan(50);
    for (const repo of m.repos.filter((r) => r.units.issues)) {
      const base = `/${m.owners[repo.owner]!.name}/${repo.name}`;
      const mine = lists.filter((p) => p.startsWith(`${base}/issues?q=&type=all&sort=`));
      const scopes = new Map<string, number>();
      let unscoped = 0;
      for (const l of repo.labels) l.scope ? scopes.set(l.scope, (scopes.get(l.scope) ?? 0) + 1) : unscoped++;
      const selections = [...scopes.values()].reduce((a, n) => a * (n + 1), 2 ** unscoped);
      expect(mine.length, base).toBe(2 * 9 * selections);
    }
    // Scoped labels are exclusive: no reachable selection holds two Kind/ labels.
    for (const p of lists) {
      const ids = /labels=([0-9,]*)/.exec(p)?.[1]?.split(",").filter(Boolean).map(Number) ?? [];
      const kinds = ids.map((id) => m.repos.flatMap((r) => r.labels).find((l) => l.id === id)!).filter((l) => l.scope === "Kind");
      expect(kinds.length, p).toBeLessThanOrEqual(1);
    }
    const issues = g.htmlPages.filter((p) => /\/issues\/[0-9]+$/.test(p));
    expect(issues.length).toBeGreaterThan(5);
    const attachments = [...allLinks].filter((l) => l.startsWith("/attachments/"));
    for (const a of attachments) {
      const res = site.respond("GET", a);
      expect(res.status).toBe(200);
      expect(res.headers["content-disposition"]).toMatch(/^attachment; filename=/);
    }
    // #n references to a pull request go through /issues/n, which redirects.
    const prs = m.repos.flatMap((r) => r.threads.filter((t) => t.pull).map((t) => `/${m.owners[r.owner]!.name}/${r.name}/issues/${t.number}`));
    for (const p of prs.slice(0, 5)) expect(site.respond("GET", p).headers.location).toBe(p.replace("/issues/", "/pulls/"));
  });

  it("the links ground truth walks are those a crawler extracts from the HTML", () => {
    const step = Math.max(1, Math.floor(g.htmlPages.length / 120));
    for (let k = 0; k < g.htmlPages.length; k += step) {
      const key = g.htmlPages[k]!;
      expect(linksFromHtml(html(site, key), key), key).toEqual(site.links(key));
    }
    for (const key of [...g.htmlPages.filter((p) => /\/(wiki|releases|activity|blame|graph|pulls\/[0-9]+)/.test(p)).slice(0, 40)]) {
      expect(linksFromHtml(html(site, key), key), key).toEqual(site.links(key));
    }
    expect(g.mediaLinksSkipped + g.externalLinks).toBeGreaterThan(0);
    expect(g.bfsStop).toBe("exhausted");
  });

  it("the same seed gives the same bytes; another seed another forge", () => {
    const again = buildSite({ shape: "code-forge", seed: 1, size: "small" });
    for (const key of [...g.htmlPages.slice(0, 30), ...g.htmlPages.slice(-10), ...g.targets.slice(0, 10).map((t) => t.path)]) {
      expect(again.respond("GET", key, { host: HOST }).body.equals(site.respond("GET", key, { host: HOST }).body), key).toBe(true);
    }
    expect(again.groundTruth().targets).toEqual(g.targets);
    const other = buildSite({ shape: "code-forge", seed: 2, size: "small" });
    expect(other.groundTruth().targets.map((t) => t.path)).not.toEqual(g.targets.map((t) => t.path));
    expect(html(other, "/explore/repos")).not.toBe(html(site, "/explore/repos"));
  });

  it.each(["tiny", "small", "medium"] as const)("%s: finite, sized, with targets and a plausible share of them", (size) => {
    const s = buildSite({ shape: "code-forge", seed: 3, size });
    const gs = s.groundTruth();
    const nominal = sizeToUrlCount(size);
    const n = finiteUrls(s);
    // A tiny forge is still an organisation, a user, explore pages and two repositories.
    expect(n).toBeGreaterThan(nominal * 0.7);
    expect(n).toBeLessThan(nominal * (size === "tiny" ? 1.7 : 1.4));
    expect(gs.bfsStop).toBe("exhausted");
    expect(gs.targets.length).toBeGreaterThan(size === "tiny" ? 5 : 40);
    expect(gs.targets.length / n).toBeLessThan(0.15);
    expect(gs.targets.every((t) => !hasMediaExtension(t.path))).toBe(true);
  });

  it("builds a large site and its ground truth quickly", () => {
    const t0 = performance.now();
    const large = buildSite({ shape: "code-forge", seed: 3, size: "large" });
    expect(performance.now() - t0).toBeLessThan(2_000);
    const gl = large.groundTruth();
    // ≈ 1 s on an idle machine; generous here because tests share two cores.
    expect(performance.now() - t0).toBeLessThan(10_000);
    expect(finiteUrls(large)).toBeGreaterThan(30_000);
    expect(finiteUrls(large)).toBeLessThan(52_000);
    expect(gl.targets.length).toBeGreaterThan(1_500);
    expect(gl.bfsStop).toBe("exhausted");
  });
});
