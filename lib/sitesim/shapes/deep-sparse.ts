/**
 * Shape "deep-sparse": a documentation/archive site, depth 8+, mostly HTML. Targets
 * (< 3 % of URLs) sit on "dossier" pages, listed separately from ordinary child pages
 * and concentrated in two of the six sections; printable near-duplicates (`?print=1`)
 * and permalinks (`/node/<id>` → 301) add waste.
 */
import { breadcrumb, docEnd, docStart, footerColumns, linkList, socialLinks, accessibilityLinks, type Frame } from "../html-layout";
import { fileBytes } from "../formats";
import type { HtmlSink } from "../html-sink";
import { hash32, Rng } from "../random";
import type { Query, Resource, ShapeModel } from "../types";
import { parseId } from "./common";
import {
  buildDeepModel, dossierFiles, isDossier, nodeOf, nodePath, nodeTitle, SECTIONS, volumeFile, type DeepModel,
} from "./deep-sparse-model";

const SITE_NAME = "Documentation and Archives";
const missing: Resource = { kind: "missing" };

function deepFrame(m: DeepModel): Frame {
  return (s, meta, main, sidebar) => {
    docStart(s, SITE_NAME, meta);
    accessibilityLinks(s);
    s.open("header", "docs-header");
    s.siteA("/", SITE_NAME, "absolute", "docs-brand");
    s.open("nav", "docs-nav");
    linkList(s, SECTIONS.map((sec, k) => [nodeTitle(m, k + 1), `/${sec}`] as const), "docs-nav__list");
    s.close("nav");
    s.close("header");
    s.open("div", "docs-layout");
    if (sidebar) {
      s.open("nav", "docs-sidebar", "sidebar");
      sidebar();
      s.close("nav");
    }
    s.open("article", "doc", "doc");
    if (meta.crumbs) breadcrumb(s, meta.crumbs, meta.title, "breadcrumbs");
    main();
    s.close("article");
    s.close("div");
    s.open("footer", "docs-footer");
    footerColumns(s, [{ title: "About", links: [["About the archive", "/about"], ["Contact", "/contact"], ["Terms", "/terms"]] }], "docs-footer");
    socialLinks(s, "docs_archive", "docs-footer__social");
    s.close("footer");
    docEnd(s);
  };
}

function docPage(s: HtmlSink, m: DeepModel, frame: Frame, v: number, print: boolean): void {
  const r = new Rng(hash32(m.seed, 0xd0c, v));
  const crumbs: Array<[string, string]> = [];
  for (let a = m.parent[v]!; a >= 0; a = m.parent[a]!) crumbs.unshift([nodeTitle(m, a), nodePath(m, a)]);
  const children: number[] = [];
  const dossiers: number[] = [];
  for (let k = 0; k < m.childCount[v]!; k++) (isDossier(m, m.firstChild[v]! + k) ? dossiers : children).push(m.firstChild[v]! + k);
  const body = () => {
    s.el("h1", "doc-title", nodeTitle(m, v));
    for (let k = 0; k < 2 + (v % 3); k++) s.para(hash32(m.seed, 0xd0d, v, k), 90);
    const fig = r.float();
    if (fig < 0.03) s.a(`/assets/figures/${v}`, "Figure", "figure-link");
    else if (fig < 0.08) s.a(`/assets/figures/${v}.svg`, "Figure", "figure-link");
    const volume = volumeFile(m, v);
    if (volume) {
      s.open("div", "volume");
      s.a(volume.href, volume.label, "volume-link");
      s.close("div");
    }
    if (children.length) {
      s.open("section", "children");
      s.el("h2", undefined, "Contents");
      const listCls = m.section[v]! >= 0 ? `child-list ${SECTIONS[m.section[v]!]}-index` : "child-list";
      linkList(s, children.map((c) => [nodeTitle(m, c), nodePath(m, c)] as const), listCls, "child-item", "child-link");
      s.close("section");
    }
    if (dossiers.length) {
      s.open("section", "dossiers");
      s.el("h2", undefined, "Dossiers");
      linkList(s, dossiers.map((c) => [nodeTitle(m, c), nodePath(m, c)] as const), "dossier-list", "dossier-item", "dossier-link");
      s.close("section");
    }
    if (isDossier(m, v)) {
      s.open("section", "attachments", "attachments");
      s.el("h2", undefined, "Attachments");
      linkList(s, dossierFiles(m, v).map((f) => [f.label, f.href] as const), "attachment-list", "attachment-item", "attachment");
      s.close("section");
    }
    s.open("nav", "prev-next");
    const p = m.parent[v]!;
    if (p >= 0 && v > m.firstChild[p]!) s.a(nodePath(m, v - 1), "‹ Previous", "prev");
    if (p >= 0 && v < m.firstChild[p]! + m.childCount[p]! - 1) s.a(nodePath(m, v + 1), "Next ›", "next");
    s.close("nav");
    s.open("aside", "see-also");
    for (let k = 0; k < 2; k++) {
      const o = 1 + r.int(m.nodeCount - 1);
      const roll = r.float();
      if (roll < 0.005) s.a(`/node/${m.nodeCount + r.int(1000)}`, "Removed page", "see-also-link");
      else if (roll < 0.05) s.a(`/node/${o}`, nodeTitle(m, o), "see-also-link");
      else s.a(nodePath(m, o), nodeTitle(m, o), "see-also-link");
    }
    s.close("aside");
    if (!print && r.chance(0.2)) s.a(`${nodePath(m, v)}?print=1`, "Printable version", "print-version");
  };
  if (print) {
    docStart(s, SITE_NAME, { title: nodeTitle(m, v), bodyClass: "print" });
    s.open("div", "print-page");
    body();
    s.close("div");
    docEnd(s);
    return;
  }
  // Sections use their own template (body class, list classes), as real archives do:
  // the only structural hint a focused crawler gets that two sections hold the dossiers.
  const sec = m.section[v]! >= 0 ? SECTIONS[m.section[v]!] : "home";
  frame(s, { title: nodeTitle(m, v), bodyClass: `doc section-${sec}`, crumbs }, body, () => {
    const p = m.parent[v]!;
    if (p < 0) return;
    const sib: Array<[string, string]> = [];
    for (let k = 0; k < m.childCount[p]!; k++) sib.push([nodeTitle(m, m.firstChild[p]! + k), nodePath(m, m.firstChild[p]! + k)]);
    linkList(s, sib, "toc", "toc-item");
  });
}

export function buildDeepSparse(seed: number, n: number): ShapeModel {
  const m = buildDeepModel(seed, n);
  const frame = deepFrame(m);
  const page = (render: (s: HtmlSink) => void): Resource => ({ kind: "page", render });

  function route(path: string, q: Query): Resource {
    const parts = path.split("/");
    if (parts[1] === "node" && parts.length === 3) {
      const v = parseId(parts[2]);
      return v >= 1 && v < m.nodeCount ? { kind: "redirect", status: 301, location: nodePath(m, v) } : missing;
    }
    if (parts[1] === "attachments" && parts.length === 5) {
      const v = parseId(parts[2]);
      if (!(v >= 1 && v < m.nodeCount)) return missing;
      const k = parseId(parts[3]);
      const f = k === 0 ? volumeFile(m, v) : isDossier(m, v) ? dossierFiles(m, v)[k - 1] : undefined;
      return f && f.href === path ? { kind: "file", file: f.file } : missing;
    }
    if (parts[1] === "assets" && parts[2] === "figures" && parts.length === 4) {
      const [id, ext] = parts[3]!.split(".");
      const v = parseId(id);
      const fseed = hash32(seed, 0x1a6, v);
      if (!(v >= 1 && v < m.nodeCount) || (ext !== undefined && ext !== "svg")) return missing;
      return { kind: "file", file: { format: ext ? "png" : "gif", bytes: fileBytes("gif", fseed), seed: fseed } };
    }
    if (path === "/about" || path === "/contact" || path === "/terms") {
      return page((s) => frame(s, { title: path.slice(1), bodyClass: "static" }, () => s.para(hash32(seed, path.length), 100)));
    }
    const v = nodeOf(m, path);
    if (v < 0) return missing;
    const print = q.get("print") === "1";
    if (q.size > (print ? 1 : 0)) return missing;
    return page((s) => docPage(s, m, frame, v, print));
  }

  return {
    siteName: SITE_NAME,
    trapPrefixes: [],
    disallow: ["/admin/", "/search"],
    route,
    notFound: (s) => frame(s, { title: "Not found", bodyClass: "error" }, () => s.el("h1", undefined, "Not found")),
  };
}
