import type { LinkOracle } from "../engine/link-typer";
import type { ReplayIndex } from "./replay-index";

/**
 * SB-ORACLE's link typer (ALGORITHM.md "URL classifier"): the true type of a link from the
 * stored crawl instead of a HEAD request or the classifier. From the URL's final stored GET
 * (else its HEAD): 2xx text/html or application/xhtml+xml → html; 3xx with a Location → html
 * (the HEAD rule: a redirect is most often a moved page); 2xx with a MIME type in the crawl's
 * target list → target; anything else, and every URL the source never fetched → neither.
 */
export function createReplayOracle(index: ReplayIndex): LinkOracle {
  return (url) => index.typeOf(url);
}
