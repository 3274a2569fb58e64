/**
 * Time spent in the engine's own synchronous work — link extraction and tag paths, URL rules,
 * projection and grouping, bandit, classifier, bookkeeping, request-row and page-body storage,
 * database flushes — excluding waits on the network. Synchronous code on one thread: its wall
 * time is its CPU time. `forage bench` reports it per request next to the process's total CPU
 * (which also counts undici, TLS-free loopback sockets and target-file writes).
 */
export class EngineMeter {
  ms = 0;
  private startedAt = 0;

  start(): void {
    this.startedAt = performance.now();
  }

  stop(): void {
    this.ms += performance.now() - this.startedAt;
  }

  time<T>(fn: () => T): T {
    const started = performance.now();
    try {
      return fn();
    } finally {
      this.ms += performance.now() - started;
    }
  }

  async timeAsync<T>(fn: () => Promise<T>): Promise<T> {
    const started = performance.now();
    try {
      return await fn();
    } finally {
      this.ms += performance.now() - started;
    }
  }
}
