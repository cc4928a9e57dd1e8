// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AppErrorBoundary } from './app-error-boundary';

const site = { name: 'Metro Motor Group', phone: '(02) 5550 4241' };

function Broken(): never {
  throw new Error('the header broke');
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('when the shell itself breaks', () => {
  it('shows the dealer’s name, a reload and the number to call instead of a blank page, and logs the crash', () => {
    const fetch = vi.fn(() => Promise.resolve(new Response(null, { status: 202 })));
    vi.stubGlobal('fetch', fetch);
    render(
      <AppErrorBoundary site={site}>
        <Broken />
      </AppErrorBoundary>,
      { onCaughtError: () => undefined },
    );
    expect(screen.getByRole('heading', { level: 1, name: 'Metro Motor Group' })).toBeTruthy();
    expect(screen.getByText('Sorry, this page could not be shown.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Reload the page' })).toBeTruthy();
    expect(screen.getByRole('link', { name: '(02) 5550 4241' }).getAttribute('href')).toBe('tel:0255504241');
    expect(fetch).toHaveBeenCalledTimes(1);
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/events');
    expect(JSON.parse(String(init.body))).toMatchObject({ category: 'app_error', error_message: 'Error: the header broke' });
  });

  it('shows the page itself when nothing breaks', () => {
    render(
      <AppErrorBoundary site={site}>
        <h1>Latest stock</h1>
      </AppErrorBoundary>,
    );
    expect(screen.getByRole('heading', { level: 1, name: 'Latest stock' })).toBeTruthy();
    expect(screen.queryByText('Sorry, this page could not be shown.')).toBeNull();
  });
});
