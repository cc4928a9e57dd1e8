import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Car } from '@dealer/contracts/car';
import type { SiteConfig } from '@dealer/contracts/site';
import { listSiteCars } from '@dealer/db/car-store';
import { findSiteIdBySlug } from '@dealer/db/site-store';
import { skipPostgres } from '@dealer/testing/postgres';
import { createTestPlatform, siteRequest, testAdminKey, type TestPlatform } from '../testing/test-platform';
import { mailboxOf, nextClient, signInByCode } from '../testing/test-mailbox';
import { alertMailsPerDay, GarageAlertSweep } from './garage-alert-sweep';
import { isForSale } from './garage-alerts';
import { unsubscribeToken } from './unsubscribe-token';

const slug = 'metro-motor-group';
const hourMs = 60 * 60_000;
const dayMs = 24 * hourMs;

/** A header of a written e-mail, its folded lines joined ('' when absent). */
const headerOf = (raw: string, name: string) =>
  new RegExp(`^${name}:\\s*(.*)$`, 'im').exec(raw.slice(0, raw.indexOf('\n\n')).replace(/\n[ \t]+/g, ' '))?.[1]?.trim() ?? '';

describe.each(['sqlite', 'postgres'] as const)('garage alert e-mails: unsubscribing and the daily cap, on %s', (engine) => {
  if (engine === 'postgres' && skipPostgres) {
    it.skip('needs PostgreSQL (skipped: SKIP_POSTGRES=1)', () => {});
    return;
  }

  let platform: TestPlatform;
  let site: SiteConfig;
  let forSale: Car[];
  const take = (count: number) => forSale.splice(0, count);
  /**
   * The sweep with the clock in the test's hands: it looks back three days each time (alerts are
   * still made once per shopper, car and kind), so a look "tomorrow" still sees a car changed now.
   */
  let sweep: GarageAlertSweep;

  beforeAll(async () => {
    platform = await createTestPlatform({ engine });
    const { ctx } = platform;
    site = (await ctx.sites.forId((await findSiteIdBySlug(ctx.db, slug))!))!;
    forSale = (await listSiteCars(ctx.db, site.id)).filter((car) => isForSale(car) && car.price > 5000);
    sweep = new GarageAlertSweep({
      db: ctx.db,
      siteOf: (id) => ctx.sites.forId(id),
      mail: ctx.accounts.mail,
      serverSecret: ctx.config.leads.tokenSecret,
      overlapMs: 3 * dayMs,
    });
  });
  afterAll(async () => platform?.close());

  let shoppers = 0;
  const newAddress = (name: string) => `${name}.alert-mail.${engine}.${++shoppers}@example.com`;
  const dropPrice = async (car: Car, by = 1000) => {
    const res = await platform.app.inject({
      method: 'PATCH',
      url: `/api/admin/cars/${car.id}`,
      headers: { authorization: `Bearer ${testAdminKey}` },
      payload: { price: car.price - by },
    });
    expect(res.statusCode, res.body).toBe(200);
  };
  /** The alert e-mails stored for the address (sent or not), oldest first. */
  const alertMailRows = (email: string) =>
    platform.ctx.db
      .selectFrom('shopper_mail')
      .select(['subject', 'created_at'])
      .where('site_id', '=', site.id)
      .where('email', '=', email)
      .where('kind', '=', 'garage-alert')
      .orderBy('id')
      .execute();
  const alertedCars = async (shopperId: number) =>
    (
      await platform.ctx.db.selectFrom('garage_alerts').select('car_id').where('shopper_id', '=', shopperId).orderBy('car_id').execute()
    ).map((row) => Number(row.car_id));

  it('carries the unsubscribe link in the text and a one-click List-Unsubscribe, which unsubscribes', async () => {
    const [car] = take(1);
    const email = newAddress('headers');
    await signInByCode(platform, slug, site.id, email, [car!.id]);
    await sweep.runOnce();
    await dropPrice(car!);
    expect(await sweep.runOnce()).toMatchObject({ alerts: 1, mails: 1 });
    const [signIn, alert, ...more] = await mailboxOf(platform, site.id, email);
    expect(more).toEqual([]);

    const token = unsubscribeToken(platform.ctx.config.leads.tokenSecret, site.id, email);
    const oneClick = `${new URL(site.url).origin}/api/unsubscribe/one-click?t=${token}`;
    expect(headerOf(alert!.raw, 'List-Unsubscribe')).toBe(`<${oneClick}>`);
    expect(headerOf(alert!.raw, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
    expect(alert!.text.trimEnd().split('\n').at(-1)).toBe(`Stop these e-mails: ${site.url.replace(/\/$/, '')}/unsubscribe?t=${token}`);
    // A sign-in code is the shopper's own request: no unsubscribing from it.
    expect(headerOf(signIn!.raw, 'List-Unsubscribe')).toBe('');
    expect(headerOf(signIn!.raw, 'List-Unsubscribe-Post')).toBe('');

    // The mail program posts to the header's address.
    const res = await siteRequest(platform.app, slug, 'POST', new URL(oneClick).pathname + new URL(oneClick).search, {
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': nextClient() },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(res.statusCode, res.body).toBe(200);
    const row = await platform.ctx.db
      .selectFrom('mail_opt_outs')
      .select('source')
      .where('site_id', '=', site.id)
      .where('email', '=', email)
      .executeTakeFirst();
    expect(row?.source).toBe('one-click');
  });

  it('sends an address that opted out no alert e-mail and records no alert, while another saver of the car gets one', async () => {
    const [car] = take(1);
    const leaver = newAddress('leaver');
    const stayer = newAddress('stayer');
    const left = await signInByCode(platform, slug, site.id, leaver, [car!.id]);
    const stayed = await signInByCode(platform, slug, site.id, stayer, [car!.id]);
    const optedOut = await siteRequest(platform.app, slug, 'POST', '/api/unsubscribe', {
      headers: { 'x-forwarded-for': nextClient() },
      payload: { email: ` ${leaver.toUpperCase()}` },
    });
    expect(optedOut.statusCode, optedOut.body).toBe(200);
    await sweep.runOnce();

    await dropPrice(car!);
    expect(await sweep.runOnce()).toMatchObject({ alerts: 1, mails: 1 });
    expect(await alertMailRows(leaver)).toEqual([]);
    expect(await alertedCars(left.body.user.id)).toEqual([]);
    expect(await alertMailRows(stayer)).toHaveLength(1);
    expect(await alertedCars(stayed.body.user.id)).toEqual([car!.id]);
  });

  it(`e-mails at most ${alertMailsPerDay} alerts a day; over the cap the alerts are kept in the garage unmailed`, async () => {
    const cars = take(alertMailsPerDay + 2);
    const email = newAddress('busy-day');
    const { body } = await signInByCode(
      platform,
      slug,
      site.id,
      email,
      cars.map((car) => car.id),
    );
    const start = Date.now();
    await sweep.runOnce(start);

    // One price drop an hour: the first three are e-mailed.
    for (const [i, car] of cars.slice(0, alertMailsPerDay).entries()) {
      await dropPrice(car);
      expect(await sweep.runOnce(start + (i + 1) * hourMs)).toMatchObject({ alerts: 1, mails: 1 });
    }
    // The fourth, still within a day of the first e-mail: recorded, not e-mailed.
    const capped = cars[alertMailsPerDay]!;
    await dropPrice(capped);
    expect(await sweep.runOnce(start + hourMs + dayMs - 1)).toEqual({ alerts: 1, mails: 0 });
    expect(await alertMailRows(email)).toHaveLength(alertMailsPerDay);
    expect(await alertedCars(body.user.id)).toEqual(
      cars
        .slice(0, alertMailsPerDay + 1)
        .map((car) => car.id)
        .sort((a, b) => a - b),
    );

    // A day after the first e-mail there is room again: the next e-mail tells only what is new then.
    const later = cars[alertMailsPerDay + 1]!;
    await dropPrice(later);
    expect(await sweep.runOnce(start + hourMs + dayMs)).toEqual({ alerts: 1, mails: 1 });
    const rows = await alertMailRows(email);
    expect(rows).toHaveLength(alertMailsPerDay + 1);
    expect(rows.at(-1)!.subject).toBe(`Price drop: ${later.name} is now $${(later.price - 1000).toLocaleString('en-AU')}`);
    expect(rows.map((row) => Number(row.created_at))).toEqual(
      [1, 2, 3].map((hours) => start + hours * hourMs).concat(start + hourMs + dayMs),
    );
  });
});
