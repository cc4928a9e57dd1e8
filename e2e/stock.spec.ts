import { expect, test } from '@playwright/test';
import { consoleUrl, expectNoSeriousAxeViolations, signIn } from './support/console';
import { siteUrl } from './support/platform';
import { solidPng } from './support/solid-png';

test('a site admin adds a car with photos, changes its price and the order of its photos, and the car page and search show each change', async ({
  page,
  browser,
}) => {
  const slug = 'coastal-motorcycles';
  const stocknum = `CM-${Date.now() % 1_000_000}`;
  await signIn(page, `site-admin@${slug}.localhost`);
  await page.goto(consoleUrl(`/sites/${slug}/stock`));
  await expect(page.getByRole('heading', { name: 'Stock' })).toBeVisible();
  await expectNoSeriousAxeViolations(page);

  await page.getByRole('button', { name: 'Add a car' }).click();
  const form = page.locator('.dc-car');
  await form.getByLabel('Make').fill('Ducati');
  await form.getByLabel('Model').fill('Monster');
  await form.getByLabel('Year').fill('2023');
  await form.getByLabel('Price', { exact: true }).fill('abc');
  await form.getByLabel('Stock number').fill(stocknum);
  await form.getByLabel('Kilometres').fill('3200');
  await form.getByRole('button', { name: 'Add the car' }).click();
  // A price that is no number is refused beside it; the rest stays as typed.
  await expect(form.locator('#car-price-error')).toBeVisible();
  await expect(form.getByLabel('Stock number')).toHaveValue(stocknum);
  await form.getByLabel('Price', { exact: true }).fill('18990');
  await form.getByRole('button', { name: 'Add the car' }).click();
  await expect(form.getByRole('status').filter({ hasText: 'Car added. Search and its page show it now.' })).toBeVisible();
  await expect(form.getByRole('heading', { name: '2023 Ducati Monster' })).toBeVisible();

  await form.getByLabel(/^Add photos/).setInputFiles([
    { name: 'red.png', mimeType: 'image/png', buffer: solidPng(800, 600, [200, 20, 20]) },
    { name: 'blue.png', mimeType: 'image/png', buffer: solidPng(800, 600, [20, 20, 200]) },
  ]);
  await expect(form.getByRole('status').filter({ hasText: '2 photos added.' })).toBeVisible();
  await expect(form.getByRole('img', { name: /^Photo \d/ })).toHaveCount(2);
  const second = await form.getByRole('img', { name: 'Photo 2' }).getAttribute('src');
  await form.getByRole('button', { name: 'Move photo 2 earlier' }).click();
  await expect(form.getByRole('status').filter({ hasText: 'Photos saved.' })).toBeVisible();
  await expect(form.getByRole('img', { name: 'Photo 1 (the main one)' })).toHaveAttribute('src', second!);

  await form.getByLabel('Price', { exact: true }).fill('17490');
  await form.getByRole('button', { name: 'Save the car' }).click();
  await expect(form.getByRole('status').filter({ hasText: 'Saved. Search and the car’s page show it now.' })).toBeVisible();
  const carPage = await form.getByRole('link', { name: 'Open the car’s page' }).getAttribute('href');

  const shopper = await (await browser.newContext()).newPage();
  await shopper.goto(siteUrl(slug, new URL(carPage!).pathname));
  await expect(shopper.getByRole('heading', { level: 1 })).toContainText('2023 Ducati Monster');
  await expect(shopper.locator('main')).toContainText('17,490');
  const hero = shopper.locator('main img').first();
  await expect(hero).toHaveAttribute('src', new RegExp(second!.split('?')[0]!.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')));
  await shopper.goto(siteUrl(slug, '/search/new-and-used-motorcycles'));
  await shopper.getByRole('searchbox').first().fill(stocknum);
  await shopper.keyboard.press('Enter');
  await expect(shopper.getByText('2023 Ducati Monster').first()).toBeVisible();
  await shopper.close();

  // Sold: the car page says so.
  await form.getByRole('button', { name: 'Mark sold' }).click();
  await expect(form.getByRole('status').filter({ hasText: 'Marked sold.' })).toBeVisible();
});

test('staff see the stock but cannot change it', async ({ page }) => {
  await signIn(page, 'staff@coastal-motorcycles.localhost');
  await page.goto(consoleUrl('/sites/coastal-motorcycles/stock'));
  await expect(page.getByRole('heading', { name: 'Stock' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Add a car' })).toHaveCount(0);
  await page.locator('.dc-stock__table tbody tr').first().getByRole('button').click();
  await expect(page.locator('.dc-car').getByLabel('Price', { exact: true })).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Save the car' })).toHaveCount(0);
});
