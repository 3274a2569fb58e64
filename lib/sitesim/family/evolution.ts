/**
 * A family site in versions, for re-crawls. Version 1 is exactly the site the seed draws; version
 * k + 1 is drawn from the seed and k (lib/sitesim/random only): new items with their files, listed
 * where the seed places them (first, last, or in a new section); a file added to some old items;
 * revised files (same URL, new bytes); removed files and items (404 or 410); moved item pages
 * (301 to the new address). Whether the site prints "updated <date>" on what changed is the seed's
 * `marksChanges`. `changes(from, to)` is the ground truth a re-crawl is judged on.
 */
import { hash32, Rng } from "../random";
import { buildSite, siteFromModel, type SimulatedSite } from "../site";
import { sizeToUrlCount } from "../sizes";
import { familyApplication } from "./applications";
import {
  directFilePath, downloadPagePath, drawnFileCount, fileIndexes, fileLinkPath, itemExists, itemPath,
} from "./addresses";
import type { EvolvedFile, EvolvedItem } from "./evolved-site";
import { evolvedModel } from "./evolved-model";
import { drawEvolutionParams, type EvolutionParams } from "./evolution-params";
import { buildFamilyModel } from "./model";
import { drawFamilyParams, familySiteSize, SECTION_WORDS, type FamilyParams, type SectionParams } from "./params";

/** Versions a site can be asked for (a year of monthly versions and more). */
export const MAX_FAMILY_VERSION = 24;
/** File indexes fit in 3 bits of a file's opaque id (`fileId`). */
const MAX_FILE_INDEX = 7;

/** The files of two versions compared, by target URL (path + query): what a re-crawl should find. */
export interface FamilyChanges {
  new: string[];
  /** The new files that appeared on items already there in `from` (a file added to an old item: what a marker-less site hides). */
  newOnOldItems: string[];
  changed: string[];
  unchanged: string[];
  gone: string[];
  /** Item pages moved between the two versions: old address → new one. */
  moved: { from: string; to: string }[];
}

interface WorkingItem extends EvolvedItem {
  files: Map<number, EvolvedFile>;
  /** Highest file index ever used (a removed file's URL is never reused). */
  maxIndex: number;
}

interface VersionState {
  params: FamilyParams;
  /** The items of `params.evolved`, with what evolving them further needs. */
  items: readonly Map<number, WorkingItem>[];
  /** Cumulative: every moved page's first address → its current one. */
  moved: Map<string, string>;
  /** Cumulative: addresses of removed pages and files. */
  gone: Set<string>;
}

/** A family site's versions; cheap to make, each version built on first use and kept. */
export class FamilyEvolution {
  readonly seed: number;
  readonly size: number;
  readonly evolution: EvolutionParams;
  private readonly states: VersionState[] = [];
  private readonly sites = new Map<number, SimulatedSite>();

  constructor(seed: number, size: number = familySiteSize(seed)) {
    if (!Number.isInteger(seed)) throw new RangeError(`family seed must be an integer, got ${seed}`);
    const application = familyApplication(seed);
    if (application) throw new RangeError(`family seed ${seed} is a ${application.shape} site; only the family's own sites (seeds below 10001) evolve`);
    this.seed = seed >>> 0;
    this.size = size;
    this.evolution = drawEvolutionParams(seed);
    // As buildSite sizes version 1, so that the two always draw the same site.
    const first = drawFamilyParams(seed, sizeToUrlCount(size));
    this.states.push({ params: first, items: first.sections.map(() => new Map()), moved: new Map(), gone: new Set() });
  }

  get marksChanges(): boolean {
    return this.evolution.marksChanges;
  }

  /** The parameters of version `version` (version 1: `drawFamilyParams`' own object). */
  paramsAt(version: number): FamilyParams {
    return this.state(version).params;
  }

  /** Version `version` of the site. */
  site(version: number): SimulatedSite {
    let site = this.sites.get(version);
    if (!site) {
      const state = this.state(version);
      const spec = { shape: "family" as const, seed: this.seed, size: this.size };
      site = version === 1
        ? buildSite(spec)
        : siteFromModel(spec, evolvedModel(buildFamilyModel(state.params), { moved: state.moved, gone: state.gone, goneStatus: this.evolution.goneStatus }));
      this.sites.set(version, site);
    }
    return site;
  }

  /** Every target file of a version by URL (path + query), with its revision and the version that last changed it. */
  files(version: number): Map<string, EvolvedFile> {
    return new Map([...this.filesOfItems(version)].map(([url, { file }]) => [url, file]));
  }

  private filesOfItems(version: number): Map<string, { file: EvolvedFile; section: number; n: number }> {
    const p = this.paramsAt(version);
    const out = new Map<string, { file: EvolvedFile; section: number; n: number }>();
    p.sections.forEach((sec, section) => {
      for (let n = 1; n <= sec.items; n++) {
        const evolved = p.evolved?.items[section]?.get(n);
        for (const k of fileIndexes(p, section, n)) out.set(targetUrl(p, section, n, k), { file: evolved?.files.get(k) ?? { revision: 1, since: 1 }, section, n });
      }
    });
    return out;
  }

  /** What changed between two versions (`from` < `to`), as a re-crawl that had every file of `from` should report it. */
  changes(from: number, to: number): FamilyChanges {
    if (!(from < to)) throw new RangeError(`changes(from, to) needs from < to, got ${from} and ${to}`);
    const before = this.files(from);
    const after = this.filesOfItems(to);
    const fromParams = this.paramsAt(from);
    const existedInFrom = (section: number, n: number) => section < fromParams.sections.length && itemExists(fromParams, section, n);
    const result: FamilyChanges = { new: [], newOnOldItems: [], changed: [], unchanged: [], gone: [], moved: [] };
    for (const [url, { file, section, n }] of after) {
      const old = before.get(url);
      if (!old) {
        result.new.push(url);
        if (existedInFrom(section, n)) result.newOnOldItems.push(url);
      } else if (old.revision !== file.revision) result.changed.push(url);
      else result.unchanged.push(url);
    }
    for (const url of before.keys()) if (!after.has(url)) result.gone.push(url);
    const movedBefore = this.state(from).moved;
    const removed = this.state(to).gone;
    for (const [first, now] of this.state(to).moved) {
      if (movedBefore.get(first) !== now && !removed.has(now)) result.moved.push({ from: movedBefore.get(first) ?? first, to: now });
    }
    for (const list of [result.new, result.newOnOldItems, result.changed, result.unchanged, result.gone]) list.sort();
    return result;
  }

  private state(version: number): VersionState {
    if (!Number.isInteger(version) || version < 1 || version > MAX_FAMILY_VERSION) {
      throw new RangeError(`a family site's version must be an integer from 1 to ${MAX_FAMILY_VERSION}, got ${version}`);
    }
    while (this.states.length < version) this.states.push(evolve(this.states.at(-1)!, this.states.length + 1, this.evolution, this.states[0]!.params));
    return this.states[version - 1]!;
  }
}

/** The URL a crawler stores file k of item n under (after the section's redirect, if any). */
function targetUrl(p: FamilyParams, section: number, n: number, k: number): string {
  return p.sections[section]!.fileLink === "extensionless" ? fileLinkPath(p, section, n, k) : directFilePath(p, section, n, k);
}

/** Every address that served file k of item n (its link: a redirect, view page or the file; the file itself). */
function fileAddresses(p: FamilyParams, section: number, n: number, k: number): string[] {
  return [...new Set([fileLinkPath(p, section, n, k), directFilePath(p, section, n, k)])];
}

/** Whole items up to `share × count`, the fraction by chance. */
function roundByChance(rng: Rng, x: number): number {
  const whole = Math.floor(x);
  return whole + (rng.float() < x - whole ? 1 : 0);
}

/** Version `version` drawn from the previous one. */
function evolve(previous: VersionState, version: number, e: EvolutionParams, first: FamilyParams): VersionState {
  const rng = new Rng(hash32(e.seed, 0xe701, version));
  const prev = previous.params;
  const sections: SectionParams[] = prev.sections.map((s) => ({ ...s }));
  const items = previous.items.map((section) => new Map([...section].map(([n, item]): [number, WorkingItem] => [n, { ...item, files: new Map(item.files) }])));
  const stableItems = prev.evolved ? [...prev.evolved.stableItems] : first.sections.map((s) => s.items);
  const newFirst = prev.sections.map(() => e.placement === "first");
  const moved = new Map(previous.moved);
  const gone = new Set(previous.gone);
  const currentPath = (section: number, n: number) => {
    const path = itemPath(prev, section, n);
    return moved.get(path) ?? path;
  };

  /** Item n as it stands, made explicit (its version 1 files when it never changed) so it can change. */
  const touch = (section: number, n: number): WorkingItem => {
    let item = items[section]!.get(n);
    if (!item) {
      const count = drawnFileCount(first, section, n);
      const files = new Map(Array.from({ length: count }, (_, i) => [i + 1, { revision: 1, since: 1 }] as const));
      item = { removed: false, files, updatedIn: 1, maxIndex: count };
      items[section]!.set(n, item);
    }
    return item;
  };
  const alive = (section: number) => {
    const out: number[] = [];
    for (let n = 1; n <= sections[section]!.items; n++) if (items[section]!.get(n)?.removed !== true) out.push(n);
    return out;
  };
  const filesOf = (section: number, n: number) => fileIndexes(prev, section, n);

  for (let section = 0; section < sections.length; section++) {
    const sec = sections[section]!;
    for (const n of alive(section)) {
      // Revised files: same URL, next revision.
      for (const k of filesOf(section, n)) {
        if (!rng.chance(e.revisedShare)) continue;
        const item = touch(section, n);
        const file = item.files.get(k)!;
        item.files.set(k, { revision: file.revision + 1, since: version });
        item.updatedIn = version;
      }
      // A file added to an old item that holds files.
      const indexes = filesOf(section, n);
      if (indexes.length > 0 && rng.chance(e.addedShare)) {
        const item = touch(section, n);
        if (item.maxIndex < MAX_FILE_INDEX) {
          item.maxIndex += 1;
          item.files.set(item.maxIndex, { revision: 1, since: version });
          item.updatedIn = version;
        }
      }
      // Removed: one file of an item holding several, or the whole item.
      if (rng.chance(e.removedShare)) {
        const item = touch(section, n);
        const ks = [...item.files.keys()];
        if (ks.length >= 2 && rng.chance(0.5)) {
          const k = ks[rng.int(ks.length)]!;
          item.files.delete(k);
          item.updatedIn = version;
          for (const address of fileAddresses(prev, section, n, k)) gone.add(address);
        } else {
          item.removed = true;
          item.updatedIn = version;
          for (const k of ks) for (const address of fileAddresses(prev, section, n, k)) gone.add(address);
          if (sec.depth !== 1) gone.add(currentPath(section, n));
          if (sec.fileLink === "download-page" && ks.length > 0) gone.add(downloadPagePath(prev, section, n));
        }
        continue;
      }
      // Moved: an item page gets a new address (once).
      const path = itemPath(prev, section, n);
      if (sec.depth !== 1 && !moved.has(path) && rng.chance(e.movedShare)) moved.set(path, movedPath(sec, path));
    }
  }

  // New items, with their files when the section holds files.
  const newItem = (section: number): number => {
    const sec = sections[section]!;
    sec.items += 1;
    const n = sec.items;
    const count = sec.fileShare > 0 && rng.chance(sec.fileShare) ? 1 + rng.int(sec.maxFilesPerItem) : 0;
    const files = new Map(Array.from({ length: count }, (_, i) => [i + 1, { revision: 1, since: version }] as const));
    items[section]!.set(n, { removed: false, files, updatedIn: version, maxIndex: count });
    return n;
  };
  const added: { section: number; n: number }[] = [];
  if (e.placement === "new-section") {
    const total = Math.max(1, roundByChance(rng, e.newShare * sections.reduce((sum, _, s) => sum + alive(s).length, 0)));
    const sources = sections.map((s, i) => (s.fileShare > 0 ? i : -1)).filter((i) => i >= 0);
    const source = sections[sources.length ? rng.pick(sources) : 0]!;
    const used = new Set(sections.map((s) => s.slug));
    const word = SECTION_WORDS.find((w) => !used.has(w)) ?? `updates-${version}`;
    sections.push({
      ...source,
      slug: word,
      title: word.charAt(0).toUpperCase() + word.slice(1),
      pagination: source.pagination === "calendar" ? "numbered" : source.pagination,
      items: 0,
    });
    const section = sections.length - 1;
    items.push(new Map());
    stableItems.push(total);
    newFirst.push(true);
    for (let i = 0; i < total; i++) added.push({ section, n: newItem(section) });
  } else {
    for (let section = 0; section < prev.sections.length; section++) {
      const count = roundByChance(rng, e.newShare * alive(section).length);
      for (let i = 0; i < count; i++) added.push({ section, n: newItem(section) });
    }
  }
  // A version always publishes at least one new file, so a re-crawl's recall is defined.
  if (!added.some(({ section, n }) => items[section]!.get(n)!.files.size > 0)) {
    const withFiles = sections.map((s, i) => (s.fileShare > 0 ? i : -1)).filter((i) => i >= 0);
    const target = added.find(({ section }) => sections[section]!.fileShare > 0) ?? { section: withFiles[0] ?? 0, n: newItem(withFiles[0] ?? 0) };
    const item = items[target.section]!.get(target.n)!;
    item.files.set(1, { revision: 1, since: version });
    item.maxIndex = 1;
  }

  const params: FamilyParams = {
    ...first,
    sections,
    evolved: { version, marksChanges: e.marksChanges, firstSections: first.sections.length, stableItems, items, newFirst },
  };
  return { params, items, moved, gone };
}

/** A moved item page's new address: `/<section>/archive/…` (the item's own part unchanged). */
function movedPath(sec: SectionParams, path: string): string {
  return `/${sec.slug}/archive${path.slice(sec.slug.length + 1)}`;
}
