/**
 * Previewing a site at candidate remote versions (issue 23, the console's Remotes screen): the
 * console makes a signed link to the site, `?dp_preview=<token>`; opening it sets the `dp_preview`
 * cookie on the site's own host, and that browser alone is served the site with those remotes
 * (its pages are neither taken from nor put in the page cache) until the token runs out (an hour)
 * or `?dp_preview=off`. The token names the site, so it previews nothing elsewhere, and is signed
 * with the server's secret, so nobody can make one up.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { siteRemoteSettingSchema, type SiteRemoteSetting } from '@dealer/contracts/site';
import { cookieFromHeader } from '../http/cookie-value';

export const previewCookieName = 'dp_preview';
export const previewParam = 'dp_preview';
export const previewTtlMs = 60 * 60_000;

/** `r`: the remotes previewed (none: the site's own); `d`: the site's unpublished content is shown too (issue 24). */
const claimsSchema = z.object({
  s: z.number().int(),
  e: z.number().int(),
  r: z.array(siteRemoteSettingSchema).nullable(),
  d: z.boolean().optional(),
});

/** What a preview shows: other remote versions, the dealer's drafts, or both. */
export type PreviewClaims = { remotes: SiteRemoteSetting[] | null; drafts: boolean };

const mac = (secret: string, body: string) =>
  createHmac('sha256', createHmac('sha256', secret).update('remote preview').digest()).update(body).digest('base64url');

export function signPreview(secret: string, siteId: number, remotes: SiteRemoteSetting[] | null, now = Date.now(), drafts = false): string {
  const body = Buffer.from(JSON.stringify({ s: siteId, e: now + previewTtlMs, r: remotes, ...(drafts ? { d: true } : {}) })).toString(
    'base64url',
  );
  return `${body}.${mac(secret, body)}`;
}

/** The remotes a preview token sets for the site, or null (not a token, not this site's, run out, forged, or drafts only). */
export function verifyPreview(secret: string, token: string, siteId: number, now = Date.now()): SiteRemoteSetting[] | null {
  return verifyPreviewClaims(secret, token, siteId, now)?.remotes ?? null;
}

/** What a preview token shows on the site, or null (not a token, not this site's, run out, forged). */
export function verifyPreviewClaims(secret: string, token: string, siteId: number, now = Date.now()): PreviewClaims | null {
  if (token.length > 4000) return null;
  const [body = '', given = '', ...rest] = token.split('.');
  if (rest.length > 0) return null;
  const expected = Buffer.from(mac(secret, body));
  const presented = Buffer.from(given);
  if (expected.length !== presented.length || !timingSafeEqual(expected, presented)) return null;
  try {
    const claims = claimsSchema.parse(JSON.parse(Buffer.from(body, 'base64url').toString('utf8')));
    return claims.s === siteId && claims.e > now ? { remotes: claims.r, drafts: claims.d === true } : null;
  } catch {
    return null;
  }
}

/** The `dp_preview` value a Cookie header carries, or null (a token is longer than a session id). */
export const previewFromCookies = (header: string | string[] | undefined) => cookieFromHeader(header, previewCookieName, 4000);

export const previewCookie = (token: string, secure: boolean) =>
  `${previewCookieName}=${token}; Path=/; Max-Age=${previewTtlMs / 1000}; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;
export const clearedPreviewCookie = (secure: boolean) =>
  `${previewCookieName}=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;
