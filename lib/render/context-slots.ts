/** What a holder gets: an idle item kept under its key (reused as it is), or a slot to open a new one in. */
export type SlotGrant<T> = { kind: "kept"; item: T } | { kind: "new" };

export interface ContextSlotsOptions<T> {
  /** Slots in all: items in use, idle and closing count alike. */
  size: number;
  /** An idle item unused this long is closed. */
  idleMs: number;
  /** Closes an idle item let go (unused too long, its slot wanted by another key, or `closeIdle`); its slot is free once this settles. */
  close: (item: T) => Promise<void>;
}

interface IdleItem<T> {
  key: string;
  item: T;
  timer: NodeJS.Timeout;
}

interface Waiter<T> {
  key: string | null;
  grant: (grant: SlotGrant<T>) => void;
}

/**
 * A counting semaphore whose holders may leave their item (a browser context) idle under a key
 * instead of closing it: the next holder asking with that key takes it as it is. At most `size`
 * slots are held, idle and closing items included; the others wait first come, first served. A
 * waiter no free slot serves has the least recently used idle item closed for it. Waiting ends
 * early when the waiter's signal aborts.
 */
export class ContextSlots<T> {
  private holders = 0;
  private closing = 0;
  /** Least recently used first. */
  private readonly idle: Array<IdleItem<T>> = [];
  private readonly line: Array<Waiter<T>> = [];

  constructor(private readonly options: ContextSlotsOptions<T>) {}

  /** Waits for a slot: an idle item kept under `key` (never for a null key), or a free slot. */
  acquire(key: string | null, signal?: AbortSignal): Promise<SlotGrant<T>> {
    if (signal?.aborted) return Promise.reject(abortError());
    return new Promise((resolve, reject) => {
      const waiter: Waiter<T> = {
        key,
        grant: (grant) => {
          signal?.removeEventListener("abort", leave);
          resolve(grant);
        },
      };
      const leave = () => {
        const at = this.line.indexOf(waiter);
        if (at >= 0) this.line.splice(at, 1);
        reject(abortError());
      };
      signal?.addEventListener("abort", leave, { once: true });
      this.line.push(waiter);
      this.pump();
    });
  }

  /** The holder is done and its item is fit for reuse: kept idle under `key`, its slot still held. */
  keep(key: string, item: T): void {
    const entry: IdleItem<T> = { key, item, timer: setTimeout(() => void this.evict(entry), this.options.idleMs) };
    // An idle item never keeps the process alive.
    entry.timer.unref();
    this.idle.push(entry);
    this.pump();
  }

  /** The holder is done and had no item open: its slot is free. */
  release(): void {
    this.holders--;
    this.pump();
  }

  /** The holder is done and its item is closing: the slot is free once `closed` settles. */
  releaseWhen(closed: Promise<unknown>): void {
    this.closing++;
    void closed
      .catch(() => undefined)
      .finally(() => {
        this.closing--;
        this.release();
      });
  }

  /** Closes every idle item; resolves once they have closed. */
  async closeIdle(): Promise<void> {
    await Promise.all([...this.idle].map((entry) => this.evict(entry)));
  }

  /** Slots held now (in use, idle or closing). */
  held(): number {
    return this.holders;
  }

  /** Idle items kept now. */
  idleCount(): number {
    return this.idle.length;
  }

  /** Waiters in line now. */
  waiting(): number {
    return this.line.length;
  }

  private pump(): void {
    while (this.line.length > 0) {
      const head = this.line[0]!;
      const at = head.key === null ? -1 : this.idle.findIndex((entry) => entry.key === head.key);
      if (at >= 0) {
        const [entry] = this.idle.splice(at, 1);
        clearTimeout(entry!.timer);
        this.line.shift();
        head.grant({ kind: "kept", item: entry!.item });
      } else if (this.holders < this.options.size) {
        this.holders++;
        this.line.shift();
        head.grant({ kind: "new" });
      } else break;
    }
    // Waiters no closing item will make room for: each has the least recently used idle item closed.
    let uncovered = this.line.length - this.closing;
    while (uncovered > 0 && this.idle.length > 0) {
      void this.evict(this.idle[0]!);
      uncovered--;
    }
  }

  private evict(entry: IdleItem<T>): Promise<void> {
    const at = this.idle.indexOf(entry);
    if (at < 0) return Promise.resolve();
    this.idle.splice(at, 1);
    clearTimeout(entry.timer);
    const closed = this.options.close(entry.item).catch(() => undefined);
    this.releaseWhen(closed);
    return closed;
  }
}

function abortError(): Error {
  const error = new Error("aborted");
  error.name = "AbortError";
  return error;
}
