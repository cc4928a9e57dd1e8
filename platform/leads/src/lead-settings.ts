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
  /**
   * Upcoming test drive and service bookings one shopper (same e-mail or phone) may hold at one
   * location on one day and on the whole site, and one client address at one location on one day
   * (0: no limit; the address limit is off with the rate limit).
   */
  bookingLimits: { perContactPerDay: number; perContactUpcoming: number; perAddressPerDay: number };
  /**
   * Each file's bytes and count; the bytes of one lead's files together, of one client address's
   * at a site in a day, and of a site's in a day (beyond the last two, a 429 until tomorrow).
   */
  uploads: { maxBytes: number; maxFiles: number; maxBytesPerLead: number; maxBytesPerAddressPerDay: number; maxBytesPerSitePerDay: number };
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
