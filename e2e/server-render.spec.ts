import { expect, test } from '@playwright/test';
import { canReserve } from '../shared/rules/src/reserve';
import { depositFor } from '../shared/rules/src/reservation';
import { isTestDriveOnly } from '../shared/rules/src/tags';
import { demoStock } from './support/demo-stock';
import { siteUrl } from './support/platform';
import { usedAndHydrated } from './support/hydration';

/** React's hydration failures in a production build: minified errors 418, 423 and 425, or the words. */
const hydrationProblem = /hydrat|Minified React error #(418|419|422|423|425)/i;

const site = 'metro-motor-group';

/** Whether React drives the element: it hydrated or rendered it. */
const ownedByReact = (element: Element) => Object.keys(element).some((key) => key.startsWith('__reactFiber'));

test('the first response already shows the header, the footer and the home page; the browser adopts it without re-rendering', async ({
  page,
}) => {
  const problems: string[] = [];
  page.on('console', (message) => message.type() === 'error' && hydrationProblem.test(message.text()) && problems.push(message.text()));
  page.on('pageerror', (error) => problems.push(error.message));
  const html = (await (await page.goto(siteUrl(site, '/')))?.text()) ?? '';
  const root = /<div id="root" data-ssr>([\s\S]*)<\/div>\s*<script id="/.exec(html)?.[1] ?? '';
  // The site config is not in a server-rendered page: its code fetches it (and the browser keeps it).
  expect(html).not.toContain('id="site-config"');
  expect(root).toContain('class="site-header"');
  // The home page's hero headline (the dealer's words) is its h1.
  expect(root).toMatch(/<h1>[^<]+<\/h1>/);
  expect(root).toContain('class="site-footer');

  const heading = page.getByRole('heading', { level: 1 });
  await expect(heading).toBeVisible();
  await heading.evaluate((element) => element.setAttribute('data-from-server', 'yes'));
  // Nothing runs React until the shopper uses the page; then it adopts the markup.
  expect(await heading.evaluate(ownedByReact)).toBe(false);
  await usedAndHydrated(page);
  // Adopted, not replaced: React owns the hero's section, the header and the footer, and keeps what the server sent
  // inside them as it is (markup-only parts: links the shell routes, nothing for React to drive).
  const hero = page.locator('section.content-block--hero');
  const footer = page.locator('footer.site-footer');
  await expect.poll(() => hero.evaluate(ownedByReact)).toBe(true);
  await expect.poll(() => footer.evaluate(ownedByReact)).toBe(true);
  await expect(heading).toHaveAttribute('data-from-server', 'yes');
  expect(await heading.evaluate(ownedByReact)).toBe(false);
  expect(await footer.getByRole('link').first().evaluate(ownedByReact)).toBe(false);
  expect(await page.locator('header.site-header a').first().evaluate(ownedByReact)).toBe(false);
  // The app is live: client-side navigation works, from the page and from the footer's links.
  await page.evaluate(() => ((globalThis as { sameDocument?: boolean }).sameDocument = true));
  await page.getByRole('link', { name: 'Browse all vehicles' }).click();
  await expect(page.locator('.vehicle-card').first()).toBeVisible();
  await footer.getByRole('link', { name: 'Used Cars', exact: true }).click();
  await expect(page).toHaveURL(/\/search\/used-cars$/);
  await expect(page.locator('.vehicle-card').first()).toBeVisible();
  expect(await page.evaluate(() => (globalThis as { sameDocument?: boolean }).sameDocument)).toBe(true);
  expect(problems).toEqual([]);
});

test('every kind of page hydrates without a mismatch: search, a car, a content page, a form and a missing page', async ({ page }) => {
  const car = demoStock().cars.find((item) => item.site === site && item.show_on_dealer_website && item.status === 'in_stock')!;
  const problems: string[] = [];
  page.on(
    'console',
    (message) => message.type() === 'error' && hydrationProblem.test(message.text()) && problems.push(`${page.url()}: ${message.text()}`),
  );
  page.on('pageerror', (error) => problems.push(`${page.url()}: ${error.message}`));
  const pages: [string, RegExp | string][] = [
    ['/search/new-used-and-demo-cars', /./],
    [`/cars/${car.slug}`, car.name],
    ['/privacy-policy', 'Privacy Policy'],
    ['/contact', 'Contact us'],
    ['/no-such-page', 'Page not found'],
  ];
  for (const [path, heading] of pages) {
    const response = await page.goto(siteUrl(site, path));
    const html = (await response?.text()) ?? '';
    expect(html, path).toContain('<div id="root" data-ssr>');
    await expect(page.getByRole('heading', { level: 1, name: heading }).first(), path).toBeVisible();
    if (path.startsWith('/search/')) await expect(page.locator('.vehicle-card').first()).toBeVisible();
    await usedAndHydrated(page);
  }
  expect(problems).toEqual([]);
});

test('the search page’s first results and filters come in the first response; the browser adopts them without searching again', async ({
  page,
}) => {
  const problems: string[] = [];
  page.on('console', (message) => message.type() === 'error' && hydrationProblem.test(message.text()) && problems.push(message.text()));
  page.on('pageerror', (error) => problems.push(error.message));
  const searches: string[] = [];
  page.on('request', (request) => new URL(request.url()).pathname.startsWith('/meili/') && searches.push(request.url()));

  const html = (await (await page.goto(siteUrl(site, '/search/new-used-and-demo-cars?make=Toyota')))?.text()) ?? '';
  const cardsInHtml = [...html.matchAll(/<span class="vehicle-card__name">([^<]+)<\/span>/g)].map((m) => m[1] ?? '');
  expect(cardsInHtml.length).toBeGreaterThan(0);
  expect(cardsInHtml.every((name) => name.includes('Toyota'))).toBe(true);
  expect(html).toContain('data-facet="make"');
  expect(html).toContain('id="app-state"');

  const firstCard = page.locator('.vehicle-card').first();
  await firstCard.evaluate((element) => element.setAttribute('data-from-server', 'yes'));
  await usedAndHydrated(page);
  await expect.poll(() => firstCard.evaluate(ownedByReact)).toBe(true);
  await expect(firstCard).toHaveAttribute('data-from-server', 'yes');
  // What the card shows stays the server's markup (markup only); its Save button is React's and works.
  expect(await firstCard.locator('.vehicle-card__name').evaluate(ownedByReact)).toBe(false);
  expect(await firstCard.locator('.vehicle-card__link').evaluate(ownedByReact)).toBe(false);
  const save = firstCard.getByRole('button', { name: /Save/ });
  await expect.poll(() => save.evaluate(ownedByReact)).toBe(true);
  expect(searches).toEqual([]);

  // Live: another filter asks the search engine from the browser.
  await page.locator('[data-facet="make"] input[type="checkbox"]').nth(1).click();
  await expect(page).toHaveURL(/make=/);
  await expect.poll(() => searches.length).toBeGreaterThan(0);
  expect(problems).toEqual([]);
});

test('a car page’s details and its calls to action come in the first response and are adopted by the browser', async ({ page }) => {
  // A car the site takes a deposit on: Reserve (mf-checkout, in the vehicle.actions slot) is among its buttons.
  const car = demoStock().cars.find(
    (item) =>
      item.site === site &&
      item.show_on_dealer_website &&
      item.status === 'in_stock' &&
      !isTestDriveOnly(item) &&
      !['electric', 'hybrid', 'phev'].includes((item.simple_fuel ?? '').toLowerCase()) &&
      canReserve(item, { siteSupportsOnlinePayment: true }).ok &&
      depositFor(item, 'en-AU'),
  )!;
  const problems: string[] = [];
  page.on('console', (message) => message.type() === 'error' && hydrationProblem.test(message.text()) && problems.push(message.text()));
  page.on('pageerror', (error) => problems.push(error.message));
  const html = (await (await page.goto(siteUrl(site, `/cars/${car.slug}`)))?.text()) ?? '';
  expect(html).toMatch(new RegExp(`<article class="[^"]*vehicle-page[^"]*"[^>]*data-car-id="${car.id}"`));
  expect(html).toContain(`<h1>${car.name}</h1>`);
  // The other remotes' calls to action, from their own server builds: nothing moves in when their code arrives.
  const actions = /<div class="vehicle-page__actions">([\s\S]*?)<\/div>\s*<(?:div|section|a|p) /.exec(html)?.[1] ?? '';
  for (const label of ['Enquire now', 'Book a test drive', 'Request photos', 'Reserve this car', '♡ Save'])
    expect(actions, label).toContain(label);
  const heading = page.getByRole('heading', { level: 1, name: car.name });
  await heading.evaluate((element) => element.setAttribute('data-from-server', 'yes'));
  const enquire = page.getByRole('button', { name: 'Enquire now' });
  await enquire.evaluate((element) => element.setAttribute('data-from-server', 'yes'));
  await usedAndHydrated(page);
  await expect.poll(() => heading.evaluate(ownedByReact)).toBe(true);
  await expect.poll(() => enquire.evaluate(ownedByReact)).toBe(true);
  await expect(heading).toHaveAttribute('data-from-server', 'yes');
  await expect(enquire).toHaveAttribute('data-from-server', 'yes');
  // The car's details and description are markup only: React owns their element, not what is inside.
  await expect.poll(() => page.locator('.vehicle-page__details').evaluate(ownedByReact)).toBe(true);
  expect(await page.locator('.vehicle-specs').evaluate(ownedByReact)).toBe(false);
  // Adopted, and working: the button the server sent opens the enquiry form.
  await enquire.click();
  await expect(page.getByRole('dialog', { name: 'Submit an enquiry' })).toBeVisible();
  await expect(page.getByLabel('First name')).toBeVisible();
  expect(problems).toEqual([]);
});

test('a car page left to settle fetches its buttons’ code ahead, and the Enquire pressed then opens its form', async ({ page }) => {
  const car = demoStock().cars.find((item) => item.site === site && item.show_on_dealer_website && item.status === 'in_stock')!;
  await page.goto(siteUrl(site, `/cars/${car.slug}`));
  // The buttons are other remotes' modules inside the car's: their files are named after the render
  // and fetched ahead at an idle moment after the load, as the route remote's are.
  const ahead = (remote: string, module: string) =>
    page.locator(`head link[rel="prefetch"][href*="/remotes/${remote}/"][href*="${module}"]`);
  await expect(ahead('mf-vehicle', 'VehicleDetailPage')).toHaveCount(1, { timeout: 15_000 });
  await expect(ahead('mf-leads', 'EnquireButton')).toHaveCount(1);
  await expect(ahead('mf-leads', 'remoteEntry')).toHaveCount(1);
  await expect(ahead('mf-garage', 'FavouriteButton')).toHaveCount(1);
  // Nothing has run React yet; the press starts the app, which hands it to the button.
  await page.getByRole('button', { name: 'Enquire now' }).click();
  await expect(page.getByRole('dialog', { name: 'Submit an enquiry' })).toBeVisible();
  await expect(page.getByLabel('First name')).toBeVisible();
});
