/**
 * The crawl's web archive: implements the fetcher's ExchangeRecorder by writing, per exchange,
 * a `response` record (or a `revisit` when the same payload was archived before), its `request`
 * record (`WARC-Concurrent-To` the response, same date) and, when the crawl said why it asked, a
 * `metadata` record with those facts. Payloads are the bytes as received: content coding kept
 * (a gzip response keeps its gzip bytes), transfer coding removed by undici, so its
 * `Transfer-Encoding` header is kept as `X-Orig-Transfer-Encoding` (browsertrix and pywb do the same).
 */
import { randomUUID } from "node:crypto";
import path from "node:path";
import type { ArchivedPayload, ExchangeHead, ExchangeRecorder, ExchangeRecording, TruncationReason } from "../crawler/fetch/exchange-recorder";
import { cdxjLine } from "./cdxj";
import { PayloadBuffer } from "./payload-buffer";
import { isCompressedFormat } from "../export/mime-extensions";
import { WarcFileWriter, type WarcFileWriterOptions } from "./warc-file-writer";
import { type FramedRecord, framedWithBlock, frameRecord, httpHeadBlock, REVISIT_PROFILE } from "./warc-record-frame";

export interface WarcExchangeRecorderOptions extends WarcFileWriterOptions {
  /** Payloads smaller than this are always written in full (a revisit saves nothing on them). @default 0 */
  minRevisitBytes?: number;
}

/** Received payload bytes allowed to wait for the writer before the crawl is held back. */
const MAX_UNWRITTEN_BYTES = 64 * 1024 * 1024;

interface FirstCapture {
  url: string;
  date: string;
  recordId: string;
  contentEncoding: string;
  /** Where its response record landed (null if the archive failed before). */
  location: Promise<ArchivedPayload | null>;
}

export class WarcExchangeRecorder implements ExchangeRecorder {
  readonly writer: WarcFileWriter;
  /** Payload digest → the response that archived it first (revisits point there). */
  private readonly seen = new Map<string, FirstCapture>();
  private spills = 0;
  private readonly writing = new Set<Promise<void>>();
  /** Payload bytes received but not yet written; past {@link MAX_UNWRITTEN_BYTES} the crawl waits (`room`). */
  private unwritten = 0;
  private waiters: (() => void)[] = [];
  private readonly minRevisitBytes: number;

  constructor(private readonly options: WarcExchangeRecorderOptions) {
    this.writer = new WarcFileWriter(options);
    this.minRevisitBytes = options.minRevisitBytes ?? 0;
  }

  open(head: ExchangeHead): ExchangeRecording {
    // The response's HTTP head is known now: its block digest is hashed as the payload arrives.
    const httpHead = responseHttpHead(head);
    const payload = new PayloadBuffer(() => path.join(this.options.dir, `.payload-${process.pid}-${++this.spills}.tmp`), undefined, httpHead);
    let payloadDigest: string | null = null;
    return {
      chunk: (bytes) => payload.write(bytes),
      payloadSha256: () => payloadDigest?.slice("sha256:".length) ?? null,
      end: ({ truncated }) => {
        const bytes = payload.bytes;
        this.unwritten += bytes;
        payloadDigest = payload.digest();
        const location = this.write(head, httpHead, payload, payloadDigest, truncated).catch((error: unknown) => {
          this.writer.failure ??= error instanceof Error ? error : new Error(String(error));
          return null;
        });
        const done = location.then(() => {
          this.writing.delete(done);
          this.unwritten -= bytes;
          if (this.unwritten <= MAX_UNWRITTEN_BYTES) for (const wake of this.waiters.splice(0)) wake();
        });
        this.writing.add(done);
        // A truncated payload is not the body the crawl kept: nothing to read back.
        return truncated === null ? location : Promise.resolve(null);
      },
    };
  }

  /** Whether {@link sync} publishes the records to a shared bucket (see `WarcFileWriterOptions.publishTo`). */
  get publishes(): boolean {
    return Boolean(this.options.publishTo);
  }

  room(): Promise<void> {
    if (this.unwritten <= MAX_UNWRITTEN_BYTES || this.writer.failure) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /**
   * Waits for the records of every exchange ended so far and writes them to the file: the
   * locations they resolved with can then be stored (a reader finds whole records there).
   */
  async sync(): Promise<void> {
    await Promise.all([...this.writing]);
    await this.writer.sync();
  }

  /** Waits for the records of every finished exchange and closes the file. */
  async close(): Promise<void> {
    await Promise.all([...this.writing]);
    await this.writer.close();
  }

  /** Writes the exchange's records; resolves with where its payload lies (a revisit: the first capture's). */
  private async write(head: ExchangeHead, httpHead: Buffer, payload: PayloadBuffer, payloadDigest: string, truncated: TruncationReason | null): Promise<ArchivedPayload | null> {
    const settle: { located: (location: ArchivedPayload | null) => void } = { located: () => {} };
    try {
      return await this.writeRecords(head, httpHead, payload, payloadDigest, truncated, settle);
    } finally {
      settle.located(null); // a failed write: revisits of this payload must not wait forever (no-op once located)
    }
  }

  private async writeRecords(
    head: ExchangeHead,
    httpHead: Buffer,
    payload: PayloadBuffer,
    payloadDigest: string,
    truncated: TruncationReason | null,
    settle: { located: (location: ArchivedPayload | null) => void },
  ): Promise<ArchivedPayload | null> {
    const date = head.requestedAt.toISOString();
    const target = new URL(head.url);
    const uri = target.href;
    const responseId = `<urn:uuid:${randomUUID()}>`;
    const blockDigest = payload.blockDigest();
    const first = truncated === null && payload.bytes >= Math.max(1, this.minRevisitBytes) ? this.seen.get(payloadDigest) : undefined;
    // Field order as warcio's `WARCRecord.create` wrote them: the recorder's own, then URI, date, type.
    const fields: [string, string][] = [
      ["WARC-Record-ID", responseId],
      ["WARC-Payload-Digest", payloadDigest],
    ];
    if (head.remoteAddress) fields.push(["WARC-IP-Address", head.remoteAddress]);
    if (truncated) fields.push(["WARC-Truncated", truncated]);
    let response: FramedRecord;
    if (first) {
      await payload.discard();
      fields.push(
        ["WARC-Refers-To", first.recordId],
        ["WARC-Target-URI", uri],
        ["WARC-Date", date],
        ["WARC-Type", "revisit"],
        ["WARC-Profile", REVISIT_PROFILE],
        ["WARC-Refers-To-Target-URI", first.url],
        ["WARC-Refers-To-Date", first.date],
        ["Content-Type", "application/http; msgtype=response"],
      );
      // As warcio wrote it: a revisit without response headers has no HTTP head at all.
      response = framedWithBlock(fields, head.responseHeaders.length > 0 ? httpHead : null, null);
    } else {
      if (truncated === null && payload.bytes > 0) {
        const location = new Promise<ArchivedPayload | null>((resolve) => (settle.located = resolve));
        this.seen.set(payloadDigest, { url: head.url, date, recordId: responseId, contentEncoding: contentEncodingOf(head), location });
      }
      fields.push(["WARC-Target-URI", uri], ["WARC-Date", date], ["WARC-Type", "response"], ["Content-Type", "application/http; msgtype=response"], ["WARC-Block-Digest", blockDigest]);
      const encoded = head.responseHeaders.some(([name, value]) => name.toLowerCase() === "content-encoding" && value.trim() !== "" && value.trim().toLowerCase() !== "identity");
      response = {
        head: frameRecord(fields, httpHead, payload.bytes),
        body: payload.inMemory() ?? (() => payload.read()),
        bodyBytes: payload.bytes,
        stored: encoded || isCompressedFormat(mimeOf(head)),
      };
    }
    const request = framedWithBlock(
      [
        ["WARC-Concurrent-To", responseId],
        ["WARC-Target-URI", uri],
        ["WARC-Date", date],
        ["WARC-Type", "request"],
        ["WARC-Record-ID", `<urn:uuid:${randomUUID()}>`],
        ["Content-Type", "application/http; msgtype=request"],
      ],
      httpHeadBlock(`${head.method} ${target.pathname}${target.search} ${head.httpVersion}`, head.requestHeaders),
      null,
    );
    const records = [response, request];
    const facts = metadataFields(head, truncated);
    if (facts) {
      records.push(
        framedWithBlock(
          [
            ["WARC-Concurrent-To", responseId],
            ["Content-Type", "application/warc-fields"],
            ["WARC-Target-URI", uri],
            ["WARC-Date", date],
            ["WARC-Type", "metadata"],
            ["WARC-Record-ID", `<urn:uuid:${randomUUID()}>`],
          ],
          null,
          Buffer.from(facts),
        ),
      );
    }
    const mime = mimeOf(head);
    // Only GETs are indexed: a reader replaying a URL wants its body, not a HEAD's empty answer.
    const written = await this.writer.writeGroup(records, ([record]) =>
      record && head.method === "GET"
        ? [
            cdxjLine({
              url: head.url,
              parsedUrl: target,
              date,
              mime,
              status: head.status,
              digest: payloadDigest,
              offset: record.offset,
              length: record.length,
              filename: record.filename,
              recordId: responseId,
              recordType: first ? "revisit" : "response",
            }),
          ]
        : [],
    );
    const archivedAt = written?.[0];
    const location = archivedAt ? { file: path.join(this.options.dir, archivedAt.filename), offset: archivedAt.offset, length: archivedAt.length } : null;
    settle.located(location);
    if (!first) return location;
    // The first capture decodes to this body only under the same content coding.
    return first.contentEncoding === contentEncodingOf(head) ? first.location : null;
  }
}

function contentEncodingOf(head: ExchangeHead): string {
  return head.responseHeaders
    .filter(([name]) => name.toLowerCase() === "content-encoding")
    .map(([, value]) => value.trim().toLowerCase())
    .join(",");
}

function mimeOf(head: ExchangeHead): string {
  return (head.responseHeaders.find(([name]) => name.toLowerCase() === "content-type")?.[1] ?? "").split(";")[0]!.trim().toLowerCase();
}

/**
 * The response's HTTP head as archived: status line and headers as received, except that
 * `Transfer-Encoding` (undone by undici) is kept as `X-Orig-Transfer-Encoding`.
 */
function responseHttpHead(head: ExchangeHead): Buffer {
  const headers = head.responseHeaders.map(([name, value]): [string, string] =>
    name.toLowerCase() === "transfer-encoding" ? ["X-Orig-Transfer-Encoding", value] : [name, value],
  );
  return httpHeadBlock(`${head.httpVersion} ${head.status} ${head.statusText}`.trimEnd(), headers);
}

/** The crawl's facts about an exchange as `application/warc-fields`; null when it has none. */
function metadataFields(head: ExchangeHead, truncated: TruncationReason | null): string | null {
  const facts = head.facts;
  if (!facts) return null;
  const lines: string[] = [];
  const add = (name: string, value: string | number | null | undefined): void => {
    if (value === null || value === undefined || value === "") return;
    lines.push(`${name}: ${String(value).replace(/[\r\n]+/g, " ")}\r\n`);
  };
  add("forage-kind", facts.kind);
  add("forage-tag-path", facts.tagPath);
  add("forage-group", facts.groupId);
  add("forage-depth", facts.depth);
  add("forage-referrer", facts.referrer);
  add("forage-outcome", truncated ? `truncated (${truncated})` : "complete");
  return lines.join("");
}
