/**
 * Test support for the passwordless sign-in suites (accounts/sign-in.codes.test.ts and
 * accounts/sign-in.sessions-and-mail.test.ts): the platform with a garage site, and the requests a
 * shopper's browser makes to sign in. Production code does not import it.
 */
import { findSiteIdBySlug } from '@dealer/db/site-store';
import { createTestPlatform, siteRequest, type TestPlatform } from './test-platform';
import { mailboxOf, nextClient } from './test-mailbox';

/** Demo sites: Metro and Ridgeline have a garage, Harbour has none. */
export const site = 'metro-motor-group';
export const otherGarage = 'ridgeline-trucks';
export const noGarage = 'harbour-used-cars';
export type AuthAnswer = { user: { id: number; email: string; name?: string } | null; watchlist: number[] };

/** The platform on `engine`, and the id of the site the shoppers sign in to. */
export async function openSignInPlatform(engine: 'sqlite' | 'postgres') {
  const platform = await createTestPlatform({ engine });
  try {
    return { platform, siteId: (await findSiteIdBySlug(platform.ctx.db, site))! };
  } catch (error) {
    await platform.close();
    throw error;
  }
}

/** A shopper's sign-in requests to the platform `platform()` gives (once it is open), and the e-mail they get. */
export function signInRequests(platform: () => TestPlatform, siteId: () => number, engine: 'sqlite' | 'postgres') {
  let shoppers = 0;
  const newAddress = (name = 'shopper') => `${name}.${engine}.${++shoppers}@example.com`;
  const askCode = (email: string, client = nextClient(), slug = site) =>
    siteRequest(platform().app, slug, 'POST', '/api/auth/code', { payload: { email }, headers: { 'x-forwarded-for': client } });
  const verify = (payload: object, headers: Record<string, string> = {}, slug = site) =>
    siteRequest(platform().app, slug, 'POST', '/api/auth/verify', {
      payload: payload as Record<string, unknown>,
      headers: { 'x-forwarded-for': nextClient(), ...headers },
    });
  const whoAmI = (cookie?: string, slug = site) =>
    siteRequest(platform().app, slug, 'GET', '/api/auth', { headers: cookie ? { cookie } : {} });
  const lastMail = async (email: string) => (await mailboxOf(platform(), siteId(), email)).at(-1)!;
  return { newAddress, askCode, verify, whoAmI, lastMail };
}
