import type { FetchResult } from "../fetch/types";

export type LinkType = "html" | "target";

/** The online URL classifier as the engine uses it (lib/crawler/url-classifier.ts). */
export interface UrlTypeModel {
  isTrained(): boolean;
  predict(url: string): LinkType;
  addLabel(url: string, label: LinkType): void;
}

/** True link types from a stored crawl (SB-ORACLE, replay only). */
export type LinkOracle = (url: string) => LinkType | "neither";

/**
 * HEAD answers "405 Method Not Allowed" or "501 Not Implemented" after which, if no HEAD has
 * had a 2xx yet, the crawl stops sending HEADs: every new link of the bootstrap cost one
 * refused request otherwise (about 100 a page, until GETs have given the classifier its first
 * batch of labels).
 */
export const HEAD_REFUSALS_TO_STOP = 3;

/**
 * HEAD answers that may be a refusal of the method rather than the truth about the URL: WAFs and
 * CDNs answer HEAD with 403, some servers route only GET and answer 404 or 400. Before any HEAD
 * has had a 2xx, such an answer is checked by a GET of the same URL (its body is read only if it
 * is a target, which is then the download); a 2xx there proves that the site refuses HEAD.
 */
export const DOUBTFUL_HEAD_STATUSES: ReadonlySet<number> = new Set([400, 403, 404]);

/** GET checks of doubtful HEAD answers at most, per crawl: a site whose first links are really dead pays this many requests. */
export const HEAD_GET_CHECKS = 3;

/**
 * Types new links as HTML pages or targets without downloading them (ALGORITHM.md "URL
 * classifier"): a HEAD request until the classifier has trained on its first batch, the
 * model after that; every later GET of a typed URL is a free label for the next batch.
 * With an oracle (SB-ORACLE), the stored truth replaces both.
 *
 * A server that refuses HEAD (405/501; some application servers and CDNs do) has its links
 * typed as pages: GET then tells what each is (a target reached by GET is kept, and labelled),
 * as a browser would find out. Without that every link was "neither" and the crawl ended on
 * its first page.
 */
export class LinkTyper {
  private headRefusals = 0;
  private headAnswered = false;
  private getChecks = 0;
  /** A GET answered 2xx where HEAD had answered a doubtful 4xx. */
  private headMismatch = false;

  constructor(
    private readonly model: UrlTypeModel,
    private readonly oracle: LinkOracle | null,
  ) {}

  /** Whether the next new link needs a HEAD request to be typed. */
  needsHead(): boolean {
    return this.oracle === null && !this.model.isTrained() && !this.headRefused();
  }

  /**
   * True once the site, never having answered a HEAD with 2xx, has refused HEAD
   * {@link HEAD_REFUSALS_TO_STOP} times (405/501) or answered 2xx to the GET of a URL whose HEAD got
   * a doubtful 4xx.
   */
  headRefused(): boolean {
    return !this.headAnswered && (this.headRefusals >= HEAD_REFUSALS_TO_STOP || this.headMismatch);
  }

  /** Whether a HEAD answer must be checked by a GET of the same URL ({@link DOUBTFUL_HEAD_STATUSES}). */
  needsGetCheck(head: FetchResult): boolean {
    return head.outcome !== "error" && DOUBTFUL_HEAD_STATUSES.has(head.status) && !this.headAnswered && !this.headRefused() && this.getChecks < HEAD_GET_CHECKS;
  }

  /**
   * The type the GET check of a doubtful HEAD gives (2xx + HTML → html, 2xx + target → target,
   * else neither, as for a HEAD); a 2xx proves the site refuses HEAD.
   */
  typeFromGetCheck(result: FetchResult, isTargetMime: (mime: string) => boolean, isHtmlMime: (mime: string) => boolean): LinkType | "neither" {
    this.getChecks += 1;
    if (result.outcome === "error" || result.status < 200 || result.status >= 300) return "neither";
    this.headMismatch = true;
    return isHtmlMime(result.mime) ? "html" : isTargetMime(result.mime) ? "target" : "neither";
  }

  /** Type without a request: the oracle, or the trained model. */
  predict(url: string): LinkType | "neither" {
    return this.oracle ? this.oracle(url) : this.model.predict(url);
  }

  /**
   * The type a HEAD response gives: 2xx + HTML → html, 2xx + target MIME → target, 3xx with
   * Location → html (a redirect is most often a moved page), 405/501 (HEAD refused) → html
   * (GET will tell), anything else → neither (not crawled). Only 2xx answers train the model.
   */
  typeFromHead(result: FetchResult, isTargetMime: (mime: string) => boolean, isHtmlMime: (mime: string) => boolean): LinkType | "neither" {
    if (result.outcome === "error") return "neither";
    if (result.status === 405 || result.status === 501) {
      this.headRefusals += 1;
      return "html";
    }
    if (result.status >= 200 && result.status < 300) {
      this.headAnswered = true;
      if (isHtmlMime(result.mime)) return "html";
      if (isTargetMime(result.mime)) return "target";
      return "neither";
    }
    if (result.status >= 300 && result.status < 400 && result.location) return "html";
    return "neither";
  }

  /** A true label (from a HEAD or a GET without redirect) for the classifier's next batch. */
  label(url: string, type: LinkType): void {
    if (this.oracle === null) this.model.addLabel(url, type);
  }
}
