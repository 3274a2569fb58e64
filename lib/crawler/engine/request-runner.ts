import type { CrawlConfig } from "../crawl-config";
import { judgeContent, SNIFF_BYTES, type ContentVerdict } from "../fetch/content-sniffing";
import { CookieJar } from "../fetch/cookie-jar";
import { HeadTap } from "../fetch/head-tap";
import { fetchWithRetry, type AttemptRecord } from "../fetch/retry";
import type { HostPoliteness } from "../fetch/host-politeness";
import type { RobotsCache } from "../fetch/robots";
import type { BodyDisposition, FetchMethod, FetchResult, Fetcher, ResponseHead } from "../fetch/types";
import type { Budget } from "./budget";
import type { EngineMeter } from "./engine-meter";
import type { CrawlCounters, CrawlSink, RequestKind, RequestRow, TargetBodyWriter } from "./types";

/** Live-editable settings (PATCH while running), read before every request. */
export interface LiveSettings {
  delayMs: number;
}

/** Context of one request for its log row. */
export interface RequestContext {
  kind: RequestKind;
  tagPath: string | null;
  groupId: number | null;
  depth: number;
  referrer: string | null;
}

/** What a request's body is for; "render": a browser's request while it renders a page (page-rendering.ts). */
export type BodyPlan = "page" | "target" | "sitemap" | "api" | "render" | "none";

/** Types an application's API answers with: JSON and its dialects (HAL, JSON-LD, JSON:API), RDF catalogs, or unlabelled. */
const API_MIMES = new Set([
  "application/json",
  "text/json",
  "application/hal+json",
  "application/ld+json",
  "application/vnd.api+json",
  "application/problem+json",
  "application/rdf+xml",
  "text/turtle",
  "text/ttl",
  "application/x-turtle",
  "text/n3",
  "application/n-triples",
  "application/n-quads",
  "application/xml",
  "text/xml",
  "text/plain",
  "application/octet-stream",
]);

/** Types a sitemap is served as: XML, gzip (`.xml.gz` without Content-Encoding), plain text, or unlabelled. */
const SITEMAP_MIMES = new Set(["application/xml", "text/xml", "application/gzip", "application/x-gzip", "text/plain", "application/octet-stream"]);

export interface RequestOutcome {
  result: FetchResult;
  /** The counted sequence number of the final attempt. */
  seq: number;
  isTarget: boolean;
  /** Set when the body of a target went to disk. */
  stored: { sha256: string; bytes: number; storagePath: string } | null;
  /** What the streamed body's first bytes showed (content-sniffing.ts); null when no body was streamed. */
  content: ContentVerdict | null;
}

/** The error prefix (and event kind) of an answer with a target type whose content showed it was none. */
export const NOT_A_TARGET = "not-a-target";

/** Rejected bodies told one by one in the crawl's events; later ones only in their request rows. */
const REJECTION_EVENTS = 10;

/**
 * Makes one counted request (with its retries) through politeness, robots.txt and the budget,
 * records every attempt, and streams target bodies to the sink; keeps the crawl's cookies.
 * Redirects are not followed here: the engine follows them, one counted request per hop.
 */
export class RequestRunner {
  private readonly targetMimes: Set<string>;
  private readonly blockedMimes: readonly string[];

  constructor(
    private readonly config: CrawlConfig,
    private readonly fetcher: Fetcher,
    private readonly politeness: HostPoliteness,
    private readonly robots: RobotsCache | null,
    private readonly sink: CrawlSink,
    private readonly counters: CrawlCounters,
    private readonly budget: Budget,
    private readonly live: () => LiveSettings,
    private readonly signal: AbortSignal,
    private readonly owner: string,
    private readonly keepPageBodies: boolean,
    private readonly meter: EngineMeter,
    /** The crawl's cookies (checkpointed with the engine's state). */
    readonly cookies: CookieJar = new CookieJar(),
  ) {
    this.targetMimes = new Set(config.targetMimeTypes);
    this.blockedMimes = config.blocklist.mimeTypes;
  }

  /** Why robots.txt refused the latest skipped URL ("404: no robots.txt", "503: unreachable"…). */
  lastRobotsRefusal: string | null = null;

  /** Bodies served as targets that their first bytes showed were not (content-sniffing.ts). */
  private rejectedBodies = 0;

  isTargetMime(mime: string): boolean {
    return this.targetMimes.has(mime);
  }

  isHtmlMime(mime: string): boolean {
    return mime === "text/html" || mime === "application/xhtml+xml";
  }

  /** The `Sitemap:` URLs of the robots.txt of `url`'s origin ([] when robots.txt is not obeyed or lists none). */
  async sitemapsListed(url: string): Promise<string[]> {
    if (!this.robots) return [];
    return (await this.robots.rulesFor(url, this.signal)).sitemaps;
  }

  /** robots.txt verdict; records a skip (uncounted row) when disallowed. */
  async allowedByRobots(url: string, context: RequestContext): Promise<boolean> {
    if (!this.robots) return true;
    const rules = await this.robots.rulesFor(url, this.signal);
    if (rules.isAllowed(url)) return true;
    this.lastRobotsRefusal = rules.reason;
    this.counters.robotsSkips += 1;
    this.sink.request({
      ...this.baseRow(context, "GET", url),
      seq: 0,
      outcome: "robots-disallowed",
      error: `robots.txt: ${rules.reason}`,
    });
    return false;
  }

  async crawlDelayMs(url: string): Promise<number | null> {
    if (!this.robots) return null;
    const rules = await this.robots.rulesFor(url, this.signal);
    return rules.crawlDelayMs();
  }

  /**
   * One counted request (plus retries while the budget allows). Null when no budget is left.
   * `extraHeaders`: lower-case names, e.g. a re-crawl's `if-none-match` for a known file.
   */
  async request(method: FetchMethod, url: string, context: RequestContext, plan: BodyPlan, extraHeaders?: Record<string, string>): Promise<RequestOutcome | null> {
    if (!this.budget.canRequest()) return null;
    const { maxHtmlBytes, maxTargetBytes } = this.config.params;
    let writer: TargetBodyWriter | null = null;
    let tap: HeadTap | null = null;
    let verdict: ContentVerdict | null = null;
    let lastSeq = 0;
    const wantBody = (mime: string, head: ResponseHead): BodyDisposition => {
      if (head.status < 200 || head.status >= 300) return false;
      // A sitemap is read into memory, never kept as a target, within the page size cap.
      if (plan === "sitemap") return SITEMAP_MIMES.has(mime) && (head.contentLength === null || head.contentLength <= maxHtmlBytes);
      // An API answer is read into memory and never kept as a target, even when its type is one.
      if (plan === "api") return API_MIMES.has(mime) && (head.contentLength === null || head.contentLength <= maxHtmlBytes);
      // Scripts, JSON, HTML fragments a rendering page asked for: read into memory for the browser, never kept
      // as a target (a JSON answer of the site's API is no file a user asked for, even when JSON is a target type).
      if (plan === "render") return head.contentLength === null || head.contentLength <= maxHtmlBytes;
      if (this.targetMimes.has(mime)) return "stream";
      if (plan === "page" && this.isHtmlMime(mime)) return head.contentLength === null || head.contentLength <= maxHtmlBytes;
      return false;
    };
    const cookie = this.cookies.header(url);
    const { result } = await fetchWithRetry(
      this.fetcher,
      {
        method,
        url,
        headers: cookie === undefined && !extraHeaders ? undefined : { ...extraHeaders, ...(cookie === undefined ? {} : { cookie }) },
        facts: context,
        signal: this.signal,
        maxBodyBytes: Math.max(maxHtmlBytes, maxTargetBytes),
        blockedMimePrefixes: this.blockedMimes,
        wantBody,
        openSink: () => {
          // A retry opens a fresh sink; the previous attempt's partial file is discarded.
          void writer?.discard();
          writer = this.sink.openTargetBody();
          tap = new HeadTap(writer.writable, SNIFF_BYTES);
          return tap;
        },
      },
      {
        politeness: this.politeness,
        delayMs: this.live().delayMs,
        crawlDelayMs: await this.crawlDelayMs(url),
        owner: this.owner,
        canRetry: () => this.budget.canRequest(),
        onAttempt: async (attempt) => {
          this.cookies.store(url, attempt.headers["set-cookie"]);
          // The attempt's streamed body, judged by its first bytes before its row says whether it is a target.
          const streamedTap = attempt.streamed ? (tap as HeadTap | null) : null;
          tap = null;
          verdict = streamedTap && this.looksLikeTarget(attempt, plan) ? await judgeContent(streamedTap.head(), attempt.mime, attempt.url) : null;
          const attemptVerdict = verdict;
          lastSeq = this.meter.time(() => this.recordAttempt(attempt, context, plan, attemptVerdict));
        },
      },
    );
    const content = verdict as ContentVerdict | null;
    const isTarget = this.looksLikeTarget(result, plan) && !content?.rejection;
    let stored: RequestOutcome["stored"] = null;
    const pendingWriter = writer as TargetBodyWriter | null;
    if (pendingWriter) {
      if (isTarget && result.streamed) stored = await pendingWriter.commit();
      else await pendingWriter.discard();
    }
    return { result, seq: lastSeq, isTarget, stored, content };
  }

  /** A 2xx GET answered with a target type, before its content is judged. */
  private looksLikeTarget(answer: Pick<FetchResult, "method" | "outcome" | "status" | "mime">, plan: BodyPlan): boolean {
    return plan !== "api" && plan !== "render" && answer.method === "GET" && answer.outcome === "ok" && answer.status >= 200 && answer.status < 300 && this.targetMimes.has(answer.mime);
  }

  private recordAttempt(attempt: AttemptRecord, context: RequestContext, plan: BodyPlan, verdict: ContentVerdict | null): number {
    const counters = this.counters;
    counters.requests += 1;
    if (attempt.method === "HEAD") counters.headRequests += 1;
    else counters.getRequests += 1;
    const bytes = attempt.wireBytes + attempt.headerBytes;
    const rejection = verdict?.rejection ?? null;
    const isTarget = this.looksLikeTarget(attempt, plan) && rejection === null;
    if (rejection !== null) this.noteRejection(attempt.url, rejection);
    if (isTarget) counters.targetBytes += bytes;
    else counters.nonTargetBytes += bytes;
    if (attempt.outcome === "error" || attempt.status >= 400) counters.errors += 1;
    const isRedirect = attempt.status >= 300 && attempt.status < 400 && attempt.location !== null;
    let bodySha256: string | null = null;
    // API answers and a rendering browser's too: a replay or a resumed crawl reads them again from there.
    if (this.keepPageBodies && attempt.body && attempt.method === "GET" && (this.isHtmlMime(attempt.mime) || plan === "api" || plan === "render")) {
      bodySha256 = this.sink.pageBody(attempt.body, attempt.archived);
    }
    this.sink.request({
      ...this.baseRow(context, attempt.method, attempt.url),
      seq: counters.requests,
      status: attempt.status || null,
      mime: attempt.mime || null,
      bytes,
      durationMs: Math.round(attempt.durationMs),
      isTarget,
      outcome: attempt.outcome === "ok" && isRedirect ? "redirect" : attempt.outcome,
      error: attempt.error ? `${attempt.error.code}: ${attempt.error.message}` : rejection === null ? null : `${NOT_A_TARGET}: ${rejection}`,
      redirectTo: isRedirect ? attempt.location : null,
      headers: this.keepPageBodies ? JSON.stringify(attempt.headers) : null,
      bodySha256,
      startedAt: new Date(Date.now() - attempt.durationMs),
    });
    return counters.requests;
  }

  /** The first rejections as warnings in the crawl's events; every one stays in its request row. */
  private noteRejection(url: string, rejection: string): void {
    this.rejectedBodies += 1;
    if (this.rejectedBodies > REJECTION_EVENTS) return;
    const more = this.rejectedBodies === REJECTION_EVENTS ? ` (later ones only in the request log, error "${NOT_A_TARGET}")` : "";
    this.sink.event({ level: "warn", kind: NOT_A_TARGET, message: `Not kept: ${url}: ${rejection}${more}`, data: { url } });
  }

  private baseRow(context: RequestContext, method: FetchMethod, url: string): RequestRow {
    return {
      seq: 0,
      kind: context.kind,
      method,
      url,
      status: null,
      mime: null,
      bytes: 0,
      durationMs: 0,
      tagPath: context.tagPath,
      groupId: context.groupId,
      depth: context.depth,
      referrer: context.referrer,
      isTarget: false,
      outcome: "ok",
      error: null,
      redirectTo: null,
      headers: null,
      bodySha256: null,
      startedAt: new Date(),
    };
  }
}
