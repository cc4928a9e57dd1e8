/** The lead pipeline's settings (issue 5). */
export type LeadsConfig = {
  /** `/mock/leads...` answer like `/api/leads...` but store with a mock flag and never deliver (SPEC §7). */
  mockMode: boolean;
  /** Signs update tokens (HMAC of the lead id and its salt); set it on every server sharing a database. */
  tokenSecret: string;
  tokenSecretGenerated: boolean;
  /** Creates per IP and site within the window before a 429 (max 0: no limit). */
  rateLimit: { max: number; windowMs: number };
  /** The time trap: a form submitted sooner than this after it was rendered is held as suspected spam. */
  minFillMs: number;
  uploads: { maxBytes: number; maxFiles: number };
  delivery: {
    /** Run the outbox worker in this process. */
    worker: boolean;
    pollMs: number;
    /** Wait before attempt n+1 after n failures; the last value repeats. */
    backoffMs: number[];
    /** After this many failed attempts a job is dead (a dead letter the dealer sees). */
    maxAttempts: number;
    /** How long a claimed job is held by one worker before another may take it over. */
    leaseMs: number;
    smtpUrl: string | null;
    emailFrom: string;
  };
};
