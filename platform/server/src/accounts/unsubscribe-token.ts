/**
 * The token of a shopper's unsubscribe link and one-click address (issue 24): it names the site
 * and the address, and is signed with the server's secret (a key of its own, made from it with
 * the label 'unsubscribe', as remote-preview.ts makes one), so nobody can unsubscribe an address
 * they were not mailed at. It never runs out: an unsubscribe link in an old e-mail must still work
 * (RFC 8058 asks the same of one-click addresses), and all it can do is stop e-mail.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

/** A token is about 400 characters for the longest address (254): anything far longer is not one. */
export const maxUnsubscribeTokenChars = 600;

const mac = (secret: string, body: string) =>
  createHmac('sha256', createHmac('sha256', secret).update('unsubscribe').digest()).update(body).digest('base64url');

const addressOf = (email: string) => email.trim().toLowerCase();

export function unsubscribeToken(secret: string, siteId: number, email: string): string {
  const body = Buffer.from(`${siteId}:${addressOf(email)}`, 'utf8').toString('base64url');
  return `${body}.${mac(secret, body)}`;
}

/** The site and address a token names, or null (not a token, changed, cut short, or signed with another secret). */
export function verifyUnsubscribeToken(secret: string, token: string): { siteId: number; email: string } | null {
  if (token.length > maxUnsubscribeTokenChars) return null;
  const [body = '', given = '', ...rest] = token.split('.');
  if (rest.length > 0 || body === '') return null;
  const expected = Buffer.from(mac(secret, body));
  const presented = Buffer.from(given);
  if (expected.length !== presented.length || !timingSafeEqual(expected, presented)) return null;
  const match = /^(\d{1,15}):(.+)$/s.exec(Buffer.from(body, 'base64url').toString('utf8'));
  if (!match) return null;
  return { siteId: Number(match[1]), email: match[2]! };
}
