/**
 * Shape "statistics-office" (INSEE/ONS-like): themes → sub-themes → numbered
 * publication lists → publication pages carrying most targets. Around them: a large
 * news section (few targets), an infinite release calendar, extension-less images,
 * redirects from old URLs, broken and soft-404 links.
 */
import { fileBytes } from "../formats";
import type { HtmlSink } from "../html-sink";
import { hash32, type Rng, unscrambleId } from "../random";
import { calendarRoute } from "../trap";
import type { Query, Resource, ShapeModel } from "../types";
import { pageCount, parseId } from "./common";
import { statsFrame, STATS_SITE_NAME } from "./statistics-layout";
import { buildStatsModel, hasDataTab, NEWS_PER_PAGE, PUB_BASE_ID, PUBS_PER_PAGE, pubFiles, sharedFile, type StatsModel } from "./statistics-model";
import { newsListPage, newsMonthPage, newsPage, newsYearPage, parseArchiveMonth, parseArchiveYear } from "./statistics-news";
import {
  englishHome, openDataPage, regionPage, regionsIndex, searchPage, sitemapPage, softNotFound, STATIC_PAGES, staticPage,
} from "./statistics-static";
import { homePage, isImageId, publicationDataPage, publicationPage, subthemePage, themePage } from "./statistics-pages";

const missing: Resource = { kind: "missing" };

export function buildStatisticsOffice(seed: number, n: number): ShapeModel {
  const m = buildStatsModel(seed, n);
  const frame = statsFrame(m);
  const themeBySlug = new Map(m.themes.map((t, i) => [t.slug, i]));
  const subByPath = new Map(m.subs.map((sub, i) => [`${m.themes[sub.theme]!.slug}/${sub.slug}`, i]));
  const subSlugs = new Set(m.subs.map((sub) => sub.slug));
  const regionByCode = new Map(m.regions.map((r, i) => [r.code, i]));
  const tagBySlug = new Map(m.tags.map((t, i) => [t.slug, i]));
  const page = (render: (s: HtmlSink) => void): Resource => ({ kind: "page", render });
  const calendar = {
    base: "/calendar",
    title: "Release calendar",
    seed,
    frame,
    eventLink: (r: Rng, s: HtmlSink) => {
      if (r.chance(0.4)) s.a(`/publications/${PUB_BASE_ID + r.int(m.pubCount)}`, "The publication", "event__publication");
    },
  };

  function pubIndex(idText: string | undefined): number {
    const i = parseId(idText) - PUB_BASE_ID;
    return i >= 0 && i < m.pubCount ? i : -1;
  }

  function pubFileByHref(i: number, href: string): Resource {
    for (const f of pubFiles(seed, i)) {
      if (f.href !== href || f.state === "broken") continue;
      return f.state === "soft404" ? page((s) => softNotFound(s, frame)) : { kind: "file", file: f.file };
    }
    return missing;
  }

  function routeFiles(parts: string[], path: string): Resource {
    const [, , a, b] = parts;
    if (parts.length === 3 && a === "annual-report-2023.pdf") return { kind: "file", file: sharedFile(seed, "annual", "2023", "pdf") };
    if (parts.length === 3 && a === "catalogue.csv") return { kind: "file", file: sharedFile(seed, "catalogue", "all", "csv") };
    if (parts.length !== 4 || a === undefined || b === undefined) return missing;
    const stem = b.replace(/\.[a-z]+$/, "");
    if (a === "methodology" && b.endsWith(".pdf") && subSlugs.has(stem)) return { kind: "file", file: sharedFile(seed, "method", stem, "pdf") };
    if (a === "key-figures" && b.endsWith(".xlsx") && themeBySlug.has(stem)) return { kind: "file", file: sharedFile(seed, "key", stem, "xlsx") };
    if (a === "regions" && b.endsWith(".xlsx") && regionByCode.has(stem)) return { kind: "file", file: sharedFile(seed, "region", stem, "xlsx") };
    if (a === "press" && b.endsWith(".pdf")) {
      const id = parseId(stem);
      if (id >= 1 && id <= m.newsCount) return { kind: "file", file: sharedFile(seed, "press", stem, "pdf") };
      return missing;
    }
    const i = pubIndex(a);
    return i < 0 ? missing : pubFileByHref(i, path);
  }

  function routeMedia(parts: string[]): Resource {
    const [, , kind, name] = parts;
    if (parts.length !== 4 || name === undefined) return missing;
    const dot = name.indexOf(".");
    const id = parseId(dot < 0 ? name : name.slice(0, dot));
    const ext = dot < 0 ? "" : name.slice(dot + 1);
    const imageSeed = hash32(seed, 0x1a6, id);
    const ok =
      (kind === "img" && ext === "" && isImageId(m, id)) ||
      (kind === "thumbs" && ext === "png" && isImageId(m, id)) ||
      (kind === "charts" && ext === "PNG" && isImageId(m, id)) ||
      (kind === "news" && ext === "jpg" && id >= 1 && id <= m.newsCount);
    if (!ok) return missing;
    const format = kind === "img" || kind === "news" ? "jpg" : "png";
    return { kind: "file", file: { format, bytes: fileBytes(format, imageSeed), seed: imageSeed } };
  }

  function route(path: string, q: Query): Resource {
    if (path === "/") return page((s) => homePage(s, m, frame));
    const parts = path.split("/");
    const head = parts[1];
    switch (head) {
      case "themes": {
        if (parts.length === 3) {
          const ti = themeBySlug.get(parts[2]!);
          return ti === undefined ? missing : page((s) => themePage(s, m, frame, ti));
        }
        const si = parts.length === 4 ? subByPath.get(`${parts[2]}/${parts[3]}`) : undefined;
        if (si === undefined) return missing;
        const p = q.int("page", 1);
        if (!(p >= 1 && p <= pageCount(m.subs[si]!.count, PUBS_PER_PAGE))) return missing;
        return page((s) => subthemePage(s, m, frame, si, p));
      }
      case "publications": {
        const i = pubIndex(parts[2]);
        if (i < 0) return missing;
        if (parts.length === 4 && parts[3] === "") return { kind: "redirect", status: 301, location: `/publications/${PUB_BASE_ID + i}` };
        if (parts.length === 4 && parts[3] === "data" && hasDataTab(seed, i, pubFiles(seed, i).length)) {
          return page((s) => publicationDataPage(s, m, frame, i));
        }
        return parts.length === 3 ? page((s) => publicationPage(s, m, frame, i)) : missing;
      }
      case "old": {
        const i = parts.length === 4 && parts[2] === "pub" ? pubIndex(parts[3]) : -1;
        return i < 0 ? missing : { kind: "redirect", status: 301, location: `/publications/${PUB_BASE_ID + i}` };
      }
      case "files":
        return routeFiles(parts, path);
      case "download": {
        const fileId = parseId(q.get("id"));
        const i = Math.floor(fileId / 8);
        if (parts.length !== 2 || !(i >= 0 && i < m.pubCount)) return missing;
        return pubFileByHref(i, `/download?id=${fileId}&format=${q.get("format") ?? ""}`);
      }
      case "file": {
        const fileId = unscrambleId(parts[2] ?? "");
        const i = Math.floor(fileId / 8);
        return parts.length === 3 && i >= 0 && i < m.pubCount ? pubFileByHref(i, path) : missing;
      }
      case "documents": {
        const match = parts.length === 4 ? /-([0-9]+)\.[A-Z]+$/.exec(parts[3]!) : null;
        const i = match ? Math.floor(Number(match[1]) / 8) : -1;
        return i >= 0 && i < m.pubCount ? pubFileByHref(i, path) : missing;
      }
      case "data": {
        const t = parts.length === 4 && parts[2] === "latest" ? parts[3]!.replace(/\.xlsx$/, "") : "";
        return themeBySlug.has(t) ? { kind: "redirect", status: 302, location: `/files/key-figures/${t}.xlsx` } : missing;
      }
      case "media":
        return routeMedia(parts);
      case "news": {
        if (parts.length === 2) {
          const tagSlug = q.get("tag");
          const tag = tagSlug === undefined ? null : tagBySlug.get(tagSlug);
          if (tag === undefined) return missing;
          const total = tag === null ? m.newsCount : m.newsByTag[tag]!.length;
          const p = q.int("page", 1);
          if (!(p >= 1 && p <= pageCount(total, NEWS_PER_PAGE))) return missing;
          return page((s) => newsListPage(s, m, frame, tag, p));
        }
        if (parts.length === 3 && parts[2] === "feed.xml") return { kind: "file", file: sharedFile(seed, "rss", "news", "rss") };
        if (parts.length === 4 && parts[2] === "archive") {
          const key = parts[3]!;
          const year = parseArchiveYear(m, key);
          if (year) return page((s) => newsYearPage(s, m, frame, year));
          const k = parseArchiveMonth(m, key);
          return k >= 0 ? page((s) => newsMonthPage(s, m, frame, k)) : missing;
        }
        const id = parseId(parts[2]);
        return parts.length === 3 && id >= 1 && id <= m.newsCount ? page((s) => newsPage(s, m, frame, id)) : missing;
      }
      case "regions": {
        if (parts.length === 2) return page((s) => regionsIndex(s, m, frame));
        const k = regionByCode.get(parts[2] ?? "");
        return parts.length === 3 && k !== undefined ? page((s) => regionPage(s, m, frame, k)) : missing;
      }
      case "open-data":
        return parts.length === 2 ? page((s) => openDataPage(s, m, frame)) : missing;
      case "sitemap":
        return parts.length === 2 ? page((s) => sitemapPage(s, m, frame)) : missing;
      case "en":
        return path === "/en/" ? page((s) => englishHome(s, m, frame)) : missing;
      case "de":
        return path === "/de/" ? { kind: "redirect", status: 302, location: "/en/" } : missing;
      case "go":
        // An external partner behind a redirector. Crawlers follow a redirect off the site to see
        // whether a file answers there, so the host is reserved (RFC 2606 `.invalid`): simulated
        // crawls never reach the Internet, and run the same on a machine that has it.
        return path === "/go/eurostat" ? { kind: "redirect", status: 302, location: "https://ec.europa.eu.invalid/eurostat" } : missing;
      case "search": {
        const p = q.int("page", 1);
        return parts.length === 2 && p >= 1 && p <= 50 ? page((s) => searchPage(s, m, frame, q.get("q") ?? "", p)) : missing;
      }
      case "admin":
        return path === "/admin/"
          ? { kind: "page", status: 403, render: (s) => frame(s, { title: "Restricted", bodyClass: "page-403" }, () => s.el("h1", undefined, "Restricted area")) }
          : missing;
    }
    if (STATIC_PAGES[path] !== undefined) return page((s) => staticPage(s, m, frame, path));
    return calendarRoute(path, q, calendar) ?? missing;
  }

  return {
    siteName: STATS_SITE_NAME,
    trapPrefixes: ["/calendar"],
    disallow: ["/admin/", "/search"],
    route,
    notFound: (s) => frame(s, { title: "Page not found", bodyClass: "page-404" }, () => {
      s.el("h1", undefined, "Page not found");
      s.el("p", undefined, "The page you are looking for does not exist or has moved.");
    }),
  };
}

export type { StatsModel };
