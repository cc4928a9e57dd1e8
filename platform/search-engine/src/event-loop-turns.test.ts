import { describe, expect, it } from 'vitest';
import { eventLoopTurns } from './event-loop-turns';

describe("a long search's pauses for other requests", () => {
  it('waits for the next turn of the event loop only once its budget of this turn is used, then starts a new budget', async () => {
    let clock = 0;
    const between = eventLoopTurns(4, () => clock);
    let otherRequestAnswered = false;
    setImmediate(() => (otherRequestAnswered = true));

    // Cheap steps within the budget: no turn given up, nothing else ran.
    clock = 3.9;
    await between();
    expect(otherRequestAnswered).toBe(false);

    // The budget used: the next turn comes first, and the other request is answered in it.
    clock = 4;
    await between();
    expect(otherRequestAnswered).toBe(true);

    // A fresh budget from that turn.
    let answeredAgain = false;
    setImmediate(() => (answeredAgain = true));
    clock = 7.9;
    await between();
    expect(answeredAgain).toBe(false);
    clock = 8;
    await between();
    expect(answeredAgain).toBe(true);
  });
});
