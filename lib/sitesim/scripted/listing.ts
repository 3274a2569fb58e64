/**
 * `scripted-listing`: a plain-HTML home page linking a few sections; every other page is a shell.
 * A section's listing (`/<section>/`, `/<section>/?page=N`) renders, from
 * `/api/listing?section=S&page=N`, links to its publications and a numbered pager; a publication
 * (`/publication/<id>`) renders its file links from `/api/publication/<id>`. No HTML holds the URL
 * of a publication or a file.
 */
import { hash32, Rng } from "../random";
import { headline } from "../text";
import type { Query, Resource } from "../types";
import { LISTING_JS, PUBLICATION_JS } from "./scripts";
import { catalogueFile, drawSections, fileRecord, homePage, json, notFound, routeFile, script, scriptedModel, shellPage, type CatalogueFile, type ScriptedModel, type ShellLook } from "./page-parts";

const PER_PAGE = 5;
const SITE_NAME = "Regional Statistics Board";
const LOOK: ShellLook = { root: `<div id="app"></div>`, noscript: "This site needs JavaScript. Please enable it to see the publications." };

interface Publication {
  id: number;
  title: string;
  section: string;
  files: CatalogueFile[];
}

export function buildScriptedListing(seed: number): ScriptedModel {
  const rng = new Rng(hash32(seed, 0x11571));
  const sections = drawSections(seed, 0x5ec7, rng.range(3, 4)).map((s) => ({ ...s, publications: [] as Publication[] }));
  const byId = new Map<number, Publication>();
  let nextId = 100 + rng.int(800);
  for (const section of sections) {
    const count = rng.range(9, 16);
    for (let i = 0; i < count; i++) {
      const id = nextId++;
      const files = Array.from({ length: rng.range(1, 3) }, (_, k) => catalogueFile(seed, section.slug, id, k));
      const publication = { id, title: headline(hash32(seed, 0x9b1, id)), section: section.slug, files };
      section.publications.push(publication);
      byId.set(id, publication);
    }
  }
  const pagesOf = (n: number) => Math.max(1, Math.ceil(n / PER_PAGE));
  const sectionOf = (slug: string | undefined) => sections.find((s) => s.slug === slug);

  function listingData(slug: string | undefined, page: number) {
    const section = sectionOf(slug);
    if (!section || !(page >= 1 && page <= pagesOf(section.publications.length))) return null;
    const pages = pagesOf(section.publications.length);
    const items = section.publications.slice((page - 1) * PER_PAGE, page * PER_PAGE).map((p) => ({
      id: p.id, title: p.title, url: `/publication/${p.id}`, files: p.files.map(fileRecord),
    }));
    const next = page < pages ? `/api/listing?section=${section.slug}&page=${page + 1}` : null;
    return { section: section.slug, title: section.name, page, pages, items, next };
  }

  function route(path: string, query: Query, rendered: boolean): Resource {
    if (path === "/" && query.size === 0) {
      return homePage(SITE_NAME, "Publications of the board, by section.", sections.map((s) => ({ href: `/${s.slug}/`, label: s.name })));
    }
    if (path === "/static/listing.js") return script(LISTING_JS);
    if (path === "/static/publication.js") return script(PUBLICATION_JS);
    if (path === "/api/listing") {
      const data = listingData(query.get("section"), query.int("page", 1));
      return data ? json(data) : { kind: "json", status: 404, contentType: "application/json; charset=utf-8", body: () => ({ error: "no such section or page" }) };
    }
    const api = /^\/api\/publication\/([0-9]+)$/.exec(path);
    if (api) {
      const p = byId.get(Number(api[1]));
      return p ? json({ id: p.id, title: p.title, section: p.section, files: p.files.map(fileRecord) }) : { kind: "json", status: 404, contentType: "application/json; charset=utf-8", body: () => ({ error: "no such publication" }) };
    }
    const pub = /^\/publication\/([1-9][0-9]*)$/.exec(path);
    if (pub && query.size === 0) {
      const p = byId.get(Number(pub[1]));
      if (!p) return { kind: "missing" };
      return shellPage(p.title, SITE_NAME, LOOK, "/static/publication.js", () => p.files.map((f) => f.path), rendered);
    }
    const listing = /^\/([a-z0-9-]+)\/$/.exec(path);
    if (listing && (query.size === 0 || (query.size === 1 && query.get("page") !== undefined))) {
      const page = query.int("page", 1);
      const data = listingData(listing[1], page);
      if (!data) return { kind: "missing" };
      const links = () => [...data.items.map((i) => i.url), ...Array.from({ length: data.pages }, (_, n) => n + 1).filter((n) => n !== page).map((n) => `?page=${n}`)];
      return shellPage(data.title, SITE_NAME, LOOK, "/static/listing.js", links, rendered);
    }
    return routeFile(path, (group, n, k) => (byId.get(n)?.section === group ? byId.get(n)!.files[k] : undefined));
  }

  return scriptedModel(SITE_NAME, notFound, route);
}
