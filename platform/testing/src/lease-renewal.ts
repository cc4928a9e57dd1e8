import { vi } from 'vitest';

/** Waits on the store's own pace, which a loaded machine slows down (vi.waitFor's default is one second). */
const patiently = { timeout: 20_000 };

/**
 * Waits until `renewed` passes, firing the lease's renewal timer (a faked setInterval of a third of
 * `leaseMs`) before each look. A worker skips a tick while its last renewal is still settling, and
 * the store can show that renewal done before the worker hears back from it (on a busy machine,
 * often): firing the timer once and then waiting would wait for a tick that never comes.
 */
export function untilRenewed(leaseMs: number, renewed: () => Promise<void>): Promise<void> {
  return vi.waitFor(async () => {
    vi.advanceTimersByTime(leaseMs / 3);
    await renewed();
  }, patiently);
}
