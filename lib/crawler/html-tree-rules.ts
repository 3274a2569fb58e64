/**
 * The HTML5 tree-construction tables links.ts needs to keep tag paths right on sloppy pages:
 * void and special elements, scopes, and the implied end tags of a start tag.
 */

export const noop = (): void => {};
export const set = (names: string): ReadonlySet<string> => new Set(names.split(" "));

export const VOID = set("area base basefont bgsound br col embed frame hr image img input keygen link meta param source track wbr");
/** Elements that stay in `<head>` when they come before any body content. */
export const HEAD_ONLY = set("base basefont bgsound link meta noscript script style template title");
/** HTML5 "special" elements (stop the search for an element to close). */
export const SPECIAL = set(
  "address applet area article aside base basefont bgsound blockquote body br button caption center col colgroup dd details dir div " +
    "dl dt embed fieldset figcaption figure footer form frame frameset h1 h2 h3 h4 h5 h6 head header hgroup hr html iframe img input " +
    "keygen li link listing main marquee menu meta nav noembed noframes noscript object ol p param plaintext pre script search section " +
    "select source style summary table tbody td template textarea tfoot th thead title tr track ul wbr xmp",
);
/** Start tags that close an open `<p>` in button scope. */
export const CLOSES_P = set(
  "address article aside blockquote center dd details dialog dir div dl dt fieldset figcaption figure footer " +
    "form h1 h2 h3 h4 h5 h6 header hgroup hr li listing main menu nav ol p plaintext pre search section summary table ul xmp",
);
export const HEADINGS = set("h1 h2 h3 h4 h5 h6");
export const DEFAULT_SCOPE = set("applet caption html table td th marquee object template");
export const BUTTON_SCOPE = set("applet caption html table td th marquee object template button");
export const LIST_ITEM_SCOPE = set("applet caption html table td th marquee object template ol ul");
export const TABLE_SCOPE = set("html table template");
/** End tag of a special element → the scope it must be in to close anything. */
export const END_TAG_SCOPES = new Map<string, ReadonlySet<string>>([
  ["p", BUTTON_SCOPE], ["li", LIST_ITEM_SCOPE], ..."table tbody thead tfoot tr td th caption colgroup col".split(" ").map((n) => [n, TABLE_SCOPE] as const),
]);
/** `<li>`/`<dd>` look through `address`, `div`, `p` for one to close, and stop at other special elements. */
export const LI_STOPS: ReadonlySet<string> = new Set([...SPECIAL].filter((n) => n !== "address" && n !== "div" && n !== "p"));

/** Start tag → the open element it closes, searched from the top until a `stops` one; rows
 * and cells also close what is above their container (`popAbove`). */
export type CloseRule = { readonly closes: ReadonlySet<string>; readonly stops: ReadonlySet<string>; readonly popAbove: boolean };
export const rule = (closes: string, stops: ReadonlySet<string>, popAbove = false): CloseRule => ({ closes: set(closes), stops, popAbove });
export const P_RULE = rule("p", BUTTON_SCOPE);
export const ROW_RULE = rule("tr", set("tbody thead tfoot table template"), true);
export const CELL_RULE = rule("td th", set("tr tbody thead tfoot table template"), true);
export const SECTION_RULE = rule("tbody thead tfoot", set("table template"), true);
export const CLOSE_RULES = new Map<string, CloseRule>([
  ...["li", "dd", "dt"].map((n) => [n, rule(n === "li" ? "li" : "dd dt", LI_STOPS)] as const),
  ["a", rule("a", DEFAULT_SCOPE)], ["button", rule("button", DEFAULT_SCOPE)], ["tr", ROW_RULE], ["td", CELL_RULE], ["th", CELL_RULE],
  ["tbody", SECTION_RULE], ["thead", SECTION_RULE], ["tfoot", SECTION_RULE],
]);

