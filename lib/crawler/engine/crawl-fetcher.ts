import type { CrawlConfig } from "../crawl-config";
import type { ExchangeRecorder } from "../fetch/exchange-recorder";
import type { FetchRequest, FetchResult, Fetcher } from "../fetch/types";
import type { Budget } from "./budget";

/**
 * The crawl's size and time limits on every request it makes, whatever fetcher serves it
 * (HttpFetcher, a shared one, replay): pages are read up to `maxHtmlBytes` *decoded*, target files
 * up to `maxTargetBytes` decoded and never past what the disk quota has left, and every request
 * ends by `requestDeadlineMs`. Limits only ever tighten a request's own (robots.txt keeps its
 * 500 KiB). With a recorder, every exchange goes to the crawl's web archive too.
 */
export class CrawlFetcher implements Fetcher {
  constructor(
    private readonly inner: Fetcher,
    private readonly params: CrawlConfig["params"],
    private readonly budget: Budget,
    private readonly recorder: ExchangeRecorder | null = null,
  ) {}

  async fetch(request: FetchRequest): Promise<FetchResult> {
    const { maxHtmlBytes, maxTargetBytes, requestDeadlineMs } = this.params;
    const quotaLeft = this.budget.remainingDiskBytes();
    const streamLimit = Math.min(request.maxStreamedBytes ?? request.maxBodyBytes, maxTargetBytes);
    const quotaBound = quotaLeft < streamLimit;
    const result = await this.inner.fetch({
      ...request,
      maxBufferedBytes: Math.min(request.maxBufferedBytes ?? request.maxBodyBytes, maxHtmlBytes),
      maxStreamedBytes: Math.min(streamLimit, quotaLeft),
      deadlineMs: Math.min(request.deadlineMs ?? requestDeadlineMs, requestDeadlineMs),
      recorder: this.recorder ?? request.recorder,
    });
    await this.recorder?.room?.();
    if (quotaBound && result.outcome === "too-large" && result.streamed) {
      this.budget.noteQuotaCut();
      result.error = { code: "too-large", message: `${result.error?.message ?? "body too large"}: the crawl's disk quota (diskQuotaBytes) has ${quotaLeft} bytes left`, retryable: false };
    }
    return result;
  }
}
