/** Wait before the next attempt after `failures` failed ones: the configured steps, the last repeating. */
export function backoffDelay(backoffMs: readonly number[], failures: number): number {
  if (backoffMs.length === 0) return 0;
  return backoffMs[Math.min(Math.max(failures, 1), backoffMs.length) - 1]!;
}

/**
 * How one send went, whatever the outbox: `sent`; `rejected`, a refusal no retry can change (a 4xx,
 * an SMTP 5xx, a target that is not there); `retry`, anything that may pass (a 5xx, no answer, a
 * full disk); `expired`, given up unsent because it is too old to be worth sending. `detail` says
 * why in one line; `status` is a finer word for the log when the outbox has one (the lead
 * outbox's `not-configured`, `no-site`), else the outcome stands for it.
 */
export type SendResult = { outcome: 'sent' | 'rejected' | 'retry' | 'expired'; detail: string; status?: string };

/** The retry policy every outbox follows (LEAD_DELIVERY_BACKOFF_MS and _MAX_ATTEMPTS). */
export type RetryPolicy = { backoffMs: readonly number[]; maxAttempts: number };

/**
 * A row after one attempt: `sent`; given up (`dead`: refused, or out of attempts; `expired`: too
 * old); or `failed`, to be tried again at `nextAttemptAt`. What a store records.
 */
export type Attempt<Row> = {
  row: Row;
  result: SendResult;
  state: 'sent' | 'failed' | 'dead' | 'expired';
  /** Attempts made, this one included. */
  attempts: number;
  /** When a failed row is tried again; null once it is over. */
  nextAttemptAt: number | null;
  /** Why it is not sent (`status: detail`), for the row's `last_error`; null once sent. */
  lastError: string | null;
  durationMs: number;
};

/** What one send makes of a row that had been tried `previousAttempts` times before. */
export function settleAttempt<Row>(
  row: Row,
  result: SendResult,
  previousAttempts: number,
  policy: RetryPolicy,
  now: number,
  durationMs: number,
): Attempt<Row> {
  const attempts = previousAttempts + 1;
  const giveUp = result.outcome === 'rejected' || (result.outcome === 'retry' && attempts >= policy.maxAttempts);
  const state = result.outcome === 'sent' ? 'sent' : result.outcome === 'expired' ? 'expired' : giveUp ? 'dead' : 'failed';
  return {
    row,
    result,
    state,
    attempts,
    nextAttemptAt: state === 'failed' ? now + backoffDelay(policy.backoffMs, attempts) : null,
    lastError: state === 'sent' ? null : `${result.status ?? result.outcome}: ${result.detail}`.slice(0, 2000),
    durationMs,
  };
}

/**
 * The columns a finished attempt sets on a shopper-mail or ad-event row: its state, when it is
 * tried again, why it is not sent, and its claim let go (the lead outbox keeps a log instead).
 */
export function settledColumns(attempt: Attempt<unknown>, now: number) {
  const { state, attempts, nextAttemptAt, lastError } = attempt;
  return {
    status: state,
    attempts,
    next_attempt_at: nextAttemptAt ?? now,
    last_error: lastError,
    sent_at: state === 'sent' ? now : null,
    claim_token: null,
    claimed_until: null,
    updated_at: now,
  };
}
