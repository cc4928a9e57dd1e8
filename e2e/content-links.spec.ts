import { expect, test } from '@playwright/test';
import { demoStock } from './support/demo-stock';
import { siteUrl } from './support/platform';

/**
 * Every demo site, every link of its header and footer (issue 24): each opens a page with a heading
 * and words of its own, never "Page not found" and never the one-line stub content pages used to be
 * ("<site> · <city>, <state>. Call us on <phone>.").
 */
for (const site of demoStock().sites) {
  test(`${site.slug}: every header and footer link opens a page with content`, async ({ page }) => {
    test.setTimeout(240_000);
    await page.goto(siteUrl(site.slug, '/'));
    const origin = new URL(siteUrl(site.slug, '/')).origin;
    const hrefs = await page
      .locator('header a[href], footer a[href]')
      .evaluateAll((links) => links.map((link) => (link as HTMLAnchorElement).href));
    const paths = [...new Set(hrefs.filter((href) => href.startsWith(origin)).map((href) => href.slice(origin.length)))];
    expect(paths.length).toBeGreaterThan(3);
    const stub = new RegExp(`${site.name} · .*Call us on`);
    for (const path of paths) {
      const answer = await page.goto(siteUrl(site.slug, path));
      expect(answer?.status(), `${path} answers`).toBeLessThan(400);
      const heading = page.getByRole('heading', { level: 1 }).first();
      await expect(heading, `${path} has a heading`).toBeVisible();
      await expect(heading, `${path} is a page`).not.toHaveText('Page not found');
      const words = await page.locator('#root main').innerText();
      expect(words, `${path} is the old stub`).not.toMatch(stub);
      expect(words.replace(/\s+/g, ' ').length, `${path} has words of its own`).toBeGreaterThan(100);
    }
  });
}
