import { expect, test } from '@playwright/test';
import { siteUrl } from './support/platform';

test('a blog post the site does not have is a 404 page, not a page made up from its address', async ({ page }) => {
  const answer = await page.goto(siteUrl('metro-motor-group', '/blog/a-post-that-was-never-written'));
  expect(answer?.status()).toBe(404);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Page not found');
  await expect(page).toHaveTitle(/^Page not found/);
  await expect(page.getByText('A Post That Was Never Written')).toHaveCount(0);
});
