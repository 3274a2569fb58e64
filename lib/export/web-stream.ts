/**
 * A pull-based Web stream over text chunks: the next chunk is produced only when the client
 * has read the previous one, so a slow download never makes the server buffer the whole file,
 * and a cancelled download stops the generator (and its database paging) at once.
 */
export function textStream(chunks: AsyncIterable<string>): ReadableStream<Uint8Array> {
  const iterator = chunks[Symbol.asyncIterator]();
  const encoder = new TextEncoder();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await iterator.next();
      if (next.done) controller.close();
      else controller.enqueue(encoder.encode(next.value));
    },
    async cancel() {
      await iterator.return?.();
    },
  });
}
