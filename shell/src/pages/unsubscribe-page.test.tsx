// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { Provider } from 'react-redux';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { testSite } from '@dealer/contracts/testing/test-site';
import { createPlatformStore } from '@dealer/state/store';
import { UnsubscribePage } from './unsubscribe-page';

const site = testSite();
const done = (email: string) => `Done: ${email} will get no more offers or alert e-mails from ${site.name}.`;

/** The unsubscribe API: answers each post with the next of `answers`, and records what the page sent. */
function stubApi(...answers: { status: number; body: unknown }[]) {
  const calls: { url: string; method: string; body: unknown }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      calls.push({ url, method: String(init.method), body: JSON.parse(String(init.body)) });
      const answer = answers.shift() ?? { status: 500, body: {} };
      return new Response(JSON.stringify(answer.body), { status: answer.status, headers: { 'Content-Type': 'application/json' } });
    }),
  );
  return calls;
}

const renderAt = (path: string) =>
  render(
    <Provider store={createPlatformStore(site)}>
      <MemoryRouter initialEntries={[path]}>
        <UnsubscribePage />
      </MemoryRouter>
    </Provider>,
  );

const press = async (name: string) => {
  await act(async () => {
    fireEvent.click(screen.getByRole('button', { name }));
  });
};
const typeEmail = (value: string) => fireEvent.change(screen.getByLabelText('Email'), { target: { value } });

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the /unsubscribe page', () => {
  it('takes an address and shows the server’s answer as a status', async () => {
    const calls = stubApi({ status: 200, body: { message: done('jo@example.com') } });
    renderAt('/unsubscribe');
    expect(screen.getByRole('heading', { level: 1, name: 'Unsubscribe' })).toBeTruthy();
    typeEmail('jo@example.com');
    await press('Unsubscribe');
    expect(calls).toEqual([{ url: '/api/unsubscribe', method: 'POST', body: { email: 'jo@example.com' } }]);
    expect(screen.getByRole('status').textContent).toBe(done('jo@example.com'));
    expect(screen.queryByLabelText('Email')).toBeNull();
  });

  it('shows a refused address’s message beside the field', async () => {
    const message = 'Enter an e-mail address like name@example.com.';
    stubApi({ status: 400, body: { message, fields: { email: message } } });
    renderAt('/unsubscribe');
    typeEmail('jo');
    await press('Unsubscribe');
    const input = screen.getByLabelText('Email');
    expect(input.getAttribute('aria-invalid')).toBe('true');
    const described = document.getElementById(input.getAttribute('aria-describedby') ?? '');
    expect(described?.textContent).toBe(message);
    expect(screen.getByRole('status').textContent).toBe('');
  });

  it('says why when the server cannot be reached or refuses for another reason', async () => {
    stubApi({ status: 429, body: { message: 'Too many tries from your connection. Please try again in 1 minute.' } });
    renderAt('/unsubscribe');
    typeEmail('jo@example.com');
    await press('Unsubscribe');
    expect(screen.getByRole('alert').textContent).toBe('Too many tries from your connection. Please try again in 1 minute.');
    expect(screen.getByLabelText('Email').getAttribute('aria-invalid')).toBeNull();
  });

  it('with the link of an e-mail, asks first and unsubscribes only when the button is pressed', async () => {
    const calls = stubApi({ status: 200, body: { message: done('jo@example.com') } });
    window.history.replaceState(null, '', '/unsubscribe?t=abc.def');
    renderAt('/unsubscribe?t=abc.def');
    // The token (it names the shopper) leaves the address bar at once, before any page view is counted.
    expect(window.location.search).toBe('');
    expect(screen.getByText(`Stop offers and alert e-mails from ${site.name}?`)).toBeTruthy();
    expect(screen.queryByLabelText('Email')).toBeNull();
    // Opening the link (a mail scanner does) records nothing.
    expect(calls).toEqual([]);
    await press('Yes, unsubscribe');
    expect(calls).toEqual([{ url: '/api/unsubscribe/confirm', method: 'POST', body: { token: 'abc.def' } }]);
    expect(screen.getByRole('status').textContent).toBe(done('jo@example.com'));
    expect(screen.queryByRole('button', { name: 'Yes, unsubscribe' })).toBeNull();
  });

  it('offers the address form when the link does not work', async () => {
    const broken = 'This unsubscribe link does not work here.';
    stubApi({ status: 400, body: { message: broken, fields: { token: broken } } });
    renderAt('/unsubscribe?t=broken');
    await press('Yes, unsubscribe');
    expect(screen.getByRole('alert').textContent).toBe(broken);
    expect(screen.getByLabelText('Email')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Yes, unsubscribe' })).toBeNull();
  });
});
