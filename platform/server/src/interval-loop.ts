import type { Log } from '@dealer/db/worker-log';

/** Runs a job every `everyMs` (the first one interval after the start), never two at once, never keeping the process alive. */
export class IntervalLoop {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<unknown> | null = null;

  constructor(
    private readonly name: string,
    private readonly run: () => Promise<unknown>,
    private readonly everyMs: number,
    private readonly log: Pick<Log, 'error'>,
  ) {}

  start() {
    if (this.timer) return;
    this.timer = setInterval(() => {
      if (this.running) return;
      this.running = this.run()
        .catch((error: unknown) => this.log.error({ err: error }, `${this.name} failed`))
        .finally(() => (this.running = null));
    }, this.everyMs);
    this.timer.unref();
  }

  /** Stops and waits for the run under way. */
  async stop() {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }
}
