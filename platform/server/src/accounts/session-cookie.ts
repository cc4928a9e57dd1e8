import { cookieFromHeader } from '../http/cookie-value';
import { deviceCookieName, deviceTtlMs, sessionCookieName, sessionTtlMs } from './sign-in';

/** The `dp_session` value a Cookie header carries, or null. */
export const sessionIdFromCookies = (header: string | string[] | undefined) => cookieFromHeader(header, sessionCookieName);

/** The `dp_device` value a Cookie header carries, or null. */
export const deviceFromCookies = (header: string | string[] | undefined) => cookieFromHeader(header, deviceCookieName);

/**
 * The server's cookies (HttpOnly: scripts never see them), sent on the site's own pages and
 * top-level links to them (SameSite=Lax; cross-site writes are also refused by the Origin check),
 * over https only when the site was reached over https.
 */
const cookie = (name: string, value: string, maxAgeMs: number, secure: boolean) =>
  `${name}=${value}; Path=/; Max-Age=${Math.floor(maxAgeMs / 1000)}; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;

const cleared = (name: string, secure: boolean) =>
  `${name}=; Path=/; Max-Age=0; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;

/** The session cookie. */
export const sessionCookie = (sessionId: string, secure: boolean) => cookie(sessionCookieName, sessionId, sessionTtlMs, secure);

export const clearedSessionCookie = (secure: boolean) => cleared(sessionCookieName, secure);

/**
 * The device cookie: this browser has signed in to the address, so it may ask for codes beyond
 * the address's cap from all connections (issue 7). It outlives the session and sign-out: it says
 * whose device this is, not that anyone is signed in.
 */
export const deviceCookie = (value: string, secure: boolean) => cookie(deviceCookieName, value, deviceTtlMs, secure);

export const clearedDeviceCookie = (secure: boolean) => cleared(deviceCookieName, secure);
