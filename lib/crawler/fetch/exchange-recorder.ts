/**
 * The fetcher's hook for a web archive: every HTTP exchange as it went over the wire (request
 * headers sent, status line and header list as received, body bytes *before* content decoding).
 * lib/crawler defines it; the archive writer (lib/archive) implements it. The fetcher never waits
 * for the recorder and never fails because of it: a recording is handed bytes synchronously and
 * writes them later.
 */

/** What the crawl knows about why a URL was requested; written beside the exchange (WARC metadata). */
export interface ExchangeFacts {
  kind?: string;
  tagPath?: string | null;
  groupId?: number | null;
  depth?: number;
  referrer?: string | null;
}

/** One exchange once the response head has arrived. */
export interface ExchangeHead {
  method: "GET" | "HEAD";
  url: string;
  /** The request line's headers in the order sent (`host` first). */
  requestHeaders: [string, string][];
  /** When the request was sent. */
  requestedAt: Date;
  /** e.g. "HTTP/1.1". */
  httpVersion: string;
  status: number;
  statusText: string;
  /** Header names and values as received (case and order kept, repeats kept). */
  responseHeaders: [string, string][];
  /** The server's IP address, when known. */
  remoteAddress?: string;
  facts?: ExchangeFacts;
}

/** Why a recorded body is incomplete (WARC-Truncated values). */
export type TruncationReason = "length" | "time" | "disconnect" | "unspecified";

/**
 * Where an archived payload can be read back: the gzip member of the `response` record holding
 * it (for a revisit, the response that archived the payload first). `file` is an absolute path.
 */
export interface ArchivedPayload {
  file: string;
  offset: number;
  length: number;
}

export interface ExchangeRecording {
  /** A chunk of the body as received (content coding kept, transfer coding removed by undici). */
  chunk(bytes: Buffer): void;
  /**
   * The exchange is over; `truncated` when the body was not read to its end. A recorder that
   * can hand the payload back resolves with where it lies (null: not kept whole, or the archive failed).
   */
  end(outcome: { truncated: TruncationReason | null }): Promise<ArchivedPayload | null> | void;
  /**
   * Once ended: the hex SHA-256 of every byte handed to {@link chunk}, when the recorder computed
   * it anyway (null or absent otherwise). The fetcher reuses it for a body sent without coding.
   */
  payloadSha256?(): string | null;
}

export interface ExchangeRecorder {
  /** Called once per attempt that got a response head. */
  open(head: ExchangeHead): ExchangeRecording;
  /**
   * Resolves when the recorder has room for more (its unwritten bytes under its limit): the
   * crawl awaits it after each request, so a slow disk slows the crawl instead of filling memory.
   */
  room?(): Promise<void>;
}

const SILENT: ExchangeRecording = { chunk() {}, end() {}, payloadSha256: () => null };
const NOT_ARCHIVED: Promise<ArchivedPayload | null> = Promise.resolve(null);

/**
 * Opens a recording whose failures stay the recorder's business: a throwing recorder is
 * dropped for this exchange and the request goes on as if nothing recorded it.
 */
export function openRecording(recorder: ExchangeRecorder | undefined, head: () => ExchangeHead): ExchangeRecording {
  if (!recorder) return SILENT;
  let recording: ExchangeRecording;
  try {
    recording = recorder.open(head());
  } catch {
    return SILENT;
  }
  let failed = false;
  return {
    chunk(bytes) {
      if (failed) return;
      try {
        recording.chunk(bytes);
      } catch {
        failed = true;
      }
    },
    end(outcome) {
      if (failed) return NOT_ARCHIVED;
      try {
        return recording.end(outcome)?.catch(() => null) ?? undefined;
      } catch {
        failed = true;
        return NOT_ARCHIVED;
      }
    },
    payloadSha256() {
      if (failed) return null;
      try {
        return recording.payloadSha256?.() ?? null;
      } catch {
        return null;
      }
    },
  };
}
