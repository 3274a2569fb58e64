import type { FrontierLink } from "../types";

/**
 * TRES's state–action vector of a frontier link: the features of the path that led to it (the
 * page it was found on and that page's ancestors: the paper's parent and grandparent relevance
 * and distance from the last relevant page, here "gave new targets") and of the link itself
 * (its URL and tag path, which Forage has where the paper had keywords of the URL and anchor).
 * Values lie in [0, 1]; continuous ones are rounded to 1/64 so checkpoints store them exactly
 * and briefly.
 */

/** What TRES remembers of a page it crawled: the path context of the links found there. */
export interface PageContext {
  /** New targets the page gave. */
  readonly reward: number;
  /** New targets its own referrer gave (−1: unknown, the root or a link of no crawled page). */
  readonly parentReward: number;
  /** Pages since the nearest ancestor (itself included) that gave targets; 0 = this page did. */
  readonly distance: number;
  /** Links the page added to the frontier. */
  readonly outlinks: number;
}

export const TRES_FEATURES = 40;
const TAG_PATH_BUCKETS = 12;
const TAG_PATH_OFFSET = 18;
const SHAPE_BUCKETS = 10;
const SHAPE_OFFSET = TAG_PATH_OFFSET + TAG_PATH_BUCKETS;
const MAX_DISTANCE = 4;

const PAGINATION = /[?&](page|p|pg|offset|start|from)=|\/page\/\d|[?&/]pages?[-_]?\d/i;
const TARGET_WORDS = /data|download|file|dataset|resource|attachment|document|publication|report/i;
const CHROME_TAGS = /(^|\/)(nav|header|footer|aside)([.#/[]|$)/i;
const LIST_TAGS = /(^|\/)(li|td|tr|dd|dt)([.#/[]|$)/i;

function quantise(value: number): number {
  return Math.round(Math.min(1, Math.max(0, value)) * 64) / 64;
}

function scaledReward(reward: number): number {
  return quantise(Math.log1p(Math.max(0, reward)) / 4);
}

/** FNV-1a, 32 bits: a stable bucket for a string on every run and machine. */
export function stableHash(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** The last three steps of a tag path: the part that tells a pager from a card from a menu. */
function tagPathTail(tagPath: string): string {
  let cut = tagPath.length;
  for (let steps = 0; steps < 3 && cut > 0; steps++) cut = tagPath.lastIndexOf("/", cut - 1);
  return tagPath.slice(Math.max(0, cut));
}

/**
 * The URL's directory as url-shape.ts draws it (numbers written N; the last segment only when a
 * query makes it a listing; at most two segments), without parsing the URL again.
 */
function shapeOf(segments: readonly string[], query: boolean): string {
  const counted = Math.min(2, query ? segments.length : segments.length - 1);
  let shape = "";
  for (let i = 0; i < counted; i++) shape += "/" + segments[i]!.replace(/\d+/g, "N");
  return query ? shape + "?" : shape || "/";
}

function pathOf(url: string): { path: string; query: boolean } {
  const start = url.indexOf("/", url.indexOf("//") + 2);
  if (start < 0) return { path: "/", query: false };
  const hash = url.indexOf("#", start);
  const end = hash < 0 ? url.length : hash;
  const question = url.indexOf("?", start);
  return question >= 0 && question < end ? { path: url.slice(start, question), query: true } : { path: url.slice(start, end), query: false };
}

/**
 * Writes the link's vector into `out` from `offset`. `parent` is the context of the page the link
 * was found on (its referrer), undefined for links of no crawled page (root, sitemaps, APIs).
 */
export function writeTresFeatures(link: FrontierLink, parent: PageContext | undefined, out: Float64Array | number[], offset = 0): void {
  for (let i = 0; i < TRES_FEATURES; i++) out[offset + i] = 0;
  if (parent) {
    out[offset] = scaledReward(parent.reward);
    out[offset + 1] = parent.reward > 0 ? 1 : 0;
    out[offset + 2] = parent.parentReward < 0 ? 0 : scaledReward(parent.parentReward);
    out[offset + 3] = quantise(Math.min(parent.distance, MAX_DISTANCE) / MAX_DISTANCE);
    out[offset + 4] = quantise(Math.log1p(parent.outlinks) / Math.log(1001));
    out[offset + 5] = 1;
  } else {
    out[offset + 3] = 1;
  }
  out[offset + 6] = quantise(Math.min(link.depth, 8) / 8);
  const { path, query } = pathOf(link.url);
  const segments = path.split("/").filter(Boolean);
  const last = segments[segments.length - 1] ?? "";
  out[offset + 7] = quantise(Math.min(segments.length, 8) / 8);
  out[offset + 8] = query ? 1 : 0;
  out[offset + 9] = PAGINATION.test(link.url) ? 1 : 0;
  out[offset + 10] = /\.[a-z0-9]{1,5}$/i.test(last) ? 1 : 0;
  out[offset + 11] = /\d/.test(last) ? 1 : 0;
  if (link.referrer) {
    const parentPath = pathOf(link.referrer).path;
    const directory = parentPath.slice(0, parentPath.lastIndexOf("/") + 1);
    out[offset + 12] = directory.length > 1 && path.startsWith(directory) ? 1 : 0;
    const parentFirst = parentPath.split("/").filter(Boolean)[0] ?? "";
    out[offset + 17] = (segments[0] ?? "") !== parentFirst ? 1 : 0;
  }
  out[offset + 13] = quantise(Math.min(link.url.length, 160) / 160);
  out[offset + 14] = CHROME_TAGS.test(link.tagPath) ? 1 : 0;
  out[offset + 15] = LIST_TAGS.test(link.tagPath) ? 1 : 0;
  out[offset + 16] = TARGET_WORDS.test(path) ? 1 : 0;
  out[offset + TAG_PATH_OFFSET + (stableHash(tagPathTail(link.tagPath)) % TAG_PATH_BUCKETS)] = 1;
  out[offset + SHAPE_OFFSET + (stableHash(shapeOf(segments, query)) % SHAPE_BUCKETS)] = 1;
}

export function tresFeatures(link: FrontierLink, parent: PageContext | undefined): Float64Array {
  const out = new Float64Array(TRES_FEATURES);
  writeTresFeatures(link, parent, out);
  return out;
}

/** The context of a page just crawled, from what it gave and the context of the page that linked it. */
export function pageContext(reward: number, outlinks: number, parent: PageContext | undefined): PageContext {
  const distance = reward > 0 ? 0 : Math.min(MAX_DISTANCE, (parent ? parent.distance : MAX_DISTANCE - 1) + 1);
  return { reward, parentReward: parent ? parent.reward : -1, distance, outlinks };
}
