import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PollLoop } from './poll-loop';

/** A loop whose batches are counted and claim what the test says (0 unless told). */
function loopWith(opts: { nudgeDelayMs?: number; claims?: number[]; runOnce?: () => Promise<number> } = {}) {
  const runs: number[] = [];
  const errors: unknown[] = [];
  const claims = [...(opts.claims ?? [])];
  const loop = new PollLoop({
    runOnce:
      opts.runOnce ??
      (async () => {
        runs.push(Date.now());
        return claims.shift() ?? 0;
      }),
    batchSize: 10,
    pollMs: 1_000,
    nudgeDelayMs: opts.nudgeDelayMs,
    onError: (error) => errors.push(error),
  });
  return { loop, runs, errors };
}

describe('PollLoop', () => {
  let start: number;
  beforeEach(() => {
    vi.useFakeTimers();
    start = Date.now();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('runs at start, again at once while batches come back full, then every poll', async () => {
    const { loop, runs } = loopWith({ claims: [10, 10, 3] });
    expect(loop.isRunning).toBe(false);
    loop.start();
    expect(loop.isRunning).toBe(true);
    await vi.advanceTimersByTimeAsync(10);
    expect(runs).toHaveLength(3);
    expect(runs[2]! - start).toBeLessThan(10);
    await vi.advanceTimersByTimeAsync(runs[2]! + 999 - Date.now());
    expect(runs).toHaveLength(3);
    await vi.advanceTimersByTimeAsync(1);
    expect(runs).toHaveLength(4);
    expect(runs[3]! - runs[2]!).toBe(1_000);
    await loop.stop();
    expect(loop.isRunning).toBe(false);
  });

  it('runs at once when nudged, without a nudge delay', async () => {
    const { loop, runs } = loopWith();
    loop.start();
    await vi.advanceTimersByTimeAsync(100);
    loop.nudge();
    loop.nudge();
    await vi.advanceTimersByTimeAsync(0);
    expect(runs.map((at) => at - start)).toEqual([0, 100]);
    await loop.stop();
  });

  it('gathers the nudges of a few ms into one run, which a stream of nudges never puts off', async () => {
    const { loop, runs } = loopWith({ nudgeDelayMs: 20 });
    loop.start();
    await vi.advanceTimersByTimeAsync(100);
    for (let n = 0; n < 10; n++) {
      loop.nudge();
      await vi.advanceTimersByTimeAsync(5);
    }
    expect(runs.map((at) => at - start)).toEqual([0, 120, 140]);
    await loop.stop();
  });

  it('runs once more after a batch nudged while it ran, a nudge delay after it', async () => {
    let finish: (claimed: number) => void = () => {};
    const runs: number[] = [];
    const { loop } = loopWith({
      nudgeDelayMs: 20,
      runOnce: () => {
        runs.push(Date.now() - start);
        return new Promise<number>((resolve) => (finish = resolve));
      },
    });
    loop.start();
    await vi.advanceTimersByTimeAsync(0);
    loop.nudge();
    loop.nudge();
    await vi.advanceTimersByTimeAsync(50);
    expect(runs).toEqual([0]);
    finish(1);
    await vi.advanceTimersByTimeAsync(19);
    expect(runs).toEqual([0]);
    await vi.advanceTimersByTimeAsync(1);
    expect(runs).toEqual([0, 70]);
    finish(0);
    await loop.stop();
  });

  it('stops after the batch under way, and runs no more', async () => {
    let finish: (claimed: number) => void = () => {};
    let done = false;
    const { loop } = loopWith({
      runOnce: () =>
        new Promise<number>((resolve) => (finish = resolve)).then((claimed) => {
          done = true;
          return claimed;
        }),
    });
    loop.start();
    await vi.advanceTimersByTimeAsync(0);
    let stopped = false;
    const stopping = loop.stop().then(() => (stopped = true));
    await vi.advanceTimersByTimeAsync(10);
    expect(stopped).toBe(false);
    finish(10);
    await stopping;
    expect(done).toBe(true);
    loop.nudge();
    await vi.advanceTimersByTimeAsync(5_000);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('reports a batch that threw and goes on at the next poll', async () => {
    let calls = 0;
    const { loop, errors } = loopWith({
      runOnce: async () => {
        calls++;
        if (calls === 1) throw new Error('database down');
        return 0;
      },
    });
    loop.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(errors).toEqual([new Error('database down')]);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(calls).toBe(2);
    await loop.stop();
  });
});
