import type { ExtractedLink } from "../links";
import { isInSite, normalizeUrl } from "../url-rules";
import { mimeOfUrlPath } from "../fetch/effective-mime";
import { enumerationTagPath } from "./application-actions";
import type { EngineServices } from "./engine-services";
import type { KnownFileChecks } from "./known-file-checks";
import type { RequestContext } from "./request-runner";
import type { Pull } from "./reward";
import type { ApplicationCandidate, ApplicationEnumeration, ApplicationFile } from "./site-applications";
import type { FrontierLink } from "./types";

/**
 * The application behind a site as part of a crawl (application-actions.ts, site-applications.ts):
 * recognised on the root page and confirmed by its recipe's probe, its enumerations filed as actions
 * of their own, a pull of one reading a page of its API and downloading the files it lists, and the
 * files a page states in a standard form (schema.org `Dataset`) downloaded like its links' targets.
 */
export class ApplicationCrawling {
  constructor(
    private readonly engine: EngineServices,
    private readonly knownFiles: KnownFileChecks,
  ) {}

  /**
   * On the root page: the applications it shows (or the one the crawl's settings name), each
   * confirmed by its recipe's probe when it has one (one counted request; a probe that fails
   * costs only itself), then each of their enumerations filed as an action of its own, its first
   * page the action's only link: the bandit chooses it among the tag-path groups.
   */
  async start(root: FrontierLink, page: { url: string; html: string; headers: [string, string][] }): Promise<void> {
    const actions = this.engine.parts.applications!;
    const candidates: ApplicationCandidate[] = [...actions.source.chosen(this.engine.parts.config.rootUrl)];
    if (candidates.length === 0) candidates.push(...this.engine.parts.meter.time(() => actions.source.recognise(page)));
    for (const candidate of candidates) {
      if (!this.engine.parts.budget.canRequest() || this.engine.parts.signal.aborted) return;
      const application = { ...candidate.application };
      if (candidate.probe) {
        const context: RequestContext = { kind: "api", tagPath: null, groupId: null, depth: 1, referrer: root.url };
        if (!(await this.engine.parts.runner.allowedByRobots(candidate.probe.url, context))) {
          actions.notConfirmed(application, candidate.probe.url, "is disallowed by robots.txt");
          continue;
        }
        const answer = await this.apiAnswer(candidate.probe.url, context);
        if (!answer.ok) {
          actions.notConfirmed(application, candidate.probe.url, answer.why);
          continue;
        }
        const verdict = candidate.probe.check(answer.answer);
        if (!verdict.confirmed) {
          actions.notConfirmed(application, candidate.probe.url, verdict.why);
          continue;
        }
        application.probeUrl = candidate.probe.url;
        if (verdict.version) application.version = verdict.version;
      }
      for (const enumeration of actions.add(application)) this.fileEnumeration(enumeration, root.url);
    }
  }

  /** An enumeration's first page, as the only link of its action. */
  private fileEnumeration(enumeration: ApplicationEnumeration, referrer: string): void {
    const url = normalizeUrl(enumeration.firstUrl(this.engine.parts.changedSince ?? undefined), referrer);
    if (!url || !this.engine.parts.links.markSeen(url)) return;
    this.engine.parts.strategy.add(this.engine.parts.links.createLink({ url, tagPath: enumerationTagPath(enumeration.key), anchorText: "", depth: 1, referrer, groupId: null }));
  }

  /**
   * One GET of an application's API (redirects followed within the site): the answer's text, or
   * why there is none in words.
   */
  private async apiAnswer(url: string, context: RequestContext): Promise<{ ok: true; answer: { status: number; headers: ReadonlyMap<string, string>; body: string }; url: string } | { ok: false; why: string }> {
    const final = await this.engine.getFollowingRedirects(url, context, "api");
    if (!final) return { ok: false, why: this.engine.parts.budget.canRequest() ? "led nowhere (a refused or looping redirect)" : "was not asked: the budget is spent" };
    if (!final.inSite) return { ok: false, why: `redirected off the site (${final.url})` };
    const result = final.outcome.result;
    if (result.outcome === "error") return { ok: false, why: `failed (${result.error?.message ?? "no answer"})` };
    if (result.status < 200 || result.status >= 300) {
      const wait = result.status === 429 && result.headers["retry-after"] ? ` (Retry-After ${result.headers["retry-after"]})` : "";
      return { ok: false, why: `answered ${result.status}${wait}` };
    }
    if (!result.body) return { ok: false, why: result.outcome === "too-large" ? "answered more than the page size limit" : `answered ${result.mime || "no type"}, not JSON` };
    return { ok: true, url: final.url, answer: { status: result.status, headers: new Map(Object.entries(result.headers)), body: result.body.toString("utf8") } };
  }

  /**
   * A pull of an enumeration action: one page of the application's API, its files typed from
   * what the listing declares (no HEAD) and downloaded at once, its next page filed back into
   * the same action. An answer the recipe does not expect, an error, or a page leading off the
   * site closes the action with an event; the crawl goes on through the HTML.
   */
  async pull(link: FrontierLink): Promise<Pull> {
    const actions = this.engine.parts.applications;
    const enumeration = actions?.enumerationOf(link.tagPath);
    if (!actions || !enumeration) return { kind: "nothing" };
    const context: RequestContext = { kind: "api", tagPath: link.tagPath, groupId: link.groupId, depth: link.depth, referrer: link.referrer };
    if (!(await this.engine.parts.runner.allowedByRobots(link.url, context))) {
      actions.close(link.tagPath, link.url, "is disallowed by robots.txt");
      return { kind: "nothing" };
    }
    const fetched = await this.apiAnswer(link.url, context);
    if (!fetched.ok) {
      if (this.engine.parts.budget.canRequest() && !this.engine.parts.signal.aborted) actions.close(link.tagPath, link.url, fetched.why);
      return { kind: "nothing" };
    }
    const listing = await this.engine.parts.meter.time(() => enumeration.read(fetched.url, fetched.answer));
    if (listing.problem) {
      actions.close(link.tagPath, fetched.url, listing.problem);
      return { kind: "nothing" };
    }
    const inSite = listing.files.filter((file) => isInSite(file.url, this.engine.site));
    actions.pageRead(link.tagPath, inSite.length);
    const { downloaded, changed } = await this.takeListedFiles(inSite, link, fetched.url, enumeration);
    if (listing.files.length > 0 && inSite.length === 0) {
      actions.close(link.tagPath, fetched.url, `lists its ${listing.files.length} files on other hosts (${new URL(listing.files[0]!.url).host})`);
      return { kind: "page", newTargets: downloaded, changedKnownFiles: changed };
    }
    const next = listing.nextUrl ? normalizeUrl(listing.nextUrl, fetched.url) : null;
    if (!next) actions.finished(link.tagPath);
    else if (!isInSite(next, this.engine.site)) actions.close(link.tagPath, fetched.url, `names a next page off the site (${next})`);
    else if (!this.engine.parts.links.markSeen(next)) actions.close(link.tagPath, fetched.url, `names as its next page one already read (${next})`);
    else this.engine.parts.strategy.add(this.engine.parts.links.createLink({ url: next, tagPath: link.tagPath, anchorText: "", depth: link.depth, referrer: fetched.url, groupId: null }));
    return { kind: "page", newTargets: downloaded, changedKnownFiles: changed };
  }

  /**
   * Whether a re-crawl's known file, listed again by an application, changed since the previous
   * run by the application's word: listed by a query for what changed, or with a modification
   * date after the previous run started. A file listed with no date is taken as unchanged.
   */
  listedAsChanged(file: ApplicationFile, enumeration: ApplicationEnumeration | null): boolean {
    const since = this.engine.parts.changedSince;
    if (!since) return false;
    if (enumeration?.listsChangesSince) return true;
    const modified = file.modified ? Date.parse(/[zZ]|[+-]\d\d:?\d\d$/.test(file.modified) ? file.modified : `${file.modified}Z`) : NaN;
    return Number.isFinite(modified) && modified > since.getTime();
  }

  /** Files the page states in a standard form (schema.org `Dataset`), downloaded like its new targets. */
  async downloadStatedFiles(html: string, pageUrl: string, page: FrontierLink): Promise<number> {
    const source = this.engine.parts.applications?.source;
    if (!source?.filesOnPage) return 0;
    const files = (await this.engine.parts.meter.time(() => source.filesOnPage!({ url: pageUrl, html }))).filter((file) => isInSite(file.url, this.engine.site));
    if (files.length === 0) return 0;
    const { downloaded } = await this.takeListedFiles(files, page, pageUrl, null);
    return downloaded;
  }

  /**
   * The files an enumeration page lists: typed from the declared MIME type or format, else from
   * the URL's extension, else by the URL classifier (a HEAD while it learns); targets downloaded
   * at once, each checked again by its answer. Known files of a re-crawl are checked with a
   * conditional GET when the listing says they changed. Files seen before are skipped.
   */
  private async takeListedFiles(files: readonly ApplicationFile[], action: FrontierLink, pageUrl: string, enumeration: ApplicationEnumeration | null): Promise<{ downloaded: number; changed: number }> {
    let downloaded = 0;
    let changed = 0;
    const recrawl = this.engine.parts.recrawl;
    for (const file of files) {
      if (!this.engine.parts.budget.canRequest() || this.engine.parts.signal.aborted) break;
      const url = normalizeUrl(file.url, pageUrl);
      if (!url || this.engine.parts.links.has(url) || !this.engine.acceptable(url, "redirect")) continue;
      const mime = file.mime ?? mimeOfUrlPath(url);
      // Declared as something else (a web page, a service): not requested, and left for the HTML crawl to meet.
      if (mime && !this.engine.parts.runner.isTargetMime(mime) && !recrawl?.knownFile(url)) continue;
      this.engine.parts.links.markSeen(url);
      const context: RequestContext = { kind: "target", tagPath: action.tagPath, groupId: null, depth: action.depth + 1, referrer: pageUrl };
      if (recrawl?.knownFile(url)) {
        if (this.listedAsChanged(file, enumeration) || recrawl.checkKnownFiles) changed += await this.knownFiles.check(url, context, action.tagPath);
        else recrawl.note(url, "seen");
        continue;
      }
      let type: "html" | "target" | "neither" | "downloaded";
      if (mime) type = "target";
      else {
        const extracted: ExtractedLink = { url, tagPath: action.tagPath, anchorText: file.record?.title ?? "", tag: "a" };
        type = this.engine.parts.typer.needsHead() ? await this.engine.typeLink(extracted, action) : this.engine.parts.typer.predict(url);
      }
      if (type === "downloaded") downloaded += 1;
      if (type !== "target") continue;
      const final = await this.engine.getFollowingRedirects(url, context, "target");
      if (!final) continue;
      this.engine.recordShape(url, final.outcome.result, final.outcome.isTarget, final.inSite);
      if (!final.outcome.isTarget) continue;
      this.engine.labelFetched(url, final.url, "target");
      if (this.engine.recordTarget(final.outcome, final.url, action, pageUrl, file.record ?? null)) downloaded += 1;
    }
    return { downloaded, changed };
  }
}
