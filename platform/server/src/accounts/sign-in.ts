/**
 * Passwordless sign-in to one site's garage: a 6-digit code and a link go to the address; either
 * one, given back within 10 minutes, signs the shopper in (making the account on its first use)
 * and starts a 30-day session. Nothing that signs in is stored as given: codes as a keyed,
 * salted hash, link tokens and session ids as SHA-256, the connection that asked for a code as a
 * keyed hash.
 *
 * Anyone may ask for a code for any address, so the limits are shaped so that a stranger cannot
 * lock the owner out (issue 7): codes are counted per connection and address, and per address
 * from all connections with a higher cap that a device which has signed in to the address before
 * (its `dp_device` cookie) is not held to; wrong guesses from other connections spend a code's
 * tries of their own, never those of the connection that asked for it; and the link works
 * whatever was guessed.
 */
import { lockSiteRow } from '@dealer/db/site-store';
import { createHash, createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import type { Transaction } from 'kysely';
import type { SiteConfig } from '@dealer/contracts/site';
import { garagePath } from '@dealer/rules/routes';
import type { DatabaseEngine } from '@dealer/db/database-engine';
import type { PlatformDb } from '@dealer/db/database';
import type { PlatformDatabase } from '@dealer/db/schema';
import {
  deleteSession,
  deleteShopper,
  insertSession,
  saveCars,
  shopperOfSession,
  signInShopper,
  watchlistOf,
  type Shopper,
} from './account-store';
import { codesAskedSince, insertSignInCode, redeemCode, redeemToken, retryingLockConflicts, takeCodeTries } from './sign-in-code-store';
import { signInMail } from './account-mail';
import { enqueueShopperMail } from '@dealer/db/mail-outbox-store';
import type { MailOutbox } from './mail-outbox';

export const signInCodeTtlMs = 10 * 60_000;
/**
 * Tries one code allows, right or wrong, from the connection that asked for it; as many again
 * from all other connections together. Past either, the code is dead for those who spent them.
 */
export const maxCodeTries = 5;
/** The window the code limits count in. */
export const codeLimitWindowMs = 60 * 60_000;
export const sessionTtlMs = 30 * 24 * 60 * 60_000;
export const sessionCookieName = 'dp_session';
/** A device that has signed in to an address is known as the address's for this long (the most browsers keep a cookie). */
export const deviceTtlMs = 400 * 24 * 60 * 60_000;
export const deviceCookieName = 'dp_device';

/** Codes sent to one address on a site within `codeLimitWindowMs` (SIGN_IN_CODES_PER_ADDRESS_AND_CLIENT, SIGN_IN_CODES_PER_ADDRESS). */
export type CodeLimits = {
  /** From one connection (an IPv4 address, an IPv6 /64). */
  perAddressAndClient: number;
  /** From all connections together, a device that has signed in to the address before excepted. */
  perAddress: number;
};

/** Who asks for a code or tries one: their connection (`clientAddressKey`) and the `dp_device` cookie they sent. */
export type Requester = { client: string; device: string | null };

/** Why a code was not sent: the asking connection's own allowance for the address, or the address's from everyone. */
export type CodeRefusal = { ok: false; limit: 'client' | 'address'; max: number; retryAfterMs: number };

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
  limits: CodeLimits;
  now?: () => number;
};

export class SignInService {
  private readonly codeKey: Buffer;
  private readonly requesterKey: Buffer;
  private readonly deviceKey: Buffer;
  private readonly now: () => number;

  constructor(private readonly deps: SignInDeps) {
    // Keys of their own, so a hash or cookie of one kind says nothing about another, nor about the lead tokens signed with the same secret.
    const keyFor = (use: string) => createHmac('sha256', deps.serverSecret).update(use).digest();
    this.codeKey = keyFor('shopper sign-in codes');
    this.requesterKey = keyFor('shopper sign-in requesters');
    this.deviceKey = keyFor('shopper sign-in devices');
    this.now = deps.now ?? Date.now;
  }

  private codeHash(salt: string, code: string) {
    return createHmac('sha256', this.codeKey).update(`${salt}:${code}`).digest('hex');
  }

  /** The connection as stored with its codes: compared, never shown, so kept as a keyed hash rather than an IP address. */
  private requesterHash(client: string) {
    return createHmac('sha256', this.requesterKey).update(client).digest('base64url');
  }

  private deviceMac(siteId: number, email: string, issuedAt: string) {
    return createHmac('sha256', this.deviceKey).update(`${siteId}\n${email}\n${issuedAt}`).digest('base64url');
  }

  /** The `dp_device` cookie value for a device that has just signed in to the address: when, and a MAC of the site, address and time. */
  deviceCookieValue(siteId: number, email: string): string {
    const issuedAt = this.now().toString(36);
    return `${issuedAt}.${this.deviceMac(siteId, email, issuedAt)}`;
  }

  /** Whether a `dp_device` cookie value says this device signed in to the address on the site within `deviceTtlMs`. */
  private isDeviceOf(siteId: number, email: string, device: string | null): boolean {
    const [issuedAt = '', mac = '', ...rest] = (device ?? '').split('.');
    if (rest.length > 0 || !/^[0-9a-z]{1,12}$/.test(issuedAt)) return false;
    if (this.now() - Number.parseInt(issuedAt, 36) >= deviceTtlMs) return false;
    const expected = Buffer.from(this.deviceMac(siteId, email, issuedAt));
    const given = Buffer.from(mac);
    return expected.length === given.length && timingSafeEqual(expected, given);
  }

  /**
   * Sends a code and a link to the address, whether or not it has an account on the site (the
   * answer must not tell). Refused, with how long to wait, once this connection has been sent
   * `perAddressAndClient` codes for the address within the hour, or everyone together
   * `perAddress` (not counted against a device that has signed in to the address before).
   */
  async requestCode(site: SiteConfig, email: string, origin: string, requester: Requester): Promise<{ ok: true } | CodeRefusal> {
    const now = this.now();
    const { perAddressAndClient, perAddress } = this.deps.limits;
    const requesterHash = this.requesterHash(requester.client);
    const knownDevice = this.isDeviceOf(site.id, email, requester.device);
    /** How long until the oldest of the last `max` codes leaves the window. */
    const waitFor = (times: number[], max: number) => Math.max(1000, times[times.length - max]! + codeLimitWindowMs - now);
    const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
    const token = newSecret();
    const salt = randomBytes(16).toString('base64url');
    const expiresAt = now + signInCodeTtlMs;
    const link = `${origin}${garagePath(site)}#sign_in=${token}`;
    const outcome = await this.deps.db.transaction().execute(async (trx) => {
      // PostgreSQL: one code request of a site at a time, so racing requests cannot all pass the
      // count below (FOR NO KEY UPDATE leaves the site's leads and cars free to reference it).
      if (this.deps.engine === 'postgres') await lockSiteRow(trx, site.id);
      const asked = await codesAskedSince(trx, site.id, email, now - codeLimitWindowMs);
      const byThisClient = asked.filter((one) => one.requester === requesterHash).map((one) => one.createdAt);
      if (byThisClient.length >= perAddressAndClient) {
        return {
          ok: false as const,
          limit: 'client' as const,
          max: perAddressAndClient,
          retryAfterMs: waitFor(byThisClient, perAddressAndClient),
        };
      }
      if (!knownDevice && asked.length >= perAddress) {
        return {
          ok: false as const,
          limit: 'address' as const,
          max: perAddress,
          retryAfterMs: waitFor(
            asked.map((one) => one.createdAt),
            perAddress,
          ),
        };
      }
      await insertSignInCode(
        trx,
        {
          siteId: site.id,
          email,
          requester: requesterHash,
          salt,
          codeHash: this.codeHash(salt, code),
          tokenHash: sha256(token),
          expiresAt,
        },
        now,
      );
      const mail = signInMail(site, { code, link, minutes: signInCodeTtlMs / 60_000 });
      const mailId = await enqueueShopperMail(trx, { siteId: site.id, email, kind: 'sign-in', ...mail, expiresAt }, now);
      return { ok: true as const, mailId };
    });
    if (!outcome.ok) return outcome;
    if (!this.deps.smtpConfigured) {
      this.deps.log.warn(
        { site: site.slug, email, code, mailId: outcome.mailId },
        'sign-in code (SMTP_URL is not set: the e-mail is written to DATA_DIR/outbox/mail)',
      );
    }
    this.deps.mail.nudge();
    return { ok: true };
  }

  /**
   * Signs in with the address and the code sent to it, typed on the connection `client`; null when
   * the code is wrong, used, expired or out of tries for that connection.
   */
  async verifyCode(site: SiteConfig, email: string, code: string, client: string, favourites: readonly number[]): Promise<SignedIn | null> {
    const now = this.now();
    const { db, engine } = this.deps;
    const live = await retryingLockConflicts(() =>
      takeCodeTries(db, engine, site.id, email, this.requesterHash(client), maxCodeTries, now),
    );
    const match = live.find((candidate) => {
      const expected = Buffer.from(this.codeHash(candidate.salt, code));
      const stored = Buffer.from(candidate.codeHash);
      return expected.length === stored.length && timingSafeEqual(expected, stored);
    });
    if (!match) return null;
    return retryingLockConflicts(() =>
      db.transaction().execute(async (trx) => {
        if (!(await redeemCode(trx, engine, match.id, site.id, email, now))) return null;
        return this.startSession(trx, site, email, favourites, now);
      }),
    );
  }

  /** Signs in with the token of the link sent by e-mail; null when it is unknown, used or expired. */
  async verifyToken(site: SiteConfig, token: string, favourites: readonly number[]): Promise<SignedIn | null> {
    if (!isSecretShaped(token)) return null;
    const now = this.now();
    const { db, engine } = this.deps;
    return retryingLockConflicts(() =>
      db.transaction().execute(async (trx) => {
        const email = await redeemToken(trx, engine, site.id, sha256(token), now);
        if (email === null) return null;
        return this.startSession(trx, site, email, favourites, now);
      }),
    );
  }

  private async startSession(
    trx: Transaction<PlatformDatabase>,
    site: SiteConfig,
    email: string,
    favourites: readonly number[],
    now: number,
  ): Promise<SignedIn> {
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

  /** Deletes the shopper's account and all it kept, the e-mail written to DATA_DIR/outbox/mail for them included. */
  async deleteAccount(shopper: Shopper) {
    const mailIds = await deleteShopper(this.deps.db, this.deps.engine, shopper);
    await this.deps.mail.removeFiles(mailIds);
  }
}
