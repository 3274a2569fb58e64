/**
 * Research repository (DSpace/EPrints-like): the data model. Faculties (top-level
 * communities) hold departments (sub-communities) that hold collections of items.
 * Every object gets its handle number in creation order, collections and communities
 * interleaved with items, so `/handle/<prefix>/<n>` does not tell what `n` is.
 * Items, authors, subjects and every sort order the browse pages need are built once
 * into typed arrays.
 */
import { hash32, Rng } from "../random";
import { unevenSplit } from "./common";
import { FACULTIES, personName, researchTitle, type Faculty } from "./research-text";

/** Items per page of every list (recent submissions, scoped browse, value pages). */
export const ITEMS_PER_PAGE = 20;

export type ItemType = "thesis" | "article" | "conference" | "report" | "dataset" | "book" | "image";
export type CollectionKind = "doctoral" | "master" | "article" | "conference" | "report" | "dataset" | "book" | "photo" | "historic";

export const KINDS: Readonly<Record<CollectionKind, { name: string; type: ItemType; weight: number }>> = {
  doctoral: { name: "Doctoral theses", type: "thesis", weight: 1.2 },
  master: { name: "Master's dissertations", type: "thesis", weight: 0.8 },
  article: { name: "Journal articles", type: "article", weight: 1.6 },
  conference: { name: "Conference papers", type: "conference", weight: 0.7 },
  report: { name: "Working papers and reports", type: "report", weight: 0.6 },
  dataset: { name: "Research data", type: "dataset", weight: 1.1 },
  book: { name: "Books and book chapters", type: "book", weight: 0.4 },
  photo: { name: "Photographs", type: "image", weight: 0.6 },
  historic: { name: "Digitised theses", type: "thesis", weight: 0.8 },
};

const RESEARCH_KINDS: readonly CollectionKind[] = ["article", "doctoral", "dataset", "master", "report", "conference", "book"];
const ARCHIVE_KINDS: readonly CollectionKind[] = ["photo", "historic"];
const TYPE_CODES: readonly ItemType[] = ["thesis", "article", "conference", "report", "dataset", "book", "image"];

export interface Community {
  name: string;
  /** Parent community index; -1 for a top-level (faculty) community. */
  parent: number;
  subs: number[];
  colls: number[];
  handle: number;
  faculty: Faculty;
}

export interface Collection {
  name: string;
  kind: CollectionKind;
  community: number;
  handle: number;
}

/** An ordered list of items and the same items in the other orders the browse pages offer. */
export interface ItemLists {
  /** Accession order, newest first ("recent submissions"). */
  recent: Int32Array;
  /** Date issued, oldest first. */
  issued: Int32Array;
  /** Title, A to Z. */
  title: Int32Array;
}

/** Where a list or a browse index is: the whole repository, a community or a collection. */
export type Scope = { kind: "site" } | { kind: "community" | "collection"; index: number };

/** What a handle number resolves to. */
export type HandleRef = { kind: "community" | "collection" | "item"; index: number };

export interface RepoModel {
  seed: number;
  /** Handle prefix, e.g. "20.500.12345". */
  prefix: string;
  communities: Community[];
  collections: Collection[];
  /** Items 0..itemCount-1 in accession order (the newest is the last). */
  itemCount: number;
  itemColl: Uint16Array;
  itemHandle: Int32Array;
  itemType: Uint8Array;
  /** yyyymmdd; month and day 0 when only the year is known. */
  itemIssued: Int32Array;
  itemAccessioned: Int32Array;
  itemTitle: string[];
  /** Author indices of item i: authorList[authorStart[i] .. authorStart[i+1]). */
  authorStart: Int32Array;
  authorList: Int32Array;
  subjectStart: Int32Array;
  subjectList: Int32Array;
  authors: string[];
  subjects: string[];
  authorByName: Map<string, number>;
  subjectByName: Map<string, number>;
  /** Items of each author / subject, newest issued first. */
  authorItems: Int32Array[];
  subjectItems: Int32Array[];
  /** Authors / subjects that have items, in name order (the browse indexes). */
  authorOrder: Int32Array;
  subjectOrder: Int32Array;
  /** Per collection: its authors / subjects in name order (the collection's browse indexes). */
  collAuthors: Int32Array[];
  collSubjects: Int32Array[];
  /** Site-wide lists. */
  all: ItemLists;
  /** Per collection, and per community (every item below it). */
  collLists: ItemLists[];
  commLists: ItemLists[];
  /** Handle numbers no object has (deleted and withdrawn items): stale links answer 404. */
  gaps: Int32Array;
  /** handle - handleBase → kind (2 bits) and index; -1 when unused. */
  handleBase: number;
  handleTable: Int32Array;
}

/** Path of a community, collection or item page. */
export function handleHref(m: RepoModel, handle: number): string {
  return `/handle/${m.prefix}/${handle}`;
}

export function itemHref(m: RepoModel, i: number): string {
  return `/handle/${m.prefix}/${m.itemHandle[i]}`;
}

export function itemType(m: RepoModel, i: number): ItemType {
  return TYPE_CODES[m.itemType[i]!]!;
}

export function handleOf(m: RepoModel, ref: HandleRef): number {
  return ref.kind === "item" ? m.itemHandle[ref.index]! : ref.kind === "collection" ? m.collections[ref.index]!.handle : m.communities[ref.index]!.handle;
}

export function lookupHandle(m: RepoModel, n: number): HandleRef | null {
  const code = n >= m.handleBase ? m.handleTable[n - m.handleBase] : undefined;
  if (code === undefined || code < 0) return null;
  const kind = code & 3;
  return { kind: kind === 0 ? "community" : kind === 1 ? "collection" : "item", index: code >> 2 };
}

export function scopeLists(m: RepoModel, scope: Scope): ItemLists {
  return scope.kind === "site" ? m.all : scope.kind === "collection" ? m.collLists[scope.index]! : m.commLists[scope.index]!;
}

export function scopeName(m: RepoModel, scope: Scope, siteName: string): string {
  return scope.kind === "site" ? siteName : scope.kind === "collection" ? m.collections[scope.index]!.name : m.communities[scope.index]!.name;
}

/** Path of the scope's page ("/" for the site). */
export function scopeHref(m: RepoModel, scope: Scope): string {
  if (scope.kind === "site") return "/";
  return handleHref(m, scope.kind === "collection" ? m.collections[scope.index]!.handle : m.communities[scope.index]!.handle);
}

/** Community chain from the top-level community down to `c`. */
export function communityPath(m: RepoModel, c: number): number[] {
  const out: number[] = [];
  for (let k = c; k >= 0; k = m.communities[k]!.parent) out.unshift(k);
  return out;
}

export function authorsOf(m: RepoModel, i: number): Int32Array {
  return m.authorList.subarray(m.authorStart[i]!, m.authorStart[i + 1]!);
}

export function subjectsOf(m: RepoModel, i: number): Int32Array {
  return m.subjectList.subarray(m.subjectStart[i]!, m.subjectStart[i + 1]!);
}

/** "2019-05-12", or "2019" when only the year is known. */
export function formatDate(d: number): string {
  const y = Math.floor(d / 10000);
  const md = d % 10000;
  return md === 0 ? String(y) : `${y}-${String(Math.floor(md / 100)).padStart(2, "0")}-${String(md % 100).padStart(2, "0")}`;
}

function sortedBy(ids: ArrayLike<number>, before: (a: number, b: number) => number): Int32Array {
  return Int32Array.from(ids).sort(before);
}

function lists(recent: Int32Array, byIssued: (a: number, b: number) => number, byTitle: (a: number, b: number) => number): ItemLists {
  return { recent, issued: sortedBy(recent, byIssued), title: sortedBy(recent, byTitle) };
}

/** @param n approximate number of finite URLs wanted */
export function buildRepoModel(seed: number, n: number): RepoModel {
  const rng = new Rng(hash32(seed, 0x4e9));
  // About 12 finite URLs per item (item, full record, statistics, exports, files, listings) plus a fixed part.
  const itemCount = Math.max(12, Math.round((n - 80) / 12));
  const facultyCount = Math.min(FACULTIES.length, Math.max(3, Math.round(Math.log2(n / 100))));
  const order = Array.from({ length: FACULTIES.length }, (_, i) => i);
  for (let i = order.length - 1; i > 0; i--) {
    const j = rng.int(i + 1);
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  // The archives are a fixture of established university repositories (small sizes up), not of young ones.
  const archive = order.indexOf(FACULTIES.findIndex((f) => f.archive));
  if (n >= 1000 && archive >= facultyCount) [order[facultyCount - 1], order[archive]] = [order[archive]!, order[facultyCount - 1]!];
  if (n < 1000 && archive < facultyCount) [order[archive], order[facultyCount]] = [order[facultyCount]!, order[archive]!];
  const faculties = order.slice(0, facultyCount).map((i) => FACULTIES[i]!);

  // Communities: faculties, then departments; collections hang off the leaves.
  const collTarget = Math.min(400, Math.max(3, Math.round(0.9 * Math.sqrt(itemCount)) + 1));
  // Tiny repositories have no departments; larger ones about 2.5 collections per department.
  const leafTarget = n < 1000 ? facultyCount : Math.max(facultyCount + 1, Math.round(collTarget / 2.5));
  const deptCounts = unevenSplit(rng, leafTarget, facultyCount);
  const communities: Community[] = [];
  const leaves: number[] = [];
  faculties.forEach((f, fi) => {
    const top = communities.length;
    communities.push({ name: f.name, parent: -1, subs: [], colls: [], handle: 0, faculty: f });
    const d = Math.min(f.depts.length, deptCounts[fi]!);
    if (d <= 1) leaves.push(top);
    else {
      for (let k = 0; k < d; k++) {
        communities[top]!.subs.push(communities.length);
        leaves.push(communities.length);
        communities.push({ name: f.depts[k]!, parent: top, subs: [], colls: [], handle: 0, faculty: f });
      }
    }
  });
  const collections: Collection[] = [];
  const perLeaf = unevenSplit(rng, Math.max(collTarget, leaves.length), leaves.length);
  let researchLeaves = 0;
  leaves.forEach((c, li) => {
    const archive = communities[c]!.faculty.archive === true;
    const kinds = archive ? ARCHIVE_KINDS : RESEARCH_KINDS;
    // Departments lead with articles, theses or data in turn, so every repository has all three.
    const first = archive ? 0 : researchLeaves++ % 3;
    for (let k = 0; k < Math.min(kinds.length, perLeaf[li]!); k++) {
      const kind = kinds[(first + k) % kinds.length]!;
      communities[c]!.colls.push(collections.length);
      collections.push({ name: KINDS[kind].name, kind, community: c, handle: 0 });
    }
  });

  // Items: collection drawn by weight (uneven sizes), accession dates 2008–2024 in order.
  const weights = collections.map((c) => KINDS[c.kind].weight * Math.exp(rng.float() * Math.log(5)));
  const cumulative: number[] = [];
  weights.reduce((sum, w) => (cumulative.push(sum + w), sum + w), 0);
  const totalWeight = cumulative[cumulative.length - 1]!;
  const itemColl = new Uint16Array(itemCount);
  const itemType = new Uint8Array(itemCount);
  const itemIssued = new Int32Array(itemCount);
  const itemAccessioned = new Int32Array(itemCount);
  const itemTitle: string[] = [];
  const facultyOf = (i: number) => communities[collections[itemColl[i]!]!.community]!.faculty;
  for (let i = 0; i < itemCount; i++) {
    const x = rng.float() * totalWeight;
    let c = 0;
    while (cumulative[c]! <= x) c++;
    itemColl[i] = c;
    const kind = collections[c]!.kind;
    const type = KINDS[kind].type;
    itemType[i] = TYPE_CODES.indexOf(type);
    const day = Math.floor(((i + rng.float()) / itemCount) * 17 * 336);
    const accYear = 2008 + Math.floor(day / 336);
    itemAccessioned[i] = accYear * 10000 + (1 + Math.floor((day % 336) / 28)) * 100 + 1 + (day % 28);
    const r = new Rng(hash32(seed, 0x155, i));
    const year =
      kind === "historic" ? 1925 + r.int(75)
      : kind === "photo" ? 1890 + r.int(90)
      : type === "article" || type === "book" || type === "conference" ? accYear - r.int(4)
      : accYear - (r.chance(0.3) ? 1 : 0);
    itemIssued[i] = year * 10000 + (r.chance(0.3) || year < 2000 ? 0 : (1 + r.int(12)) * 100 + 1 + r.int(28));
    itemTitle.push(researchTitle(hash32(seed, 0x717, i), facultyOf(i).topics, type === "thesis" ? "thesis" : type === "dataset" ? "dataset" : type === "image" ? "image" : "article"));
  }

  // Authors: each department has a pool; staff publish a lot, students write the theses, a few co-authors come from elsewhere.
  const authors: string[] = [];
  const nameSet = new Set<string>();
  const newAuthor = () => {
    for (let tries = 0; ; tries++) {
      const name = personName(rng, tries > 0 || rng.chance(0.2));
      if (nameSet.has(name)) continue;
      nameSet.add(name);
      authors.push(name);
      return authors.length - 1;
    }
  };
  const itemsPerLeaf = new Int32Array(communities.length);
  for (let i = 0; i < itemCount; i++) itemsPerLeaf[collections[itemColl[i]!]!.community]!++;
  const pools = Array.from(itemsPerLeaf, (n) => ({
    staff: Array.from({ length: n > 0 ? Math.max(2, Math.round(n * 0.15)) : 0 }, newAuthor),
    students: Array.from({ length: n > 0 ? Math.max(2, Math.round(n * 0.25)) : 0 }, newAuthor),
  }));
  const allStaff = pools.flatMap((p) => p.staff);
  const authorStart = new Int32Array(itemCount + 1);
  const authorList: number[] = [];
  const subjects: string[] = [...new Set(faculties.flatMap((f) => f.topics))];
  const subjectIndex = new Map(subjects.map((s, k) => [s, k]));
  const subjectStart = new Int32Array(itemCount + 1);
  const subjectList: number[] = [];
  for (let i = 0; i < itemCount; i++) {
    const r = new Rng(hash32(seed, 0xa07, i));
    const type = TYPE_CODES[itemType[i]!]!;
    const f = facultyOf(i);
    const pool = pools[collections[itemColl[i]!]!.community]!;
    const want =
      type === "thesis" || type === "image" ? 1
      : type === "article" ? 1 + r.int(4)
      : type === "book" ? 1 + r.int(2)
      : 1 + r.int(3);
    const mine: number[] = [];
    if (type === "thesis") mine.push(r.pick(pool.students));
    else if (type !== "image" || r.chance(0.4)) {
      for (let k = 0; k < want; k++) {
        const a = r.chance(0.9) ? pool.staff[Math.floor(pool.staff.length * Math.pow(r.float(), 1.6))]! : r.pick(allStaff);
        if (!mine.includes(a)) mine.push(a);
      }
    }
    authorList.push(...mine);
    authorStart[i + 1] = authorList.length;
    const subs: number[] = [];
    for (let k = 0, ns = 1 + r.int(4); k < ns; k++) {
      const topics = r.chance(0.9) ? f.topics : r.pick(faculties).topics;
      const s = subjectIndex.get(topics[Math.floor(topics.length * Math.pow(r.float(), 1.4))]!)!;
      if (!subs.includes(s)) subs.push(s);
    }
    subjectList.push(...subs);
    subjectStart[i + 1] = subjectList.length;
  }

  // Handles in creation order. Structure comes mostly early, some of it along the way, but a
  // collection always exists before its first item and a community before what it holds.
  const collAt = collections.map(() => Math.floor(itemCount * Math.pow(rng.float(), 2.5)));
  for (let i = itemCount - 1; i >= 0; i--) collAt[itemColl[i]!] = Math.min(collAt[itemColl[i]!]!, i);
  const commAt = communities.map((c) => (c.parent < 0 && rng.chance(0.5) ? 0 : Math.floor(itemCount * Math.pow(rng.float(), 3))));
  for (let c = communities.length - 1; c >= 0; c--) {
    const comm = communities[c]!;
    for (const k of comm.colls) commAt[c] = Math.min(commAt[c]!, collAt[k]!);
    for (const k of comm.subs) commAt[c] = Math.min(commAt[c]!, commAt[k]!);
  }
  const created = [
    ...commAt.map((at, k) => ({ at, code: (k << 2) | 0 })),
    ...collAt.map((at, k) => ({ at, code: (k << 2) | 1 })),
  ];
  created.sort((a, b) => a.at - b.at);
  const handleBase = 1 + rng.int(60);
  const codes: number[] = [];
  let next = handleBase;
  const gaps: number[] = [];
  const assign = (code: number) => {
    while (codes.length < next - handleBase) {
      gaps.push(handleBase + codes.length);
      codes.push(-1);
    }
    codes.push(code);
    next += 1 + (rng.chance(0.12) ? 1 + rng.int(4) : 0);
  };
  const itemHandle = new Int32Array(itemCount);
  let ci = 0;
  for (let i = 0; i <= itemCount; i++) {
    while (ci < created.length && created[ci]!.at <= i) {
      const { code } = created[ci++]!;
      const obj = (code & 3) === 0 ? communities[code >> 2]! : collections[code >> 2]!;
      obj.handle = next;
      assign(code);
    }
    if (i < itemCount) {
      itemHandle[i] = next;
      assign((i << 2) | 2);
    }
  }

  // Posting lists and sort orders.
  const byIssued = (a: number, b: number) => itemIssued[a]! - itemIssued[b]! || a - b;
  const lower = itemTitle.map((t) => t.toLowerCase());
  const byTitle = (a: number, b: number) => (lower[a]! < lower[b]! ? -1 : lower[a]! > lower[b]! ? 1 : a - b);
  const postings = (start: Int32Array, list: number[], size: number): Int32Array[] => {
    const out: number[][] = Array.from({ length: size }, () => []);
    for (let i = 0; i < itemCount; i++) for (let k = start[i]!; k < start[i + 1]!; k++) out[list[k]!]!.push(i);
    return out.map((ids) => sortedBy(ids, (a, b) => byIssued(b, a)));
  };
  const authorItems = postings(authorStart, authorList, authors.length);
  const subjectItems = postings(subjectStart, subjectList, subjects.length);
  const nameOrder = (names: string[], items: Int32Array[]) =>
    Int32Array.from(names.map((_, k) => k).filter((k) => items[k]!.length > 0).sort((a, b) => (names[a]! < names[b]! ? -1 : names[a]! > names[b]! ? 1 : 0)));
  const authorOrder = nameOrder(authors, authorItems);
  const subjectOrder = nameOrder(subjects, subjectItems);
  /** Per collection, the values (authors or subjects) its items carry, in the order of `ordered`. */
  const perCollection = (start: Int32Array, list: number[], ordered: Int32Array, size: number): Int32Array[] => {
    const rank = new Int32Array(size);
    ordered.forEach((v, k) => (rank[v] = k));
    const sets: Array<Set<number>> = collections.map(() => new Set());
    for (let i = 0; i < itemCount; i++) for (let k = start[i]!; k < start[i + 1]!; k++) sets[itemColl[i]!]!.add(list[k]!);
    return sets.map((set) => Int32Array.from(set).sort((a, b) => rank[a]! - rank[b]!));
  };
  const newestFirst = (ids: number[]) => Int32Array.from(ids.reverse());
  const perColl: number[][] = collections.map(() => []);
  const perComm: number[][] = communities.map(() => []);
  for (let i = 0; i < itemCount; i++) {
    perColl[itemColl[i]!]!.push(i);
    for (let c = collections[itemColl[i]!]!.community; c >= 0; c = communities[c]!.parent) perComm[c]!.push(i);
  }
  const all = Int32Array.from({ length: itemCount }, (_, k) => itemCount - 1 - k);
  return {
    seed,
    prefix: `20.500.${11800 + (hash32(seed, 0x4d1) % 1000)}`,
    communities, collections, itemCount, itemColl, itemHandle, itemType, itemIssued, itemAccessioned, itemTitle,
    authorStart, authorList: Int32Array.from(authorList), subjectStart, subjectList: Int32Array.from(subjectList),
    authors, subjects, authorItems, subjectItems,
    authorByName: new Map(authors.map((a, k) => [a, k])),
    subjectByName: new Map(subjects.map((a, k) => [a, k])),
    authorOrder, subjectOrder,
    collAuthors: perCollection(authorStart, authorList, authorOrder, authors.length),
    collSubjects: perCollection(subjectStart, subjectList, subjectOrder, subjects.length),
    all: lists(all, byIssued, byTitle),
    collLists: perColl.map((ids) => lists(newestFirst(ids), byIssued, byTitle)),
    commLists: perComm.map((ids) => lists(newestFirst(ids), byIssued, byTitle)),
    gaps: Int32Array.from(gaps),
    handleBase,
    handleTable: Int32Array.from(codes),
  };
}
