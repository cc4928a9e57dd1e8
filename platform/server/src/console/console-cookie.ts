/**
 * The console's session cookie, `dc_session`: HttpOnly, SameSite=Strict, host-only (no Domain, so
 * only the console's own origin gets it, never a dealer site on a sibling host), Secure over https.
 * Same-site requests from a dealer site are still refused writes by the exact Origin check.
 */
export const consoleSessionCookieName = 'dc_session';
export const consoleSessionTtlMs = 7 * 24 * 60 * 60_000;

export function consoleSessionFromCookies(header: string | string[] | undefined): string | null {
  const text = Array.isArray(header) ? header.join('; ') : header;
  if (!text) return null;
  for (const pair of text.split(';')) {
    const at = pair.indexOf('=');
    if (at < 0 || pair.slice(0, at).trim() !== consoleSessionCookieName) continue;
    const value = pair.slice(at + 1).trim();
    return value === '' ? null : value.slice(0, 200);
  }
  return null;
}

export const consoleSessionCookie = (sessionId: string, secure: boolean) =>
  `${consoleSessionCookieName}=${sessionId}; Path=/; Max-Age=${consoleSessionTtlMs / 1000}; HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}`;

export const clearedConsoleSessionCookie = (secure: boolean) =>
  `${consoleSessionCookieName}=; Path=/; Max-Age=0; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}`;
