/**
 * Documentation site (Sphinx on Read the Docs): the data model. One master list of
 * documents spans every version; each document exists from a version ordinal `since`
 * up to `until` (exclusive) and may have been renamed at `renamedAt`. A version's
 * toctree is the master tree filtered to what existed in it, walked depth-first
 * (Sphinx's previous / next order). `stable` and `v2.1` are the same build.
 */
import type { FormatName } from "../formats";
import type { Project } from "./docs-text";

/** Version ordinals: 0 = v1.8 (hidden), 1 = v1.9, 2 = v2.0, 3 = v2.1 (= stable), 4 = latest (dev). */
export const ORD_COUNT = 5;
/** First ordinal with one page per API object (autosummary), the gallery, how-to guides and datasets. */
export const AUTOSUMMARY_ORD = 2;

export type DocKind =
  | "root" | "section" | "page" | "tutorial" | "howto" | "gallery" | "example" | "dataset" | "module" | "function" | "class" | "method" | "release";

export interface Doc {
  kind: DocKind;
  /** Docname (path without extension) from `renamedAt` on. */
  name: string;
  /** Docname before `renamedAt`; null when never renamed. */
  oldName: string | null;
  renamedAt: number;
  since: number;
  until: number;
  title: string;
  /** Toctree parent; -1 for the root document. */
  parent: number;
  children: number[];
  /** Top-level section document (itself for a section); -1 for the root. */
  section: number;
  /** Index in the kind's own table (API object, module, dataset, example, release, tutorial); -1 otherwise. */
  ref: number;
}

export interface ApiModule {
  short: string;
  /** Dotted name, e.g. "tabula.io". */
  full: string;
  title: string;
  since: number;
  until: number;
  doc: number;
}

export interface ApiObject {
  kind: "function" | "class" | "method";
  module: number;
  /** Class of a method; -1 otherwise. */
  owner: number;
  short: string;
  full: string;
  since: number;
  until: number;
  /** Its page (versions from AUTOSUMMARY_ORD on). */
  doc: number;
}

/** A file Sphinx copies to `_downloads/<hash>/<name>` (the hash is the md5 of its source path). */
export interface Download {
  name: string;
  hash: string;
  format: FormatName;
  since: number;
  seed: number;
}

export interface Dataset {
  stem: string;
  title: string;
  /** Download ids of its files (the CSV first). */
  files: number[];
  doc: number;
}

export interface Example {
  stem: string;
  group: number;
  /** Downloads of the script (.py) and the notebook (.ipynb). */
  py: number;
  ipynb: number;
  /** Figures it produces (`sphx_glr_<stem>_001.png`…). */
  figures: number;
  /** API objects its code calls (their pages list it under "Examples using…"). */
  uses: number[];
  doc: number;
}

export interface Release {
  /** "2.1.3". */
  version: string;
  /** Ordinal of the first version whose docs include its notes. */
  ord: number;
  year: number;
  doc: number;
}

export interface DocVersion {
  lang: "en" | "fr";
  slug: string;
  ord: number;
  /** Full release string shown in the header ("2.1.3", "2.2.0.dev0+412.g5f1c2ab"). */
  release: string;
  theme: "pydata" | "rtd";
  builder: "html" | "dirhtml";
  /** Hidden on Read the Docs: not in the version menu, disallowed in robots.txt. */
  hidden: boolean;
  /** The theme links "View page source" (`_sources/<doc>.rst.txt`), and the build copies them. */
  sources: boolean;
  /** Offline formats Read the Docs built. */
  formats: ReadonlyArray<"pdf" | "htmlzip" | "epub">;
  /** Warning banner: development version, or outdated version. */
  banner: "dev" | "old" | null;
  /** "/en/stable/". */
  prefix: string;
  tree: VersionTree;
  /** Paths of documents, built on first use (reused strings keep ground truth's set lookups cheap). */
  pathCache: Array<string | undefined>;
}

export interface VersionTree {
  ord: number;
  /** Document ids in toctree (depth-first) order. */
  order: Int32Array;
  /** Position of each master document in `order`; -1 when absent from this version. */
  pos: Int32Array;
  byName: Map<string, number>;
  /** Children lists already filtered to this version (see `childrenIn`). */
  kids: Map<number, number[]>;
}

export interface DocsModel {
  seed: number;
  project: Project;
  docs: Doc[];
  modules: ApiModule[];
  objects: ApiObject[];
  /** Ids of the classes (parameter and return types). */
  classIds: number[];
  /** Object ids sorted by short name (the general index order). */
  indexOrder: Int32Array;
  /** Sphinx `html_split_index`: one general index page per letter. */
  splitIndex: boolean;
  downloads: Download[];
  downloadByHash: Map<string, number>;
  datasets: Dataset[];
  examples: Example[];
  /** Examples using each API object (sphinx-gallery backreferences). */
  examplesUsing: Map<number, number[]>;
  releases: Release[];
  /**
   * Hand-written absolute links found in older pages: renamed pages' old names and
   * dirhtml-era addresses on stable (redirected), pages removed from latest (404).
   */
  legacy: string[];
  /** Bundle of every example dataset, linked from the offline page; -1 when none. */
  datasetBundle: number;
  /** Gallery "download all" archives (Python sources, notebooks). */
  galleryZips: readonly [number, number];
  /** Notebook download of each tutorial doc (doc id → download id). */
  notebooks: Map<number, number>;
  /** Gallery images by file name → seed. */
  images: Map<string, number>;
  versions: DocVersion[];
}

export function docName(d: Doc, ord: number): string {
  return ord >= d.renamedAt || d.oldName === null ? d.name : d.oldName;
}

export function docExists(d: Doc, ord: number): boolean {
  return d.since <= ord && ord < d.until;
}

/** Children of a document in a version's toctree (cached: sidebars ask for them on every page). */
export function childrenIn(m: DocsModel, t: VersionTree, d: number): number[] {
  let kids = t.kids.get(d);
  if (!kids) t.kids.set(d, (kids = m.docs[d]!.children.filter((c) => t.pos[c]! >= 0)));
  return kids;
}

/** Filters the master tree to version `ord` (and to `sections` for a partial translation). */
export function buildTree(m: Pick<DocsModel, "docs">, ord: number, sections: ReadonlySet<number> | null): VersionTree {
  const pos = new Int32Array(m.docs.length).fill(-1);
  const order: number[] = [];
  const byName = new Map<string, number>();
  const walk = (d: number) => {
    const doc = m.docs[d]!;
    if (!docExists(doc, ord)) return;
    if (sections !== null && doc.section >= 0 && !sections.has(doc.section)) return;
    pos[d] = order.length;
    order.push(d);
    const name = docName(doc, ord);
    if (byName.has(name)) throw new Error(`documentation-site: two documents named ${name}`);
    byName.set(name, d);
    for (const c of doc.children) walk(c);
  };
  walk(0);
  return { ord, order: Int32Array.from(order), pos, byName, kids: new Map() };
}

/** A download is present in a version's `_downloads` from its `since` on. */
export function downloadIn(m: DocsModel, id: number, ord: number): boolean {
  return id >= 0 && m.downloads[id]!.since <= ord;
}

/** The object exists in version `ord`. */
export function objectIn(m: DocsModel, id: number, ord: number): boolean {
  const o = m.objects[id]!;
  return o.since <= ord && ord < o.until;
}
