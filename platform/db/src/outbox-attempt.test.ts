import { describe, expect, it } from 'vitest';
import { backoffDelay } from './outbox-attempt';

describe('delivery', () => {
  it('backs off by the configured steps, the last repeating', () => {
    const steps = [1000, 5000, 30000];
    expect([1, 2, 3, 4, 9].map((failures) => backoffDelay(steps, failures))).toEqual([1000, 5000, 30000, 30000, 30000]);
  });
});
