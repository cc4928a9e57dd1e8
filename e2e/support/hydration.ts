import type { Page } from '@playwright/test';

/**
 * The shopper starts using a server-rendered page (a turn of the mouse wheel: a scroll), which is
 * what starts its app (shell/src/boot/app-trigger.ts), and React has taken the page over.
 */
export async function usedAndHydrated(page: Page) {
  await page.mouse.wheel(0, 1);
  await hydrated(page);
}

/** React has taken the server's page over (its root container is React's). */
export const hydrated = (page: Page) =>
  page.waitForFunction(() => Object.keys(document.getElementById('root') ?? {}).some((key) => key.startsWith('__reactContainer$')));
