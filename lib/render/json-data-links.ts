import type { RenderDataLink } from "../crawler/engine/page-renderer";

/**
 * File-like URLs in the JSON answers a page's scripts fetched: a listing rendered by script often
 * has its download links only there (or only there in full). Every string value that is an absolute
 * http(s) URL or a root-relative path is kept with its key path (`items.*.files.*.download_url`,
 * array indexes as `*`), resolved against the answer's URL; the engine decides which are targets.
 */

/** Bounds of one answer's walk: larger bodies are not parsed, larger documents are walked this far. */
export const JSON_WALK_LIMITS = { maxBytes: 2 * 1024 * 1024, maxNodes: 50_000 } as const;

/** Longer strings are no URL the crawler would request. */
const MAX_URL_CHARS = 8_192;
/** Key paths are cut here, as the crawler cuts tag paths (deeper values share the cut path). */
export const MAX_KEY_PATH_CHARS = 2_048;

function deeper(path: string, step: string): string {
  if (path.length >= MAX_KEY_PATH_CHARS) return path;
  return (path === "" ? step : `${path}.${step}`).slice(0, MAX_KEY_PATH_CHARS);
}

/** Whether an answer is JSON: by its content type, or by a body that starts like a JSON object or array. */
export function looksLikeJson(contentType: string | undefined, body: Buffer): boolean {
  if (contentType && /[/+]json\b/i.test(contentType)) return true;
  const start = body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf ? 3 : 0; // a UTF-8 BOM
  for (let i = start; i < body.length && i < start + 64; i++) {
    const byte = body[i]!;
    if (byte === 0x20 || byte === 0x09 || byte === 0x0a || byte === 0x0d) continue;
    return byte === 0x7b || byte === 0x5b; // { or [
  }
  return false;
}

/** The links in one JSON answer (none when it is too large or not JSON after all). */
export function jsonDataLinks(body: Buffer, from: string, limits: { maxBytes: number; maxNodes: number } = JSON_WALK_LIMITS): RenderDataLink[] {
  if (body.length > limits.maxBytes) return [];
  let root: unknown;
  try {
    root = JSON.parse(body.toString("utf8").replace(/^\uFEFF/, ""));
  } catch {
    return [];
  }
  const links: RenderDataLink[] = [];
  const stack: Array<{ value: unknown; path: string }> = [{ value: root, path: "" }];
  let nodes = 0;
  while (stack.length > 0 && nodes < limits.maxNodes) {
    const { value, path } = stack.pop()!;
    nodes++;
    if (typeof value === "string") {
      const url = linkIn(value, from);
      if (url) links.push({ url, keyPath: path, from });
    } else if (Array.isArray(value)) {
      const inner = deeper(path, "*");
      for (let i = value.length - 1; i >= 0; i--) stack.push({ value: value[i], path: inner });
    } else if (value !== null && typeof value === "object") {
      const entries = Object.entries(value);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, inner] = entries[i]!;
        stack.push({ value: inner, path: deeper(path, key) });
      }
    }
  }
  return links;
}

function linkIn(text: string, from: string): string | null {
  if (text.length < 2 || text.length > MAX_URL_CHARS || /\s/.test(text)) return null;
  if (!text.startsWith("/") && !/^https?:\/\//i.test(text)) return null;
  try {
    const url = new URL(text, from);
    return url.protocol === "http:" || url.protocol === "https:" ? url.href : null;
  } catch {
    return null;
  }
}

/** The links of one render's JSON answers, each URL and key path once (the first answer naming it). */
export class DataLinkCollector {
  private readonly links = new Map<string, RenderDataLink>();

  add(from: string, contentType: string | undefined, body: Buffer): void {
    if (!looksLikeJson(contentType, body)) return;
    for (const link of jsonDataLinks(body, from)) {
      const key = `${link.keyPath}\u0000${link.url}`;
      if (!this.links.has(key)) this.links.set(key, link);
    }
  }

  list(): RenderDataLink[] {
    return [...this.links.values()];
  }
}
