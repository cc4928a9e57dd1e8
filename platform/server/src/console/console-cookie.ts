/**
 * The console's session cookie, `dc_session`: HttpOnly, SameSite=Strict, host-only (no Domain, so
 * only the console's own origin gets it, never a dealer site on a sibling host), Secure over https.
 * Same-site requests from a dealer site are still refused writes by the exact Origin check.
 */
import { cookieFromHeader } from '../http/cookie-value';

export const consoleSessionCookieName = 'dc_session';
export const consoleSessionTtlMs = 7 * 24 * 60 * 60_000;

export const consoleSessionFromCookies = (header: string | string[] | undefined) => cookieFromHeader(header, consoleSessionCookieName);

export const consoleSessionCookie = (sessionId: string, secure: boolean) =>
  `${consoleSessionCookieName}=${sessionId}; Path=/; Max-Age=${consoleSessionTtlMs / 1000}; HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}`;

export const clearedConsoleSessionCookie = (secure: boolean) =>
  `${consoleSessionCookieName}=; Path=/; Max-Age=0; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}`;
