import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { demoStock } from './support/demo-stock';

const usedCodes = new Set<string>();

/**
 * The newest sign-in code the platform e-mailed to this address and not used yet (no SMTP in the
 * e2e run: each e-mail is a file in DATA_DIR/outbox/mail/, named by its id).
 */
async function codeFor(email: string): Promise<string> {
  const dir = join(process.env.E2E_DATA_DIR!, 'outbox', 'mail');
  let code: string | null = null;
  await expect
    .poll(async () => {
      const names = (await readdir(dir).catch(() => [] as string[])).sort((a, b) => parseInt(b, 10) - parseInt(a, 10));
      for (const name of names) {
        const text = await readFile(join(dir, name), 'utf8');
        const found = text.includes(email) ? /^\s{4}(\d{6})\s*$/m.exec(text)?.[1] : undefined;
        if (found && !usedCodes.has(found)) return (code = found);
      }
      return null;
    })
    .not.toBeNull();
  usedCodes.add(code!);
  return code!;
}

/** GET /api/auth as the page's own browser asks it (its cookie, its site). */
const authOf = (page: Page) =>
  page.evaluate(() => fetch('/api/auth').then((response) => response.json() as Promise<{ user: unknown; watchlist: number[] }>));

async function signIn(page: Page, email: string) {
  await page.goto('/my-garage');
  await page.getByLabel('Email address').fill(email);
  await page.getByRole('button', { name: 'Email me a code' }).click();
  await expect(page.getByText(`We sent a 6-digit code to ${email}.`)).toBeVisible();
  await page.getByLabel('Code', { exact: true }).fill(await codeFor(email));
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByText(`Signed in as ${email}.`)).toBeVisible();
}

const car = demoStock()
  .cars.filter((item) => item.site === 'metro-motor-group' && item.show_on_dealer_website && item.status === 'in_stock')
  .at(-5)!;

test('a shopper saves a car, signs in with an e-mailed code, finds it on another device, then deletes the account', async ({ browser }) => {
  const email = `garage.${Date.now()}@example.com`;
  const phone = await browser.newContext();
  const page = await phone.newPage();
  await page.goto(`/cars/${car.slug}`);
  // The server's page already holds Save; pressed before its code arrived, it is saved once it has.
  await page.getByRole('button', { name: '♡ Save' }).first().click();
  await expect(page.getByRole('button', { name: '♥ Saved' }).first()).toBeVisible();

  // A wrong code is refused beside the field; the right one signs in and keeps the car saved in this browser.
  await page.goto('/my-garage');
  await page.getByLabel('Email address').fill(email);
  await page.getByRole('button', { name: 'Email me a code' }).click();
  await page.getByLabel('Code', { exact: true }).fill('000000');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.locator('#garage-code-error')).toContainText('That code or link does not work');
  await page.getByLabel('Code', { exact: true }).fill(await codeFor(email));
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByText(`Signed in as ${email}.`)).toBeVisible();

  // A search saved from the search page is listed in the garage and opens again from there (signed out: a sign-in link).
  await page.goto('/search/new-used-and-demo-cars?q=Corolla');
  await page.getByRole('button', { name: 'Save this search' }).click();
  await expect(page.getByText('Saved to your garage')).toBeVisible();
  await page.goto('/my-garage');
  await page.getByRole('link', { name: /Corolla/ }).click();
  await expect(page).toHaveURL(/\/search\/new-used-and-demo-cars\?q=Corolla$/);

  // Another device: the same account, the same saved car, on the Saved cars tab (?tab=saved-cars).
  const laptop = await browser.newContext();
  const other = await laptop.newPage();
  await other.goto('/search/new-used-and-demo-cars');
  await other.getByRole('button', { name: 'Save this search' }).click();
  await expect(other.getByRole('link', { name: 'Sign in to your garage' })).toBeVisible();
  await signIn(other, email);
  await other.getByRole('link', { name: 'Saved cars' }).click();
  await expect(other).toHaveURL(/\/my-garage\?tab=saved-cars$/);
  await expect(other.getByRole('region', { name: 'Saved cars' }).getByText(car.name)).toBeVisible();

  // Unsaved there, it is gone from the account (and so from the first device's garage once it looks again).
  await other.getByRole('region', { name: 'Saved cars' }).getByRole('button', { name: '♥ Saved' }).click();
  await expect.poll(() => authOf(other).then((auth) => auth.watchlist)).toEqual([]);

  // Sign out, then delete the account from the first device.
  await other.getByRole('link', { name: 'My account' }).click();
  await other.getByRole('button', { name: 'Sign out' }).click();
  await expect(other.getByRole('button', { name: 'Email me a code' })).toBeVisible();
  await page.goto('/my-garage');
  await page.getByRole('button', { name: 'Delete my account' }).click();
  await page.getByRole('button', { name: 'Yes, delete my account' }).click();
  await expect(page.getByText('Your account and everything it kept have been deleted.')).toBeVisible();
  expect((await authOf(page)).user).toBeNull();
  await Promise.all([phone.close(), laptop.close()]);
});
