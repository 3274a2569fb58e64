/**
 * The page's network activity as the renderer sees it (every request passes its interception):
 * requests in flight and when the last one started or ended. A page is quiet when nothing has
 * been in flight for `quietMs`; scripts that fetch their content do so within that.
 */
export class RequestActivity {
  private inFlight = 0;
  private lastChange = performance.now();
  /** Starts, ends and touches so far: tells whether anything happened between two looks. */
  changes = 0;

  started(): void {
    this.inFlight++;
    this.changed();
  }

  finished(): void {
    this.inFlight--;
    this.changed();
  }

  /** Something the page reacts to (a click, a scroll) counts as activity: quiet is measured from it. */
  touch(): void {
    this.changed();
  }

  private changed(): void {
    this.changes++;
    this.lastChange = performance.now();
  }

  isQuiet(quietMs: number): boolean {
    return this.inFlight === 0 && performance.now() - this.lastChange >= quietMs;
  }

  /** Resolves once the page is quiet, polling every `pollMs`; never while `stop` is aborted (then it rejects). */
  async quiet(quietMs: number, stop: AbortSignal, pollMs = 50): Promise<void> {
    while (!this.isQuiet(quietMs)) {
      if (stop.aborted) throw new Error("stopped");
      await new Promise((resolve) => setTimeout(resolve, pollMs));
    }
  }
}
