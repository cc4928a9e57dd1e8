import type { Page } from '@playwright/test';

// What the result cards say, read as written (textContent): cards past the first screenful are laid
// out and painted only as they come near it (content-visibility, mf-search's search-page.css), and
// the innerText of a card not yet drawn is empty, though a shopper scrolling to it reads it.

/** The car names on the result cards, in order. */
export const cardNames = async (page: Page) => (await page.locator('.vehicle-card__name').allTextContents()).map((name) => name.trim());

/** The prices on the result cards, in order (the price itself, not a struck-out earlier one). */
export const cardPrices = (page: Page) =>
  page
    .locator('.vehicle-card__price')
    .evaluateAll((prices) => prices.map((price) => Number((price.firstChild?.textContent ?? '').replace(/[^\d]/g, ''))));
