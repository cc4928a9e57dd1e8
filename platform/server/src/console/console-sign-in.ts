/**
 * Passwordless sign-in to the dealer console: a 6-digit code and a link go to a console user's
 * address; either one, given back within 10 minutes, starts a session (`dc_session`, 7 days,
 * listed and revocable). Only addresses that hold a console user get a mail, and the answer never
 * says which do. As in the garage (accounts/sign-in.ts), codes are stored as a keyed, salted hash,
 * link tokens and session ids as SHA-256; a code allows 5 tries; an address gets at most
 * `codesPerHour` codes an hour.
 */
import { createHash, createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import type { DatabaseEngine } from '@dealer/db/database-engine';
import type { PlatformDb } from '@dealer/db/database';
import {
  consoleCodesAskedSince,
  consoleSessionsOf,
  consoleUserByEmail,
  consoleUserOfSession,
  deleteConsoleSession,
  enqueueConsoleMail,
  insertConsoleCode,
  insertConsoleSession,
  normaliseConsoleEmail,
  redeemConsoleCode,
  redeemConsoleToken,
  takeConsoleCodeTries,
  type ConsoleUser,
} from '@dealer/db/console-account-store';
import { retryingLockConflicts } from '../accounts/sign-in-code-store';
import type { ConsoleMailOutbox } from './console-mail-outbox';
import { consoleSessionTtlMs } from './console-cookie';

export const consoleCodeTtlMs = 10 * 60_000;
export const consoleCodeTries = 5;
const hourMs = 60 * 60_000;

const secretPattern = /^[A-Za-z0-9_-]{43}$/;
const newSecret = () => randomBytes(32).toString('base64url');
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

export type ConsoleSignInDeps = {
  db: PlatformDb;
  engine: DatabaseEngine;
  serverSecret: string;
  mail: ConsoleMailOutbox;
  smtpConfigured: boolean;
  codesPerHour: number;
  log: { warn(obj: object, msg: string): void };
  now?: () => number;
};

export type ConsoleSessionView = { id: string; userAgent: string; createdAt: number; lastSeenAt: number; current: boolean };

export class ConsoleSignIn {
  private readonly codeKey: Buffer;
  private readonly now: () => number;

  constructor(private readonly deps: ConsoleSignInDeps) {
    this.codeKey = createHmac('sha256', deps.serverSecret).update('console sign-in codes').digest();
    this.now = deps.now ?? Date.now;
  }

  private codeHash(salt: string, code: string) {
    return createHmac('sha256', this.codeKey).update(`${salt}:${code}`).digest('hex');
  }

  /**
   * Sends a code and a link to the address when it belongs to a console user. Refused (with how
   * long to wait) past `codesPerHour` codes for the address, whoever asked: the link in an earlier
   * mail still works meanwhile.
   */
  async requestCode(email: string, consoleOrigin: string): Promise<{ ok: true } | { ok: false; retryAfterMs: number }> {
    const now = this.now();
    const address = normaliseConsoleEmail(email);
    const { db, codesPerHour } = this.deps;
    const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
    const token = newSecret();
    const salt = randomBytes(16).toString('base64url');
    const expiresAt = now + consoleCodeTtlMs;
    const outcome = await db.transaction().execute(async (trx) => {
      const asked = await consoleCodesAskedSince(trx, address, now - hourMs);
      if (asked.length >= codesPerHour)
        return { ok: false as const, retryAfterMs: Math.max(1000, asked[asked.length - codesPerHour]! + hourMs - now) };
      // Counted for every address, user or not, so the answer and its timing say nothing of who is one.
      await insertConsoleCode(trx, { email: address, salt, codeHash: this.codeHash(salt, code), tokenHash: sha256(token), expiresAt }, now);
      if (!(await consoleUserByEmail(trx, address))) return { ok: true as const, mailId: null };
      const minutes = consoleCodeTtlMs / 60_000;
      const mailId = await enqueueConsoleMail(
        trx,
        {
          email: address,
          subject: `Your dealer console sign-in code: ${code}`,
          body: [
            'Your code to sign in to the dealer console:',
            '',
            `    ${code}`,
            '',
            `Or open this link: ${consoleOrigin}/sign-in#token=${token}`,
            '',
            `The code and the link work once, for ${minutes} minutes. If you did not ask for them, ignore this e-mail.`,
          ].join('\n'),
          expiresAt,
        },
        now,
      );
      return { ok: true as const, mailId };
    });
    if (!outcome.ok) return outcome;
    if (outcome.mailId !== null) {
      if (!this.deps.smtpConfigured)
        this.deps.log.warn(
          { email: address, mailId: outcome.mailId },
          'console sign-in code written to DATA_DIR/outbox/console-mail (SMTP_URL is not set)',
        );
      this.deps.mail.nudge();
    }
    return { ok: true };
  }

  /** Signs in with the address and its code: the session id for the cookie and the user, or null. */
  async verifyCode(email: string, code: string, userAgent: string): Promise<{ sessionId: string; user: ConsoleUser } | null> {
    const now = this.now();
    const address = normaliseConsoleEmail(email);
    const { db, engine } = this.deps;
    const live = await retryingLockConflicts(() => takeConsoleCodeTries(db, engine, address, consoleCodeTries, now));
    const match = live.find((candidate) => {
      const expected = Buffer.from(this.codeHash(candidate.salt, code));
      const stored = Buffer.from(candidate.codeHash);
      return expected.length === stored.length && timingSafeEqual(expected, stored);
    });
    if (!match) return null;
    return retryingLockConflicts(() =>
      db.transaction().execute(async (trx) => {
        if (!(await redeemConsoleCode(trx, engine, match.id, address, now))) return null;
        return this.startSession(trx, address, userAgent, now);
      }),
    );
  }

  /** Signs in with the link's token. */
  async verifyToken(token: string, userAgent: string): Promise<{ sessionId: string; user: ConsoleUser } | null> {
    if (!secretPattern.test(token)) return null;
    const now = this.now();
    const { db, engine } = this.deps;
    return retryingLockConflicts(() =>
      db.transaction().execute(async (trx) => {
        const address = await redeemConsoleToken(trx, engine, sha256(token), now);
        return address === null ? null : this.startSession(trx, address, userAgent, now);
      }),
    );
  }

  private async startSession(trx: Parameters<typeof consoleUserByEmail>[0], address: string, userAgent: string, now: number) {
    const user = await consoleUserByEmail(trx, address);
    // A code sent before the user was removed signs no one in.
    if (!user) return null;
    const sessionId = newSecret();
    await insertConsoleSession(
      trx,
      { idHash: sha256(sessionId), userId: user.id, userAgent: userAgent.slice(0, 300), expiresAt: now + consoleSessionTtlMs },
      now,
    );
    return { sessionId, user };
  }

  /** The user a `dc_session` value signs in, or null. */
  async userOf(sessionId: string | null): Promise<ConsoleUser | null> {
    if (sessionId === null || !secretPattern.test(sessionId)) return null;
    return consoleUserOfSession(this.deps.db, sha256(sessionId), this.now());
  }

  /** The user's live sessions; ids are the stored hashes (the cookie's value is never shown). */
  async sessions(user: ConsoleUser, currentSessionId: string | null): Promise<ConsoleSessionView[]> {
    const current = currentSessionId && secretPattern.test(currentSessionId) ? sha256(currentSessionId) : null;
    const sessions = await consoleSessionsOf(this.deps.db, user.id, this.now());
    return sessions.map((session) => ({
      id: session.idHash,
      userAgent: session.userAgent,
      createdAt: session.createdAt,
      lastSeenAt: session.lastSeenAt,
      current: session.idHash === current,
    }));
  }

  /** Ends one of the user's sessions by its listed id. */
  revoke(user: ConsoleUser, listedId: string) {
    return deleteConsoleSession(this.deps.db, user.id, listedId);
  }

  async signOut(user: ConsoleUser, sessionId: string) {
    if (secretPattern.test(sessionId)) await deleteConsoleSession(this.deps.db, user.id, sha256(sessionId));
  }
}
