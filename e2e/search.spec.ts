import { expect, test, type Page } from '@playwright/test';
import { demoStock } from './support/demo-stock';
import { cardNames, cardPrices } from './support/cards';
import { siteUrl } from './support/platform';

const searchPath = '/search/new-used-and-demo-cars';
const settled = (page: Page) => page.locator('.search-page__results[aria-busy="false"]');
const count = async (page: Page) => Number((await page.locator('.search-page__count').innerText()).split(' ')[0]);
const facet = (page: Page, name: string) => page.locator(`fieldset[data-facet="${name}"]`);
/**
 * The address changes a moment before React renders the search it starts (router navigations run
 * as transitions), so "settled" can still describe the previous results: wait for the cards.
 */
const everyCardNamed = (page: Page, text: string) =>
  expect
    .poll(async () => {
      const names = await cardNames(page);
      return names.length > 0 && names.every((name) => name.includes(text));
    })
    .toBe(true);

test('a shopper narrows by make then model, sets a price range, sorts, pages, and goes back', async ({ page }) => {
  await page.goto(searchPath);
  await expect(settled(page)).toBeVisible();
  const everything = await count(page);

  await facet(page, 'make')
    .getByLabel(/^Toyota \(\d+\)$/)
    .click();
  await expect(page).toHaveURL(/make=Toyota/);
  await everyCardNamed(page, 'Toyota');
  await expect(settled(page)).toBeVisible();
  const toyotas = await count(page);
  expect(toyotas).toBeLessThan(everything);

  // Model depends on make: only Toyota models are offered.
  const models = await facet(page, 'model').locator('label').allInnerTexts();
  expect(models.some((label) => label.startsWith('Corolla'))).toBe(true);
  expect(models.some((label) => label.startsWith('CX-5'))).toBe(false);
  await facet(page, 'model')
    .getByLabel(/^HiLux \(\d+\)$/)
    .click();
  await expect(page).toHaveURL(/model=HiLux/);
  await everyCardNamed(page, 'Toyota HiLux');
  await expect(settled(page)).toBeVisible();

  await page.getByLabel('Price from').fill('40000');
  await page.getByLabel('Price to').fill('70000');
  await page.getByRole('form', { name: 'Price' }).getByRole('button', { name: 'Apply' }).click();
  await expect(page).toHaveURL(/price=40000%3A70000|price=40000:70000/);
  await expect.poll(async () => (await cardPrices(page)).every((price) => price >= 40000 && price <= 70000)).toBe(true);
  await expect(settled(page)).toBeVisible();

  await page.getByLabel('Sort by').selectOption('price:asc');
  await expect(page).toHaveURL(/sort=price%3Aasc|sort=price:asc/);
  await expect(settled(page)).toBeVisible();
  await expect
    .poll(async () => {
      const prices = await cardPrices(page);
      return prices.length > 1 && prices.every((price, i) => i === 0 || prices[i - 1]! <= price);
    })
    .toBe(true);

  // Clear the narrow filters and page through the rest.
  await page.getByRole('button', { name: /Remove Model: HiLux/ }).click();
  await page.getByRole('button', { name: /Remove Price/ }).click();
  await expect(settled(page)).toBeVisible();
  const beforePaging = page.url();
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page).toHaveURL(/page=2/);
  await expect(page.getByText(/^Page 2 of \d+$/)).toBeVisible();

  await page.goBack();
  await expect(page).toHaveURL(beforePaging);
  await expect(page.getByText(/^Page 1 of \d+$/)).toBeVisible();
  await expect(facet(page, 'make').getByLabel(/^Toyota \(\d+\)$/)).toBeChecked();
  await expect(page.getByLabel('Sort by')).toHaveValue('price:asc');
});

test('a stock number finds its car', async ({ page }) => {
  const car = demoStock().cars.find(
    (item) => item.site === 'metro-motor-group' && item.status === 'in_stock' && item.show_on_dealer_website && !item.sold,
  )!;
  await page.goto(searchPath);
  await page.getByLabel('Keyword or stock number').fill(car.stocknum);
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(settled(page)).toBeVisible();
  await expect(page.locator('.search-page__count')).toHaveText(/^1 vehicles/);
  await expect(page.locator('.vehicle-card__name')).toHaveText(car.name);
});

test('a sold car past the window is gone; one sold yesterday still shows as sold', async ({ page }) => {
  const { cars } = demoStock();
  const now = Date.now() / 1000;
  const metroSold = cars.filter((car) => car.site === 'metro-motor-group' && car.status === 'sold' && car.show_on_dealer_website);
  const longGone = metroSold.find((car) => car.sold_date_timestamp! < now - 5 * 86_400)!;
  const recent = metroSold.find((car) => car.sold_date_timestamp! > now - 2 * 86_400)!;

  await page.goto(`${searchPath}?q=${longGone.stocknum}`);
  await expect(page.getByRole('heading', { name: 'No vehicles match your search' })).toBeVisible();

  await page.goto(`${searchPath}?q=${recent.stocknum}`);
  await expect(page.locator('.vehicle-card__name')).toHaveText(recent.name);
  await expect(page.locator('.vehicle-card__tag')).toHaveText(/sold/i);
});

test("a shopper editing the search request still only gets this dealer's cars", async ({ page }) => {
  const { sites } = demoStock();
  const harbour = sites.find((site) => site.slug === 'harbour-used-cars')!;
  await page.route('**/meili/multi-search', async (route) => {
    const body = route.request().postDataJSON() as { queries: { filter: string[] }[] };
    for (const query of body.queries) query.filter = [`site_id = ${harbour.id} OR site_id != ${harbour.id}`];
    await route.continue({ postData: JSON.stringify(body) });
  });
  await page.goto(siteUrl('metro-motor-group', searchPath));
  await expect(settled(page)).toBeVisible();
  const ids = await page
    .locator('.vehicle-card[data-car-id]')
    .evaluateAll((cards) => cards.map((card) => Number(card.getAttribute('data-car-id'))));
  const metroIds = new Set(
    demoStock()
      .cars.filter((car) => car.site === 'metro-motor-group')
      .map((car) => car.id),
  );
  expect(ids.length).toBeGreaterThan(0);
  for (const id of ids) expect(metroIds.has(id)).toBe(true);

  // The key itself cannot be used to ask for another site's cars either.
  const apiKey = await page.evaluate(
    async () => ((await (await fetch('/api/site')).json()) as { search: { apiKey: string } }).search.apiKey,
  );
  const answer = await page.evaluate(
    async ({ key, otherSite }) => {
      const response = await fetch('/meili/indexes/cars/search', {
        method: 'POST',
        headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ filter: `site_id = ${otherSite}`, limit: 5 }),
      });
      return { status: response.status, hits: ((await response.json()) as { hits: unknown[] }).hits };
    },
    { key: apiKey, otherSite: harbour.id },
  );
  expect(answer).toEqual({ status: 200, hits: [] });
});

test('on a phone the cars come first; the filters open from a button, narrow the search and fold away again', async ({ page }) => {
  await page.setViewportSize({ width: 412, height: 839 });
  await page.goto(searchPath);
  await expect(settled(page)).toBeVisible();
  // The first car is on the first screen; the filters are folded away.
  const firstCard = await page.locator('.vehicle-card').first().boundingBox();
  expect(firstCard!.y).toBeLessThan(839);
  await expect(facet(page, 'make')).toBeHidden();
  const everything = await count(page);

  const toggle = page.getByRole('button', { name: 'Filters', exact: true });
  await toggle.click();
  await expect(page.getByRole('button', { name: 'Hide filters' })).toHaveAttribute('aria-expanded', 'true');
  await facet(page, 'make')
    .getByLabel(/^Toyota \(\d+\)$/)
    .click();
  await expect(page).toHaveURL(/make=Toyota/);
  await everyCardNamed(page, 'Toyota');
  const toyotas = await count(page);
  expect(toyotas).toBeLessThan(everything);

  await page.getByRole('button', { name: `Show ${toyotas} vehicles` }).click();
  await expect(facet(page, 'make')).toBeHidden();
  await expect(page.getByRole('button', { name: 'Filters (1)' })).toHaveAttribute('aria-expanded', 'false');
});
