/**
 * Test support for the account suites: reads what the mail outbox wrote to DATA_DIR/outbox/mail
 * and signs a shopper in the way a person would (ask for a code, open the e-mail, type the code).
 * Production code does not import it.
 */
import { readFile } from 'node:fs/promises';
import { expect } from 'vitest';
import { siteRequest, type TestPlatform } from './test-platform';
import { mailFilePath } from '../accounts/mail-delivery';
import { sentMailIdsOf } from '@dealer/db/mail-outbox-store';

export type ReadMail = { id: number; file: string; raw: string; to: string; subject: string; text: string };

/** Quoted-printable as nodemailer writes it: soft line breaks and =XX bytes. */
function decodeQuotedPrintable(text: string): string {
  const joined = text.replace(/=\r?\n/g, '');
  const bytes: number[] = [];
  for (let i = 0; i < joined.length; i++) {
    const hex = joined[i] === '=' ? /^[0-9A-F]{2}$/i.exec(joined.slice(i + 1, i + 3))?.[0] : undefined;
    if (hex) {
      bytes.push(Number.parseInt(hex, 16));
      i += 2;
    } else bytes.push(...Buffer.from(joined[i]!, 'utf8'));
  }
  return Buffer.from(bytes).toString('utf8');
}

/** A header's RFC 2047 encoded words (=?UTF-8?Q?...?= and =?UTF-8?B?...?=) as text; the space between two of them goes. */
function decodeHeader(value: string): string {
  return value
    .replace(/(\?=)\s+(=\?)/g, '$1$2')
    .replace(/=\?UTF-8\?([QB])\?([^?]*)\?=/gi, (_word, kind: string, text: string) =>
      kind.toUpperCase() === 'B' ? Buffer.from(text, 'base64').toString('utf8') : decodeQuotedPrintable(text.replace(/_/g, ' ')),
    );
}

export function parseEml(raw: string): Omit<ReadMail, 'id' | 'file'> {
  const split = raw.indexOf('\n\n');
  const head = raw.slice(0, split).replace(/\n[ \t]+/g, ' ');
  const body = raw.slice(split + 2);
  const header = (name: string) => new RegExp(`^${name}: (.*)$`, 'im').exec(head)?.[1]?.trim() ?? '';
  const encoding = header('Content-Transfer-Encoding').toLowerCase();
  const text =
    encoding === 'quoted-printable'
      ? decodeQuotedPrintable(body)
      : encoding === 'base64'
        ? Buffer.from(body, 'base64').toString('utf8')
        : body;
  return { raw, to: header('To'), subject: decodeHeader(header('Subject')), text };
}

/** Sends all that is due, then reads every e-mail written for the address on the site, oldest first. */
export async function mailboxOf(platform: TestPlatform, siteId: number, email: string): Promise<ReadMail[]> {
  while ((await platform.ctx.accounts.mail.runOnce()) > 0);
  const mails: ReadMail[] = [];
  for (const id of await sentMailIdsOf(platform.ctx.db, siteId, email)) {
    const file = mailFilePath(platform.ctx.config.dataDir, id);
    mails.push({ id, file, ...parseEml(await readFile(file, 'utf8')) });
  }
  return mails;
}

/** The code and the link's token of a sign-in e-mail. */
export function signInSecrets(mail: Pick<ReadMail, 'text'>): { code: string; token: string; link: string } {
  const code = /^\s+(\d{6})$/m.exec(mail.text)?.[1];
  const link = /^(https?:\/\/\S+#sign_in=([A-Za-z0-9_-]+))$/m.exec(mail.text);
  expect(code, `a code in:\n${mail.text}`).toBeDefined();
  expect(link, `a sign-in link in:\n${mail.text}`).not.toBeNull();
  return { code: code!, token: link![2]!, link: link![1]! };
}

let addresses = 0;
/** A client address of its own per call, as the per-client limits would otherwise count the tests together. */
export const nextClient = () => `198.51.100.${(++addresses % 250) + 1}`;

/** The `name=value` pair of the named cookie a Set-Cookie answer sets ('' when none). */
function cookiePairOf(setCookie: string | string[] | undefined, name: string): string {
  const value = Array.isArray(setCookie) ? setCookie.join('\n') : (setCookie ?? '');
  return new RegExp(`(?:^|\n)(${name}=[^;]*)`).exec(value)?.[1] ?? '';
}

/** The `dp_session` cookie pair of a Set-Cookie answer ('' when none was set). */
export const sessionCookieOf = (setCookie: string | string[] | undefined) => cookiePairOf(setCookie, 'dp_session');

/** The `dp_device` cookie pair of a Set-Cookie answer ('' when none was set). */
export const deviceCookieOf = (setCookie: string | string[] | undefined) => cookiePairOf(setCookie, 'dp_device');

/** Asks for a code, reads it from the e-mail and signs in with it; the cookie to send and the answer. */
export async function signInByCode(platform: TestPlatform, slug: string, siteId: number, email: string, favourites?: number[]) {
  const client = nextClient();
  const asked = await siteRequest(platform.app, slug, 'POST', '/api/auth/code', {
    payload: { email },
    headers: { 'x-forwarded-for': client },
  });
  expect(asked.statusCode, asked.body).toBe(202);
  const mails = await mailboxOf(platform, siteId, email.toLowerCase());
  const { code } = signInSecrets(mails[mails.length - 1]!);
  const res = await siteRequest(platform.app, slug, 'POST', '/api/auth/verify', {
    payload: { email, code, ...(favourites ? { favourites } : {}) },
    headers: { 'x-forwarded-for': client },
  });
  expect(res.statusCode, res.body).toBe(200);
  return {
    cookie: sessionCookieOf(res.headers['set-cookie']),
    body: res.json<{ user: { id: number; email: string }; watchlist: number[] }>(),
  };
}
