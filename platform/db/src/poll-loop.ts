/**
 * The polling half of an outbox (lead deliveries, shopper mail, ad events; also the hourly event
 * retention sweep): run a batch now and then, at once again while batches come back full, soon
 * again when something new was stored meanwhile (`nudge`), never two batches at a time in one
 * process, and stop cleanly (waiting for the batch under way). What a batch does while it runs
 * (renewing its leases, giving back what it did not try: holdingLeases) is the batch's own
 * business, so it holds whether the loop or a caller runs it.
 */
export class PollLoop {
  private timer: NodeJS.Timeout | null = null;
  private timerDueAt = 0;
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
      /**
       * How long a nudge waits before the batch it asks for (0 by default: at once). A few ms
       * gather the nudges of a busy server into one batch rather than one batch per nudge; a
       * run already due sooner is never put off by a nudge.
       */
      nudgeDelayMs?: number;
      /** A batch that threw: logged, and the loop goes on at the next poll. */
      onError: (error: unknown) => void;
    },
  ) {}

  /** Started and not stopped. */
  get isRunning(): boolean {
    return !this.stopped;
  }

  start() {
    if (!this.stopped) return;
    this.stopped = false;
    this.schedule(0);
  }

  /** Stops polling and waits for the batch under way. */
  async stop() {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
  }

  /** Something was stored: run soon (after `nudgeDelayMs`) rather than at the next poll. */
  nudge() {
    if (this.stopped) return;
    if (this.running) this.again = true;
    else this.schedule(this.opts.nudgeDelayMs ?? 0);
  }

  /** Runs in `delay` ms, unless a run is already due sooner. */
  private schedule(delay: number) {
    if (this.stopped) return;
    const dueAt = Date.now() + delay;
    if (this.timer) {
      if (this.timerDueAt <= dueAt) return;
      clearTimeout(this.timer);
    }
    this.timerDueAt = dueAt;
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
    const full = claimed >= this.opts.batchSize;
    const nudged = this.again;
    this.again = false;
    this.schedule(full ? 0 : nudged ? (this.opts.nudgeDelayMs ?? 0) : this.opts.pollMs);
  }
}
