/**
 * Deep documentation archive: a random tree (depth 8+) generated breadth-first into
 * typed arrays, so 40 000 nodes cost a few hundred KB and paths resolve by walking
 * down from the root.
 */
import { fileBytes, type FormatName } from "../formats";
import { hash32, Rng } from "../random";
import { slugify, topicPhrase } from "../text";
import type { FileRef } from "../types";

export interface DeepModel {
  seed: number;
  nodeCount: number;
  parent: Int32Array;
  firstChild: Int32Array;
  childCount: Uint16Array;
  depth: Uint8Array;
  /** Index (0–5) of the top-level section a node belongs to; -1 for the root. */
  section: Int8Array;
  maxDepth: number;
  /** 1 for dossier nodes, 2 for index nodes carrying a "full volume" PDF, else 0. */
  dossier: Uint8Array;
  /** Lazily filled: paths are rebuilt for every link otherwise. */
  pathCache: Array<string | undefined>;
}

export const SECTIONS = ["reports", "proceedings", "guides", "reference", "history", "projects"];
/** Sections where dossiers (the only pages with targets) concentrate. */
const RICH_SECTIONS = new Set([0, 1]);

/** Branching factor b with 1 + 6 (1 + b + … + b^(D-2)) ≈ nodes. */
function branching(nodes: number, maxDepth: number): number {
  let lo = 1.01;
  let hi = 6;
  for (let i = 0; i < 50; i++) {
    const b = (lo + hi) / 2;
    let sum = 0;
    for (let d = 0; d <= maxDepth - 1; d++) sum += Math.pow(b, d);
    if (1 + 6 * sum > nodes) hi = b;
    else lo = b;
  }
  return lo;
}

export function buildDeepModel(seed: number, n: number): DeepModel {
  const nodeCount = Math.max(60, Math.round(n * 0.85));
  const maxDepth = Math.max(9, Math.round(7 + Math.log10(n)));
  const b = branching(nodeCount, maxDepth);
  const rng = new Rng(hash32(seed, 0xdee));
  const parent = new Int32Array(nodeCount).fill(-1);
  const firstChild = new Int32Array(nodeCount).fill(-1);
  const childCount = new Uint16Array(nodeCount);
  const depth = new Uint8Array(nodeCount);
  const section = new Int8Array(nodeCount).fill(-1);
  let next = 1;
  for (let v = 0; v < next && next < nodeCount; v++) {
    if (depth[v]! >= maxDepth) continue;
    let c: number;
    if (v === 0) c = SECTIONS.length;
    else {
      c = Math.floor(b + rng.float());
      const roll = rng.float();
      if (depth[v]! > 1 && roll < 0.1) c = 0;
      else if (roll < 0.2) c *= 2;
    }
    c = Math.min(c, nodeCount - next);
    if (c === 0) continue;
    firstChild[v] = next;
    childCount[v] = c;
    for (let k = 0; k < c; k++, next++) {
      parent[next] = v;
      depth[next] = depth[v]! + 1;
      section[next] = v === 0 ? k : section[v]!;
    }
  }
  let deepest = 0;
  for (let v = 0; v < next; v++) if (depth[v]! > depth[deepest]!) deepest = v;
    // Exact quotas rather than per-node coins: tiny sites must still get a few targets and
  // stay under 3 % of URLs. Dossiers (flag 1) average 2 files, volumes (flag 2) one PDF:
  // targets ≈ 2 % of URLs. 90 % of dossiers and every volume sit in the rich sections.
  const dossier = new Uint8Array(next);
  const quota = Math.max(2, Math.round(0.008 * next));
  const rich: number[] = [];
  const poor: number[] = [];
  const richIndex: number[] = [];
  for (let v = 0; v < next; v++) {
    if (depth[v]! >= 4) (RICH_SECTIONS.has(section[v]!) ? rich : poor).push(v);
    if (depth[v]! >= 3 && childCount[v]! > 0 && RICH_SECTIONS.has(section[v]!)) richIndex.push(v);
  }
  const choose = (pool: number[], count: number, flag: number) => {
    let chosen = 0;
    for (let i = 0; chosen < count && i < pool.length; i++) {
      const j = i + rng.int(pool.length - i);
      [pool[i], pool[j]] = [pool[j]!, pool[i]!];
      if (dossier[pool[i]!] === 0) {
        dossier[pool[i]!] = flag;
        chosen++;
      }
    }
  };
  const fromPoor = Math.floor(quota / 10);
  choose(rich, quota - fromPoor, 1);
  choose(poor, fromPoor, 1);
  choose(richIndex, Math.round(0.005 * next), 2);
  return { seed, nodeCount: next, parent, firstChild, childCount, depth, section, maxDepth: depth[deepest]!, dossier, pathCache: [] };
}

/**
 * URL segment of node v: a noun plus the node id. The id makes every segment of a path
 * distinct, so no URL trips the kit's "same segment 3+ times" trap filter, and keeps
 * depth-12 URLs well under its root + 350 characters length limit.
 */
export function nodeSlug(m: DeepModel, v: number): string {
  return `${slugify(topicPhrase(hash32(m.seed, 0x51, v))).split("-").pop()}-${v}`;
}

export function nodeTitle(m: DeepModel, v: number): string {
  return v === 0 ? "Archive" : topicPhrase(hash32(m.seed, 0x51, v));
}

export function nodePath(m: DeepModel, v: number): string {
  const cached = m.pathCache[v];
  if (cached !== undefined) return cached;
  const p = v === 0 ? "/" : m.parent[v] === 0 ? `/${SECTIONS[m.section[v]!]}` : `${nodePath(m, m.parent[v]!)}/${nodeSlug(m, v)}`;
  m.pathCache[v] = p;
  return p;
}

/** Node id of a path, or -1. */
export function nodeOf(m: DeepModel, path: string): number {
  if (path === "/") return 0;
  const segs = path.slice(1).split("/");
  let v = 1 + SECTIONS.indexOf(segs[0]!);
  if (v === 0) return -1;
  for (const seg of segs.slice(1)) {
    const child = Number(seg.slice(seg.lastIndexOf("-") + 1));
    if (!(child > 0 && child < m.nodeCount) || m.parent[child] !== v || nodeSlug(m, child) !== seg) return -1;
    v = child;
  }
  return v;
}

export function isDossier(m: DeepModel, v: number): boolean {
  return m.dossier[v] === 1;
}

/**
 * A "full volume" PDF on some index pages of the rich sections: a reward on the way
 * down, which is what lets a focused crawler learn to descend those sections.
 */
export function volumeFile(m: DeepModel, v: number): DeepAttachment | null {
  if (m.dossier[v] !== 2) return null;
  const fseed = hash32(m.seed, 0x702, v);
  return {
    href: `/attachments/${v}/0/${nodeSlug(m, v)}-volume.pdf`,
    label: "Full volume (PDF)",
    file: { format: "pdf", bytes: fileBytes("pdf", fseed), seed: fseed },
  };
}

export interface DeepAttachment {
  href: string;
  label: string;
  file: FileRef;
}

const DOSSIER_FORMATS: FormatName[] = ["pdf", "pdf", "pdf", "csv", "docx", "odt", "txt", "xml", "xlsx"];

export function dossierFiles(m: DeepModel, v: number): DeepAttachment[] {
  const r = new Rng(hash32(m.seed, 0xd056, v));
  const n = 1 + r.int(3);
  const out: DeepAttachment[] = [];
  for (let k = 0; k < n; k++) {
    const format = r.pick(DOSSIER_FORMATS);
    const fseed = hash32(m.seed, 0xd057, v, k);
    out.push({
      href: `/attachments/${v}/${k + 1}/${nodeSlug(m, v)}.${format}`,
      label: `Attachment ${k + 1} (${format.toUpperCase()})`,
      file: { format, bytes: fileBytes(format, fseed), seed: fseed },
    });
  }
  return out;
}
