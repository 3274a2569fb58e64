/**
 * warcio's WARC parser with bounds. warcio reads a header line until its `\n` and a header block
 * until its `\r\n\r\n`, holding every byte before them: a line without end (a small gzip member
 * inflates to hundreds of MB of one line) is held whole, copied, then decoded into a string past
 * V8's limit ("Invalid string length"), the process meanwhile grown by gigabytes. It also spins
 * forever skipping a record cut short (its `LimitReader.skipFully` subtracts the 0 bytes a
 * finished stream returns and tries again).
 *
 * Rather than a second WARC parser in front of warcio (whose framing would have to agree with
 * warcio's byte for byte, or the bound would guard the wrong bytes), the bound sits under it:
 * warcio accepts its own `AsyncIterReader` as the source, and every byte it consumes comes
 * through that reader's `_next()`. `BoundedReader` counts the bytes each record's head takes
 * (between `parse()` calls: blank lines, WARC header block, HTTP header block) and refuses one
 * line over `headerLineBytes` or a head over `recordHeadBytes`; bytes warcio hands back
 * (`unread`) are credited, skipped bytes are not held and not counted. A record's body may be
 * held whole by warcio's de-chunker (one chunk of a chunked payload is read in one piece), so
 * the caller may cap the bytes read of a body too (`limitBody`): past it, `BodyOverLimitError`.
 */
import { AsyncIterReader, LimitReader, WARCParser, type StatusAndHeaders, type WARCRecord } from "warcio";
import type { Readable } from "node:stream";
import { ARCHIVE_LIMITS, type ArchiveLimits } from "./archive-limits";
import { ImportError, importErrorAt } from "./import-error";

/** A record body read past the cap the caller set with `limitBody`: the record is too large, the archive may be fine. */
export class BodyOverLimitError extends Error {
  override name = "BodyOverLimitError";
}

const EMPTY = new Uint8Array(0);
const DECODER = new TextDecoder();

/** Reads of a finished stream warcio makes in normal operation are a handful. */
const MAX_READS_PAST_END = 10_000;

class BoundedReader extends AsyncIterReader {
  /** Bytes the current record's head may still take (Infinity while a body is read). */
  headLeft = Infinity;
  /** Bytes the current body may still take. */
  bodyLeft = Infinity;
  /** The record being read, counted from 1, for messages. */
  record = 0;
  private skipping = false;
  private readsPastEnd = 0;

  constructor(
    source: Readable,
    private readonly where: string,
    private readonly limits: ArchiveLimits,
  ) {
    super(source);
  }

  override async _next(): Promise<Uint8Array | null> {
    const chunk = await super._next();
    if (chunk && !this.skipping) {
      this.headLeft -= chunk.length;
      this.bodyLeft -= chunk.length;
      if (this.headLeft < 0) throw new ImportError(`${this.where}: record ${this.record}: its WARC and HTTP headers run past ${this.limits.recordHeadBytes} bytes (a header block without its blank line?)`);
      if (this.bodyLeft < 0) {
        // Handed back, so the record's LimitReader still counts it and skipping it stays in step.
        this.unread(chunk);
        this._readOffset += chunk.length;
        throw new BodyOverLimitError("record body over the limit");
      }
    }
    return chunk;
  }

  /** warcio ends quietly where a gzip member is cut: the file ended before the member did. */
  override async _loadNext(): Promise<Uint8Array | null> {
    let chunk: Uint8Array | null;
    try {
      chunk = await super._loadNext();
    } catch (error) {
      // The stream under the parser: a ZIP entry inflating past its size, a read error.
      throw importErrorAt(this.where, error);
    }
    // warcio loops that miss the end of the stream (a cut record's skip did) spin on microtasks,
    // where no timer can stop them: a bug turned into an error.
    if (chunk === null && ++this.readsPastEnd > MAX_READS_PAST_END) throw new Error(`${this.where}: the WARC parser kept reading past the end of the stream`);
    if (chunk === null && this.compressed && this.lastValue !== null && this.inflator && !this.inflator.ended) {
      throw new ImportError(`${this.where}: record ${this.record}: a gzip member cut short (a truncated file?)`);
    }
    return chunk;
  }

  override unread(chunk: Uint8Array): void {
    super.unread(chunk);
    if (!this.skipping) {
      this.headLeft += chunk.length;
      this.bodyLeft += chunk.length;
    }
  }

  override async _readOrSkip(sizeLimit = -1, skip = false): Promise<readonly [number, Uint8Array]> {
    if (!skip) return super._readOrSkip(sizeLimit, skip);
    this.skipping = true;
    try {
      return await super._readOrSkip(sizeLimit, skip);
    } finally {
      this.skipping = false;
    }
  }

  /** Lines warcio reads without a length (WARC and HTTP status lines, lines between records) get one. */
  override async readlineRaw(maxLength?: number): Promise<Uint8Array | null> {
    if (maxLength) return super.readlineRaw(maxLength);
    const limit = this.limits.headerLineBytes;
    const line = await super.readlineRaw(limit + 1);
    if (line && line.length > limit && line[line.length - 1] !== 0x0a) {
      throw new ImportError(`${this.where}: record ${this.record}: a header line over ${limit} bytes without its line end`);
    }
    return line;
  }
}

/** warcio's `LimitReader` that refuses a record the stream ends inside (warcio's read stops short, its skip spins). */
class RecordReader extends LimitReader {
  constructor(
    source: AsyncIterReader,
    length: number,
    private readonly where: string,
  ) {
    super(source, length);
  }

  /** Ends early only when the reader stops, or the stream ended first: then the record is cut. */
  override async *[Symbol.asyncIterator](): AsyncGenerator<Uint8Array, void, unknown> {
    yield* super[Symbol.asyncIterator]();
    if (this.limit > 0) throw new ImportError(`${this.where}: cut short (${this.limit} of its bytes missing: a truncated file?)`);
  }

  override async skipFully(): Promise<number> {
    const length = this.limit;
    while (this.limit > 0) {
      const skipped = await this.sourceIter.skipSize(this.limit);
      if (skipped === 0) throw new ImportError(`${this.where}: cut short (${this.limit} of its bytes missing: a truncated file?)`);
      this.limit -= skipped;
    }
    return length;
  }
}

/**
 * Iterate with `for await (const record of parser)`; read or skip each record's body before the
 * next (warcio's contract). Throws ImportError for a malformed archive.
 */
export class BoundedWarcParser extends WARCParser {
  private readonly bounded: BoundedReader;
  private records = 0;

  constructor(
    source: Readable,
    private readonly where: string,
    private readonly limits: ArchiveLimits = ARCHIVE_LIMITS,
  ) {
    const reader = new BoundedReader(source, where, limits);
    super(reader, { keepHeadersCase: true });
    this.bounded = reader;
  }

  override async parse(): Promise<WARCRecord | null> {
    this.bounded.bodyLeft = Infinity;
    this.bounded.headLeft = this.limits.recordHeadBytes;
    this.records += 1;
    this.bounded.record = this.records;
    try {
      return await super.parse();
    } catch (error) {
      if (error instanceof ImportError) throw error;
      // warcio's own refusals, a gzip or ZIP stream's errors.
      throw new ImportError(`${this.where}: record ${this.records}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    } finally {
      this.bounded.headLeft = Infinity;
    }
  }

  /**
   * warcio's own, less its `console.warn` for a record longer than its Content-Length (one line
   * of stderr per sloppy record, which would break `forage import`'s one-line report and flood
   * a fuzz run): the bytes between records are skipped the same way, in the same order.
   */
  override async readToNextRecord(): Promise<Uint8Array | null> {
    if (!this._reader || !this._record) return EMPTY;
    await this._record.skipFully();
    if (this._reader.compressed) this._offset = this._reader.getRawOffset();
    let line = await this._reader.readlineRaw();
    if (line && line.byteLength === 10 && DECODER.decode(line).startsWith("WARC/")) return line;
    if (this._reader.compressed) {
      await this._reader.skipSize(2);
      return EMPTY;
    }
    line = await this._reader.readlineRaw();
    while (line && line.byteLength === 2) line = await this._reader.readlineRaw();
    this._offset = this._reader.getRawOffset() - (line?.length ?? 0);
    return line;
  }

  override _initRecordReader(warcHeaders: StatusAndHeaders): LimitReader {
    const length = Number(warcHeaders.headers.get("Content-Length") ?? 0);
    if (!Number.isSafeInteger(length) || length < 0) throw new ImportError(`${this.where}: record ${this.records}: Content-Length is not a byte count`);
    return new RecordReader(this._reader, length, `${this.where}: record ${this.records}`);
  }

  /** Caps the bytes the current record's body may read (wire bytes, before de-chunking and decoding). */
  limitBody(bytes: number): void {
    this.bounded.bodyLeft = bytes;
  }
}
