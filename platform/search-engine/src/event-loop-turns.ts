import { setImmediate as nextTurn } from 'node:timers/promises';

/**
 * The pauses of a piece of work made of steps (a multi-search's queries): `between()` waits for the
 * event loop's next turn once `budgetMs` of this turn have been used since the work started or last
 * waited, and returns at once before that, so other requests are answered within about `budgetMs`
 * plus one step, and a cheap piece of work (a search page's 19 small queries, well under a
 * millisecond) is done in one turn instead of one per step. Each turn it spans keeps its partial
 * answers alive the longer, for the garbage collector to carry into its old generation.
 */
export function eventLoopTurns(budgetMs: number, now: () => number = () => performance.now()): () => Promise<void> {
  let since = now();
  return async () => {
    if (now() - since < budgetMs) return;
    await nextTurn();
    since = now();
  };
}

/**
 * How long a multi-search may hold the event loop before other requests are answered (plus the query
 * running then). A search page's 19 queries take 0.3–0.5 ms here; the largest public request allowed
 * (public-search-budget.test.ts) ~15 ms, so it gives way several times.
 */
export const searchTurnMs = 2;
