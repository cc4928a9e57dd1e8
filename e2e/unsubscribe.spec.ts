import { expect, test } from '@playwright/test';
import { siteUrl } from './support/platform';
import { usedAndHydrated } from './support/hydration';

test('a shopper follows the footer’s Unsubscribe link and stops the site’s offers and alert e-mails', async ({ page }) => {
  await page.goto(siteUrl('metro-motor-group', '/'));
  await page.locator('footer').getByRole('link', { name: 'Unsubscribe' }).click();
  await expect(page).toHaveURL(/\/unsubscribe$/);
  await expect(page.getByRole('heading', { name: 'Unsubscribe' })).toBeVisible();
  // The form answers once the page's code runs (a footer link followed before the home page's code ran is a full page load).
  await usedAndHydrated(page);
  const email = page.getByLabel('Email');
  await email.fill('not-an-address');
  await page.getByRole('button', { name: 'Unsubscribe' }).click();
  await expect(page.getByText('Enter an e-mail address like name@example.com.')).toBeVisible();
  await expect(email).toHaveAttribute('aria-invalid', 'true');
  await email.fill(`leaving.${Date.now()}@example.com`);
  await page.getByRole('button', { name: 'Unsubscribe' }).click();
  // The page's own status, not the chat's welcome bubble (also a status), which appears after 3 s on a slow run.
  await expect(page.getByRole('main').getByRole('status')).toContainText(
    'will get no more offers or alert e-mails from Metro Motor Group.',
  );
});
