/**
 * The engine's "does this page need a browser" test (render-need.ts) on hostile pages: it never
 * throws, answers with a short reason, flags a page only when it has a script, and never flags a
 * page once it shows more than two links in its body.
 */
import fc from "fast-check";
import { scriptBuiltSigns } from "../../lib/crawler/render-need";
import { anyText, tokensOf } from "./arbitraries";
import { fuzzTarget } from "./fuzz-kit";
import type { FuzzTarget } from "./fuzz-target";

const PIECES = [
  "<script>", "<script src=/a.js>", "<SCRIPT type=module>", "<script type=application/json id=__NEXT_DATA__>", "</script>", "<noscript>", "Enable JavaScript", "</noscript>",
  "<div id=app>", "<div id=root>", "<div id=\"__next\">", "<app-root>", "</app-root>", "<div data-reactroot>", "<html ng-app>", "<div x-data>", "</div>",
  "<nav>", "</nav>", "<header>", "</header>", "<footer>", "</footer>", "<a href=/x>", "<a href=#top>", "<a href='javascript:void(0)'>", "</a>", "<body>", "</body>",
  "<!--", "-->", "<template>", "</template>", "<style>", "</style>", "text", " ", "\n", "<", ">", "\"", "'", "=", "&amp;", "\u0000",
];
const hostilePage = fc.oneof({ weight: 4, arbitrary: tokensOf(PIECES, 120) }, { weight: 1, arbitrary: anyText(600) });

const signs = fuzzTarget({
  name: "render need on hostile pages",
  ciRuns: 1_000,
  memoryBoundMiB: 64,
  property: () =>
    fc.property(hostilePage, (html) => {
      const need = scriptBuiltSigns(html);
      if (need.why.length === 0 || need.why.length > 120) throw new Error(`reason ${JSON.stringify(need.why)}`);
      if (need.needed && !/<script/i.test(html)) throw new Error("flagged without a script");
      if (JSON.stringify(scriptBuiltSigns(html)) !== JSON.stringify(need)) throw new Error("not deterministic");
      const withLinks = `${html}<main>${"<a href=/report>Report</a>".repeat(3)}</main>`;
      // Unless the page leaves open what would swallow them (a comment, a quote, raw text, the site's chrome).
      const swallows = /<!--|["'\u0000]|<(script|style|template|textarea|title|xmp|iframe|noembed|noframes|plaintext|nav|header|footer|noscript)\b/i;
      if (!swallows.test(html) && scriptBuiltSigns(withLinks).needed) {
        throw new Error("flagged with three links in its body");
      }
    }),
});

export const fuzzTargets: FuzzTarget[] = [signs];
