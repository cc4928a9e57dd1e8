import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test, type Route } from '@playwright/test';
import { startFakeStripe, stripeSignatureFor, type FakeStripe } from '../platform/testing/src/fake-stripe-server';
import { canReserve } from '../shared/rules/src/reserve';
import { depositFor } from '../shared/rules/src/reservation';
import { demoStock } from './support/demo-stock';

/**
 * The Stripe path in a real browser: a second platform with PAYMENTS=live whose Stripe API is a
 * local fake, and Stripe.js played by a small stand-in served for https://js.stripe.com (Chromium
 * never leaves the machine). The stand-in mounts a card input where the Payment Element goes;
 * "Stripe" (this test, answering https://api.stripe.com) declines or pays the PaymentIntent the
 * platform created, sends the platform a signed webhook, and the browser returns to the
 * confirmation as Stripe's redirect does. The page's own Content-Security-Policy is in force.
 */
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const port = 3321;
const site = 'metro-motor-group';
const webhookSecret = `whsec_DEMO_SECRET_${site}`;
const car = demoStock()
  .cars.filter((item) => item.site === site && item.show_on_dealer_website && item.payment_processors[0]?.authorization_type === 'stripe')
  .find((item) => canReserve(item, { siteSupportsOnlinePayment: true }).ok && depositFor(item, 'en-AU'))!;

const fakeStripeJs = `
window.Stripe = function (publishableKey) {
  var secret = null;
  return {
    _registerWrapper: function () {},
    elements: function (options) {
      secret = options.clientSecret;
      return { create: function () { return { mount: function (element) {
        element.innerHTML = '<label for="fake-card">Card (Stripe)</label><input id="fake-card" data-key="' + publishableKey + '">';
      } }; } };
    },
    confirmPayment: function (options) {
      var number = document.getElementById('fake-card').value;
      return fetch('https://api.stripe.com/v1/payment_intents/confirm', { method: 'POST', body: JSON.stringify({ client_secret: secret, number: number }) })
        .then(function (response) { return response.json(); })
        .then(function (answer) {
          if (answer.error) return { error: { message: answer.error } };
          var to = new URL(options.confirmParams.return_url);
          to.searchParams.set('payment_intent', answer.id);
          to.searchParams.set('redirect_status', 'succeeded');
          window.location.assign(to.toString());
          return {};
        });
    },
  };
};
window.Stripe.version = 'endive';
`;

/** Stripe telling the platform about a payment, signed as Stripe signs its webhooks. */
function sendWebhook(type: string, intent: Record<string, unknown>): Promise<number> {
  const payload = JSON.stringify({ id: `evt_${Date.now()}`, object: 'event', type, data: { object: intent } });
  const signature = stripeSignatureFor(payload, webhookSecret);
  return new Promise((resolve, reject) => {
    const call = request(
      {
        host: '127.0.0.1',
        port,
        path: '/api/payments/stripe/webhook',
        method: 'POST',
        headers: { host: `${site}.localhost:${port}`, 'content-type': 'application/json', 'stripe-signature': signature },
      },
      (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
      },
    );
    call.on('error', reject);
    call.end(payload);
  });
}

let stripe: FakeStripe;
let platform: ChildProcess;
let dataDir: string;
const webhooks: number[] = [];

test.beforeAll(async () => {
  stripe = await startFakeStripe();
  dataDir = mkdtempSync(join(tmpdir(), 'dealer-e2e-stripe-'));
  platform = spawn(process.execPath, [join(root, 'platform/server/dist/main.cjs')], {
    cwd: root,
    stdio: 'ignore',
    env: {
      ...process.env,
      PORT: String(port),
      DATA_DIR: dataDir,
      REMOTES_DIR: join(root, 'dist', 'remotes'),
      SHELL_CLIENT_DIR: join(root, 'shell', 'dist', 'client'),
      LOG_LEVEL: 'warn',
      PAYMENTS: 'live',
      STRIPE_API_URL: `http://127.0.0.1:${stripe.port}`,
      LEADS_MIN_FILL_MS: '0',
      LEADS_RATE_LIMIT: '0',
      EVENTS_RATE_LIMIT: '0',
      SEARCH_RATE_LIMIT: '0',
    },
  });
  await expect
    .poll(async () => (await fetch(`http://127.0.0.1:${port}/api/health`).catch(() => null))?.status ?? 0, { timeout: 90_000 })
    .toBe(200);
});

test.afterAll(async () => {
  platform?.kill();
  await stripe?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

test("a shopper pays the deposit in Stripe's Payment Element: a declined card is shown, a good one reserves the car after Stripe's webhook", async ({
  page,
}) => {
  await page.route('https://js.stripe.com/**', (route) =>
    route.fulfill({ status: 200, contentType: 'application/javascript', body: fakeStripeJs }),
  );
  await page.route('https://api.stripe.com/**', async (route: Route) => {
    const { client_secret: secret, number } = JSON.parse(route.request().postData() ?? '{}') as { client_secret: string; number: string };
    const intent = stripe.objects.get(secret.split('_secret_')[0]!)!;
    const headers = { 'access-control-allow-origin': '*' };
    if (number.replace(/\s/g, '') !== '4242424242424242') {
      webhooks.push(
        await sendWebhook('payment_intent.payment_failed', {
          ...intent,
          status: 'requires_payment_method',
          last_payment_error: { message: 'Your card was declined.' },
        }),
      );
      return route.fulfill({ status: 402, headers, json: { error: 'Your card was declined.' } });
    }
    webhooks.push(await sendWebhook('payment_intent.succeeded', { ...intent, status: 'succeeded' }));
    return route.fulfill({ status: 200, headers, json: { id: intent.id } });
  });

  await page.goto(`http://${site}.localhost:${port}/cars/${car.slug}/checkout`);
  await page.getByLabel('First name').fill('Morgan');
  await page.getByLabel('Last name').fill('Buyer');
  await page.getByLabel('Email address').fill(`morgan.${Date.now()}@example.com`);
  await page.getByLabel('Mobile number').fill('0412 345 678');
  await page.getByLabel('I agree to the reservation terms').check();
  await page.getByRole('button', { name: 'Continue to payment' }).click();

  // The element is mounted with the dealership's publishable key, for the PaymentIntent the server made.
  const cardInput = page.getByLabel('Card (Stripe)');
  await expect(cardInput).toHaveAttribute('data-key', /^pk_/);
  const intents = [...stripe.objects.values()].filter((object) => object.object === 'payment_intent');
  expect(intents).toHaveLength(1);
  expect(intents[0]).toMatchObject({ amount: car.payment_processors[0]!.deposit_amount * 100, currency: 'aud' });

  await cardInput.fill('4000 0000 0000 0002');
  await page.getByRole('button', { name: /^Pay .* deposit$/ }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Your card was declined.' })).toBeVisible();

  await cardInput.fill('4242 4242 4242 4242');
  await page.getByRole('button', { name: /^Pay .* deposit$/ }).click();
  await expect(page).toHaveURL(/reservation=\d+.*payment_intent=pi_/);
  await expect(page.getByRole('heading', { level: 1, name: `Your ${car.name} is reserved` })).toBeVisible();
  await expect(page.getByTestId('payment-reference')).toHaveText(String(intents[0]!.id));
  expect(webhooks).toEqual([200, 200]);
});
