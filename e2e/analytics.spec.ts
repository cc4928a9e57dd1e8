import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { demoStock } from './support/demo-stock';
import { adminGet, siteUrl } from './support/platform';

/**
 * The analytics sink in a real browser: Google's and Meta's scripts are served by stand-ins
 * (route interception, nothing leaves the machine) that record what reaches them.
 */
const thirdPartyHosts = ['https://www.googletagmanager.com/**', 'https://connect.facebook.net/**'];

/** Serves the stand-ins and counts every third-party request the page makes. */
async function fakeTags(page: Page) {
  const requested: string[] = [];
  for (const host of thirdPartyHosts) {
    await page.route(host, (route) => {
      requested.push(route.request().url());
      const gtm = route.request().url().includes('googletagmanager');
      // Each stand-in marks that it ran; the pixel's takes over the queue as fbevents.js does.
      const body = gtm
        ? 'window.__tagsLoaded = (window.__tagsLoaded || []).concat("google");'
        : 'window.__tagsLoaded = (window.__tagsLoaded || []).concat("facebook"); window.__pixelCalls = window.fbq.queue.slice(); window.fbq.callMethod = function () { window.__pixelCalls.push([].slice.call(arguments)); };';
      return route.fulfill({ status: 200, contentType: 'application/javascript', body });
    });
  }
  return requested;
}

const dataLayer = (page: Page) =>
  page.evaluate(
    () =>
      ((window as unknown as { dataLayer?: unknown[] }).dataLayer ?? []).filter((entry) => !('length' in (entry as object))) as Record<
        string,
        unknown
      >[],
  );

test("tags wait for the first interaction, then the data layer, gtag and the pixel get page views and conversions, the dealer's own log keeps them, and the server-side ad copy carries the pixel's event id", async ({
  page,
}) => {
  const requested = await fakeTags(page);
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  // Page view queued for the tags with the SPEC type (1, home), but no third-party request before an interaction.
  await expect.poll(() => dataLayer(page)).toContainEqual(expect.objectContaining({ event: 'page_view', page_type: 1 }));
  await page.waitForTimeout(1000);
  expect(requested).toEqual([]);

  await page.mouse.wheel(0, 200);
  await expect
    .poll(() => page.evaluate(() => (window as unknown as { __tagsLoaded?: string[] }).__tagsLoaded?.sort()))
    .toEqual(['facebook', 'google']);
  expect(requested.some((url) => url.startsWith('https://www.googletagmanager.com/gtag/js?id=G-DEMO'))).toBe(true);
  const pixelCalls = await page.evaluate(() => (window as unknown as { __pixelCalls: unknown[][] }).__pixelCalls);
  expect(pixelCalls).toContainEqual(['init', expect.stringMatching(/^1000000000/)]);
  expect(pixelCalls).toContainEqual(['track', 'PageView']);

  // A conversion (a car saved to favourites, SPEC §9 event 39) reaches every destination.
  const car = demoStock().cars.find(
    (item) => item.site === 'metro-motor-group' && item.show_on_dealer_website && item.status === 'in_stock',
  )!;
  await page.goto(`/cars/${car.slug}`);
  await expect
    .poll(() => dataLayer(page))
    .toContainEqual(expect.objectContaining({ event: 'page_view', page_type: car.car_type === 'new' ? 3 : 4, car_slug: car.slug }));
  await page.getByRole('button', { name: /save/i }).first().click();
  await expect
    .poll(() => dataLayer(page))
    .toContainEqual(expect.objectContaining({ event: 'dealer_event', event_id: 39, event_label: car.name }));
  await expect
    .poll(async () => ((await adminGet('/api/admin/events?site=metro-motor-group&category=event_39')).body.events as unknown[]).length)
    .toBeGreaterThan(0);

  // …and 250 ms later its server-side copy, with the pixel's event id, through the platform's ad-event
  // outbox (no Conversions API token in the demo: written to DATA_DIR/outbox/ad-events/<site>/).
  const saved = (await dataLayer(page)).find((entry) => entry.event === 'dealer_event' && entry.event_id === 39)!;
  // Finished files only: one being written is a dot-file until it is renamed into place.
  const dir = join(process.env.E2E_DATA_DIR!, 'outbox', 'ad-events', 'metro-motor-group');
  await expect
    .poll(async () => {
      const events = await Promise.all(
        (await readdir(dir).catch(() => [] as string[]))
          .filter((name) => !name.startsWith('.'))
          .map(async (name) => JSON.parse(await readFile(join(dir, name), 'utf8')) as { data: { event_name: string; event_id: string }[] }),
      );
      return events.flatMap((file) => file.data).find((event) => event.event_id === saved.event_uid)?.event_name;
    })
    .toBe('DealerEvent39');
});

test('a site that asks for consent loads no tag until the shopper accepts, and keeps only its own log when they decline', async ({
  browser,
}) => {
  const declined = await browser.newContext();
  const page = await declined.newPage();
  const requested = await fakeTags(page);
  await page.goto(siteUrl('kiwi-motors', '/'));
  const banner = page.getByRole('region', { name: 'Cookies and tracking' });
  await expect(banner).toBeVisible();
  await page.mouse.wheel(0, 200);
  await page.waitForTimeout(3500);
  expect(requested, 'nothing before the shopper answers').toEqual([]);
  await banner.getByRole('button', { name: 'Decline' }).click();
  await expect(banner).toBeHidden();
  await page.reload();
  await page.mouse.wheel(0, 200);
  await page.waitForTimeout(3500);
  expect(requested, 'nothing after they decline').toEqual([]);
  expect(await dataLayer(page)).toEqual([]);
  await expect
    .poll(async () => ((await adminGet('/api/admin/events?site=kiwi-motors&category=page_view')).body.events as unknown[]).length)
    .toBeGreaterThan(0);
  await declined.close();

  const accepted = await browser.newContext();
  const other = await accepted.newPage();
  const loaded = await fakeTags(other);
  await other.goto(siteUrl('kiwi-motors', '/'));
  await other.getByRole('region', { name: 'Cookies and tracking' }).getByRole('button', { name: 'Accept' }).click();
  await expect.poll(() => loaded.length).toBeGreaterThan(0);
  await expect.poll(() => dataLayer(other)).toContainEqual(expect.objectContaining({ event: 'page_view', page_type: 1 }));
  await accepted.close();
});
