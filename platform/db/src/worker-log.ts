/** What background work (the outboxes, the sweeps) logs through: the server's logger, or nothing. */
export type Log = { info(obj: object, msg: string): void; warn(obj: object, msg: string): void; error(obj: object, msg: string): void };

/** A logger that says nothing: a worker built before the server's logger exists, or in a test. */
export const silentLog: Log = { info() {}, warn() {}, error() {} };
