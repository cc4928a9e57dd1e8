import { expect, test } from '@playwright/test';
import { siteUrl } from './support/platform';

test('metro’s home page shows its hero, featured cars, current offers, reviews and locations, rendered on the server', async ({ page }) => {
  // The first response already holds every section: nothing waits for the browser's code.
  const html = (await (await page.goto(siteUrl('metro-motor-group', '/')))?.text()) ?? '';
  for (const section of [
    'content-block--hero',
    'content-block--featured-stock',
    'content-block--offers-list',
    'content-block--reviews',
    'content-block--locations',
  ])
    expect(html, section).toContain(section);
  expect(html).toMatch(/<link rel="preload" as="image" href="\/img\/vehicle\/[^"]+" [^>]*fetchpriority="high">/);

  const hero = page.locator('.content-hero__picture');
  await expect(hero).toHaveAttribute('fetchpriority', 'high');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();

  const cars = page.locator('.content-cards--cars .content-card');
  expect(await cars.count()).toBeGreaterThanOrEqual(4);
  await expect(page.getByText(/^Ends \d{1,2} \w+ \d{4}$/).first()).toBeVisible();
  await expect(page.locator('.content-review').first()).toBeVisible();
  // Every review shown has 4 stars or more (SPEC §9), at most 12 of them.
  const stars = await page
    .locator('.content-review [role="img"]')
    .evaluateAll((marks) => marks.map((mark) => mark.getAttribute('aria-label')));
  expect(stars.length).toBeGreaterThan(0);
  expect(stars.length).toBeLessThanOrEqual(12);
  for (const label of stars) expect(Number(label!.split(' ')[0])).toBeGreaterThanOrEqual(4);

  const name = (await cars.first().locator('h3').innerText()).trim();
  await cars.first().locator('a').first().click();
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
});

test('a site whose dealer keeps stock off the home page shows no featured cars there', async ({ page }) => {
  const html = (await (await page.goto(siteUrl('harbour-used-cars', '/')))?.text()) ?? '';
  expect(html).toContain('content-block--reviews');
  expect(html).not.toContain('content-block--featured-stock');
});

test('a group’s long list of locations folds each one’s opening hours, and a shopper opens one with a tap', async ({ page }) => {
  await page.goto(siteUrl('metro-motor-group', '/dealerships'));
  const first = page.locator('.location-card').first();
  const name = (await first.getByRole('heading', { level: 2 }).innerText()).trim();
  const hours = page.getByRole('table', { name: `Opening hours of ${name}` });
  await expect(hours).toBeHidden();
  await first.getByText('Opening hours', { exact: true }).click();
  // The week from Monday, days with the same hours in one line: a sales yard's SPEC §9 typical hours.
  await expect(hours.getByRole('row')).toHaveText([/^Monday to Saturday\s*8:30am - 5:30pm$/, /^Sunday\s*10am - 4pm$/]);
  // A dealer with three locations shows their hours as they are.
  await page.goto(siteUrl('kiwi-motors', '/dealerships'));
  await expect(page.locator('.location-card').first().getByRole('table')).toBeVisible();
});
