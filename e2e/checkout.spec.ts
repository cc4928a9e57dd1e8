import { expect, test, type Page } from '@playwright/test';
import { canReserve, reserveOptionsFor } from '../shared/rules/src/reserve';
import { depositFor } from '../shared/rules/src/reservation';
import { isTestDriveOnly } from '../shared/rules/src/tags';
import { demoStock } from './support/demo-stock';
import { adminGet, siteUrl } from './support/platform';

const site = 'metro-motor-group';
const searchPath = '/search/new-used-and-demo-cars';
/** Cars a shopper can reserve, from the end of the stock so other walks' cars are left alone; one per test. */
const reservable = demoStock()
  .cars.filter(
    (car) =>
      car.site === site &&
      car.show_on_dealer_website &&
      !isTestDriveOnly(car) &&
      !['electric', 'hybrid', 'phev'].includes((car.simple_fuel ?? '').toLowerCase()) &&
      canReserve(car, { siteSupportsOnlinePayment: true }).ok &&
      depositFor(car, 'en-AU'),
  )
  .reverse();

type Shopper = { first: string; last: string; email: string; phone: string };
const shopper = (first: string): Shopper => ({
  first,
  last: 'Buyer',
  email: `${first.toLowerCase()}.${Date.now()}@example.com`,
  phone: '0412 345 678',
});

async function fillDetails(page: Page, who: Shopper) {
  await page.getByLabel('First name').fill(who.first);
  await page.getByLabel('Last name').fill(who.last);
  await page.getByLabel('Email address').fill(who.email);
  await page.getByLabel('Mobile number').fill(who.phone);
  await page.getByLabel('I agree to the reservation terms').check();
}

async function payWith(page: Page, cardNumber: string) {
  await page.getByLabel('Card number').fill(cardNumber);
  await page.getByLabel('Expiry (MM/YY)').fill('12/34');
  await page.getByLabel('Security code').fill('123');
  await page.getByRole('button', { name: /^Pay .* deposit$/ }).click();
}

test('a shopper reserves a car with the test card: confirmation with the payment reference, Reserved on its page and in search, the dealer has the lead', async ({
  page,
}) => {
  const car = reservable[0]!;
  const who = shopper('Riley');
  await page.goto(`/cars/${car.slug}`);
  await page.getByRole('link', { name: 'Reserve this car' }).click();
  await expect(page.getByRole('heading', { level: 1, name: `Reserve the ${car.name}` })).toBeVisible();
  await expect(page.getByText(`Deposit today: $${car.payment_processors[0]!.deposit_amount} AUD`)).toBeVisible();

  // Validated on submit, each message beside its field.
  await page.getByRole('button', { name: 'Continue to payment' }).click();
  await expect(page.getByText('*This is a required field.')).toHaveCount(5);
  await page.getByLabel('Email address').fill('riley@');
  await page.getByRole('button', { name: 'Continue to payment' }).click();
  await expect(page.getByText('invalid email address')).toBeVisible();

  await fillDetails(page, who);
  await page.getByRole('button', { name: 'Continue to payment' }).click();
  await expect(page.getByText(/We are holding this car for you until/)).toBeVisible();
  await payWith(page, '4242 4242 4242 4242');

  await expect(page.getByRole('heading', { level: 1, name: `Your ${car.name} is reserved` })).toBeVisible();
  const reference = (await page.getByTestId('payment-reference').textContent())!;
  expect(reference).toMatch(/^test_pi_/);
  // The confirmation survives a reload (the token is kept for the tab).
  await page.reload();
  await expect(page.getByTestId('payment-reference')).toHaveText(reference);

  await page.goto(`/cars/${car.slug}`);
  await expect(page.locator('.vehicle-tag')).toHaveText('Reserved');
  await expect(page.getByRole('link', { name: 'Reserve this car' })).toHaveCount(0);
  await page.goto(`${searchPath}?q=${encodeURIComponent(car.stocknum)}`);
  await expect(page.locator('.vehicle-card', { hasText: car.name }).locator('.vehicle-card__tag')).toHaveText('Reserved');

  const { body } = await adminGet(`/api/admin/leads?site=${site}`);
  const leads = (body.leads as { category: string; payload: Record<string, unknown> }[]).filter((lead) => lead.payload.email === who.email);
  expect(leads).toHaveLength(1);
  expect(leads[0]!.category).toBe('Reserve Enquiry');
  expect(String(leads[0]!.payload.message)).toContain(reference);
});

test('a declined card shows its error beside the card number and keeps the form, and another card then pays', async ({ page }) => {
  const car = reservable[1]!;
  await page.goto(`/cars/${car.slug}/checkout`);
  await fillDetails(page, shopper('Jordan'));
  await page.getByRole('button', { name: 'Continue to payment' }).click();
  await payWith(page, '4000 0000 0000 0002');
  await expect(page.locator('.dp-field__error')).toHaveText('Your card was declined.');
  await expect(page.getByRole('alert').filter({ hasText: 'Your card was declined.' }).first()).toBeVisible();
  await expect(page.getByLabel('Card number')).toHaveValue('4000 0000 0000 0002');
  await expect(page.getByLabel('Expiry (MM/YY)')).toHaveValue('12/34');

  await payWith(page, '4000 0000 0000 9995');
  await expect(page.locator('.dp-field__error')).toHaveText('Your card has insufficient funds.');
  await payWith(page, '4242 4242 4242 4242');
  await expect(page.getByRole('heading', { level: 1, name: `Your ${car.name} is reserved` })).toBeVisible();
});

test('two shoppers race for one car: one pays, the other is told someone is reserving it, and keeps what they typed', async ({
  browser,
}) => {
  const car = reservable[2]!;
  const [first, second] = await Promise.all([browser.newContext(), browser.newContext()]);
  const [a, b] = await Promise.all([first.newPage(), second.newPage()]);
  await Promise.all([a.goto(`/cars/${car.slug}/checkout`), b.goto(`/cars/${car.slug}/checkout`)]);
  await fillDetails(a, shopper('Alex'));
  await fillDetails(b, shopper('Blake'));
  await Promise.all([
    a.getByRole('button', { name: 'Continue to payment' }).click(),
    b.getByRole('button', { name: 'Continue to payment' }).click(),
  ]);

  const holding = a.getByText(/We are holding this car for you until/);
  const refused = (page: Page) => page.getByText(/Someone else is reserving this car right now/);
  await expect.poll(async () => (await holding.count()) + (await b.getByText(/We are holding this car for you until/).count())).toBe(1);
  const [winner, loser] = (await holding.count()) === 1 ? [a, b] : [b, a];
  await expect(refused(loser)).toBeVisible();
  await expect(loser.getByLabel('First name')).not.toHaveValue('');

  await payWith(winner, '4242 4242 4242 4242');
  await expect(winner.getByRole('heading', { level: 1, name: `Your ${car.name} is reserved` })).toBeVisible();
  await loser.getByRole('button', { name: 'Continue to payment' }).click();
  await expect(loser.getByText('This car is already reserved.')).toBeVisible();
  await Promise.all([first.close(), second.close()]);
});

test('a car a shopper is paying for shows On hold on its page and in search, and is available again once they let it go', async ({
  browser,
}) => {
  const car = reservable[3]!;
  const [holderContext, otherContext] = await Promise.all([browser.newContext(), browser.newContext()]);
  const [holder, other] = await Promise.all([holderContext.newPage(), otherContext.newPage()]);
  await holder.goto(`/cars/${car.slug}/checkout`);
  await fillDetails(holder, shopper('Quinn'));
  await holder.getByRole('button', { name: 'Continue to payment' }).click();
  await expect(holder.getByText(/We are holding this car for you until/)).toBeVisible();

  await other.goto(`/cars/${car.slug}`);
  await expect(other.locator('.vehicle-tag')).toHaveText('On hold');
  await other.goto(`${searchPath}?q=${encodeURIComponent(car.stocknum)}`);
  await expect(other.locator('.vehicle-card', { hasText: car.name }).locator('.vehicle-card__tag')).toHaveText('On hold');

  await holder.getByRole('button', { name: 'Cancel and let the car go' }).click();
  await expect(holder.getByRole('button', { name: 'Continue to payment' })).toBeVisible();
  await other.goto(`/cars/${car.slug}`);
  await expect(other.getByRole('heading', { level: 1, name: car.name })).toBeVisible();
  await expect(other.getByText('On hold', { exact: true })).toHaveCount(0);
  await other.goto(`${searchPath}?q=${encodeURIComponent(car.stocknum)}`);
  await expect(other.locator('.vehicle-card', { hasText: car.name })).toBeVisible();
  await expect(other.getByText('On hold', { exact: true })).toHaveCount(0);
  await Promise.all([holderContext.close(), otherContext.close()]);
});

test('subscription and rental sites offer no checkout', async ({ page }) => {
  const { sites, cars } = demoStock();
  for (const other of ['flexi-subscriptions', 'citi-rentals']) {
    const detailPath = sites.find((entry) => entry.slug === other)!.detail_path;
    const car = cars.find((item) => item.site === other && item.show_on_dealer_website && item.status === 'in_stock')!;
    await page.goto(siteUrl(other, `${detailPath}/${car.slug}`));
    await expect(page.getByRole('heading', { level: 1, name: car.name })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Reserve this car' })).toHaveCount(0);
  }
});

test('a dealer that takes deposits on coming-soon cars (features.reserve_coming_soon) lets one be reserved', async ({ page }) => {
  const { sites, cars } = demoStock();
  const outback = sites.find((entry) => entry.slug === 'outback-campers')!;
  const camper = cars.find(
    (item) =>
      item.site === 'outback-campers' &&
      item.status === 'coming_soon' &&
      item.show_on_dealer_website &&
      canReserve(item, reserveOptionsFor(outback)).ok &&
      depositFor(item, outback.locale),
  )!;
  expect(
    canReserve(camper, reserveOptionsFor({ ...outback, features: { ...outback.features, reserve_coming_soon: false } })).ok,
    'only because of the setting',
  ).toBe(false);
  await page.goto(siteUrl('outback-campers', `${outback.detail_path}/${camper.slug}`));
  await page.getByRole('link', { name: 'Reserve this car' }).click();
  await fillDetails(page, shopper('Sky'));
  await page.getByRole('button', { name: 'Continue to payment' }).click();
  await payWith(page, '4242 4242 4242 4242');
  await expect(page.getByRole('heading', { level: 1, name: `Your ${camper.name} is reserved` })).toBeVisible();
});
