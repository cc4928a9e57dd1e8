import { expect, test, type Page } from '@playwright/test';
import { adminGet } from './support/platform';
import { usedAndHydrated } from './support/hydration';

async function firstCarPath(page: Page) {
  await page.goto('/search/new-used-and-demo-cars');
  const link = page.locator('.vehicle-card__link').first();
  await expect(link).toBeVisible();
  return (await link.getAttribute('href'))!;
}

async function expectShellWorks(page: Page) {
  await expect(page.locator('.site-header')).toBeVisible();
  await expect(page.locator('.site-footer')).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Finance' })).toBeAttached();
}

test.describe('a remote that fails shows a fallback in its own area only', () => {
  test('mf-vehicle is down: the car page shows a fallback, the rest of the site works, the failure is logged', async ({ page }) => {
    const carPath = await firstCarPath(page);
    await page.route('**/remotes/mf-vehicle/**', (route) => route.abort('connectionrefused'));
    await page.goto(carPath);
    // The server's page is readable as sent; the remote's code is needed once the shopper uses it.
    await usedAndHydrated(page);
    const fallback = page.locator('[data-remote-fallback="mf-vehicle/VehicleDetailPage"]');
    await expect(fallback).toContainText('could not be loaded');
    await expectShellWorks(page);

    // Other remotes keep working: the search page still lists cars.
    await page.getByRole('navigation', { name: 'Footer' }).getByRole('link', { name: 'New, Used & Demo Cars' }).click();
    await expect(page.locator('.vehicle-card').first()).toBeVisible();

    await expect
      .poll(async () => {
        const { body } = await adminGet('/api/admin/events?site=metro-motor-group&category=remote_load_failed');
        return (body.events as { error_message: string }[]).some((event) => event.error_message.includes('mf_vehicle/VehicleDetailPage'));
      })
      .toBe(true);
  });

  test('mf-vehicle answers 404 and then comes back: Try again loads it without a page reload', async ({ page }) => {
    const carPath = await firstCarPath(page);
    let down = true;
    await page.route('**/remotes/mf-vehicle/**', (route) => (down ? route.fulfill({ status: 404, body: 'Not Found' }) : route.continue()));
    await page.goto(carPath);
    await usedAndHydrated(page);
    const fallback = page.locator('[data-remote-fallback="mf-vehicle/VehicleDetailPage"]');
    await expect(fallback).toBeVisible();
    await expectShellWorks(page);
    down = false;
    await fallback.getByRole('button', { name: 'Try again' }).click();
    await expect(page.locator('.vehicle-page h1')).toBeVisible();
  });

  test('an exposed module that throws while loading shows the fallback, the shell stays', async ({ page }) => {
    await page.route(/\/remotes\/mf-search\/[^/]+\/__federation_expose_SearchPage\.[^/]+\.js$/, (route) =>
      route.fulfill({ status: 200, contentType: 'text/javascript', body: 'throw new Error("broken release of mf-search");' }),
    );
    await page.goto('/search/new-used-and-demo-cars');
    await usedAndHydrated(page);
    await expect(page.locator('[data-remote-fallback="mf-search/SearchPage"]')).toBeVisible();
    await expectShellWorks(page);
    await page.getByRole('link', { name: 'Dealerships' }).first().click();
    await expect(page.getByRole('heading', { level: 1, name: 'Dealerships' })).toBeVisible();
  });

  test('mf-checkout never answers: after the load time limit the checkout shows the fallback, the shell stays', async ({ page }) => {
    await page.route('**/remotes/mf-checkout/**', () => {
      // Never answered: the request hangs like a remote host that accepts and stalls.
    });
    await page.goto('/checkout');
    await expect(page.locator('[data-remote-fallback="mf-checkout/CheckoutPage"]')).toBeVisible({ timeout: 25_000 });
    await expectShellWorks(page);
  });
});
