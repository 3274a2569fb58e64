/**
 * Shape "news-heavy": a newspaper. Thousands of articles reached through section
 * fronts, tag pages and a daily archive whose previous/next-day links never end
 * (the trap, under /archive); a small data desk holds almost every target.
 */
import { fileBytes } from "../formats";
import type { HtmlSink } from "../html-sink";
import { hash32 } from "../random";
import type { Query, Resource, ShapeModel } from "../types";
import { pageCount, parseId } from "./common";
import { articlePath, buildNewsModel, PER_PAGE, SECTIONS, storyFiles } from "./news-heavy-model";
import { articlePage, dataDeskPage, dayPage, homePage, listPage, NEWS_SITE_NAME, newsFrame, storyPage } from "./news-heavy-pages";

const missing: Resource = { kind: "missing" };

/** Day number (days since 1970-01-01) of "YYYY-MM-DD" for years 1000–9999, or NaN. */
function parseDay(key: string): number {
  const match = /^([1-9][0-9]{3})-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])$/.exec(key);
  if (!match) return Number.NaN;
  const t = Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
  return new Date(t).toISOString().slice(0, 10) === key ? t / 86_400_000 : Number.NaN;
}

export function buildNewsHeavy(seed: number, n: number): ShapeModel {
  const m = buildNewsModel(seed, n);
  const frame = newsFrame(m);
  const page = (render: (s: HtmlSink) => void): Resource => ({ kind: "page", render });
  const tagBySlug = new Map(m.tags.map((t, i) => [t.slug, i]));
  const image = (id: number): Resource => {
    const fseed = hash32(seed, 0x1a6, id);
    return id >= 1 && id <= m.articleCount ? { kind: "file", file: { format: "jpg", bytes: fileBytes("jpg", fseed), seed: fseed } } : missing;
  };
  const pageOf = (q: Query, total: number) => {
    const p = q.int("page", 1);
    return p >= 1 && p <= pageCount(total, PER_PAGE) ? p : -1;
  };

  function route(path: string, q: Query): Resource {
    if (path === "/") return page((s) => homePage(s, m, frame));
    const parts = path.split("/");
    const section = SECTIONS.indexOf(parts[1] ?? "");
    if (section >= 0) {
      if (parts.length === 2) {
        const ids = m.bySection[section]!;
        const p = pageOf(q, ids.length);
        return p < 0 ? missing : page((s) => listPage(s, m, frame, parts[1]!.replace(/^./, (c) => c.toUpperCase()), path, ids, p));
      }
      const last = parts[parts.length - 1] ?? "";
      const id = parseId(last.slice(last.lastIndexOf("-") + 1));
      return id >= 1 && id <= m.articleCount && articlePath(m, id) === path ? page((s) => articlePage(s, m, frame, id)) : missing;
    }
    switch (parts[1]) {
      case "tag": {
        const t = parts.length === 3 ? tagBySlug.get(parts[2]!) : undefined;
        const p = t === undefined ? -1 : pageOf(q, m.byTag[t]!.length);
        return t === undefined || p < 0 ? missing : page((s) => listPage(s, m, frame, m.tags[t]!.name, path, m.byTag[t]!, p));
      }
      case "archive": {
        const day = parts.length === 3 ? parseDay(parts[2]!) : Number.NaN;
        return Number.isNaN(day) ? missing : page((s) => dayPage(s, m, frame, day));
      }
      case "data": {
        if (parts.length === 2) {
          const p = pageOf(q, m.storyCount);
          return p < 0 ? missing : page((s) => dataDeskPage(s, m, frame, p));
        }
        if (parts.length === 3) {
          const id = parseId(parts[2]);
          return id >= 1 && id <= m.storyCount ? page((s) => storyPage(s, m, frame, id)) : missing;
        }
        const id = parseId(parts[3]);
        if (parts.length !== 5 || parts[2] !== "files" || !(id >= 1 && id <= m.storyCount)) return missing;
        const f = storyFiles(m, id).find((x) => x.href === path);
        return f ? { kind: "file", file: f.file } : missing;
      }
      case "a": {
        const id = parseId(parts[2]);
        return parts.length === 3 && id >= 1 && id <= m.articleCount ? { kind: "redirect", status: 301, location: articlePath(m, id) } : missing;
      }
      case "img": {
        const name = parts[2] ?? "";
        return parts.length === 3 ? image(parseId(name.endsWith(".jpg") ? name.slice(0, -4) : name)) : missing;
      }
      case "de":
        return path === "/de/" ? { kind: "redirect", status: 302, location: "/en/" } : missing;
      case "search":
      case "admin":
        return page((s) => frame(s, { title: "Restricted", bodyClass: "restricted" }, () => s.el("h1", undefined, "Restricted")));
    }
    if (["/about", "/contact", "/jobs", "/subscribe", "/en/"].includes(path)) {
      return page((s) => frame(s, { title: path.replace(/\//g, " ").trim(), bodyClass: "static", crumbs: [["Home", "/"]] }, () => {
        s.para(hash32(seed, path.length), 120);
        s.a("/search?q=courier", "Search the archive");
      }));
    }
    return missing;
  }

  return {
    siteName: NEWS_SITE_NAME,
    trapPrefixes: ["/archive"],
    disallow: ["/admin/", "/search"],
    route,
    notFound: (s) => frame(s, { title: "Not found", bodyClass: "error" }, () => s.el("h1", undefined, "Not found")),
  };
}
