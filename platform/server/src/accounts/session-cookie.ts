import { sessionCookieName, sessionTtlMs } from './sign-in';

/**
 * The `dp_session` value a Cookie header carries (the first, as the browser sends the most
 * specific first), or null. Whatever the header holds, this never throws: a cookie that is not a
 * session id is no session, and the signed-in check treats it so.
 */
export function sessionIdFromCookies(header: string | string[] | undefined): string | null {
  const text = Array.isArray(header) ? header.join('; ') : header;
  if (!text) return null;
  for (const pair of text.split(';')) {
    const at = pair.indexOf('=');
    if (at < 0 || pair.slice(0, at).trim() !== sessionCookieName) continue;
    const value = pair.slice(at + 1).trim();
    return value === '' ? null : value.slice(0, 200);
  }
  return null;
}

/**
 * The session cookie: the server's only (HttpOnly: scripts never see it), sent on the site's own
 * pages and top-level links to them (SameSite=Lax; cross-site writes are also refused by the
 * Origin check), over https only when the site was reached over https.
 */
export function sessionCookie(sessionId: string, secure: boolean): string {
  const maxAge = Math.floor(sessionTtlMs / 1000);
  return `${sessionCookieName}=${sessionId}; Path=/; Max-Age=${maxAge}; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;
}

export function clearedSessionCookie(secure: boolean): string {
  return `${sessionCookieName}=; Path=/; Max-Age=0; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;
}
