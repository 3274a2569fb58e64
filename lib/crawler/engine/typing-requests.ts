import type { ExtractedLink } from "../links";
import type { FetchResult } from "../fetch/types";
import type { ParkedLink } from "./dead-shape-filter";
import type { EngineServices, LinkType } from "./engine-services";
import type { RequestContext } from "./request-runner";
import type { FrontierLink } from "./types";

/**
 * The requests that type a new link while the URL classifier learns (ALGORITHM.md: the HEAD
 * bootstrap; a GET check where a HEAD answer is doubtful), and what every answer a link of the
 * site gets teaches the dead-shape filter (a shape that only answers useless files is set aside,
 * and filed back when one of its links answers a page or a target).
 */
export class TypingRequests {
  constructor(private readonly engine: Pick<EngineServices, "parts" | "limitEvents" | "recordTarget">) {}

  /**
   * Types a link by a HEAD request (while the classifier is untrained). A doubtful HEAD answer
   * (403/404/400 before any HEAD succeeded) is checked by a GET of the same URL
   * (`LinkTyper.needsGetCheck`); when that GET answers a target it is the download, and the
   * link is "downloaded".
   */
  async type(link: ExtractedLink, page: FrontierLink): Promise<LinkType> {
    const typer = this.engine.parts.typer;
    const context: RequestContext = { kind: "bootstrap-head", tagPath: link.tagPath, groupId: null, depth: page.depth + 1, referrer: page.url };
    if (!(await this.engine.parts.runner.allowedByRobots(link.url, context))) return "neither";
    const outcome = await this.engine.parts.runner.request("HEAD", link.url, context, "none");
    if (!outcome) return "neither";
    this.engine.limitEvents.response(outcome.result);
    const runner = this.engine.parts.runner;
    const refusedBefore = typer.headRefused();
    if (typer.needsGetCheck(outcome.result)) return this.getCheck(link, page, outcome.result.status);
    const type = typer.typeFromHead(outcome.result, (mime) => runner.isTargetMime(mime), (mime) => runner.isHtmlMime(mime));
    const status = outcome.result.status;
    if (!refusedBefore && typer.headRefused()) {
      this.engine.parts.sink.event({
        level: "warn",
        kind: "head-refused",
        message: `The site refuses HEAD requests (${status}): new links are typed as pages and fetched with GET until the URL classifier has learnt from them`,
        data: { status },
      });
    }
    if (type !== "neither" && status >= 200 && status < 300) typer.label(link.url, type);
    this.recordShape(link.url, outcome.result, type === "target", true);
    return type;
  }

  /**
   * The GET check of a link whose HEAD got `headStatus` (doubtful): the GET's answer types it (a
   * page's body is not read: the page is crawled when its group is chosen; a target's body is kept,
   * so that GET was its download) and, when 2xx, shows that the site refuses HEAD.
   */
  private async getCheck(link: ExtractedLink, page: FrontierLink, headStatus: number): Promise<LinkType> {
    const { typer, runner } = this.engine.parts;
    const context: RequestContext = { kind: "target", tagPath: link.tagPath, groupId: null, depth: page.depth + 1, referrer: page.url };
    const outcome = await runner.request("GET", link.url, context, "none");
    if (!outcome) return "neither";
    this.engine.limitEvents.response(outcome.result);
    const type = typer.typeFromGetCheck(outcome.result, (mime) => runner.isTargetMime(mime), (mime) => runner.isHtmlMime(mime));
    if (typer.headRefused()) {
      const status = outcome.result.status;
      this.engine.parts.sink.event({
        level: "warn",
        kind: "head-refused",
        message: `The site answers HEAD with ${headStatus} where GET answers ${status}: new links are typed as pages and fetched with GET until the URL classifier has learnt from them`,
        data: { status: headStatus },
      });
    }
    if (type === "neither") return "neither";
    typer.label(link.url, type);
    this.recordShape(link.url, outcome.result, type === "target", true);
    if (type === "target" && outcome.isTarget && this.engine.recordTarget(outcome, link.url, { ...page, tagPath: link.tagPath }, page.url)) return "downloaded";
    return type;
  }

  /**
   * Feeds the dead-shape filter with the answer a link of the site got (`answeredInSite`: where its
   * redirects led): a 2xx answer is useful when it is a target, or a page of the site. A page on
   * another host is never crawled: links shaped like `/share/#/twitter` that all lead to one are
   * set aside after a few, instead of costing two requests each.
   */
  recordShape(url: string, response: FetchResult, isTarget: boolean, answeredInSite: boolean): void {
    const filter = this.engine.parts.deadShapes;
    if (!filter || response.status < 200 || response.status >= 300 || response.outcome === "error") return;
    const isPage = response.outcome === "ok" && this.engine.parts.runner.isHtmlMime(response.mime);
    const offSite = isPage && !isTarget && !answeredInSite;
    const change = filter.record(url, isTarget || (isPage && !offSite));
    if (change?.kind === "died") {
      const answered = offSite ? "pages on another host" : `${response.mime || "files"} (neither pages nor targets)`;
      this.engine.parts.sink.event({
        level: "info",
        kind: "shape-skipped",
        message: `Setting aside links shaped like ${change.shape}: they answered ${answered}; a few are still tried`,
        data: { shape: change.shape, mime: response.mime },
      });
    } else if (change?.kind === "revived") {
      for (const parked of change.parked) this.fileParked(parked);
      this.engine.parts.sink.event({
        level: "info",
        kind: "shape-revived",
        message: `Links shaped like ${change.shape} answered ${isTarget ? "a target" : "a page"}: ${change.parked.length} set-aside links are back in the frontier`,
        data: { shape: change.shape, links: change.parked.length },
      });
    }
  }

  /** Files a link its revived shape had parked (already marked seen). */
  private fileParked(parked: ParkedLink): void {
    this.engine.parts.strategy.add(this.engine.parts.links.createLink({ ...parked, groupId: null }));
  }
}
