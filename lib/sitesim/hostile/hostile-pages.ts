/**
 * The HTML bodies of the hostile site (hostile-cases.ts): pages built to cost a link extractor
 * time or memory, each still holding one honest link that a bounded crawler must find.
 */

/** A small honest page listing `links` (`<ul><li><a>`). */
export function listPage(title: string, links: readonly string[]): string {
  const items = links.map((href) => `<li><a href="${href}">${href}</a></li>`).join("");
  return `<!DOCTYPE html><html><head><title>${title}</title></head><body><h1>${title}</h1><ul class="links">${items}</ul></body></html>`;
}

/**
 * Quadratic markup: `depth` nested `<span>`s (a naive parser's stack and tag paths grow with
 * each), the honest link at the bottom, then `depth` stray `</i>` (each one searches the whole
 * stack in a naive parser) and the `</span>`s.
 */
export function deepPage(depth: number, link: string): string {
  return `<!DOCTYPE html><html><body>${"<span>".repeat(depth)}<a href="${link}">deep file</a>${"</i>".repeat(depth)}${"</span>".repeat(depth)}</body></html>`;
}

/**
 * `count` links on one page (≈ 20 bytes each: 300 000 fit under the 10 MiB page limit): the first
 * to `first`, the others to distinct image URLs, which a crawler filters out without a request.
 */
export function manyLinksPage(count: number, first: string): string {
  const parts = [`<!DOCTYPE html><html><body><p><a href="${first}">first</a>`];
  for (let i = 1; i < count; i++) parts.push(`<a href=/g/${i}.png>${i}</a>`);
  parts.push("</p></body></html>");
  return parts.join("");
}

/** One `class` attribute of `bytes` characters on the element holding the honest link. */
export function hugeClassPage(bytes: number, link: string): string {
  return `<!DOCTYPE html><html><body><div class="${"c".repeat(bytes)}"><a href="${link}">file</a></div></body></html>`;
}

/** A link whose URL has `chars` characters, then an honest one. */
export function longUrlPage(chars: number, link: string): string {
  return `<!DOCTYPE html><html><body><a href="/search?q=${"x".repeat(chars)}">long</a><a href="${link}">file</a></body></html>`;
}

/**
 * A UTF-8 page with invalid sequences (lone continuation bytes, a truncated 3-byte character,
 * overlong and surrogate encodings, 0xFF) and NUL bytes in text, attributes and an href.
 */
export function badUtf8Page(link: string): Buffer {
  const invalid = Buffer.from([0x80, 0xbf, 0xe2, 0x82, 0xc0, 0xaf, 0xed, 0xa0, 0x80, 0xff, 0xfe, 0x00]);
  return Buffer.concat([
    Buffer.from('<!DOCTYPE html><html><head><meta charset="utf-8"><title>'),
    invalid,
    Buffer.from('</title></head><body><p class="a\0b">'),
    invalid,
    Buffer.from('\0</p><a href="/nul\0link">nul</a><div id="'),
    invalid,
    Buffer.from(`"><a href="${link}">file `),
    invalid,
    Buffer.from("</a></div></body></html>"),
  ]);
}

/** A page of exactly `bytes` bytes on one line (no newline), the honest link at its very end. */
export function singleLinePage(bytes: number, link: string): Buffer {
  const head = Buffer.from('<!DOCTYPE html><html><body><p class="text">');
  const tail = Buffer.from(`</p><a href="${link}">file</a></body></html>`);
  const fill = Buffer.alloc(Math.max(0, bytes - head.length - tail.length), "word ");
  return Buffer.concat([head, fill, tail]);
}
