import { Writable } from "node:stream";

/**
 * A Writable in front of another that keeps a copy of the first `limit` bytes written through it:
 * the head of a streamed body, for content sniffing, without a second read of the file and
 * without holding more than `limit` bytes. Writes, back-pressure, end and destroy pass through.
 */
export class HeadTap extends Writable {
  private readonly chunks: Buffer[] = [];
  private kept = 0;

  constructor(
    private readonly inner: Writable,
    private readonly limit: number,
  ) {
    super();
    inner.once("error", (err) => this.destroy(err));
  }

  /** The first bytes written (at most `limit`). */
  head(): Buffer {
    return this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks, this.kept);
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, done: (error?: Error | null) => void): void {
    if (this.kept < this.limit) {
      const part = chunk.subarray(0, this.limit - this.kept);
      // A copy: the stage before may reuse its buffer.
      this.chunks.push(Buffer.from(part));
      this.kept += part.length;
    }
    if (this.inner.write(chunk)) done();
    else this.inner.once("drain", () => done());
  }

  override _final(done: (error?: Error | null) => void): void {
    if (this.inner.writableFinished) return done();
    const onFinish = (): void => {
      this.inner.off("error", onError);
      done();
    };
    const onError = (err: Error): void => {
      this.inner.off("finish", onFinish);
      done(err);
    };
    this.inner.once("finish", onFinish);
    this.inner.once("error", onError);
    this.inner.end();
  }

  override _destroy(error: Error | null, done: (error?: Error | null) => void): void {
    if (!this.inner.destroyed && !this.inner.writableFinished) this.inner.destroy(error ?? undefined);
    done(error);
  }
}
