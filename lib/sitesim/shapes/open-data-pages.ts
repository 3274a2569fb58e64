/** Open data portal pages: home, dataset, resource, organisations, reuses, posts. */
import { linkList, numberedPager, type Frame } from "../html-layout";
import type { HtmlSink } from "../html-sink";
import { hash32, Rng } from "../random";
import { headline, humanBytes } from "../text";
import { pageCount } from "./common";
import { OPEN_DATA_PAGES } from "./open-data-layout";
import { listingHref } from "./open-data-listing";
import {
  datasetSlug, datasetTags, datasetTitle, DATASETS_PER_PAGE, resources, type OdResource, type OpenDataModel,
} from "./open-data-model";

const dsHref = (m: OpenDataModel, id: number) => `/datasets/${datasetSlug(m, id)}`;

export function odHome(s: HtmlSink, m: OpenDataModel, frame: Frame): void {
  frame(s, { title: "Home", bodyClass: "home" }, () => {
    s.el("h1", undefined, "Open data for everyone");
    s.open("section", "featured-datasets");
    s.el("h2", undefined, "Featured datasets");
    linkList(s, [0, 1, 2, 3, 4, 5].map((k) => 1 + ((k * 7919) % m.datasetCount)).map((id) => [datasetTitle(m, id), dsHref(m, id)] as const), "card-list", "card");
    s.a("/datasets", "See all datasets", "btn btn-primary");
    s.close("section");
    s.open("section", "latest-reuses");
    s.el("h2", undefined, "Latest reuses");
    linkList(s, [0, 1, 2, 3].map((k) => m.reuseCount - k).filter((id) => id >= 1).map((id) => [headline(hash32(m.seed, 0x4e0, id)), `/reuses/${id}`] as const), "card-list", "card");
    s.close("section");
    s.open("section", "home-orgs");
    linkList(s, m.orgs.slice(0, 6).map((o) => [o.name, `/organizations/${o.slug}`] as const), "org-list");
    s.close("section");
  });
}

function resourceLink(s: HtmlSink, r: OdResource, cls: string): void {
  s.a(r.href, "Download", cls, `data-format="${r.format}"`);
}

export function datasetPage(s: HtmlSink, m: OpenDataModel, frame: Frame, id: number): void {
  const org = m.orgs[m.dsOrg[id - 1]!]!;
  const slug = datasetSlug(m, id);
  frame(s, { title: datasetTitle(m, id), bodyClass: "dataset-read", crumbs: [["Home", "/"], ["Datasets", "/datasets"]] }, () => {
    s.open("article", "module prose dataset", "dataset", `data-id="${id}"`);
    s.el("h1", "heading", datasetTitle(m, id));
    s.para(hash32(m.seed, 0x0e5, id), 60, "notes");
    s.open("section", "resources", "resources");
    s.el("h2", undefined, "Data and resources");
    s.open("ul", "resource-list");
    for (const r of resources(m, id)) {
      s.open("li", "resource-item");
      s.a(`/datasets/${slug}/resources/${r.rid}`, r.title, "heading");
      s.el("span", "format-label", r.format);
      s.el("span", "size", humanBytes(r.file.bytes));
      s.open("div", "dropdown btn-group");
      s.open("ul", "dropdown-menu");
      s.open("li");
      resourceLink(s, r, "resource-url-analytics");
      s.close("li");
      s.close("ul");
      s.close("div");
      s.close("li");
    }
    s.close("ul");
    s.close("section");
    s.open("section", "tags");
    for (const t of datasetTags(m.seed, id, m.tags.length)) s.a(`/datasets?tag=${m.tags[t]!.slug}`, m.tags[t]!.name, "tag");
    s.close("section");
    s.close("article");
  }, () => {
    s.open("section", "module module-narrow org-info");
    s.a(`/organizations/${org.slug}`, org.name, "org-link");
    s.close("section");
    s.open("section", "module module-narrow metadata");
    s.a(`/api/1/datasets/${slug}/`, "API (JSON)", "api-link");
    s.a(`/datasets/${slug}.rdf`, "RDF", "rdf-link");
    s.close("section");
  });
}

export function resourcePage(s: HtmlSink, m: OpenDataModel, frame: Frame, id: number, r: OdResource): void {
  const slug = datasetSlug(m, id);
  frame(s, { title: r.title, bodyClass: "resource-read", crumbs: [["Home", "/"], ["Datasets", "/datasets"], [datasetTitle(m, id), `/datasets/${slug}`]] }, () => {
    s.open("section", "module module-resource");
    s.el("h1", "page-heading", r.title);
    s.open("p", "resource-actions");
    resourceLink(s, r, "btn btn-primary resource-url-analytics");
    s.close("p");
    if (r.format === "csv" && r.rid % 2 === 0) s.a(`/api/3/action/datastore_search?resource_id=${r.rid}`, "Data API", "btn btn-secondary datastore-link");
    s.para(r.file.seed, 40);
    s.close("section");
  });
}

export function orgsIndex(s: HtmlSink, m: OpenDataModel, frame: Frame, page: number): void {
  const pages = pageCount(m.orgs.length, DATASETS_PER_PAGE);
  frame(s, { title: "Organizations", bodyClass: "organization-index", crumbs: [["Home", "/"]] }, () => {
    s.el("h1", undefined, "Organizations");
    const slice = m.orgs.slice((page - 1) * DATASETS_PER_PAGE, page * DATASETS_PER_PAGE);
    linkList(s, slice.map((o) => [o.name, `/organizations/${o.slug}`] as const), "organization-list", "organization-item");
    numberedPager(s, page, pages, (p) => `/organizations?page=${p}`);
  });
}

export function orgPage(s: HtmlSink, m: OpenDataModel, frame: Frame, o: number, page: number): void {
  const org = m.orgs[o]!;
  const ids = m.byOrg[o]!;
  const pages = pageCount(ids.length, DATASETS_PER_PAGE);
  frame(s, { title: org.name, bodyClass: "organization-read", crumbs: [["Home", "/"], ["Organizations", "/organizations"]] }, () => {
    s.el("h1", undefined, org.name);
    s.para(hash32(m.seed, 0x0a9, o), 40);
    s.open("ul", "dataset-list list-unstyled");
    for (let k = (page - 1) * DATASETS_PER_PAGE; k < Math.min(ids.length, page * DATASETS_PER_PAGE); k++) {
      s.open("li", "dataset-item");
      s.a(dsHref(m, ids[k]!), datasetTitle(m, ids[k]!), "dataset-heading");
      s.close("li");
    }
    s.close("ul");
    numberedPager(s, page, pages, (p) => `/organizations/${org.slug}?page=${p}`);
    s.a(listingHref(m, [["organization", o]]), "Search this organization's datasets", "more");
  });
}

export function reusesIndex(s: HtmlSink, m: OpenDataModel, frame: Frame, page: number): void {
  const pages = pageCount(m.reuseCount, DATASETS_PER_PAGE);
  frame(s, { title: "Reuses", bodyClass: "reuse-index", crumbs: [["Home", "/"]] }, () => {
    s.el("h1", undefined, "Reuses");
    const items: Array<[string, string]> = [];
    for (let k = (page - 1) * DATASETS_PER_PAGE; k < Math.min(m.reuseCount, page * DATASETS_PER_PAGE); k++) {
      const id = m.reuseCount - k;
      items.push([headline(hash32(m.seed, 0x4e0, id)), `/reuses/${id}`]);
    }
    linkList(s, items, "reuse-list", "reuse-item");
    numberedPager(s, page, pages, (p) => `/reuses?page=${p}`);
  });
}

export function reusePage(s: HtmlSink, m: OpenDataModel, frame: Frame, id: number): void {
  const r = new Rng(hash32(m.seed, 0x4e1, id));
  frame(s, { title: headline(hash32(m.seed, 0x4e0, id)), bodyClass: "reuse-read", crumbs: [["Home", "/"], ["Reuses", "/reuses"]] }, () => {
    s.el("h1", undefined, headline(hash32(m.seed, 0x4e0, id)));
    if (r.chance(0.6)) s.a(`/images/reuses/${id}`, "Screenshot", "reuse-image");
    s.para(hash32(m.seed, 0x4e2, id), 50);
    s.a(`https://reuse-${id}.example.org/`, "Visit the reuse", "btn btn-primary");
    s.open("ul", "reuse-datasets");
    for (let k = 0, n = 1 + r.int(3); k < n; k++) {
      const ds = 1 + r.int(m.datasetCount);
      s.open("li");
      // A few reuses point at datasets that were deleted since: 404.
      if (r.chance(0.04)) s.a(`/datasets/removed-dataset-${ds}`, "Deleted dataset");
      else s.a(dsHref(m, ds), datasetTitle(m, ds));
      s.close("li");
    }
    s.close("ul");
  });
}

export function postPage(s: HtmlSink, m: OpenDataModel, frame: Frame, id: number | null): void {
  const title = id === null ? "News" : headline(hash32(m.seed, 0x905, id));
  frame(s, { title, bodyClass: "post", crumbs: [["Home", "/"]] }, () => {
    s.el("h1", undefined, title);
    if (id === null) {
      const items: Array<[string, string]> = [];
      for (let p = m.postCount; p >= 1; p--) items.push([headline(hash32(m.seed, 0x905, p)), `/posts/${p}`]);
      linkList(s, items, "post-list");
      return;
    }
    s.para(hash32(m.seed, 0x906, id), 120);
    const r = new Rng(hash32(m.seed, 0x907, id));
    for (let k = 0; k < 3; k++) {
      const ds = 1 + r.int(m.datasetCount);
      s.a(dsHref(m, ds), datasetTitle(m, ds), "inline-dataset");
    }
  });
}

export function odStaticPage(s: HtmlSink, m: OpenDataModel, frame: Frame, path: string): void {
  const title = OPEN_DATA_PAGES[path] ?? "English";
  frame(s, { title, bodyClass: "page", crumbs: [["Home", "/"]] }, () => {
    s.el("h1", undefined, title);
    for (let k = 0; k < 3; k++) s.para(hash32(m.seed, path.length, k), 80);
  });
}
