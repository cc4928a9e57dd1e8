/** Wait before the next attempt after `failures` failed ones: the configured steps, the last repeating. */
export function backoffDelay(backoffMs: readonly number[], failures: number): number {
  if (backoffMs.length === 0) return 0;
  return backoffMs[Math.min(Math.max(failures, 1), backoffMs.length) - 1]!;
}

/** How one send of a small outbox's row went (shopper mail, ad events). */
export type AttemptResult = { outcome: 'sent' | 'retry' | 'rejected' | 'expired'; detail: string };

/**
 * The row's fields after one attempt: sent; given up (refused, too old, or out of attempts: `dead`
 * / `expired`); or failed, to be tried again after the backoff. `over` says it will not be sent
 * again, so what it carried can be erased.
 */
export function afterAttempt(result: AttemptResult, previousAttempts: number, opts: { maxAttempts: number; backoffMs: readonly number[] }, now: number) {
  const attempts = previousAttempts + 1;
  const giveUp = result.outcome === 'rejected' || (result.outcome === 'retry' && attempts >= opts.maxAttempts);
  const status = result.outcome === 'sent' ? 'sent' : result.outcome === 'expired' ? 'expired' : giveUp ? 'dead' : 'failed';
  const over = status !== 'failed';
  return {
    over,
    fields: {
      status,
      attempts,
      next_attempt_at: over ? now : now + backoffDelay(opts.backoffMs, attempts),
      last_error: status === 'sent' ? null : `${result.outcome}: ${result.detail}`.slice(0, 2000),
      sent_at: status === 'sent' ? now : null,
      claim_token: null,
      claimed_until: null,
      updated_at: now,
    },
  } as const;
}
