/**
 * Shape "ministry-portal": long next-only paginations (press releases, decisions,
 * reports, speeches, per-topic lists), documents mostly reached deep in those lists,
 * heavy boilerplate, an infinite agenda.
 */
import { fileBytes } from "../formats";
import type { HtmlSink } from "../html-sink";
import { hash32, Rng } from "../random";
import { calendarRoute } from "../trap";
import { headline } from "../text";
import type { Query, Resource, ShapeModel } from "../types";
import { pageCount, parseId } from "./common";
import { MINISTRY_PAGES, MINISTRY_SITE_NAME, ministryFrame } from "./ministry-layout";
import { attachments, buildMinistryModel, itemPath, PER_PAGE, type Collection } from "./ministry-model";
import { itemPage, listPage, ministryHome, ministryStaticPage, topicPage, topicsIndex } from "./ministry-pages";

const missing: Resource = { kind: "missing" };

export function buildMinistryPortal(seed: number, n: number): ShapeModel {
  const m = buildMinistryModel(seed, n);
  const frame = ministryFrame(m);
  const byKey = new Map(m.collections.map((c) => [c.key as string, c]));
  const byPrefix = new Map(m.collections.map((c) => [c.key.slice(0, 3), c]));
  const topicBySlug = new Map(m.topics.map((t, i) => [t.slug, i]));
  const releases = m.collections[0]!;
  const page = (render: (s: HtmlSink) => void): Resource => ({ kind: "page", render });
  const agenda = {
    base: "/agenda",
    title: "Agenda of the minister",
    seed,
    frame,
    eventLink: (r: Rng, s: HtmlSink) => {
      if (r.chance(0.3)) {
        const id = 1 + r.int(releases.count);
        s.a(itemPath(m, releases, id), "Press release", "event__release");
      }
    },
  };

  /** Page index of a next-only list (`?page=k`, k ≥ 1; absent = 0), or -1. */
  function listIndex(q: Query, total: number): number {
    if (q.get("page") === undefined) return 0;
    const p = q.int("page", 0);
    return p >= 1 && p < pageCount(total, PER_PAGE) ? p : -1;
  }

  function routeItem(c: Collection, path: string, segment: string): Resource {
    const id = parseId(segment.split("-")[0]);
    if (!(id >= 1 && id <= c.count) || itemPath(m, c, id) !== path) return missing;
    return page((s) => itemPage(s, m, frame, c, id));
  }

  function routeMedia(parts: string[]): Resource {
    const mid = parseId(parts[2]);
    if (parts.length !== 4 || parts[3] !== "download" || Number.isNaN(mid)) return missing;
    if (mid % 2 === 1) {
      const c = m.collections[Math.floor((mid - 1) / 2 / 0x100000)];
      const id = ((mid - 1) / 2) % 0x100000;
      if (!c || id < 1 || id > c.count) return missing;
      const fseed = hash32(seed, 0x1a6, mid);
      return { kind: "file", file: { format: "jpg", bytes: fileBytes("jpg", fseed), seed: fseed } };
    }
    const k = (mid / 2) % 8;
    const rest = Math.floor(mid / 16);
    const c = m.collections[Math.floor(rest / 0x100000)];
    const id = rest % 0x100000;
    if (!c || id < 1 || id > c.count) return missing;
    const a = attachments(m, c, id)[k];
    return a && a.href === `/media/${mid}/download` ? { kind: "file", file: a.file } : missing;
  }

  function routeFile(parts: string[], path: string): Resource {
    const match = parts.length === 6 ? /^([a-z]{3})-([0-9]+)-([0-9])\.[a-z]+$/.exec(parts[5]!) : null;
    const c = match ? byPrefix.get(match[1]!) : undefined;
    if (!match || !c) return missing;
    const a = attachments(m, c, Number(match[2]))[Number(match[3]) - 1];
    return a && a.href === path ? { kind: "file", file: a.file } : missing;
  }

  function route(path: string, q: Query): Resource {
    if (path === "/") return page((s) => ministryHome(s, m, frame));
    const parts = path.split("/");
    const c = byKey.get(parts[1] ?? "");
    if (c) {
      if (parts.length === 3) return routeItem(c, path, parts[2]!);
      if (parts.length !== 2) return missing;
      const p = listIndex(q, c.count);
      return p < 0 ? missing : page((s) => listPage(s, m, frame, c, p, `/${c.key}`, c.label, null));
    }
    switch (parts[1]) {
      case "actualites": {
        const id = parseId(parts[2]);
        return parts.length === 3 && id >= 1 && id <= releases.count ? { kind: "redirect", status: 301, location: itemPath(m, releases, id) } : missing;
      }
      case "topics": {
        if (parts.length === 2) return page((s) => topicsIndex(s, m, frame));
        const t = topicBySlug.get(parts[2] ?? "");
        if (t === undefined) return missing;
        if (parts.length === 3) return page((s) => topicPage(s, m, frame, t));
        if (parts.length !== 4 || parts[3] !== "press-releases") return missing;
        const ids = m.releasesByTopic[t]!;
        const p = listIndex(q, ids.length);
        const title = `Press releases: ${m.topics[t]!.name}`;
        return p < 0 ? missing : page((s) => listPage(s, m, frame, releases, p, `/topics/${m.topics[t]!.slug}/press-releases`, title, ids));
      }
      case "sites":
        return parts[2] === "default" && parts[3] === "files" ? routeFile(parts, path) : missing;
      case "media":
        return routeMedia(parts);
      case "rss.xml": {
        const fseed = hash32(seed, 0x255);
        return parts.length === 2 ? { kind: "file", file: { format: "rss", bytes: fileBytes("rss", fseed), seed: fseed } } : missing;
      }
      case "en":
        return path === "/en/" ? page((s) => ministryStaticPage(s, m, frame, "/en/")) : missing;
      case "de":
        return path === "/de/" ? { kind: "redirect", status: 302, location: "/en/" } : missing;
      case "search":
        return parts.length === 2 ? page((s) => frame(s, { title: "Search", bodyClass: "path-search" }, () => {
          const r = new Rng(hash32(seed, (q.get("keys") ?? "").length));
          for (let k = 0; k < 10; k++) {
            const id = 1 + r.int(releases.count);
            s.a(itemPath(m, releases, id), headline(id));
          }
        })) : missing;
      case "user":
        return path === "/user/login" ? page((s) => frame(s, { title: "Log in", bodyClass: "path-user" }, () => s.el("h1", undefined, "Log in"))) : missing;
    }
    if (MINISTRY_PAGES[path] !== undefined || path === "/newsletter/subscribe") return page((s) => ministryStaticPage(s, m, frame, path));
    return calendarRoute(path, q, agenda) ?? missing;
  }

  return {
    siteName: MINISTRY_SITE_NAME,
    trapPrefixes: ["/agenda"],
    disallow: ["/admin/", "/search", "/user/"],
    route,
    notFound: (s) => frame(s, { title: "Page not found", bodyClass: "path-404" }, () => s.el("h1", "page-title", "Page not found")),
  };
}
