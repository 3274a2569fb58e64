import { createHash } from "node:crypto";
import { Writable } from "node:stream";
import type {
  CrawlCounters,
  CrawlSink,
  EventRow,
  GroupRow,
  MetricRow,
  RequestRow,
  TargetBodyWriter,
  TargetRow,
} from "./types";

/**
 * A sink that keeps everything in memory and hashes target bodies without writing them:
 * for tests and for the benchmark's strategy comparisons, where the database is not the
 * subject. `keepRows: false` keeps only counts (million-request runs).
 */
export class MemorySink implements CrawlSink {
  readonly requests: RequestRow[] = [];
  readonly targets: TargetRow[] = [];
  readonly metricRows: MetricRow[] = [];
  readonly events: EventRow[] = [];
  latestGroups: GroupRow[] = [];
  latestCounters: CrawlCounters | null = null;
  requestCount = 0;

  constructor(private readonly keepRows = true) {}

  request(row: RequestRow): void {
    this.requestCount += 1;
    if (this.keepRows) this.requests.push(row);
  }

  openTargetBody(): TargetBodyWriter {
    const hash = createHash("sha256");
    let bytes = 0;
    const writable = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        hash.update(chunk);
        bytes += chunk.length;
        callback();
      },
    });
    const finished = new Promise<void>((resolve, reject) => {
      writable.once("finish", resolve);
      writable.once("error", reject);
      writable.once("close", resolve);
    });
    finished.catch(() => undefined); // a failed body is reported by commit(); discard() ignores it
    return {
      writable,
      async commit() {
        await finished;
        const sha256 = hash.digest("hex");
        return { sha256, bytes, storagePath: `memory/${sha256}` };
      },
      async discard() {
        writable.destroy();
      },
    };
  }

  target(row: TargetRow): void {
    this.targets.push(row);
  }

  pageBody(body: Buffer): string {
    return createHash("sha256").update(body).digest("hex");
  }

  metrics(row: MetricRow): void {
    if (this.keepRows) this.metricRows.push(row);
  }

  groups(rows: GroupRow[]): void {
    this.latestGroups = rows;
  }

  event(row: EventRow): void {
    this.events.push(row);
  }

  counters(counters: CrawlCounters): void {
    this.latestCounters = counters;
  }

  async flush(): Promise<void> {}
}
