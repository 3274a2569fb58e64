import { describe, expect, it } from "vitest";
import { extractLinks } from "../../lib/crawler/links";
import { stableClassNames } from "../../lib/crawler/tag-path-classes";

describe("stableClassNames", () => {
  it("replaces identifiers of two digits or more by N", () => {
    expect(stableClassNames("post postid-123 type-post")).toBe("post postid-N type-post");
    expect(stableClassNames("page-node-45 node-type-article")).toBe("page-node-N node-type-article");
    expect(stableClassNames("item42")).toBe("itemN");
    expect(stableClassNames("page-id-2024")).toBe("page-id-N");
  });

  it("replaces hash-like words (letters and digits switching twice or more) by H", () => {
    expect(stableClassNames("styles_card__3xK9a")).toBe("styles_card__H");
    expect(stableClassNames("css-1x2y3z")).toBe("css-H");
    expect(stableClassNames("Card_root__a1b2c")).toBe("Card_root__H");
  });

  it("keeps single digits (layouts: col-md-6, h2, mt-3) and classes without digits", () => {
    expect(stableClassNames("col-md-6 mt-3 h2")).toBe("col-md-6 mt-3 h2");
    expect(stableClassNames("btn primary")).toBe("btn primary");
    expect(stableClassNames("")).toBe("");
  });

  it("gives the links of two pages of one template the same tag path, and keeps them apart when off", () => {
    const html = (id: number, hash: string) =>
      `<html><body class="single postid-${id}"><div class="styles_list__${hash}" id="post-${id}"><a href="/x">x</a></div></body></html>`;
    const a = extractLinks(html(123, "3xK9a"), "http://s.test/p/123", { stableClassNames: true })[0]!;
    const b = extractLinks(html(98765, "9QzT1"), "http://s.test/p/98765", { stableClassNames: true })[0]!;
    expect(a.tagPath).toBe("/html/body.single postid-N/div.styles_list__H#post-N/a");
    expect(b.tagPath).toBe(a.tagPath);
    const raw = extractLinks(html(123, "3xK9a"), "http://s.test/p/123")[0]!;
    expect(raw.tagPath).toBe("/html/body.single postid-123/div.styles_list__3xK9a#post-123/a");
  });

  it("keeps the set of tag paths of 2 000 per-page-classed pages at one", () => {
    const paths = new Set<string>();
    for (let id = 10; id < 2010; id++) {
      const html = `<html><body class="postid-${id}"><article class="entry-${id} css-${id.toString(36)}x${id % 7}q"><a href="/next">n</a></article></body></html>`;
      for (const link of extractLinks(html, `http://s.test/${id}`, { stableClassNames: true })) paths.add(link.tagPath);
    }
    expect([...paths]).toEqual(["/html/body.postid-N/article.entry-N css-H/a"]);
  });
});
