import type { ExtractedLink } from "../links";
import type { EngineServices } from "./engine-services";
import type { RequestContext } from "./request-runner";
import type { FrontierLink } from "./types";

/**
 * A re-crawl's known files (the files of the previous runs, recrawl.ts): not downloaded again when
 * a page links them (taken as unchanged), or, with `checkKnownFiles`, checked by a conditional GET
 * that tells unchanged, changed (kept as a target) and gone; the ones no page of the run linked are
 * checked at its end.
 */
export class KnownFileChecks {
  constructor(private readonly engine: EngineServices) {}

  /** A re-crawl's known files the page links: taken as unchanged, or checked; returns how many changed. */
  async onPage(knownFiles: readonly ExtractedLink[], page: FrontierLink, pageUrl: string): Promise<number> {
    let changed = 0;
    for (const link of knownFiles) {
      const context: RequestContext = { kind: "target", tagPath: link.tagPath, groupId: null, depth: page.depth + 1, referrer: pageUrl };
      changed += await this.revisit(link.url, context, link.tagPath);
    }
    return changed;
  }

  /**
   * A known file linked again: without `checkKnownFiles` it is taken as unchanged (not
   * downloaded); with it, a conditional GET tells. Returns the reward: 1 when it changed.
   */
  private async revisit(url: string, context: RequestContext, tagPath: string): Promise<number> {
    const recrawl = this.engine.parts.recrawl!;
    const outcome = recrawl.outcomes.get(url);
    if (outcome !== undefined && outcome !== "seen") return 0;
    if (!recrawl.checkKnownFiles) {
      recrawl.note(url, "seen");
      return 0;
    }
    return this.check(url, context, tagPath);
  }

  /**
   * Conditional GET of a known file (If-None-Match / If-Modified-Since from its stored ETag and
   * Last-Modified): 304 or the same bytes is unchanged, 404/410 gone, other bytes changed (kept
   * as a target). Anything else (an error, a redirect) leaves it unverified ("seen").
   */
  async check(url: string, context: RequestContext, tagPath: string): Promise<number> {
    const recrawl = this.engine.parts.recrawl!;
    const file = recrawl.knownFile(url)!;
    recrawl.note(url, "seen");
    if (!(await this.engine.parts.runner.allowedByRobots(url, context))) return 0;
    const headers: Record<string, string> = {};
    if (file.etag) headers["if-none-match"] = file.etag;
    if (file.lastModified) headers["if-modified-since"] = file.lastModified;
    const outcome = await this.engine.parts.runner.request("GET", url, context, "target", headers);
    if (!outcome) return 0;
    this.engine.limitEvents.response(outcome.result);
    const status = outcome.result.status;
    if (status === 304) recrawl.note(url, "unchanged");
    else if (status === 404 || status === 410) recrawl.note(url, "gone");
    else if (outcome.isTarget && outcome.stored) {
      if (outcome.stored.sha256 === file.sha256) {
        recrawl.note(url, "unchanged");
        return 0;
      }
      recrawl.note(url, "changed");
      const link: FrontierLink = { id: -1, url, tagPath, anchorText: "", depth: context.depth, referrer: context.referrer, groupId: null };
      return this.engine.recordTarget(outcome, url, link) ? 1 : 0;
    }
    return 0;
  }

  /** With `checkKnownFiles`, the known files no page of this run linked are checked at its end (budget allowing). */
  async checkUnlinked(): Promise<void> {
    const recrawl = this.engine.parts.recrawl;
    if (!recrawl?.checkKnownFiles) return;
    for (const file of recrawl.knownFiles()) {
      const outcome = recrawl.outcomes.get(file.url);
      if (outcome !== undefined && outcome !== "seen") continue;
      if (!this.engine.parts.budget.canRequest() || this.engine.parts.signal.aborted) return;
      await this.check(file.url, { kind: "target", tagPath: null, groupId: null, depth: 0, referrer: null }, "");
    }
  }
}
