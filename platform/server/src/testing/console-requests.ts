import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import type { PlatformDb } from '@dealer/db/database';

export const consoleHost = 'console.localhost:3000';
export const consoleOrigin = `http://${consoleHost}`;

/** A request to the dealer console's API, as its own pages send it (its host and origin), with a session cookie when given. */
export function consoleRequest(
  app: FastifyInstance,
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  url: string,
  opts: { cookie?: string | null; payload?: InjectOptions['payload']; headers?: Record<string, string> } = {},
): Promise<LightMyRequestResponse> {
  return app.inject({
    method,
    url,
    headers: {
      host: consoleHost,
      ...(method === 'GET' ? {} : { origin: consoleOrigin }),
      ...(opts.cookie ? { cookie: opts.cookie } : {}),
      ...opts.headers,
    },
    payload: opts.payload,
  });
}

/** The code of the newest console mail to an address, read from the outbox table (tests do not run its worker). */
export async function latestConsoleCode(db: PlatformDb, email: string): Promise<{ code: string; token: string } | null> {
  const row = await db
    .selectFrom('console_mail')
    .select('body')
    .where('email', '=', email.toLowerCase())
    .orderBy('id', 'desc')
    .executeTakeFirst();
  const code = row?.body.match(/^\s{4}(\d{6})$/m)?.[1];
  const token = row?.body.match(/#token=([A-Za-z0-9_-]{43})/)?.[1];
  return code && token ? { code, token } : null;
}

/** Signs a console user in through the API (code by mail, then verify): the `dc_session` cookie to send. */
export async function consoleSignIn(app: FastifyInstance, db: PlatformDb, email: string): Promise<string> {
  const asked = await consoleRequest(app, 'POST', '/api/console/auth/code', { payload: { email } });
  if (asked.statusCode !== 202) throw new Error(`code for ${email}: ${asked.statusCode} ${asked.body}`);
  const sent = await latestConsoleCode(db, email);
  if (!sent) throw new Error(`no console mail to ${email}`);
  const verified = await consoleRequest(app, 'POST', '/api/console/auth/verify', { payload: { email, code: sent.code } });
  if (verified.statusCode !== 200) throw new Error(`verify ${email}: ${verified.statusCode} ${verified.body}`);
  const cookie = [verified.headers['set-cookie']].flat().find((c) => c?.startsWith('dc_session='));
  return cookie!.split(';')[0]!;
}
