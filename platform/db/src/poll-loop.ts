/**
 * The polling half of a small outbox (shopper mail, ad events): run a batch now and then, at once
 * again while batches come back full or something new was stored meanwhile (`nudge`), never two
 * batches at a time in one process, and stop cleanly (waiting for the batch under way).
 */
export class PollLoop {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<unknown> | null = null;
  private again = false;
  private stopped = true;

  constructor(
    private readonly opts: {
      /** One batch; returns how many it claimed. */
      runOnce: () => Promise<number>;
      /** A batch this full means more may be waiting. */
      batchSize: number;
      pollMs: number;
      /** A batch that threw: logged, and the loop goes on at the next poll. */
      onError: (error: unknown) => void;
    },
  ) {}

  start() {
    if (!this.stopped) return;
    this.stopped = false;
    this.schedule(0);
  }

  async stop() {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
  }

  /** Something was stored: run now rather than at the next poll. */
  nudge() {
    if (this.stopped) return;
    if (this.running) this.again = true;
    else this.schedule(0);
  }

  private schedule(delay: number) {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.tick();
    }, delay);
    this.timer.unref?.();
  }

  private async tick() {
    if (this.running || this.stopped) return;
    let claimed = 0;
    this.running = this.opts.runOnce().then(
      (count) => (claimed = count),
      (error: unknown) => this.opts.onError(error),
    );
    await this.running;
    this.running = null;
    const again = this.again || claimed >= this.opts.batchSize;
    this.again = false;
    this.schedule(again ? 0 : this.opts.pollMs);
  }
}
