// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { afterLoadWhenIdle } from './scheduling';

beforeEach(() => {
  vi.useFakeTimers();
  vi.stubGlobal('requestIdleCallback', (run: () => void) => setTimeout(run, 50));
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('what runs once the page has loaded and the browser is idle', () => {
  it('waits the delay asked for after the load, then an idle moment', async () => {
    const run = vi.fn();
    afterLoadWhenIdle(run, { delay: 3000 });
    await vi.advanceTimersByTimeAsync(3000);
    expect(run).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(50);
    expect(run).toHaveBeenCalledTimes(1);
  });

  it('with no delay, at the first idle moment', async () => {
    const run = vi.fn();
    afterLoadWhenIdle(run);
    await vi.advanceTimersByTimeAsync(49);
    expect(run).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(run).toHaveBeenCalledTimes(1);
  });
});
