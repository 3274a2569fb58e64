/**
 * A counting semaphore with a first-come, first-served line: at most `size` holders at once, the
 * others wait in the order they asked. Waiting ends early when the waiter's signal aborts.
 */
export class ContextSlots {
  private holders = 0;
  private readonly line: Array<{ grant: () => void }> = [];

  constructor(private readonly size: number) {}

  /** Waits for a slot and returns its release (calling it twice releases once). */
  acquire(signal?: AbortSignal): Promise<() => void> {
    if (signal?.aborted) return Promise.reject(abortError());
    if (this.holders < this.size && this.line.length === 0) {
      this.holders++;
      return Promise.resolve(this.releaser());
    }
    return new Promise((resolve, reject) => {
      const waiter = {
        grant: () => {
          signal?.removeEventListener("abort", leave);
          this.holders++;
          resolve(this.releaser());
        },
      };
      const leave = () => {
        const at = this.line.indexOf(waiter);
        if (at >= 0) this.line.splice(at, 1);
        reject(abortError());
      };
      signal?.addEventListener("abort", leave, { once: true });
      this.line.push(waiter);
    });
  }

  /** Slots held now. */
  held(): number {
    return this.holders;
  }

  /** Waiters in line now. */
  waiting(): number {
    return this.line.length;
  }

  private releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.holders--;
      this.line.shift()?.grant();
    };
  }
}

function abortError(): Error {
  const error = new Error("aborted");
  error.name = "AbortError";
  return error;
}
