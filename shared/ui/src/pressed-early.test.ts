// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { pressedEarlyAttribute, pressedEarlyWithin } from './pressed-early';

describe('a press the page kept before the app ran', () => {
  afterEach(() => document.body.replaceChildren());

  it('is found inside the part that asks, and only while the page still holds it', () => {
    document.body.innerHTML = `
      <span class="vehicle-lead-modal__trigger"><button type="button">Enquire now</button></span>
      <span class="favourite"><button type="button" ${pressedEarlyAttribute}>Save</button></span>`;
    expect(pressedEarlyWithin('.vehicle-lead-modal__trigger')).toBe(false);
    expect(pressedEarlyWithin('.favourite')).toBe(true);
    const enquire = document.querySelector('.vehicle-lead-modal__trigger button')!;
    enquire.setAttribute(pressedEarlyAttribute, '');
    expect(pressedEarlyWithin('.vehicle-lead-modal__trigger')).toBe(true);
    // Handed to React: the shell takes the mark off.
    enquire.removeAttribute(pressedEarlyAttribute);
    expect(pressedEarlyWithin('.vehicle-lead-modal__trigger')).toBe(false);
  });
});
