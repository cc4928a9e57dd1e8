import { afterEach, describe, expect, it, vi } from 'vitest';
import { testSite } from '@dealer/contracts/testing/test-site';
import { renderApp } from '../render-app.server';

const site = testSite();

afterEach(() => vi.unstubAllGlobals());

describe('the /unsubscribe page rendered on the server', () => {
  it('is the whole page in the first response, asking before anything is recorded when opened from an e-mail', async () => {
    const fetch = vi.fn();
    vi.stubGlobal('fetch', fetch);
    const { html } = await renderApp({ site, url: `${site.url}/unsubscribe?t=abc.def`, hero: null });
    expect(html).toContain('<h1>Unsubscribe</h1>');
    expect(html).toContain(`Stop offers and alert e-mails from ${site.name}?`);
    expect(html).toContain('Yes, unsubscribe');
    expect(html).not.toContain('unsubscribe-email');
    expect(fetch).not.toHaveBeenCalled();
  });

  it('shows the address form without a link', async () => {
    const { html } = await renderApp({ site, url: `${site.url}/unsubscribe`, hero: null });
    expect(html).toContain('<label for="unsubscribe-email">Email</label>');
    expect(html).not.toContain('Yes, unsubscribe');
  });
});
