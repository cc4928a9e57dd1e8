import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Car } from '@dealer/contracts/car';
import { insertCars, listSiteCars } from '@dealer/db/car-store';
import { findSiteIdBySlug } from '@dealer/db/site-store';
import { signInFirstMessage } from '../routes/accounts';
import { skipPostgres } from '@dealer/testing/postgres';
import { createTestPlatform, siteRequest, testAdminKey, type TestPlatform } from '../testing/test-platform';
import { maxSavedSearches, type SavedCar, type SavedSearch } from './account-store';
import { isForSale } from './garage-alerts';
import { deliverShopperMail, mailFilePath, mailOutboxDir } from './mail-delivery';
import { MailOutbox } from './mail-outbox';
import { mailboxOf, nextClient, signInByCode } from '../testing/test-mailbox';

const site = 'metro-motor-group';
const otherSite = 'ridgeline-trucks';
type Garage = { saved: SavedCar[]; searches: (SavedSearch & { alerts: boolean })[] };

describe.each(['sqlite', 'postgres'] as const)(
  'the garage: saved cars, saved searches, alerts and deleting the account, on %s',
  (engine) => {
    if (engine === 'postgres' && skipPostgres) {
      it.skip('needs PostgreSQL (skipped: SKIP_POSTGRES=1)', () => {});
      return;
    }

    let platform: TestPlatform;
    let siteId: number;
    /** Cars of the site for sale, handed out a few per test. */
    let forSale: Car[];
    const take = (count: number) => forSale.splice(0, count);
    let otherSiteCar: Car;

    beforeAll(async () => {
      platform = await createTestPlatform({ engine });
      siteId = (await findSiteIdBySlug(platform.ctx.db, site))!;
      forSale = (await listSiteCars(platform.ctx.db, siteId)).filter((car) => isForSale(car) && car.price > 5000);
      otherSiteCar = (await listSiteCars(platform.ctx.db, (await findSiteIdBySlug(platform.ctx.db, otherSite))!))[0]!;
    });
    afterAll(async () => {
      await platform?.close();
    });

    let shoppers = 0;
    const newAddress = (name = 'shopper') => `${name}.garage.${engine}.${++shoppers}@example.com`;
    const signIn = (email = newAddress(), favourites?: number[]) => signInByCode(platform, site, siteId, email, favourites);
    const call = (method: 'GET' | 'PUT' | 'DELETE' | 'POST', url: string, cookie: string | null, payload?: object) =>
      siteRequest(platform.app, site, method, url, {
        headers: { ...(cookie ? { cookie } : {}), 'x-forwarded-for': nextClient() },
        ...(payload ? { payload: payload as Record<string, unknown> } : {}),
      });
    const garageOf = async (cookie: string) => {
      const res = await call('GET', '/api/garage', cookie);
      expect(res.statusCode, res.body).toBe(200);
      return res.json<Garage>();
    };
    const changeCar = (id: number, change: object) =>
      platform.app.inject({
        method: 'PATCH',
        url: `/api/admin/cars/${id}`,
        headers: { authorization: `Bearer ${testAdminKey}` },
        payload: change as Record<string, unknown>,
      });
    const alertMails = async (email: string) =>
      (await mailboxOf(platform, siteId, email)).filter((mail) => !mail.subject.startsWith('Your sign-in code'));
    const sweep = () => platform.ctx.accounts.alerts.runOnce();

    it('merges the browser’s favourites at sign-in: this site’s cars only, unknown ids and repeats left out', async () => {
      const [a, b] = take(2);
      const { body, cookie } = await signIn(newAddress('merge'), [a!.id, otherSiteCar.id, 987_654_321, b!.id, a!.id]);
      expect(body.watchlist).toEqual([a!.id, b!.id]);
      expect((await call('GET', '/api/auth', cookie)).json()).toEqual({ user: body.user, watchlist: [a!.id, b!.id] });
      // Signing in again with favourites already saved adds nothing twice.
      const again = await signInByCode(platform, site, siteId, body.user.email, [b!.id]);
      expect(again.body.watchlist).toEqual([a!.id, b!.id]);
    });

    it('saves and removes cars of this site only, for a signed-in shopper only', async () => {
      const [car] = take(1);
      const anonymous = await call('PUT', `/api/garage/saved/${car!.id}`, null);
      expect(anonymous.statusCode).toBe(401);
      expect(anonymous.json()).toEqual({ message: signInFirstMessage });
      expect((await call('GET', '/api/garage', null)).statusCode).toBe(401);

      const { cookie } = await signIn();
      const saved = await call('PUT', `/api/garage/saved/${car!.id}`, cookie);
      expect(saved.statusCode, saved.body).toBe(200);
      expect(saved.json()).toEqual({ watchlist: [car!.id] });
      expect((await call('PUT', `/api/garage/saved/${car!.id}`, cookie)).json()).toEqual({ watchlist: [car!.id] });

      const foreign = await call('PUT', `/api/garage/saved/${otherSiteCar.id}`, cookie);
      expect(foreign.statusCode).toBe(404);
      expect(foreign.json()).toEqual({ message: `There is no car ${otherSiteCar.id} on this site.` });
      for (const bad of ['abc', '0', '-1', '1e3', '9'.repeat(30)])
        expect((await call('PUT', `/api/garage/saved/${bad}`, cookie)).statusCode, bad).toBe(400);

      const removed = await call('DELETE', `/api/garage/saved/${car!.id}`, cookie);
      expect(removed.json()).toEqual({ watchlist: [] });
      expect((await call('DELETE', `/api/garage/saved/${car!.id}`, cookie)).statusCode).toBe(200);
    });

    it('answers a path its schema refuses with the route’s own message, before asking who is signed in', async () => {
      // The car id is judged by the route's params schema (a 400 in the garage's words), the session after.
      for (const cookie of [null, (await signIn(newAddress('schema'))).cookie]) {
        const res = await call('PUT', '/api/garage/saved/abc', cookie);
        expect(res.statusCode).toBe(400);
        expect(res.json()).toEqual({ message: 'The car id must be a whole number.' });
      }
      const search = await call('DELETE', '/api/garage/searches/0', null);
      expect(search.json()).toEqual({ message: 'The saved search id must be a whole number.' });
      // The body after the session: a shopper signed out is told so, whatever was sent.
      expect((await call('POST', '/api/garage/searches', null, { name: 5 })).json()).toEqual({ message: signInFirstMessage });
    });

    it('lists saved cars with their data as it is now: a sold car stays, flagged by its data; a hidden one has no data', async () => {
      const [sold, hidden, kept] = take(3);
      const { cookie } = await signIn(newAddress('lister'), [sold!.id, hidden!.id, kept!.id]);
      expect((await changeCar(sold!.id, { status: 'sold' })).statusCode).toBe(200);
      expect((await changeCar(hidden!.id, { show_on_dealer_website: false })).statusCode).toBe(200);
      const garage = await garageOf(cookie);
      expect(garage.saved.map((entry) => entry.car_id)).toEqual([kept!.id, hidden!.id, sold!.id]);
      const [keptEntry, hiddenEntry, soldEntry] = garage.saved;
      expect(keptEntry).toMatchObject({
        car_id: kept!.id,
        saved_price: kept!.price,
        car: { id: kept!.id, slug: kept!.slug, price: kept!.price },
      });
      expect(soldEntry!.car).toMatchObject({ id: sold!.id, status: 'sold', sold: true });
      expect(hiddenEntry!.car).toBeNull();
      expect(garage.searches).toEqual([]);
    });

    it(`saves up to ${maxSavedSearches} searches with a valid filter, and deletes them`, async () => {
      const { cookie } = await signIn();
      const created = await call('POST', '/api/garage/searches', cookie, {
        name: ' Used Toyotas ',
        path: '/search/used-cars?make=Toyota',
        filter: ['make = "Toyota"', ['car_type = used']],
        q: 'hybrid',
      });
      expect(created.statusCode, created.body).toBe(201);
      const search = created.json<{ search: Garage['searches'][number] }>().search;
      expect(search).toEqual({
        id: expect.any(Number),
        name: 'Used Toyotas',
        path: '/search/used-cars?make=Toyota',
        filter: ['make = "Toyota"', ['car_type = used']],
        q: 'hybrid',
        created_at: expect.any(Number),
        alerts: true,
      });
      const bookmark = await call('POST', '/api/garage/searches', cookie, { name: 'Everything', path: '/search/new-used-and-demo-cars' });
      expect(bookmark.json<{ search: { alerts: boolean; filter: unknown } }>().search).toMatchObject({ filter: null, alerts: false });

      const refusals: [object, string][] = [
        [{ name: '', path: '/search' }, 'name'],
        [{ name: 'x'.repeat(101), path: '/search' }, 'name'],
        [{ name: 'two\nlines', path: '/search' }, 'name'],
        [{ name: 'Elsewhere', path: '//evil.example/search' }, 'path'],
        [{ name: 'Elsewhere', path: '/\\evil.example' }, 'path'],
        [{ name: 'Elsewhere', path: 'https://evil.example/' }, 'path'],
        [{ name: 'Script', path: 'javascript:alert(1)' }, 'path'],
        [{ name: 'Long', path: `/${'a'.repeat(2000)}` }, 'path'],
        [{ name: 'Bad filter', path: '/search', filter: 'make = ' }, 'filter'],
        [{ name: 'Secret filter', path: '/search', filter: 'vin = 1' }, 'filter'],
        [{ name: 'Odd filter', path: '/search', filter: { make: 'Toyota' } }, 'filter'],
        [{ name: 'Big filter', path: '/search', filter: Array.from({ length: 101 }, () => 'make = a') }, 'filter'],
      ];
      for (const [body, field] of refusals) {
        const res = await call('POST', '/api/garage/searches', cookie, body);
        expect(res.statusCode, JSON.stringify(body).slice(0, 80)).toBe(400);
        expect(Object.keys(res.json<{ fields: object }>().fields), JSON.stringify(body).slice(0, 80)).toEqual([field]);
      }
      expect((await call('POST', '/api/garage/searches', null, { name: 'x', path: '/search' })).statusCode).toBe(401);

      for (let i = 2; i < maxSavedSearches; i++)
        expect((await call('POST', '/api/garage/searches', cookie, { name: `Search ${i}`, path: `/search?page=${i}` })).statusCode).toBe(
          201,
        );
      const full = await call('POST', '/api/garage/searches', cookie, { name: 'One more', path: '/search' });
      expect(full.statusCode).toBe(409);
      expect(full.json()).toEqual({ message: `You can keep ${maxSavedSearches} saved searches: delete one to save another.` });
      expect((await garageOf(cookie)).searches).toHaveLength(maxSavedSearches);

      const someoneElse = await signIn();
      expect((await call('DELETE', `/api/garage/searches/${search.id}`, someoneElse.cookie)).statusCode).toBe(404);
      expect((await call('DELETE', `/api/garage/searches/${search.id}`, cookie)).statusCode).toBe(204);
      expect((await call('DELETE', `/api/garage/searches/${search.id}`, cookie)).statusCode).toBe(404);
      expect((await call('POST', '/api/garage/searches', cookie, { name: 'One more', path: '/search' })).statusCode).toBe(201);
    });

    it('e-mails a price drop on a saved car once, whatever follows (the admin car change, then the alert sweep)', async () => {
      const [car, untouched] = take(2);
      const email = newAddress('bargain');
      const { body } = await signIn(email, [car!.id, untouched!.id]);
      await sweep();
      expect(await alertMails(email)).toEqual([]);

      expect((await changeCar(car!.id, { price: car!.price + 500 })).statusCode).toBe(200);
      await sweep();
      expect(await alertMails(email)).toEqual([]);

      const dropped = car!.price - 1500;
      expect((await changeCar(car!.id, { price: dropped })).statusCode).toBe(200);
      expect(await sweep()).toMatchObject({ alerts: 1, mails: 1 });
      const [mail, ...more] = await alertMails(email);
      expect(more).toEqual([]);
      expect(mail!.subject).toBe(`Price drop: ${car!.name} is now $${dropped.toLocaleString('en-AU')}`);
      // Links go to the site's own address (its config's url), as the lead outbox's file links do.
      const siteUrl = (await platform.ctx.sites.forId(siteId))!.url;
      expect(mail!.text).toContain(`${siteUrl}/cars/${car!.slug}\n`);
      expect(mail!.text).toContain(`($${car!.price.toLocaleString('en-AU')} when you saved it)`);

      // Looked at again, and dropped again: no second e-mail for this car.
      await sweep();
      expect((await changeCar(car!.id, { price: dropped - 1000 })).statusCode).toBe(200);
      await sweep();
      expect(await alertMails(email)).toHaveLength(1);
      const alerts = await platform.ctx.db
        .selectFrom('garage_alerts')
        .select(['car_id', 'kind'])
        .where('shopper_id', '=', body.user.id)
        .execute();
      expect(alerts.map((row) => ({ car_id: Number(row.car_id), kind: row.kind }))).toEqual([{ car_id: car!.id, kind: 'price_drop' }]);
    });

    it('e-mails a new car that a saved search finds, once, and not one it does not find', async () => {
      const [template] = take(1);
      const email = newAddress('watcher');
      const { cookie } = await signIn(email);
      const saved = await call('POST', '/api/garage/searches', cookie, {
        name: 'Blue Zephyrs',
        path: '/search/new-used-and-demo-cars?make=Zephyr',
        filter: ['make = "Zephyr"'],
      });
      expect(saved.statusCode).toBe(201);
      await sweep();

      const nowSeconds = Math.floor(Date.now() / 1000);
      const highest = Number(
        (
          await platform.ctx.db
            .selectFrom('cars')
            .select((eb) => eb.fn.max('id').as('id'))
            .executeTakeFirstOrThrow()
        ).id,
      );
      const arrival = (id: number, make: string): Car => ({
        ...template!,
        id,
        slug: `arrival-${engine}-${id}`,
        make,
        name: `2025 ${make} Cruiser`,
        created_at_timestamp: nowSeconds,
        price: 31_990,
      });
      await insertCars(platform.ctx.db, siteId, [arrival(highest + 1, 'Zephyr'), arrival(highest + 2, 'Other')]);
      expect(await sweep()).toMatchObject({ alerts: 1, mails: 1 });
      const [mail, ...more] = await alertMails(email);
      expect(more).toEqual([]);
      expect(mail!.subject).toBe('New for your saved search "Blue Zephyrs": 2025 Zephyr Cruiser');
      expect(mail!.text).toContain(`/cars/arrival-${engine}-${highest + 1}`);
      expect(mail!.text).not.toContain(`arrival-${engine}-${highest + 2}`);

      await changeCar(highest + 1, { price: 30_990 });
      await sweep();
      expect(await alertMails(email)).toHaveLength(1);
    });

    it('deletes the account with its sessions, saved cars, searches, alerts, codes and e-mail, and clears the cookie', async () => {
      const [car] = take(1);
      const email = newAddress('gone');
      const { cookie, body } = await signIn(email, [car!.id]);
      const second = await signInByCode(platform, site, siteId, email);
      await call('POST', '/api/garage/searches', cookie, { name: 'Mine', path: '/search', filter: 'make = "Nobody"' });
      await changeCar(car!.id, { price: car!.price - 100 });
      await sweep();
      // One more code asked for and not yet sent: pending mail.
      expect(
        (
          await siteRequest(platform.app, site, 'POST', '/api/auth/code', {
            payload: { email },
            headers: { 'x-forwarded-for': nextClient() },
          })
        ).statusCode,
      ).toBe(202);

      const id = body.user.id;
      const countOf = async () => ({
        shoppers: (await platform.ctx.db.selectFrom('shoppers').select('id').where('id', '=', id).execute()).length,
        sessions: (await platform.ctx.db.selectFrom('shopper_sessions').select('id_hash').where('shopper_id', '=', id).execute()).length,
        saved: (await platform.ctx.db.selectFrom('garage_saved_cars').select('car_id').where('shopper_id', '=', id).execute()).length,
        searches: (await platform.ctx.db.selectFrom('garage_searches').select('id').where('shopper_id', '=', id).execute()).length,
        alerts: (await platform.ctx.db.selectFrom('garage_alerts').select('car_id').where('shopper_id', '=', id).execute()).length,
        codes: (
          await platform.ctx.db
            .selectFrom('shopper_sign_in_codes')
            .select('id')
            .where('site_id', '=', siteId)
            .where('email', '=', email)
            .execute()
        ).length,
        mail: (
          await platform.ctx.db.selectFrom('shopper_mail').select('id').where('site_id', '=', siteId).where('email', '=', email).execute()
        ).length,
        pendingMail: (
          await platform.ctx.db.selectFrom('shopper_mail').select('id').where('email', '=', email).where('status', '=', 'pending').execute()
        ).length,
      });
      // Pending: the price drop's e-mail and the last code's.
      expect(await countOf()).toEqual({ shoppers: 1, sessions: 2, saved: 1, searches: 1, alerts: 1, codes: 3, mail: 4, pendingMail: 2 });

      expect((await call('DELETE', '/api/auth/account', null)).statusCode).toBe(401);
      const deleted = await call('DELETE', '/api/auth/account', cookie);
      expect(deleted.statusCode).toBe(204);
      expect(deleted.headers['set-cookie']).toEqual([
        expect.stringMatching(/^dp_session=; .*Max-Age=0/),
        expect.stringMatching(/^dp_device=; .*Max-Age=0/),
      ]);
      expect(await countOf()).toEqual({ shoppers: 0, sessions: 0, saved: 0, searches: 0, alerts: 0, codes: 0, mail: 0, pendingMail: 0 });
      for (const old of [cookie, second.cookie])
        expect((await call('GET', '/api/auth', old)).json()).toEqual({ user: null, watchlist: [] });

      // The address may start again, as a new account.
      const fresh = await signIn(email);
      expect(fresh.body.user.id).not.toBe(id);
      expect(fresh.body.watchlist).toEqual([]);
    });

    /** The local e-mail files (DATA_DIR/outbox/mail) that name the address. */
    const mailFilesNaming = (email: string) => {
      const dir = mailOutboxDir(platform.ctx.config.dataDir);
      return readdirSync(dir).filter((name) => readFileSync(join(dir, name), 'utf8').includes(email));
    };
    /** Whether the address is in the bytes of the SQLite database: its file and its WAL. */
    const sqliteHolds = (email: string) =>
      ['platform.sqlite', 'platform.sqlite-wal'].some((name) => {
        const file = join(platform.ctx.config.dataDir, name);
        return existsSync(file) && readFileSync(file).includes(Buffer.from(email));
      });

    it('deleting the account deletes its e-mail files and, on SQLite, leaves the address nowhere in the database’s bytes', async () => {
      const email = newAddress('erased');
      const { cookie } = await signIn(email);
      await signInByCode(platform, site, siteId, email);
      await call('POST', '/api/garage/searches', cookie, { name: 'Mine', path: '/search', filter: 'make = "Nobody"' });
      expect(mailFilesNaming(email)).toHaveLength(2);
      if (engine === 'sqlite') expect(sqliteHolds(email)).toBe(true);

      expect((await call('DELETE', '/api/auth/account', cookie)).statusCode).toBe(204);
      expect(mailFilesNaming(email)).toEqual([]);
      if (engine === 'sqlite') expect(sqliteHolds(email)).toBe(false);
    });

    it('deletes the file of an e-mail being written as its account is deleted', async () => {
      const { ctx } = platform;
      while ((await ctx.accounts.mail.runOnce()) > 0);
      const email = newAddress('mid-send');
      const { cookie } = await signIn(email);
      expect(
        (
          await siteRequest(platform.app, site, 'POST', '/api/auth/code', {
            payload: { email },
            headers: { 'x-forwarded-for': nextClient() },
          })
        ).statusCode,
      ).toBe(202);
      const pending = await ctx.db
        .selectFrom('shopper_mail')
        .select('id')
        .where('email', '=', email)
        .where('status', '=', 'pending')
        .executeTakeFirstOrThrow();
      // The shopper deletes their account while the outbox has the code's e-mail in hand.
      const outbox = new MailOutbox({
        db: ctx.db,
        transport: { dataDir: ctx.config.dataDir, smtpUrl: null, from: ctx.config.accounts.emailFrom },
        siteOf: (id) => ctx.sites.forId(id),
        backoffMs: [0],
        maxAttempts: 3,
        leaseMs: 60_000,
        deliver: async (message, transport) => {
          expect((await call('DELETE', '/api/auth/account', cookie)).statusCode).toBe(204);
          return deliverShopperMail(message, transport);
        },
      });
      expect(await outbox.runOnce()).toBe(1);
      expect(existsSync(mailFilePath(ctx.config.dataDir, Number(pending.id)))).toBe(false);
      expect(mailFilesNaming(email)).toEqual([]);
    });

    it('forgets an e-mail’s file with its row, a month after it was sent', async () => {
      const { ctx } = platform;
      const email = newAddress('old-mail');
      await signIn(email);
      const [mail] = await mailboxOf(platform, siteId, email);
      await ctx.db
        .updateTable('shopper_mail')
        .set({ updated_at: Date.now() - 31 * 24 * 60 * 60_000 })
        .where('id', '=', mail!.id)
        .execute();
      await sweep();
      expect(await ctx.db.selectFrom('shopper_mail').select('id').where('id', '=', mail!.id).execute()).toEqual([]);
      expect(existsSync(mail!.file)).toBe(false);
    });

    it('keeps one site’s session and garage off another site', async () => {
      const { cookie } = await signIn();
      const res = await siteRequest(platform.app, otherSite, 'GET', '/api/garage', { headers: { cookie } });
      expect(res.statusCode).toBe(401);
    });
  },
);
