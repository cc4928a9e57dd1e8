import { expect, test, type Page } from '@playwright/test';
import { demoStock } from './support/demo-stock';
import { siteUrl } from './support/platform';

/** Per-site settings the shared rules read, each seen through a screen. */

async function fillContactForm(page: Page, phone: string, comments = 'Please call me back') {
  await page.getByLabel('First name').fill('Robin');
  await page.getByLabel('Last name').fill('Banks');
  await page.getByLabel('Email').fill(`robin.${Date.now()}@example.com`);
  await page.getByLabel('Phone').fill(phone);
  if (await page.getByLabel('Postcode').count()) await page.getByLabel('Postcode').fill('2150');
  await page.getByLabel('Comments').fill(comments);
  if (await page.getByLabel('Preferred dealership').count()) await page.getByLabel('Preferred dealership').selectOption({ index: 1 });
  await page.getByRole('button', { name: 'Submit' }).click();
}

test('a site that takes New Zealand numbers (features.au_nz_phone) accepts one an Australian-only site refuses', async ({ page }) => {
  // A 9-digit Auckland mobile: too short for any Australian number (a 10-digit one could pass as a Sydney landline).
  const kiwiMobile = '021 123 456';
  await page.goto(siteUrl('metro-motor-group', '/contact'));
  await fillContactForm(page, kiwiMobile);
  await expect(page.getByText('Invalid phone number. Must be an Australian number.')).toBeVisible();

  await page.goto(siteUrl('ridgeline-trucks', '/contact'));
  await fillContactForm(page, kiwiMobile);
  await expect(page).toHaveURL(/\/success\?category=/);
});

test('a site that hides its chat on stock pages (features.hide_chat_on_stock_pages) shows it on the home page only', async ({ page }) => {
  const car = demoStock().cars.find((item) => item.site === 'toyota-demo' && item.show_on_dealer_website && item.status === 'in_stock')!;
  await page.goto(siteUrl('toyota-demo', '/'));
  await page.mouse.wheel(0, 200);
  await expect(page.getByRole('button', { name: 'Text us' })).toBeVisible();

  await page.goto(siteUrl('toyota-demo', `/cars/${car.slug}`));
  await expect(page.getByRole('heading', { level: 1, name: car.name })).toBeVisible();
  await page.mouse.wheel(0, 200);
  await page.waitForTimeout(3500);
  await expect(page.getByRole('button', { name: 'Text us' })).toHaveCount(0);

  // Another site with chat keeps it on its car pages.
  const metroCar = demoStock().cars.find(
    (item) => item.site === 'metro-motor-group' && item.show_on_dealer_website && item.status === 'in_stock',
  )!;
  await page.goto(siteUrl('metro-motor-group', `/cars/${metroCar.slug}`));
  await page.mouse.wheel(0, 200);
  await expect(page.getByRole('button', { name: 'Text us' })).toBeVisible();
});

test('a dealer who opted out of required Comments (lead_settings.comments_optional) takes an enquiry without them', async ({ page }) => {
  await page.goto(siteUrl('metro-motor-group', '/contact'));
  await fillContactForm(page, '0412 345 678', '');
  await expect(page.locator('.dp-field', { has: page.getByLabel('Comments') }).getByText('*This is a required field.')).toBeVisible();

  await page.goto(siteUrl('harbour-used-cars', '/contact'));
  await fillContactForm(page, '0412 345 678', '');
  await expect(page).toHaveURL(/\/success\?category=/);
});

test("phone numbers show in each country's own style (SPEC §5 display formats), in the header and beside the car", async ({ page }) => {
  const styles = [
    ['metro-motor-group', /^\(0\d\) \d{4} \d{4}$/],
    ['kiwi-motors', /^0\d \d{3} \d{4}$/],
    ['lone-star-auto', /^\(\d{3}\) \d{3}-\d{4}$/],
  ] as const;
  for (const [slug, style] of styles) {
    await page.goto(siteUrl(slug, '/'));
    await expect(page.locator('.site-header__phone')).toHaveText(style);
  }
  const car = demoStock().cars.find(
    (item) => item.site === 'metro-motor-group' && item.show_on_dealer_website && item.status === 'in_stock',
  )!;
  await page.goto(siteUrl('metro-motor-group', `/cars/${car.slug}`));
  await expect(page.locator('.dealer-location__links a').first()).toHaveText(/^\(0\d\) \d{4} \d{4}$/);
});

test('the manufacturer site whose blog is its news (features.blog_to_news) links Latest News to /news; the group keeps /blog', async ({
  page,
}) => {
  await page.goto(siteUrl('toyota-demo', '/'));
  await expect(page.locator('.site-nav').getByRole('link', { name: 'Latest News' })).toHaveAttribute('href', '/news');
  await page.locator('.site-nav').getByRole('link', { name: 'Latest News' }).click();
  await expect(page).toHaveURL(/\/news$/);
  await page.goto(siteUrl('metro-motor-group', '/'));
  await expect(page.locator('.site-nav').getByRole('link', { name: 'Latest News' })).toHaveAttribute('href', '/blog');
});

test('a site that serves its CMS pages under /pages/ (features.uses_pages_path) links there, except the pages SPEC keeps at the root', async ({
  page,
}) => {
  await page.goto(siteUrl('coastal-motorcycles', '/'));
  const header = page.getByRole('banner');
  const service = header.getByRole('link', { name: 'Service', exact: true });
  await expect(service).toHaveAttribute('href', '/pages/book-a-service');
  await expect(page.getByRole('contentinfo').getByRole('link', { name: 'About Us' })).toHaveAttribute('href', '/about-us');
  await service.click();
  await expect(page).toHaveURL(/\/pages\/book-a-service$/);
  await expect(page.getByRole('heading', { name: 'Book a service' })).toBeVisible();

  // A site without /pages/ links the same screen at its own address.
  await page.goto(siteUrl('metro-motor-group', '/'));
  await expect(page.getByRole('banner').getByRole('link', { name: 'Service', exact: true })).toHaveAttribute('href', '/service');
});

test('the brand whose service centres are named "… - Service" (lead_settings.strip_service_suffix) lists them without it', async ({
  page,
}) => {
  await page.goto(siteUrl('toyota-demo', '/service'));
  await page.getByLabel('First name').fill('Robin');
  await page.getByLabel('Last name').fill('Banks');
  await page.getByLabel('Email').fill(`robin.${Date.now()}@example.com`);
  await page.getByLabel('Phone').fill('0412 345 678');
  if (await page.getByLabel('Postcode').count()) await page.getByLabel('Postcode').fill('2150');
  await page.getByRole('button', { name: 'Continue' }).click();
  const centre = page.getByLabel('Service centre');
  await expect(centre.locator('option', { hasText: 'Demo Toyota Underwood Road' })).toHaveCount(1);
  await expect(centre.locator('option', { hasText: ' - Service' })).toHaveCount(0);
});
