import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { AxeBuilder } from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';
import { e2ePort } from '../playwright.config';

/** The dealer console's pages, signing in with the codes it e-mails, and its accessibility check. */
export const consoleUrl = (path = '/') => `http://console.localhost:${e2ePort}${path}`;
const usedCodes = new Set<string>();

/** The newest unused code e-mailed to a console user (written to DATA_DIR/outbox/console-mail without SMTP). */
const mailDir = () => join(process.env.E2E_DATA_DIR!, 'outbox', 'console-mail');
const mailNames = async () => (await readdir(mailDir()).catch(() => [] as string[])).filter((name) => /^\d+\.eml$/.test(name));

/**
 * The code of a mail written after `sentBefore` was read (a worker restarted after a failure forgets
 * the codes it used; the mails of earlier tests and runs stay in the outbox).
 */
async function consoleCodeFor(email: string, sentBefore: ReadonlySet<string>): Promise<string> {
  const dir = mailDir();
  let code: string | null = null;
  await expect
    .poll(
      async () => {
        const names = (await mailNames()).filter((name) => !sentBefore.has(name)).sort((a, b) => parseInt(b, 10) - parseInt(a, 10));
        for (const name of names) {
          const text = await readFile(join(dir, name), 'utf8');
          const found = text.includes(email) ? /^\s{4}(\d{6})\s*$/m.exec(text)?.[1] : undefined;
          if (found && !usedCodes.has(found)) return (code = found);
        }
        return null;
      },
      { timeout: 20_000 },
    )
    .not.toBeNull();
  usedCodes.add(code!);
  return code!;
}

export async function signIn(page: Page, email: string) {
  await page.goto(consoleUrl('/'));
  await page.getByLabel('Work e-mail').fill(email);
  const sentBefore = new Set(await mailNames());
  await page.getByRole('button', { name: 'E-mail me a code' }).click();
  await page.getByLabel('6-digit code').fill(await consoleCodeFor(email, sentBefore));
  await page.getByRole('button', { name: 'Sign in' }).click();
  // Signed in, or the console's own message says why not.
  await expect(page.getByRole('button', { name: 'Sign out' }).or(page.locator('.dp-field__error, [role=alert]'))).toBeVisible();
  await expect(page.locator('.dp-field__error, [role=alert]')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
  await expect(page.locator('.dc-app__user')).toHaveText(email);
}

export async function expectNoSeriousAxeViolations(page: Page) {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa']).analyze();
  const serious = results.violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
  expect(serious.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`)).toEqual([]);
}
