// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import { Provider } from 'react-redux';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { LeadFormPageProps } from '@dealer/contracts/remote-modules';
import { testSite } from '@dealer/contracts/testing/test-site';
import { createPlatformStore } from '@dealer/state/store';
import LeadFormPage from './lead-form-page';

const site = testSite();

function renderPage(props: LeadFormPageProps) {
  document.title = 'About us | Test Motors';
  return render(
    <Provider store={createPlatformStore(site)}>
      <MemoryRouter initialEntries={['/careers']}>
        <LeadFormPage {...props} />
      </MemoryRouter>
    </Provider>,
  );
}

// What each remote's build defines (its version, shown on its forms).
beforeEach(() => vi.stubGlobal('__REMOTE_VERSION__', '1.0.0-test'));
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('an enquiry form page', () => {
  it('is a page of its own: its name is the h1 and the document’s title', () => {
    renderPage({ form: 'careers' });
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Careers');
    expect(document.title).toBe(`Careers | ${site.name}`);
  });

  it('placed in a dealer’s page, names itself in an h2 and leaves the page its h1 and title', () => {
    renderPage({ form: 'careers', embedded: 'heading' });
    expect(screen.queryByRole('heading', { level: 1 })).toBeNull();
    expect(screen.getAllByRole('heading', { level: 2 }).map((heading) => heading.textContent)).toContain('Careers');
    expect(document.title).toBe('About us | Test Motors');
  });

  it('under a block’s own heading, shows none of its own', () => {
    renderPage({ form: 'contact', embedded: 'no-heading' });
    expect(screen.queryByRole('heading', { level: 1 })).toBeNull();
    expect(screen.queryByRole('heading', { name: 'Contact us' })).toBeNull();
    expect(document.title).toBe('About us | Test Motors');
  });
});
