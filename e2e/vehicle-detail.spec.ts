import { AxeBuilder } from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { demoStock } from './support/demo-stock';
import { platformCli, siteUrl } from './support/platform';

const stock = demoStock();
const listed = (site: string) =>
  stock.cars.filter((car) => car.site === site && car.show_on_dealer_website && car.status !== 'sold' && !car.sold);

async function openFromSearch(page: Page, searchPath: string, car: { stocknum: string; name: string }) {
  await page.goto(`${searchPath}?q=${encodeURIComponent(car.stocknum)}`);
  await page.locator('.vehicle-card__link', { hasText: car.name }).first().click();
  await expect(page.getByRole('heading', { level: 1, name: car.name })).toBeVisible();
}

test('a shopper opens a used car from search and looks through its photos', async ({ page }) => {
  const car = listed('metro-motor-group').find((item) => item.car_type === 'used' && item.images.length >= 3)!;
  await openFromSearch(page, '/search/new-used-and-demo-cars', car);
  await expect(page).toHaveURL(new RegExp(`/cars/${car.slug}$`));

  const gallery = page.getByRole('region', { name: `Photos of the ${car.name}` });
  await expect(gallery.getByText(`Photo 1 of ${car.images.length}`)).toBeVisible();
  await page.getByRole('button', { name: 'Next photo' }).click();
  await expect(gallery.getByText(`Photo 2 of ${car.images.length}`)).toBeVisible();
  await gallery.focus();
  await page.keyboard.press('ArrowRight');
  await expect(gallery.getByText(`Photo 3 of ${car.images.length}`)).toBeVisible();
  await page.keyboard.press('ArrowLeft');
  await expect(gallery.getByText(`Photo 2 of ${car.images.length}`)).toBeVisible();
  await page.getByRole('button', { name: 'Show photo 1' }).click();
  await expect(gallery.getByText(`Photo 1 of ${car.images.length}`)).toBeVisible();

  await page.getByRole('button', { name: 'View full screen' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();

  await expect(page.getByText(car.vin)).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Similar cars' })).toBeVisible();
});

test('the finance calculator follows the deposit and the finance link carries the car', async ({ page }) => {
  // harbour-used-cars finances through Angle, so it shows the calculator (SPEC §6).
  const car = listed('harbour-used-cars').find((item) => item.price > 10_000)!;
  await page.goto(siteUrl('harbour-used-cars', `/cars/${car.slug}`));
  const repayment = page.getByTestId('finance-repayment');
  await expect(repayment).toHaveText(/weekly$/);
  const before = await repayment.innerText();
  await page.getByLabel('Deposit ($)').fill(String(Math.round(car.price / 2)));
  await expect(repayment).not.toHaveText(before);
  await page.getByLabel('Repayments').selectOption('monthly');
  await expect(repayment).toHaveText(/monthly$/);

  await page.getByRole('link', { name: 'Apply for finance' }).click();
  const url = new URL(page.url());
  expect(url.pathname).toBe('/finance-enquiry');
  expect(url.hash).toBe('#finance-form');
  expect(Object.fromEntries(url.searchParams)).toEqual({
    preferredDealership: car.dealership_slug,
    vehiclePriceBudget: String(Math.round(car.price)),
    car_id: String(car.id),
    car_type: car.car_type,
    vin: car.vin,
  });
});

test('a car sold yesterday shows the sold tag and offers similar cars instead of an enquiry', async ({ page }) => {
  const now = Date.now() / 1000;
  const sold = stock.cars.find(
    (car) =>
      car.site === 'metro-motor-group' &&
      car.status === 'sold' &&
      car.show_on_dealer_website &&
      car.sold_date_timestamp! > now - 2 * 86_400,
  )!;
  await page.goto(`/cars/${sold.slug}`);
  await expect(page.locator('.vehicle-tag')).toHaveText(/sold/i);
  await expect(page.getByRole('link', { name: 'Find similar cars' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Enquire now' })).toHaveCount(0);
});

test('an unknown car and a slug with illegal characters are not found, with HTTP 404', async ({ page }) => {
  for (const path of ['/cars/no-such-car-123', '/cars/bad%20slug!']) {
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(404);
    await expect(page.getByRole('link', { name: /Search our (current )?stock/ })).toBeVisible();
  }
});

test("a motorcycle dealer's bike opens at /motorcycles/{slug}", async ({ page }) => {
  const bike = listed('coastal-motorcycles')[0]!;
  const response = await page.goto(siteUrl('coastal-motorcycles', `/motorcycles/${bike.slug}`));
  expect(response?.status()).toBe(200);
  await expect(page.getByRole('heading', { level: 1, name: bike.name })).toBeVisible();
});

test('the page describes the car to search engines in JSON-LD', async ({ page }) => {
  const car = listed('metro-motor-group').find((item) => item.car_type === 'new')!;
  await page.goto(`/cars/${car.slug}`);
  const json = await page.locator('script[type="application/ld+json"]').first().textContent();
  const data = JSON.parse(json!) as Record<string, unknown> & {
    offers: Record<string, unknown>;
    mileageFromOdometer: Record<string, unknown>;
    brand: { name: string };
  };
  expect(data['@type']).toBe('Car');
  expect(data.vehicleIdentificationNumber).toBe(car.vin);
  expect(data.brand.name).toBe(car.make);
  expect(data.model).toBe(car.model);
  expect(data.offers.priceCurrency).toBe('AUD');
  expect(Number(data.offers.price)).toBe(car.price);
  expect(data.offers.availability).toBe(car.status === 'coming_soon' ? 'https://schema.org/PreOrder' : 'https://schema.org/InStock');
  expect(data.mileageFromOdometer).toMatchObject({ value: car.km, unitCode: 'KMT' });
});

test('the vehicle page has no serious accessibility violations and its dialogs close on Escape', async ({ page }) => {
  const car = listed('metro-motor-group').find((item) => item.car_type === 'used')!;
  await page.goto(`/cars/${car.slug}`);
  await expect(page.getByRole('heading', { level: 1, name: car.name })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Enquire now' })).toBeVisible();
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa']).analyze();
  const serious = results.violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
  expect(serious.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`)).toEqual([]);

  await page.getByRole('button', { name: 'Enquire now' }).click();
  const dialog = page.getByRole('dialog', { name: 'Submit an enquiry' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByLabel('First name')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
});

test('with the leads remote off, the car page has no enquiry buttons and still works', async ({ page }) => {
  const car = listed('kiwi-motors')[0]!;
  platformCli('remote', 'kiwi-motors', 'mf-leads', 'off');
  try {
    await page.goto(siteUrl('kiwi-motors', `/cars/${car.slug}`));
    await expect(page.getByRole('heading', { level: 1, name: car.name })).toBeVisible();
    await expect(page.getByText(car.vin)).toBeVisible();
    await expect(page.getByRole('button', { name: /Enquire|test drive|Request photos/i })).toHaveCount(0);
    await expect(page.locator('[data-remote-fallback]')).toHaveCount(0);
  } finally {
    platformCli('remote', 'kiwi-motors', 'mf-leads', 'on');
  }
});
