// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';

// The module's own arrival is what is tested: each case imports it afresh, with the form it would fetch stood in for.
async function arriveWithPage(html: string) {
  document.body.innerHTML = html;
  const form = vi.fn(() => ({ default: () => null }));
  vi.resetModules();
  vi.doMock('./vehicle-lead-form', form);
  await import('./vehicle-lead-modal');
  // The form's import is started as the module runs, or not at all: wait for any started import to be done.
  await vi.dynamicImportSettled();
  return form;
}

describe('the vehicle page’s form buttons as their code arrives', () => {
  afterEach(() => {
    vi.doUnmock('./vehicle-lead-form');
    document.body.replaceChildren();
  });

  it('fetch the form at once when the shopper pressed one of them before the app ran', async () => {
    const form = await arriveWithPage(
      '<span class="vehicle-lead-modal__trigger"><button type="button" data-pressed-early="">Enquire now</button></span>',
    );
    expect(form).toHaveBeenCalledTimes(1);
  });

  it('leave the form until a shopper reaches for a button when none was pressed, or another button was', async () => {
    const form = await arriveWithPage(`
      <span class="vehicle-lead-modal__trigger"><button type="button">Enquire now</button></span>
      <button type="button" data-pressed-early="">♡ Save</button>`);
    expect(form).not.toHaveBeenCalled();
  });
});
