import { devices, expect, test } from '@playwright/test';
import { searchPathFor } from '../shared/rules/src/routes';
import { demoStock } from './support/demo-stock';
import { siteUrl } from './support/platform';

const { defaultBrowserType: _browser, ...phone } = devices['Pixel 7'];
test.use(phone);

/**
 * Every demo site, not one: a shopper on a phone opens the site's default search page, sees its
 * cars and opens one. (A subscription site once answered every search with a 400 and no test
 * opened it.)
 */
for (const site of demoStock().sites) {
  test(`${site.slug}: a shopper on a phone opens the search page, sees cars and opens one`, async ({ page }) => {
    await page.goto(siteUrl(site.slug, searchPathFor(site)));
    await expect(page.locator('.search-page__results[aria-busy="false"]')).toBeVisible();
    await expect(page.getByText('Search is unavailable right now')).toHaveCount(0);
    expect(Number((await page.locator('.search-page__count').innerText()).split(' ')[0])).toBeGreaterThan(0);

    const card = page.locator('.vehicle-card__link').first();
    const name = (await card.locator('.vehicle-card__name').innerText()).trim();
    await card.tap();
    await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
  });
}

test('flexi-subscriptions: a shopper narrows by weekly price band', async ({ page }) => {
  const site = demoStock().sites.find((item) => item.slug === 'flexi-subscriptions')!;
  await page.goto(siteUrl(site.slug, searchPathFor(site)));
  await expect(page.locator('.search-page__results[aria-busy="false"]')).toBeVisible();
  const everything = Number((await page.locator('.search-page__count').innerText()).split(' ')[0]);

  // On a phone the filters open from their button.
  await page.getByRole('button', { name: 'Filters', exact: true }).tap();
  const bands = page.locator('fieldset[data-facet="weekly_price_range"] label');
  await expect(bands.first()).toContainText(/a week \(\d+\)$/);
  const first = await bands.first().innerText();
  await bands.first().tap();
  await expect(page).toHaveURL(/weekly_price_range=/);
  await expect(page.locator('.search-page__results[aria-busy="false"]')).toBeVisible();
  const narrowed = Number((await page.locator('.search-page__count').innerText()).split(' ')[0]);
  expect(narrowed).toBe(Number(/\((\d+)\)$/.exec(first)![1]));
  expect(narrowed).toBeLessThan(everything);
});
