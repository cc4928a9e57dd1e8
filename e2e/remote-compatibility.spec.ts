import { expect, test } from '@playwright/test';
import { canReserve } from '../shared/rules/src/reserve';
import { isTestDriveOnly } from '../shared/rules/src/tags';
import { demoStock } from './support/demo-stock';
import { platformCli, publishRemote, siteUrl } from './support/platform';

/**
 * The last commit whose vehicle remote (1.3.0) placed Reserve itself, before named slots, typed
 * slot props and the singleton-only sharing: a release a site may still be pinned to.
 */
const vehicleBeforeNamedSlots = '2d329bd';
const site = 'metro-motor-group';

test('a site pinned to the vehicle remote released before named slots still works with today’s shell and checkout', async ({ page }) => {
  // Built as it was at that commit (its sources, shared packages and build scripts).
  const old = publishRemote('mf-vehicle', '--from', vehicleBeforeNamedSlots);
  expect(old).toMatch(/^1\.3\.0-[0-9a-f]{10}$/);
  const latest = platformCli('versions', 'mf-vehicle');
  expect(latest).toContain(old);

  const { cars } = demoStock();
  const car = cars.find(
    (item) =>
      item.site === site &&
      item.show_on_dealer_website &&
      !isTestDriveOnly(item) &&
      canReserve(item, { siteSupportsOnlinePayment: true }).ok,
  )!;
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));

  platformCli('remote', site, 'mf-vehicle', old);
  try {
    await page.goto(siteUrl(site, `/cars/${car.slug}`));
    const vehicle = page.locator('.vehicle-page[data-remote-version]');
    await expect(vehicle).toHaveAttribute('data-remote-version', old);
    await expect(page.getByRole('heading', { level: 1, name: car.name })).toBeVisible();
    // Other remotes' buttons, at today's versions, in the old page's slots.
    await expect(page.getByRole('button', { name: 'Enquire now' })).toBeVisible();
    const reserve = page.getByRole('link', { name: 'Reserve this car' });
    await expect(reserve).toBeVisible();
    await expect(page.locator('[data-remote-fallback]')).toHaveCount(0);
    await reserve.click();
    await expect(page).toHaveURL(new RegExp(`/cars/${car.slug}/checkout`));
    await expect(page.getByLabel('First name')).toBeVisible();
    expect(errors).toEqual([]);
  } finally {
    platformCli('remote', site, 'mf-vehicle', 'latest');
  }

  // Back on today's version, Reserve comes through the vehicle.actions named slot that mf-checkout fills.
  await page.goto(siteUrl(site, `/cars/${car.slug}`));
  await expect(page.locator('.vehicle-page[data-remote-version]')).not.toHaveAttribute('data-remote-version', old);
  await expect(page.getByRole('link', { name: 'Reserve this car' })).toBeVisible();
});
