/**
 * Documentation site: builds the model. About `n / 3.6` (large sites) to `n / 7` (tiny ones)
 * pages per version tree (five English trees, a small French one, their downloads and
 * redirects make up the rest):
 * narrative sections grow with the square root of that, the API reference takes the
 * remainder, the example dataset catalogue grows linearly.
 */
import { hash32, Rng } from "../random";
import { addApi } from "./docs-build-api";
import { addNarrative, guideFigures } from "./docs-build-narrative";
import { buildTree, docName, ORD_COUNT, type Doc, type DocsModel, type DocVersion, type Download, type VersionTree } from "./docs-model";
import { PROJECTS } from "./docs-text";
import type { FormatName } from "../formats";

const MINORS = ["0.8", "0.9", "0.10", "0.11", "1.0", "1.1", "1.2", "1.3", "1.4", "1.5", "1.6", "1.7", "1.8", "1.9", "2.0", "2.1", "2.2"];
/** Ordinal of the first kept version whose docs carry the notes of a minor release. */
const minorOrd = (minor: string) => Math.max(0, MINORS.indexOf(minor) - MINORS.indexOf("1.8"));

/** Every release so far, oldest first (the development minor has only its .0). */
function releaseHistory(rng: Rng, firstYear: number): Array<{ version: string; ord: number; year: number }> {
  const out: Array<{ version: string; ord: number; year: number }> = [];
  MINORS.forEach((minor, k) => {
    const patches = minor === "2.2" ? 1 : 1 + rng.int(5);
    const year = Math.round(firstYear + ((2024 - firstYear) * k) / (MINORS.length - 1));
    for (let p = 0; p < patches; p++) out.push({ version: `${minor}.${p}`, ord: minorOrd(minor), year });
  });
  return out;
}

function hexHash(seed: number, id: number): string {
  let h = "";
  for (let k = 0; k < 4; k++) h += hash32(seed, 0xd0c, id, k).toString(16).padStart(8, "0");
  return h;
}

/** @param n approximate number of finite URLs wanted */
export function buildDocsModel(seed: number, n: number): DocsModel {
  const rng = new Rng(hash32(seed, 0xd0c5));
  const project = PROJECTS[rng.int(PROJECTS.length)]!;
  // Older versions share most of the narrative, so small sites have more URLs per page of a version.
  const pages = Math.max(30, Math.round(n / (3.45 + 64 / Math.sqrt(n))));
  const docs: Doc[] = [];
  const add = (parent: number, d: Omit<Doc, "parent" | "children" | "section">): number => {
    const id = docs.length;
    const section = parent < 0 ? -1 : parent === 0 ? id : docs[parent]!.section;
    docs.push({ ...d, parent, children: [], section });
    if (parent >= 0) docs[parent]!.children.push(id);
    return id;
  };
  const downloads: Download[] = [];
  const addDownload = (name: string, format: FormatName, since: number): number => {
    const id = downloads.length;
    downloads.push({ name, hash: hexHash(seed, id), format, since, seed: hash32(seed, 0xd1e, id) });
    return id;
  };

  add(-1, { kind: "root", name: "index", oldName: null, renamedAt: 0, since: 0, until: ORD_COUNT, title: `${project.title} documentation`, ref: -1 });
  const narrative = addNarrative(add, addDownload, rng, project, pages);
  const releases = releaseHistory(rng, project.since);
  const releaseCount = Math.min(releases.length, Math.max(3, Math.round(2 + Math.sqrt(pages) / 3)));
  // The general index, module index and search pages, and the split index's letters.
  const apiBudget = Math.max(8, pages - narrative.pageCount - releaseCount - (pages > 1500 ? 28 : 3));
  const { modules, objects } = addApi(add, rng, project, narrative.sections.reference, apiBudget);
  const kept = releases.slice(releases.length - releaseCount).reverse();
  const notes = kept.map((r, k) => ({
    ...r,
    doc: add(narrative.sections.whatsnew, { kind: "release", name: `whatsnew/v${r.version}`, oldName: null, renamedAt: 0, since: r.ord, until: ORD_COUNT, title: `What's new in ${r.version}`, ref: k }),
  }));

  // Each example calls a few functions and classes; their pages link back to it.
  const callable = objects.map((o, i) => (o.kind === "method" ? -1 : i)).filter((i) => i >= 0);
  const examplesUsing = new Map<number, number[]>();
  narrative.examples.forEach((e, k) => {
    for (let j = 0, n = 2 + rng.int(3); j < n; j++) {
      const o = callable[rng.int(callable.length)]!;
      if (e.uses.includes(o)) continue;
      e.uses.push(o);
      examplesUsing.set(o, [...(examplesUsing.get(o) ?? []), k]);
    }
  });
  const legacy: string[] = [];
  for (const d of docs) {
    if (d.oldName !== null) legacy.push(`/en/stable/${d.oldName}.html`);
    if (d.until === ORD_COUNT - 1 && (d.kind === "page" || d.kind === "module")) legacy.push(`/en/latest/${d.name}.html`);
  }
  for (const d of narrative.guidePages.slice(0, 4)) if (docs[d]!.since <= 1) legacy.push(`/en/stable/${docName(docs[d]!, 1)}/`);

  const indexOrder = Int32Array.from(objects.map((_, i) => i)).sort((a, b) => {
    const x = objects[a]!;
    const y = objects[b]!;
    return x.short.toLowerCase() < y.short.toLowerCase() ? -1 : x.short.toLowerCase() > y.short.toLowerCase() ? 1 : x.full < y.full ? -1 : x.full > y.full ? 1 : 0;
  });
  const images = new Map<string, number>();
  for (const e of narrative.examples) {
    images.set(`sphx_glr_${e.stem}_thumb.png`, hash32(seed, 0x7b, e.doc));
    for (let k = 1; k <= e.figures; k++) images.set(`sphx_glr_${e.stem}_${String(k).padStart(3, "0")}.png`, hash32(seed, 0x7c, e.doc, k));
  }
  for (const d of narrative.guidePages) {
    const stem = docs[d]!.name.split("/").pop()!;
    for (let k = 1; k <= guideFigures(seed, d); k++) images.set(`${stem}_${k}.png`, hash32(seed, 0x7d, d, k));
  }

  const last = (minor: string) => releases.filter((r) => r.version.startsWith(minor + ".")).at(-1)!.version;
  const model: DocsModel = {
    seed, project, docs, modules, objects, indexOrder,
    classIds: objects.flatMap((o, i) => (o.kind === "class" && modules[o.module]!.short !== "errors" ? [i] : [])), splitIndex: pages > 1500,
    downloads, downloadByHash: new Map(downloads.map((d, i) => [`${d.hash}/${d.name}`, i])),
    datasets: narrative.datasets, examples: narrative.examples, examplesUsing, releases: notes, legacy,
    datasetBundle: narrative.datasetBundle, galleryZips: narrative.galleryZips, notebooks: narrative.notebooks, images,
    versions: [],
  };
  const trees: VersionTree[] = Array.from({ length: ORD_COUNT }, (_, ord) => buildTree(model, ord, null));
  const frTree = buildTree(model, 4, new Set(narrative.translated));
  const dev = `2.2.0.dev0+${200 + rng.int(600)}.g${hash32(seed, 0xde7).toString(16).padStart(8, "0").slice(0, 7)}`;
  const v = (lang: "en" | "fr", slug: string, ord: number, rest: Omit<DocVersion, "lang" | "slug" | "ord" | "prefix" | "tree" | "pathCache">, tree = trees[ord]!): DocVersion =>
    ({ lang, slug, ord, prefix: `/${lang}/${slug}/`, tree, pathCache: [], ...rest });
  const pydata = { theme: "pydata", builder: "html", hidden: false, sources: false } as const;
  const rtd = { theme: "rtd", builder: "dirhtml", sources: true } as const;
  model.versions = [
    v("en", "latest", 4, { ...pydata, release: dev, formats: ["htmlzip", "epub"], banner: "dev" }),
    v("en", "stable", 3, { ...pydata, release: last("2.1"), formats: ["pdf", "htmlzip", "epub"], banner: null }),
    v("en", "v2.1", 3, { ...pydata, release: last("2.1"), formats: ["pdf", "htmlzip", "epub"], banner: null }),
    v("en", "v2.0", 2, { theme: "rtd", builder: "html", hidden: false, sources: false, release: last("2.0"), formats: ["pdf", "htmlzip", "epub"], banner: "old" }),
    v("en", "v1.9", 1, { ...rtd, hidden: false, release: last("1.9"), formats: ["pdf", "epub"], banner: "old" }),
    v("en", "v1.8", 0, { ...rtd, hidden: true, release: last("1.8"), formats: ["pdf", "epub"], banner: "old" }),
    v("fr", "latest", 4, { ...pydata, release: dev, formats: ["pdf", "epub"], banner: null }, frTree),
  ];
  return model;
}
