/**
 * A counting semaphore with a bounded line: at most `concurrency` tasks run at once, at most
 * `maxWaiting` wait (first come, first served), and a task beyond that is refused at once with
 * `SlotsFullError` rather than queued without end (a queue without bound turns a flood into
 * unbounded memory and ever-later answers).
 */
export class SlotsFullError extends Error {
  override name = "SlotsFullError";
}

export class WorkSlots {
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(
    private concurrency: number,
    private maxWaiting: number,
  ) {
    if (!Number.isInteger(concurrency) || concurrency < 1) throw new RangeError(`concurrency must be a positive integer, got ${concurrency}`);
  }

  /** Changes the limits; tasks already running or waiting keep their place. */
  resize(concurrency: number, maxWaiting: number): void {
    if (!Number.isInteger(concurrency) || concurrency < 1) throw new RangeError(`concurrency must be a positive integer, got ${concurrency}`);
    this.concurrency = concurrency;
    this.maxWaiting = maxWaiting;
    this.next();
  }

  /** Runs `task` in a slot. @throws SlotsFullError when every slot is taken and the line is full. */
  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.running >= this.concurrency) {
      if (this.waiting.length >= this.maxWaiting) throw new SlotsFullError(`${this.running} running and ${this.waiting.length} waiting`);
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else {
      this.running++;
    }
    try {
      return await task();
    } finally {
      this.running--;
      this.next();
    }
  }

  /** Tasks running and waiting now. */
  get load(): { running: number; waiting: number } {
    return { running: this.running, waiting: this.waiting.length };
  }

  private next(): void {
    while (this.running < this.concurrency && this.waiting.length > 0) {
      this.running++;
      this.waiting.shift()!();
    }
  }
}
