/**
 * What the live checkout suites (payments/checkout-live.*.test.ts) share: Metro Motor Group taking
 * deposits through a fake Stripe and fake Till and St.George gateways, the platform in live payments
 * mode on one engine, and the shopper's hold of a car. Production code does not import it.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'vitest';
import type { Car } from '@dealer/contracts/car';
import type { SiteSecrets } from '@dealer/contracts/site';
import { canReserve } from '@dealer/rules/reserve';
import { depositFor } from '@dealer/rules/reservation';
import { listSiteCars } from '@dealer/db/car-store';
import { findReservation } from '@dealer/db/reservation-store';
import { findSiteIdBySlug, loadSiteConfig } from '@dealer/db/site-store';
import { startFakeStripe, type FakeStripe } from '@dealer/testing/fake-stripe-server';
import { createTestPlatform, siteRequest, type TestPlatform } from './test-platform';

/** Takes deposits through Stripe (its demo keys) and, once set up below, Till and St.George. */
export const site = 'metro-motor-group';
/** A site whose dealer has not given us a Stripe secret key yet. */
export const unsetSite = 'harbour-used-cars';
/** The demo seed's keys for the site (demo-sites.ts): the fake Stripe insists on this one. */
export const stripeSecretKey = `sk_test_DEMO_SECRET_${site}`;
export const webhookSecret = `whsec_DEMO_SECRET_${site}`;
export const gatewayKeys = { till: 'till-merchant-key-0123456789abcdef', st_george: 'stgeorge-merchant-key-0123456789ab' } as const;
export type Gateway = keyof typeof gatewayKeys;

/** A shopper with an e-mail and a mobile of their own: one person may hold only so many cars at once. */
let shoppersMade = 0;
export const shopper = (name = 'Ana') => {
  const n = ++shoppersMade;
  return {
    first_name: name,
    last_name: 'Shopper',
    email: `${name.toLowerCase()}.${n}@example.com`,
    phone: `0411 ${String(n).padStart(3, '0')} 333`,
    terms_accepted: true,
  };
};
export type Held = {
  reservation: { id: number; state: string; deposit: { amount_cents: number; currency: string }; payment_reference: string | null };
  token: string;
  payment: { provider: string; client_secret: string | null; redirect_url: string | null; publishable_key: string | null };
};

export type GatewayRequest = {
  method: string;
  path: string;
  authorization: string | undefined;
  idempotencyKey: string | undefined;
  body: Record<string, unknown>;
};

/**
 * A bank's hosted payment page gateway as hosted-provider.ts speaks to it, for Till at `/till` and
 * St.George at `/st_george`: one payment per Idempotency-Key, each sending the shopper to its page.
 */
export async function startFakeGateway() {
  const requests: GatewayRequest[] = [];
  const answers = new Map<string, string>();
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
    req.on('end', () => {
      const path = req.url ?? '/';
      const idempotencyKey = req.headers['idempotency-key'] as string | undefined;
      requests.push({
        method: req.method ?? '',
        path,
        authorization: req.headers.authorization,
        idempotencyKey,
        body: JSON.parse(raw || '{}') as Record<string, unknown>,
      });
      const send = (status: number, body: string) => res.writeHead(status, { 'Content-Type': 'application/json' }).end(body);
      const kind = /^\/(till|st_george)\//.exec(path)?.[1] as Gateway | undefined;
      if (!kind || req.method !== 'POST') return send(404, '{"error":"not found"}');
      if (req.headers.authorization !== `Bearer ${gatewayKeys[kind]}`) return send(401, '{"error":"bad key"}');
      const answer = (make: () => object) => {
        const known = idempotencyKey ? answers.get(`${path} ${idempotencyKey}`) : undefined;
        const body = known ?? JSON.stringify(make());
        if (idempotencyKey) answers.set(`${path} ${idempotencyKey}`, body);
        send(201, body);
      };
      if (path === `/${kind}/payments`) {
        const id = `pay_${randomBytes(6).toString('hex')}`;
        return answer(() => ({ id, redirect_url: `https://pay.${kind}.example/checkout/${id}` }));
      }
      if (new RegExp(`^/${kind}/payments/[^/]+/refunds$`).test(path))
        return answer(() => ({ id: `ref_${randomBytes(6).toString('hex')}` }));
      send(404, '{"error":"not found"}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    requests,
    settings: (kind: Gateway) => ({ url: `${origin}/${kind}`, key: gatewayKeys[kind] }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type FakeGateway = Awaited<ReturnType<typeof startFakeGateway>>;

/**
 * Live payments on one engine: `open()` (in a beforeAll) starts the fakes and the platform, points the
 * site at the gateways, takes Stripe keys from the unset site and sorts the site's cars by who takes
 * their deposit; `close()` (in an afterAll) stops them all.
 */
export function liveCheckoutOn(engine: 'sqlite' | 'postgres') {
  let fake: FakeStripe;
  let gateway: FakeGateway;
  let platform: TestPlatform;
  let siteId: number;
  /** The site's cars a shopper can reserve online, by who takes their deposit, handed out one per use. */
  const cars: Record<'stripe' | Gateway, Car[]> = { stripe: [], till: [], st_george: [] };
  const nextCar = (kind: 'stripe' | Gateway) => {
    const car = cars[kind].shift();
    if (!car) throw new Error(`the demo site has no ${kind} car left to reserve`);
    return car;
  };

  /** Changes a site's secrets as the CLI would (the stored config), and has the next request read them. */
  async function changeSecrets(slug: string, change: Partial<SiteSecrets>) {
    const row = await platform.ctx.db.selectFrom('sites').select(['id', 'config']).where('slug', '=', slug).executeTakeFirstOrThrow();
    const config = JSON.parse(row.config) as { secrets: SiteSecrets };
    config.secrets = { ...config.secrets, ...change };
    await platform.ctx.db
      .updateTable('sites')
      .set({ config: JSON.stringify(config) })
      .where('id', '=', row.id)
      .execute();
    platform.ctx.sites.clear();
  }

  const open = async () => {
    fake = await startFakeStripe({ secretKey: stripeSecretKey });
    gateway = await startFakeGateway();
    platform = await createTestPlatform({ engine, env: { PAYMENTS: 'live', STRIPE_API_URL: `http://127.0.0.1:${fake.port}` } });
    siteId = (await findSiteIdBySlug(platform.ctx.db, site))!;
    const secrets = (await loadSiteConfig(platform.ctx.db, siteId))!.secrets;
    expect(secrets, 'the demo site takes Stripe deposits with these keys').toMatchObject({
      stripe_secret_key: stripeSecretKey,
      stripe_webhook_secret: webhookSecret,
    });
    await changeSecrets(site, { till: gateway.settings('till'), st_george: gateway.settings('st_george') });
    await changeSecrets(unsetSite, { stripe_secret_key: null, stripe_webhook_secret: null });
    for (const car of await listSiteCars(platform.ctx.db, siteId)) {
      const deposit = depositFor(car, 'en-AU');
      if (car.show_on_dealer_website && canReserve(car, { siteSupportsOnlinePayment: true }).ok && deposit)
        cars[deposit.provider].push(car);
    }
    expect(cars.stripe.length, 'Stripe cars to reserve').toBeGreaterThanOrEqual(10);
    expect(cars.till.length, 'Till cars to reserve').toBeGreaterThanOrEqual(2);
    expect(cars.st_george.length, 'St.George cars to reserve').toBeGreaterThanOrEqual(2);
    return { fake, gateway, platform, siteId };
  };
  const close = async () => {
    await platform?.close();
    await fake?.close();
    await gateway?.close();
  };

  // Each shopper from an address of their own, as the hold limit per address would otherwise count them together.
  let shoppers = 0;
  const hold = (car: Car, body: object = shopper(), onSite = site) =>
    siteRequest(platform.app, onSite, 'POST', `/api/cars/${car.slug}/reservations`, {
      payload: body as Record<string, unknown>,
      headers: { 'x-forwarded-for': `203.0.113.${(++shoppers % 250) + 1}` },
    });
  const holdOk = async (car: Car, body: object = shopper()) => {
    const res = await hold(car, body);
    expect(res.statusCode, res.body).toBe(201);
    return res.json<Held>();
  };
  const carPage = async (car: Car) => (await siteRequest(platform.app, site, 'GET', `/api/cars/${car.slug}`)).json<Car>();
  const stored = async (id: number) => (await findReservation(platform.ctx.db, id))!;
  const leadsOfCar = async (carId: number) => {
    const rows = await platform.ctx.db.selectFrom('leads').select(['id', 'category', 'payload']).where('site_id', '=', siteId).execute();
    return rows.filter((row) => (JSON.parse(row.payload) as { car_id?: number }).car_id === carId);
  };
  const paymentRef = async (held: Held) => (await stored(held.reservation.id)).payment_ref!;

  return { open, close, cars, nextCar, changeSecrets, hold, holdOk, carPage, stored, leadsOfCar, paymentRef };
}
