import { expect, test } from '@playwright/test';
import { consoleUrl, expectNoSeriousAxeViolations, signIn } from './support/console';
import { siteUrl } from './support/platform';

test('an operator opens a new dealer site in the console; it serves its home, search and car pages at once', async ({ page, browser }) => {
  const slug = `pacific-autos-${Date.now() % 100000}`;
  await signIn(page, 'operator@dealer-platform.localhost');
  await page.getByRole('link', { name: 'Open a new site' }).click();
  await expect(page.getByRole('heading', { name: 'Open a new site' })).toBeVisible();
  await expectNoSeriousAxeViolations(page);

  await page.getByLabel('Kind of site').selectOption({ label: 'Used cars' });
  await page.getByLabel('Name', { exact: true }).first().fill('Pacific Autos');
  await page.getByLabel('Address name').fill(slug);
  await page.getByLabel('Main colour (optional)').fill('not a colour');
  const location = page.getByRole('group', { name: 'Locations' });
  await location.getByLabel('Name').fill('Pacific Autos Manly');
  await location.getByLabel('Phone').fill('02 9977 1234');
  await location.getByLabel('Street').fill('3 The Corso');
  await location.getByLabel('Suburb or city').fill('Manly');
  await location.getByLabel('State').fill('NSW');
  await location.getByLabel('Postcode').fill('2095');
  await page.getByRole('button', { name: 'Open the site' }).click();
  // A bad colour is refused beside its field; what was typed stays.
  await expect(page.locator('#branding-primary-error')).toHaveText('A colour like #0b3d91.');
  await expect(location.getByLabel('Street')).toHaveValue('3 The Corso');
  await page.getByLabel('Main colour (optional)').fill('#0a7c86');
  await page.getByRole('button', { name: 'Open the site' }).click();

  // Its settings open next, to finish it.
  await expect(page.getByRole('heading', { name: 'Settings of Pacific Autos' })).toBeVisible();
  expect(new URL(page.url()).pathname).toBe(`/sites/${slug}/settings`);

  // Its first car, from the Stock tab.
  await page.getByRole('link', { name: 'Stock' }).click();
  await page.getByRole('button', { name: 'Add a car' }).click();
  const car = page.locator('.dc-car');
  await car.getByLabel('Make').fill('Mazda');
  await car.getByLabel('Model').fill('CX-5');
  await car.getByLabel('Year').fill('2020');
  await car.getByLabel('Price', { exact: true }).fill('31990');
  await car.getByLabel('Stock number').fill('PA-1');
  await car.getByRole('button', { name: 'Add the car' }).click();
  await expect(car.getByRole('status').filter({ hasText: 'Car added.' })).toBeVisible();
  const carPath = new URL((await car.getByRole('link', { name: 'Open the car’s page' }).getAttribute('href'))!).pathname;

  const shopper = await (await browser.newContext()).newPage();
  await shopper.goto(siteUrl(slug, '/'));
  await expect(shopper).toHaveTitle(/Pacific Autos/);
  await expect(shopper.locator('header').first().getByRole('img', { name: 'Pacific Autos' })).toBeVisible();
  await shopper.goto(siteUrl(slug, '/search/used-cars'));
  await expect(shopper.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(shopper.getByText('2020 Mazda CX-5').first()).toBeVisible();
  await shopper.goto(siteUrl(slug, carPath));
  await expect(shopper.getByRole('heading', { level: 1 })).toContainText('2020 Mazda CX-5');
  await shopper.goto(siteUrl(slug, '/dealerships'));
  await expect(shopper.locator('main').getByText('3 The Corso, Manly NSW 2095')).toBeVisible();
  await shopper.close();
  await page.goto(consoleUrl(`/sites/${slug}/audit`));
  await expect(page.getByText('sites.create')).toBeVisible();
});
