/**
 * The git side of a forge repository: files and folders (the union of every path the
 * history ever held), commits (the default branch in order, then feature-branch commits
 * off it), and per commit a snapshot of which revision of each file is there. A file's
 * revision is the commit that last added or modified it: the same revision seen at
 * later commits, branches or tags has the same bytes. Also the calendar (minutes since
 * 2016-01-01 UTC, "now" fixed at 2024-05-20 12:00) and SHA-1-looking hashes.
 */
import type { FormatName } from "../formats";
import { hash32 } from "../random";

export type FileKind = "data" | "source" | "doc" | "image";

export interface GitFile {
  path: string;
  name: string;
  /** Parent folder (index into dirs). */
  dir: number;
  format: FormatName;
  kind: FileKind;
  /** Text files have blame and a highlighted view. */
  text: boolean;
  /** Stored with Git LFS: the file view's Raw button goes to `/media/`. */
  lfs: boolean;
  seed: number;
}

export interface GitDir {
  /** "" for the root. */
  path: string;
  name: string;
  parent: number;
  childDirs: number[];
  childFiles: number[];
}

export type ChangeOp = "A" | "M" | "D";

export interface GitCommit {
  sha: string;
  /** -1 for the root commit. */
  parent: number;
  /** Minutes since 2016-01-01 UTC. */
  time: number;
  /** Owner index of the author (a user). */
  author: number;
  message: string;
  changes: Array<{ file: number; op: ChangeOp }>;
  /** Feature branch number (0: the default branch). */
  branch: number;
}

export interface GitContent {
  seed: number;
  files: GitFile[];
  dirs: GitDir[];
  fileByPath: Map<string, number>;
  dirByPath: Map<string, number>;
  commits: GitCommit[];
  /** commits[0 .. mainCount) are the default branch, oldest first. */
  mainCount: number;
  /** Per commit, per file: the commit index of the file's revision there, or -1 when absent. */
  snap: Int32Array[];
  shaIndex: Map<string, number>;
  /** Per commit (lazily): 1 where a folder holds at least one file. */
  dirMasks: Array<Uint8Array | undefined>;
}

const TEXT_FORMATS: ReadonlySet<FormatName> = new Set<FormatName>(["csv", "json", "xml", "txt", "md", "py", "rscript", "js", "css", "yaml", "toml", "sql", "ipynb"]);

export function isTextFormat(f: FormatName): boolean {
  return TEXT_FORMATS.has(f);
}

/** A 40-hex-digit hash (commit ids, archive signatures). */
export function sha40(a: number, b: number, c: number): string {
  let s = "";
  for (let k = 0; k < 5; k++) s += hash32(a, b, c, k + 1).toString(16).padStart(8, "0");
  return s;
}

/** Incremental construction of a repository's content (used by the templates). */
export class ContentBuilder {
  readonly files: GitFile[] = [];
  readonly dirs: GitDir[] = [{ path: "", name: "", parent: -1, childDirs: [], childFiles: [] }];
  readonly fileByPath = new Map<string, number>();
  readonly dirByPath = new Map<string, number>([["", 0]]);
  readonly steps: Array<{ message: string; changes: Array<{ file: number; op: ChangeOp }>; branch: number; base: number }> = [];

  constructor(readonly seed: number) {}

  private dir(path: string): number {
    const known = this.dirByPath.get(path);
    if (known !== undefined) return known;
    const slash = path.lastIndexOf("/");
    const parent = this.dir(slash < 0 ? "" : path.slice(0, slash));
    const i = this.dirs.length;
    this.dirs.push({ path, name: path.slice(slash + 1), parent, childDirs: [], childFiles: [] });
    this.dirs[parent]!.childDirs.push(i);
    this.dirByPath.set(path, i);
    return i;
  }

  /** Declares a path (once); returns its index. */
  file(path: string, format: FormatName, kind: FileKind, lfs = false): number {
    const known = this.fileByPath.get(path);
    if (known !== undefined) return known;
    const slash = path.lastIndexOf("/");
    const i = this.files.length;
    const dir = this.dir(slash < 0 ? "" : path.slice(0, slash));
    this.files.push({ path, name: path.slice(slash + 1), dir, format, kind, text: isTextFormat(format), lfs, seed: hash32(this.seed, 0xf11e, i) });
    this.dirs[dir]!.childFiles.push(i);
    this.fileByPath.set(path, i);
    return i;
  }

  /** A commit on the default branch (branch 0) or on feature branch `branch` (forked from main step `base`). */
  commit(message: string, changes: Array<[number, ChangeOp]>, branch = 0, base = -1): number {
    this.steps.push({ message, changes: changes.map(([file, op]) => ({ file, op })), branch, base });
    return this.steps.length - 1;
  }
}

/**
 * Freezes a builder: orders commits (main first), computes snapshots and hashes.
 * `times[k]` and `authors[k]` are given per step; branch steps must come after their base.
 */
export function finishContent(b: ContentBuilder, times: readonly number[], authors: readonly number[]): { content: GitContent; stepToCommit: number[] } {
  const mainSteps = b.steps.map((s, k) => (s.branch === 0 ? k : -1)).filter((k) => k >= 0);
  const branchSteps = b.steps.map((s, k) => (s.branch !== 0 ? k : -1)).filter((k) => k >= 0);
  const order = [...mainSteps, ...branchSteps];
  const stepToCommit = new Array<number>(b.steps.length).fill(-1);
  order.forEach((k, c) => (stepToCommit[k] = c));
  const lastOfBranch = new Map<number, number>();
  const commits: GitCommit[] = order.map((k, c) => {
    const s = b.steps[k]!;
    let parent: number;
    if (s.branch === 0) parent = c - 1;
    else parent = lastOfBranch.get(s.branch) ?? stepToCommit[s.base]!;
    if (s.branch !== 0) lastOfBranch.set(s.branch, c);
    return { sha: sha40(b.seed, 0xc0, c), parent, time: times[k]!, author: authors[k]!, message: s.message, changes: s.changes, branch: s.branch };
  });
  const snap: Int32Array[] = [];
  commits.forEach((cm, c) => {
    const row = cm.parent < 0 ? new Int32Array(b.files.length).fill(-1) : new Int32Array(snap[cm.parent]!);
    for (const ch of cm.changes) row[ch.file] = ch.op === "D" ? -1 : c;
    snap.push(row);
  });
  for (const d of b.dirs) {
    d.childDirs.sort((x, y) => (b.dirs[x]!.name < b.dirs[y]!.name ? -1 : 1));
    d.childFiles.sort((x, y) => (b.files[x]!.name < b.files[y]!.name ? -1 : 1));
  }
  const content: GitContent = {
    seed: b.seed, files: b.files, dirs: b.dirs, fileByPath: b.fileByPath, dirByPath: b.dirByPath, commits,
    mainCount: mainSteps.length, snap, shaIndex: new Map(commits.map((cm, c) => [cm.sha, c])), dirMasks: [],
  };
  return { content, stepToCommit };
}

/** 1 for each folder holding a file at commit `c`. */
export function dirMask(g: GitContent, c: number): Uint8Array {
  let m = g.dirMasks[c];
  if (m) return m;
  m = new Uint8Array(g.dirs.length);
  const row = g.snap[c]!;
  for (let f = 0; f < g.files.length; f++) {
    if (row[f]! < 0) continue;
    for (let d = g.files[f]!.dir; d >= 0 && m[d] === 0; d = g.dirs[d]!.parent) m[d] = 1;
  }
  g.dirMasks[c] = m;
  return m;
}

/** Commit indices from `c` back to the root, newest first. */
export function ancestors(g: GitContent, c: number): number[] {
  const out: number[] = [];
  for (let k = c; k >= 0; k = g.commits[k]!.parent) out.push(k);
  return out;
}

/** True when commit `k` touches `path` (a file, or anything under a folder; "" is everything). */
export function touches(g: GitContent, k: number, path: string, isDir: boolean): boolean {
  if (path === "") return true;
  for (const ch of g.commits[k]!.changes) {
    const p = g.files[ch.file]!.path;
    if (isDir ? p.startsWith(path + "/") : p === path) return true;
  }
  return false;
}

/** History of a path at commit `c`, newest first. */
export function pathHistory(g: GitContent, c: number, path: string, isDir: boolean): number[] {
  return ancestors(g, c).filter((k) => touches(g, k, path, isDir));
}

/** The newest commit (at `c`) that changed a file under folder `d`. */
export function lastDirCommit(g: GitContent, c: number, d: number): number {
  const row = g.snap[c]!;
  const prefix = g.dirs[d]!.path;
  let best = -1;
  for (let f = 0; f < g.files.length; f++) {
    const rev = row[f]!;
    if (rev < 0 || (prefix !== "" && !g.files[f]!.path.startsWith(prefix + "/"))) continue;
    if (best < 0 || g.commits[rev]!.time > g.commits[best]!.time) best = rev;
  }
  return best;
}

// ---- calendar ----

const MIN_PER_DAY = 1440;

function daysFromCivil(y: number, m: number, d: number): number {
  const yy = m <= 2 ? y - 1 : y;
  const era = Math.floor(yy / 400);
  const yoe = yy - era * 400;
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

function civilFromDays(z0: number): [number, number, number] {
  const z = z0 + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp + (mp < 10 ? 3 : -9);
  return [yoe + era * 400 + (m <= 2 ? 1 : 0), m, d];
}

const EPOCH_DAY = daysFromCivil(2016, 1, 1);

/** Minutes since the epoch of a calendar date. */
export function minuteOf(y: number, m: number, d: number): number {
  return (daysFromCivil(y, m, d) - EPOCH_DAY) * MIN_PER_DAY;
}

/** "Now" on the simulated instance: every relative time is computed from it. */
export const NOW = minuteOf(2024, 5, 20) + 12 * 60;

export function yearOf(minute: number): number {
  return civilFromDays(EPOCH_DAY + Math.floor(minute / MIN_PER_DAY))[0];
}

/** "2023-03-01T10:04:00Z". */
export function isoTime(minute: number): string {
  const [y, m, d] = civilFromDays(EPOCH_DAY + Math.floor(minute / MIN_PER_DAY));
  const p = (x: number) => String(x).padStart(2, "0");
  const t = ((minute % MIN_PER_DAY) + MIN_PER_DAY) % MIN_PER_DAY;
  return `${y}-${p(m)}-${p(d)}T${p(Math.floor(t / 60))}:${p(t % 60)}:00Z`;
}

/** Gitea's fallback text inside `<relative-time>`: "3 months ago". */
export function timeSince(minute: number): string {
  const diff = Math.max(0, NOW - minute);
  const units: Array<[number, string]> = [[525_600, "year"], [43_200, "month"], [10_080, "week"], [1440, "day"], [60, "hour"], [1, "minute"]];
  for (const [size, name] of units) {
    const n = Math.floor(diff / size);
    if (n >= 1) return `${n} ${name}${n > 1 ? "s" : ""} ago`;
  }
  return "just now";
}
