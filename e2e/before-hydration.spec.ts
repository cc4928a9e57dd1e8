import { expect, test, type Page } from '@playwright/test';
import { searchPathFor } from '../shared/rules/src/routes';
import { demoStock } from './support/demo-stock';
import { cardPrices } from './support/cards';
import { siteUrl } from './support/platform';
import { hydrated, usedAndHydrated } from './support/hydration';

const stock = demoStock();
const listed = (site: string) =>
  stock.cars.filter((car) => car.site === site && car.show_on_dealer_website && car.status !== 'sold' && !car.sold);

// The page's `load` waits for the held code, so each visit waits only for the markup.

/**
 * Holds the app's code back (React's chunk) until the test lets it go: the page is the server's
 * markup only, as on a slow phone in the first seconds. Resolves the returned function to release it.
 */
async function holdTheAppsCode(page: Page) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/assets\/vendor-react\.[0-9a-f]+\.js$/, async (route) => {
    await released;
    await route.continue();
  });
  return release;
}

test('a filter ticked before the page’s code has run still narrows the search once it has', async ({ page }) => {
  const site = stock.sites.find((item) => item.slug === 'flexi-subscriptions')!;
  const release = await holdTheAppsCode(page);
  await page.goto(siteUrl(site.slug, searchPathFor(site)), { waitUntil: 'domcontentloaded' });
  const band = page.locator('fieldset[data-facet="weekly_price_range"] label').first();
  const label = await band.innerText();
  await band.click();
  await expect(band.locator('input')).toBeChecked();

  release();
  await hydrated(page);
  await expect(page).toHaveURL(/weekly_price_range=/);
  await expect(page.locator('.search-page__results[aria-busy="false"]')).toBeVisible();
  await expect(page.locator('.search-page__count')).toHaveText(new RegExp(`^${/\((\d+)\)$/.exec(label)![1]} `));
  await expect(band.locator('input')).toBeChecked();
});

test('a deposit typed and a repayment choice made before the car page’s code has run are what the calculator shows', async ({ page }) => {
  const car = listed('harbour-used-cars').find((item) => item.price > 10_000)!;
  const release = await holdTheAppsCode(page);
  await page.goto(siteUrl('harbour-used-cars', `/cars/${car.slug}`), { waitUntil: 'domcontentloaded' });
  const repayment = page.getByTestId('finance-repayment');
  await expect(repayment).toHaveText(/weekly$/);
  const before = await repayment.innerText();
  const deposit = String(Math.round(car.price / 2));
  await page.getByLabel('Deposit ($)').fill(deposit);
  await page.getByLabel('Repayments').selectOption('monthly');
  // Nothing recalculates yet: the page is markup only.
  await expect(repayment).toHaveText(before);

  release();
  await hydrated(page);
  await expect(repayment).toHaveText(/monthly$/);
  await expect(page.getByLabel('Deposit ($)')).toHaveValue(deposit);
  // Half the price down: the monthly repayment is less than four of the weekly ones on the full amount.
  const amount = (text: string) => Number(text.replace(/[^\d.]/g, ''));
  expect(amount(await repayment.innerText())).toBeLessThan(amount(before) * 4);
});

test('the menu button opens the menu at once, before the page’s code has run, and it stays open once the code runs', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 800 });
  const release = await holdTheAppsCode(page);
  await page.goto(siteUrl('metro-motor-group', '/'), { waitUntil: 'domcontentloaded' });
  const menu = page.getByRole('button', { name: 'Menu' });
  await menu.click();
  await expect(menu).toHaveAttribute('aria-expanded', 'true');
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Home' })).toBeVisible();

  release();
  await hydrated(page);
  await expect(menu).toHaveAttribute('aria-expanded', 'true');
  await menu.click();
  await expect(menu).toHaveAttribute('aria-expanded', 'false');
});

test('a page scrolled before its code has run stays where the shopper left it; the next page starts at its top', async ({ page }) => {
  await page.setViewportSize({ width: 412, height: 839 });
  const release = await holdTheAppsCode(page);
  await page.goto(siteUrl('harbour-used-cars', '/search/used-cars'), { waitUntil: 'domcontentloaded' });
  await page.evaluate(() => window.scrollTo(0, 900));
  release();
  await hydrated(page);
  // The search page's own part hydrates after the shell's: wait until its cards are React's.
  await page.waitForFunction(() =>
    Object.keys(document.querySelector('.vehicle-card__body') ?? {}).some((key) => key.startsWith('__reactProps$')),
  );
  expect(await page.evaluate(() => window.scrollY)).toBe(900);

  await page.locator('.vehicle-card__link').nth(3).click();
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
});

test('a button pressed while its part of the page is still loading its code does its work once the code is there', async ({ page }) => {
  // The app is up (React has the page) but the search page's own code (its remote) is held back.
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/remotes\/mf-search\/[^/]+\/remoteEntry\.js$/, async (route) => {
    await released;
    await route.continue();
  });
  await page.goto(siteUrl('metro-motor-group', '/search/new-used-and-demo-cars'), { waitUntil: 'domcontentloaded' });
  await usedAndHydrated(page);
  await page.getByRole('button', { name: 'Save this search' }).click();
  await expect(page.getByRole('link', { name: 'Sign in to your garage' })).toHaveCount(0);

  release();
  await expect(page.getByRole('link', { name: 'Sign in to your garage' })).toBeVisible();
});

test('a price range applied before the search page’s code has run is applied once it has, not sent by the browser to the page’s own address', async ({
  page,
}) => {
  const release = await holdTheAppsCode(page);
  await page.goto(siteUrl('metro-motor-group', '/search/new-used-and-demo-cars'), { waitUntil: 'domcontentloaded' });
  await page.getByLabel('Price from').fill('40000');
  await page.getByLabel('Price to').fill('70000');
  await page.getByRole('form', { name: 'Price' }).getByRole('button', { name: 'Apply' }).click();
  // Without its code the browser would have sent ?price-min=…&price-max=… and started the page again.
  await expect(page).toHaveURL(/\/search\/new-used-and-demo-cars$/);
  await expect(page.getByLabel('Price from')).toHaveValue('40000');

  release();
  await hydrated(page);
  await expect(page).toHaveURL(/price=40000%3A70000|price=40000:70000/);
  await expect(page.locator('.search-page__results[aria-busy="false"]')).toBeVisible();
  await expect.poll(async () => (await cardPrices(page)).every((price) => price >= 40000 && price <= 70000)).toBe(true);
  expect((await cardPrices(page)).length).toBeGreaterThan(0);
});
