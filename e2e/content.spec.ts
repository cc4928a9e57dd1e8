import { expect, test, type Page } from '@playwright/test';
import { consoleUrl, expectNoSeriousAxeViolations, signIn } from './support/console';
import { siteUrl } from './support/platform';

test('a blog post the site does not have is a 404 page, not a page made up from its address', async ({ page }) => {
  const answer = await page.goto(siteUrl('metro-motor-group', '/blog/a-post-that-was-never-written'));
  expect(answer?.status()).toBe(404);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Page not found');
  await expect(page).toHaveTitle(/^Page not found/);
  await expect(page.getByText('A Post That Was Never Written')).toHaveCount(0);
});

const slug = 'ridgeline-trucks';

/** The rich-text box of a block (Lexical's contenteditable), typed into as a dealer would. */
async function typeRichText(page: Page, block: string, text: string) {
  const box = page.getByRole('region', { name: block }).getByRole('textbox', { name: 'Text', exact: true });
  await box.click();
  await page.keyboard.type(text);
}

test('a site admin rewrites the About page: a saved draft stays off the site until it is published, then the page shows it with its own search title and description', async ({
  page,
  browser,
}) => {
  const story = `Trucks since 1979, run by the third generation (${Date.now()}).`;
  await signIn(page, `site-admin@${slug}.localhost`);
  await page.goto(consoleUrl(`/sites/${slug}/content`));
  await page.getByRole('tab', { name: 'Pages', exact: true }).click();
  const row = page.getByRole('row').filter({ has: page.getByRole('cell', { name: '/about', exact: true }) });
  await row.getByRole('button').first().click();
  await expect(page.getByLabel('Title', { exact: true })).not.toHaveValue('');
  await page.getByLabel('Title', { exact: true }).fill('About Ridgeline');
  await page.getByLabel('SEO title').fill('About Ridgeline Trucks, Toowoomba');
  await page.getByLabel('SEO description').fill('Family-run truck dealer since 1979: new and used trucks, servicing and parts.');
  // The page's own blocks are loaded, so the new rich text is the next one.
  const before = await page.getByRole('region', { name: /^Rich text \d+$/ }).count();
  await page.getByLabel('Block type').selectOption({ label: 'Rich text' });
  await page.getByRole('button', { name: 'Add block' }).click();
  await typeRichText(page, `Rich text ${before + 1}`, story);
  await page.getByRole('button', { name: 'Save draft' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Draft saved.' })).toBeVisible();
  await expectNoSeriousAxeViolations(page);

  const shopper = await (await browser.newContext()).newPage();
  await shopper.goto(siteUrl(slug, '/about'));
  await expect(shopper.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(shopper.getByText(story)).toHaveCount(0);

  // Preview shows the draft in a tab of the dealer's own.
  const [preview] = await Promise.all([page.waitForEvent('popup'), page.getByRole('button', { name: 'Preview' }).click()]);
  await preview.waitForURL((url) => url.pathname === '/about');
  await expect(preview.getByText(story)).toBeVisible();
  await expect(preview.getByText('Previewing unpublished changes: only this browser sees them.')).toBeVisible();
  await preview.close();

  await page.getByRole('button', { name: 'Publish', exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Published: the site shows it now.' })).toBeVisible();
  const answer = await shopper.goto(siteUrl(slug, '/about'));
  expect(answer?.status()).toBe(200);
  await expect(shopper.getByRole('heading', { level: 1, name: 'About Ridgeline' })).toBeVisible();
  await expect(shopper.getByText(story)).toBeVisible();
  // An SEO title that names the site is used as the dealer wrote it.
  await expect(shopper).toHaveTitle('About Ridgeline Trucks, Toowoomba');
  await expect(shopper.locator('meta[name="description"]')).toHaveAttribute(
    'content',
    'Family-run truck dealer since 1979: new and used trucks, servicing and parts.',
  );
  await expect(shopper.locator('meta[property="og:title"]')).toHaveAttribute('content', 'About Ridgeline Trucks, Toowoomba');
});

test('a site admin writes a news post: it is not on the site as a draft, then renders with its Article structured data and is listed', async ({
  page,
  browser,
}) => {
  const title = `New Isuzu N Series on the yard ${Date.now() % 100000}`;
  const postSlug = title.toLowerCase().replace(/\s+/g, '-');
  await signIn(page, `site-admin@${slug}.localhost`);
  await page.goto(consoleUrl(`/sites/${slug}/content`));
  await page.getByRole('tab', { name: 'News' }).click();
  await page.getByRole('button', { name: 'New post' }).click();
  await page.getByLabel('Address').fill(postSlug);
  await page.getByLabel('Title', { exact: true }).fill(title);
  await page.getByLabel('Summary').fill('The new light-duty range has arrived in Toowoomba.');
  await page.getByLabel('Author (optional)').fill('Jo Ridge');
  await page.getByLabel('Block type').selectOption({ label: 'Rich text' });
  await page.getByRole('button', { name: 'Add block' }).click();
  await typeRichText(page, 'Rich text 1', 'Come and drive one this week.');
  await page.getByRole('button', { name: 'Save draft' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Draft saved.' })).toBeVisible();

  const shopper = await (await browser.newContext()).newPage();
  expect((await shopper.goto(siteUrl(slug, `/blog/${postSlug}`)))?.status()).toBe(404);

  await page.getByRole('button', { name: 'Publish', exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Published: the site shows it now.' })).toBeVisible();
  expect((await shopper.goto(siteUrl(slug, `/blog/${postSlug}`)))?.status()).toBe(200);
  await expect(shopper.getByRole('heading', { level: 1, name: title })).toBeVisible();
  await expect(shopper.getByText('Come and drive one this week.')).toBeVisible();
  await expect(shopper).toHaveTitle(`${title} | Ridgeline Trucks`);
  const article = JSON.parse((await shopper.locator('script[type="application/ld+json"]').first().textContent())!) as Record<
    string,
    unknown
  >;
  expect(article).toMatchObject({ '@type': 'BlogPosting', headline: title, author: { name: 'Jo Ridge' } });

  // The news list shows it first, and following it from there opens it.
  await shopper.goto(siteUrl(slug, '/blog'));
  await shopper.getByRole('link', { name: title }).first().click();
  await expect(shopper).toHaveURL(new RegExp(`/blog/${postSlug}$`));
  await expect(shopper.getByRole('heading', { level: 1, name: title })).toBeVisible();
});
