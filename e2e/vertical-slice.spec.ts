import { expect, test } from '@playwright/test';
import { cardNames } from './support/cards';
import { adminGet } from './support/platform';

test('a shopper searches stock, opens a car, sends an enquiry and the dealer can read the lead', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await page.getByRole('link', { name: 'Browse all vehicles' }).click();
  await expect(page).toHaveURL(/\/search\/new-used-and-demo-cars$/);
  const count = page.locator('.search-page__count');
  await expect(count).toHaveText(/^\d+ vehicles/);
  const total = Number((await count.innerText()).split(' ')[0]);
  expect(total).toBeGreaterThanOrEqual(1147);

  // Make filter, with its count
  await page
    .locator('fieldset[data-facet="make"]')
    .getByLabel(/^Toyota \(\d+\)$/)
    .click();
  await expect(page).toHaveURL(/make=Toyota/);
  const results = page.locator('.search-page__results[aria-busy="false"]');
  await expect(count).not.toHaveText(`${total} vehicles`);
  await expect(results).toBeVisible();
  const toyotaNames = await cardNames(page);
  expect(toyotaNames.length).toBeGreaterThan(0);
  for (const name of toyotaNames) expect(name).toContain('Toyota');

  // Paging
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page).toHaveURL(/page=2/);
  await expect(page.getByText(/^Page 2 of \d+$/)).toBeVisible();

  // Keyword
  await page.getByLabel('Keyword or stock number').fill('Corolla');
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(page).toHaveURL(/q=Corolla/);
  await expect(page).not.toHaveURL(/page=2/);
  await page.getByRole('button', { name: 'Remove Make: Toyota' }).click();
  await expect(results).toBeVisible();
  const first = page.locator('.vehicle-card__name').first();
  await expect(first).toContainText('Corolla');
  const carName = await first.innerText();

  // The car's page
  await first.click();
  await expect(page).toHaveURL(/\/cars\/[A-Za-z0-9_-]+$/);
  await expect(page.getByRole('heading', { level: 1, name: carName })).toBeVisible();

  // The enquiry form (mf-leads, in a modal opened from its slot on mf-vehicle's page)
  await page.getByRole('button', { name: 'Enquire now' }).click();
  const form = page.getByRole('dialog', { name: 'Submit an enquiry' });
  await form.getByRole('button', { name: 'Submit' }).click();
  await expect(form.getByText('*This is a required field.').first()).toBeVisible();
  await form.getByLabel('First name').fill('Jane');
  await form.getByLabel('Last name').fill('Citizen');
  await form.getByLabel('Email').fill('jane.citizen@example.com');
  await form.getByLabel('Phone').fill('0411 222 333');
  await form.getByLabel('Postcode').fill('2150');
  await form.getByLabel('Comments').fill(`Is the ${carName} still available?`);
  await form.getByRole('button', { name: 'Submit' }).click();
  await expect(page).toHaveURL(/\/success\?category=(new|used|demo)-vehicle-enquiry$/);
  await expect(page.getByRole('heading', { name: 'Thank you' })).toBeVisible();

  // The dealer reads the lead back; without the admin key there is nothing to read.
  expect((await adminGet('/api/admin/leads?site=metro-motor-group', null)).status).toBe(401);
  const { status, body } = await adminGet('/api/admin/leads?site=metro-motor-group');
  expect(status).toBe(200);
  const leads = body.leads as { payload: Record<string, unknown> }[];
  const lead = leads.find((item) => item.payload.email === 'jane.citizen@example.com');
  expect(lead?.payload).toMatchObject({ name: 'Jane', last_name: 'Citizen', website_slug: 'metro-motor-group', source: 'Website' });
  expect(typeof lead?.payload.car_id).toBe('number');
});
