import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import { consoleUrl, signIn } from './support/console';
import { siteUrl } from './support/platform';
import { solidPng } from './support/solid-png';

/** A dealer's photo host: every /photos/*.png is a picture. */
let photos: Server;
let photoBase = '';
test.beforeAll(async () => {
  photos = createServer((req, res) => {
    if (!req.url?.startsWith('/photos/')) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'image/png' }).end(solidPng(640, 480, [30, 120, 200]));
  });
  await new Promise<void>((done) => photos.listen(0, '127.0.0.1', done));
  photoBase = `http://127.0.0.1:${(photos.address() as AddressInfo).port}/photos`;
});
test.afterAll(() => new Promise<void>((done) => photos.close(() => done())));

test('a site admin maps and imports a CSV feed (dry run, then apply); the cars appear in search, and a car dropped from the next feed shows Sold', async ({
  page,
  browser,
}) => {
  const slug = 'outback-campers';
  const run = Date.now() % 1_000_000;
  const feed = (rows: string[]) => Buffer.from(['Stock Number,Make,Model,Year,Kms,Price,Photos', ...rows].join('\n'), 'utf8');
  const jayco = `OC-J${run},Jayco,Starcraft,2022,0,"$64,990",${photoBase}/j1.png|${photoBase}/j2.png`;
  const avan = `OC-A${run},Avan,Cruiser,2021,0,"$38,500",${photoBase}/a1.png`;
  const broken = `OC-X${run},Windsor,Genesis,2020,0,POA,`;

  await signIn(page, `site-admin@${slug}.localhost`);
  await page.goto(consoleUrl(`/sites/${slug}/stock`));
  await page.getByRole('button', { name: 'Inventory feed' }).click();
  await page
    .getByLabel('Or upload a CSV file')
    .setInputFiles({ name: 'feed.csv', mimeType: 'text/csv', buffer: feed([jayco, avan, broken]) });
  // The columns are matched by their names; the dealer checks and runs a dry run first.
  await expect(page.getByLabel('Stock number', { exact: true })).toHaveValue('Stock Number');
  await expect(page.getByLabel('Price (needed)')).toHaveValue('Price');
  await page.getByRole('button', { name: 'Dry run' }).click();
  const plan = page.getByRole('region', { name: 'What the import would do' });
  await expect(plan).toContainText('Nothing has changed yet.');
  await expect(plan.getByRole('row', { name: new RegExp(`Rejected OC-X${run}`) })).toContainText('POA');
  await expect(plan.getByRole('row', { name: new RegExp(`New OC-J${run}`) })).toBeVisible();
  await page.getByRole('button', { name: 'Apply the import' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Import done' })).toContainText('2 new', { timeout: 30_000 });

  const shopper = await (await browser.newContext()).newPage();
  await shopper.goto(siteUrl(slug, '/search/new-and-used-campers'));
  await shopper.getByRole('searchbox').first().fill(`OC-J${run}`);
  await shopper.keyboard.press('Enter');
  await expect(shopper.getByText('2022 Jayco Starcraft').first()).toBeVisible();
  await shopper.getByText('2022 Jayco Starcraft').first().click();
  await expect(shopper.getByRole('heading', { level: 1 })).toContainText('2022 Jayco Starcraft');
  await expect(shopper.locator('main img').first()).toHaveAttribute('src', /\/img\/car\/[0-9a-f]{32}\.jpg/);
  const jaycoPage = shopper.url();

  // The next feed no longer has the Jayco: it becomes sold and stays listed as Sold for the sold window.
  await page.getByLabel('Or upload a CSV file').setInputFiles({ name: 'feed.csv', mimeType: 'text/csv', buffer: feed([avan]) });
  await page.getByRole('button', { name: 'Dry run' }).click();
  await expect(plan.getByRole('row', { name: new RegExp(`Removed \\(becomes sold\\) OC-J${run}`) })).toBeVisible();
  await page.getByRole('button', { name: 'Apply the import' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Import done' })).toBeVisible({ timeout: 30_000 });
  await shopper.goto(jaycoPage);
  await expect(shopper.locator('main')).toContainText('This car has been sold.');
  await shopper.close();
});
