/**
 * The content of a simulated WordPress site: posts in categories, pages, and the media library.
 * Each post links its files (block editor file blocks); some uploads are still in the library
 * but linked by no page any more (removed from the post, or never attached), and images are
 * shown inline, never linked. Post and attachment ids share one sequence, as in wp_posts.
 */
import type { FormatName } from "../formats";
import { fileBytes } from "../formats";
import { hash32 } from "../random";
import { headline, slugify, topicName, TOPIC_COUNT } from "../text";
import type { FileRef } from "../types";
import { isoSeconds, weighted } from "./app-common";

export interface WpMedia {
  id: number;
  /** Path under the site: /wp-content/uploads/YYYY/MM/<name>.<ext> */
  path: string;
  title: string;
  file: FileRef;
  mime: string;
  /** The post it is attached to (WordPress's `post` field), or null. */
  post: number | null;
  /** Linked from its post's content. */
  linked: boolean;
  date: string;
  modified: string;
}

export interface WpPost {
  id: number;
  slug: string;
  title: string;
  /** /YYYY/MM/DD/<slug>/ */
  path: string;
  category: number;
  date: string;
  media: WpMedia[];
}

export interface WpModel {
  posts: WpPost[];
  /** Media in id order. */
  media: WpMedia[];
  categories: Array<{ slug: string; name: string; posts: number[] }>;
  postByPath: Map<string, number>;
  mediaByPath: Map<string, WpMedia>;
  mediaById: Map<number, WpMedia>;
}

const FILES: ReadonlyArray<readonly [FormatName, string, number]> = [
  ["pdf", "application/pdf", 45],
  ["xlsx", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", 20],
  ["csv", "text/csv", 15],
  ["docx", "application/vnd.openxmlformats-officedocument.wordprocessingml.document", 8],
  ["zip", "application/zip", 7],
  ["ods", "application/vnd.oasis.opendocument.spreadsheet", 5],
];

export function buildWordPressModel(seed: number, urlCount: number): WpModel {
  const postCount = Math.max(10, Math.round(urlCount / 3));
  const catCount = Math.min(12, 3 + Math.floor(postCount / 200));
  const offset = hash32(seed, 0xca7) % TOPIC_COUNT;
  const categories = Array.from({ length: catCount }, (_, i) => ({ slug: slugify(topicName(offset + i)), name: topicName(offset + i), posts: [] as number[] }));
  const posts: WpPost[] = [];
  const media: WpMedia[] = [];
  const postByPath = new Map<string, number>();
  const mediaByPath = new Map<string, WpMedia>();
  const usedNames = new Set<string>();
  const span = 8 * 365 * 86_400;
  let nextId = 10;
  for (let i = 0; i < postCount; i++) {
    const h = hash32(seed, 0x905, i);
    const title = headline(h);
    let slug = slugify(title);
    for (let k = 2; postByPath.has(slug); k++) slug = `${slugify(title)}-${k}`;
    const at = Math.floor((i / postCount) * span) + (h % 86_400);
    const date = isoSeconds(at);
    const path = `/${date.slice(0, 4)}/${date.slice(5, 7)}/${date.slice(8, 10)}/${slug}/`;
    const post: WpPost = { id: nextId++, slug, title, path, category: Math.floor(catCount * ((h % 997) / 997) ** 1.4), date, media: [] };
    // Linked files, then maybe a file removed from the text, then maybe an inline image.
    const kinds: Array<"linked" | "unlinked" | "image"> = [];
    for (let k = weighted([35, 35, 20, 10], hash32(h, 1)); k > 0; k--) kinds.push("linked");
    if (hash32(h, 2) % 100 < 20) kinds.push("unlinked");
    if (hash32(h, 3) % 100 < 30) kinds.push("image");
    kinds.forEach((kind, k) => {
      const mh = hash32(h, 4, k);
      const [format, mime] = kind === "image" ? (["jpg", "image/jpeg"] as const) : FILES[weighted(FILES.map((f) => f[2]), mh)]!;
      const base = slugify(kind === "image" ? `${topicName(mh)} chart` : k === 0 ? title : headline(mh)).slice(0, 50);
      let name = `${base}.${format}`;
      for (let d = 1; usedNames.has(`${date.slice(0, 7)}/${name}`); d++) name = `${base}-${d}.${format}`;
      usedNames.add(`${date.slice(0, 7)}/${name}`);
      const fseed = hash32(seed, 0xf1e, nextId);
      const modifiedAt = at + (hash32(mh, 5) % 3 === 0 ? hash32(mh, 6) % (span - at + 86_400) : 0);
      const item: WpMedia = {
        id: nextId++, path: `/wp-content/uploads/${date.slice(0, 4)}/${date.slice(5, 7)}/${name}`, title: base.replace(/-/g, " "),
        file: { format, bytes: fileBytes(format, fseed), seed: fseed }, mime,
        // Half the orphans were uploaded from the media library and never attached.
        post: kind === "unlinked" && hash32(mh, 7) % 2 === 0 ? null : post.id, linked: kind === "linked", date, modified: isoSeconds(modifiedAt),
      };
      post.media.push(item);
      media.push(item);
      mediaByPath.set(item.path, item);
    });
    posts.push(post);
    categories[post.category]!.posts.push(i);
    postByPath.set(path, i);
  }
  for (const c of categories) c.posts.reverse(); // newest first, as archives list them
  return { posts, media, categories, postByPath, mediaByPath, mediaById: new Map(media.map((m) => [m.id, m])) };
}
