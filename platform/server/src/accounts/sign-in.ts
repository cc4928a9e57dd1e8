/**
 * Passwordless sign-in to one site's garage: a 6-digit code and a link go to the address; either
 * one, given back within 10 minutes, signs the shopper in (making the account on its first use)
 * and starts a 30-day session. Nothing that signs in is stored as given: codes as a keyed,
 * salted hash, link tokens and session ids as SHA-256.
 */
import { lockSiteRow } from '@dealer/db/site-store';
import { createHash, createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import type { Transaction } from 'kysely';
import type { SiteConfig } from '@dealer/contracts/site';
import { garagePath } from '@dealer/rules/routes';
import type { DatabaseEngine, PlatformDb } from '@dealer/db/database';
import type { PlatformDatabase } from '@dealer/db/schema';
import {
  codeTimesSince,
  deleteSession,
  insertSession,
  insertSignInCode,
  saveCars,
  shopperOfSession,
  signInShopper,
  takeCodeTries,
  useCode,
  useToken,
  watchlistOf,
  type Shopper,
} from './account-store';
import { signInMail } from './account-mail';
import { enqueueShopperMail, type MailOutbox } from './mail-outbox';

export const signInCodeTtlMs = 10 * 60_000;
/** Tries one code allows, right or wrong; after that many wrong ones it is dead. */
export const maxCodeTries = 5;
/** Codes one address may be sent on a site within the window. */
export const codesPerAddress = { max: 5, windowMs: 60 * 60_000 } as const;
export const sessionTtlMs = 30 * 24 * 60 * 60_000;
export const sessionCookieName = 'dp_session';

/** A session id, a link token: 32 random bytes, base64url. */
const secretPattern = /^[A-Za-z0-9_-]{43}$/;
const newSecret = () => randomBytes(32).toString('base64url');
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

const isSecretShaped = (value: string) => secretPattern.test(value);

export type SignedIn = { shopper: Shopper; sessionId: string; watchlist: number[] };

export type SignInDeps = {
  db: PlatformDb;
  engine: DatabaseEngine;
  /** The platform's server secret (the same on every server of one database): codes are hashed with a key made from it. */
  serverSecret: string;
  mail: MailOutbox;
  /** Without an SMTP server the code is also logged, for whoever runs the platform locally. */
  smtpConfigured: boolean;
  log: { warn(obj: object, msg: string): void };
  now?: () => number;
};

export class SignInService {
  private readonly codeKey: Buffer;
  private readonly now: () => number;

  constructor(private readonly deps: SignInDeps) {
    // A key of its own, so a code hash says nothing about the lead tokens signed with the same secret.
    this.codeKey = createHmac('sha256', deps.serverSecret).update('shopper sign-in codes').digest();
    this.now = deps.now ?? Date.now;
  }

  private codeHash(salt: string, code: string) {
    return createHmac('sha256', this.codeKey).update(`${salt}:${code}`).digest('hex');
  }

  /**
   * Sends a code and a link to the address, whether or not it has an account on the site (the
   * answer must not tell). Refused, with how long to wait, once the address has been sent
   * `codesPerAddress.max` codes within the hour.
   */
  async requestCode(site: SiteConfig, email: string, origin: string): Promise<{ ok: true } | { ok: false; retryAfterMs: number }> {
    const now = this.now();
    const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
    const token = newSecret();
    const salt = randomBytes(16).toString('base64url');
    const expiresAt = now + signInCodeTtlMs;
    const link = `${origin}${garagePath(site)}#sign_in=${token}`;
    const outcome = await this.deps.db.transaction().execute(async (trx) => {
      // PostgreSQL: one code request of a site at a time, so racing requests cannot all pass the
      // count below (FOR NO KEY UPDATE leaves the site's leads and cars free to reference it).
      if (this.deps.engine === 'postgres') await lockSiteRow(trx, site.id);
      const sent = await codeTimesSince(trx, site.id, email, now - codesPerAddress.windowMs);
      if (sent.length >= codesPerAddress.max) return { ok: false as const, retryAfterMs: Math.max(1000, sent[sent.length - codesPerAddress.max]! + codesPerAddress.windowMs - now) };
      await insertSignInCode(trx, { siteId: site.id, email, salt, codeHash: this.codeHash(salt, code), tokenHash: sha256(token), expiresAt }, now);
      const mail = signInMail(site, { code, link, minutes: signInCodeTtlMs / 60_000 });
      const mailId = await enqueueShopperMail(trx, { siteId: site.id, email, kind: 'sign-in', ...mail, expiresAt }, now);
      return { ok: true as const, mailId };
    });
    if (!outcome.ok) return outcome;
    if (!this.deps.smtpConfigured) {
      this.deps.log.warn({ site: site.slug, email, code, mailId: outcome.mailId }, 'sign-in code (SMTP_URL is not set: the e-mail is written to DATA_DIR/outbox/mail)');
    }
    this.deps.mail.nudge();
    return { ok: true };
  }

  /** Signs in with the address and the code sent to it; null when the code is wrong, used, expired or out of tries. */
  async verifyCode(site: SiteConfig, email: string, code: string, favourites: readonly number[]): Promise<SignedIn | null> {
    const now = this.now();
    const live = await takeCodeTries(this.deps.db, site.id, email, maxCodeTries, now);
    const match = live.find((candidate) => {
      const expected = Buffer.from(this.codeHash(candidate.salt, code));
      const stored = Buffer.from(candidate.codeHash);
      return expected.length === stored.length && timingSafeEqual(expected, stored);
    });
    if (!match) return null;
    return this.deps.db.transaction().execute(async (trx) => {
      if (!(await useCode(trx, match.id, site.id, email, now))) return null;
      return this.startSession(trx, site, email, favourites, now);
    });
  }

  /** Signs in with the token of the link sent by e-mail; null when it is unknown, used or expired. */
  async verifyToken(site: SiteConfig, token: string, favourites: readonly number[]): Promise<SignedIn | null> {
    if (!isSecretShaped(token)) return null;
    const now = this.now();
    return this.deps.db.transaction().execute(async (trx) => {
      const email = await useToken(trx, site.id, sha256(token), maxCodeTries, now);
      if (email === null) return null;
      return this.startSession(trx, site, email, favourites, now);
    });
  }

  private async startSession(trx: Transaction<PlatformDatabase>, site: SiteConfig, email: string, favourites: readonly number[], now: number): Promise<SignedIn> {
    const shopper = await signInShopper(trx, site.id, email, now);
    const sessionId = newSecret();
    await insertSession(trx, { idHash: sha256(sessionId), shopperId: shopper.id, siteId: site.id, expiresAt: now + sessionTtlMs }, now);
    // The browser's own favourites join the garage: ids of other sites' cars or of none are left out.
    await saveCars(trx, shopper, favourites, now);
    return { shopper, sessionId, watchlist: await watchlistOf(trx, shopper) };
  }

  /** The shopper a `dp_session` cookie value signs in on this site; 'expired' or null otherwise (a malformed value is null). */
  async shopperOf(site: SiteConfig, sessionId: string | null): Promise<Shopper | 'expired' | null> {
    if (sessionId === null || !isSecretShaped(sessionId)) return null;
    return shopperOfSession(this.deps.db, site.id, sha256(sessionId), this.now());
  }

  async signOut(site: SiteConfig, sessionId: string | null) {
    if (sessionId === null || !isSecretShaped(sessionId)) return;
    await deleteSession(this.deps.db, site.id, sha256(sessionId));
  }
}
