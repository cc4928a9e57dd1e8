// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CheckoutPageProps, EnquiryFormProps } from '@dealer/contracts/remote-modules';
import { RemoteModule } from './remote-module';
import { startRemoteRuntime } from './remote-runtime';
import { loadServerRenderedModules, ServerRenderedContext } from './server-rendered';

const federation = vi.hoisted(() => ({
  init: vi.fn(),
  loadRemote: vi.fn<(id: string) => Promise<unknown>>(),
  registerRemotes: vi.fn(),
}));

vi.mock('@module-federation/enhanced/runtime', () => federation);
vi.mock('@module-federation/runtime/core', () => ({ name: 'runtime-core' }));
vi.mock('@module-federation/retry-plugin', () => ({ RetryPlugin: vi.fn(() => ({ name: 'retry-plugin' })) }));
vi.mock('./report-failure', () => ({ reportRemoteFailure: vi.fn() }));

const { loadRemote } = federation;

const manifest = (remote: string) => `https://remotes.example.com/${remote}/1.0.0/mf-manifest.json`;
const remote = (name: 'mf-leads' | 'mf-checkout') => ({
  name,
  version: '1.0.0',
  manifestUrl: manifest(name),
  entryUrl: manifest(name).replace('mf-manifest.json', 'remoteEntry.js'),
});

/** A promise the test resolves when it chooses. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((res) => (resolve = res));
  return { promise, resolve };
}

function EnquiryForm({ carId, title }: EnquiryFormProps) {
  return <h2>{`${title} for car ${carId}`}</h2>;
}

function CheckoutPage({ slug }: CheckoutPageProps) {
  return <h1>{`Reserve ${slug}`}</h1>;
}

beforeEach(() => {
  startRemoteRuntime({ remotes: [remote('mf-leads'), remote('mf-checkout')] });
  loadRemote.mockReset();
});

afterEach(cleanup);

describe('the remote modules a server-rendered page holds, as the app starts', () => {
  it('asks for every one of them at once, and hydrating one uses the code already asked for', async () => {
    const enquiry = deferred<unknown>();
    const reserve = deferred<unknown>();
    loadRemote.mockImplementation((id) => (id === 'mf_leads/EnquiryForm' ? enquiry.promise : reserve.promise));

    // Neither is rendered yet: a car page's buttons sit inside the route's module, which has not run.
    loadServerRenderedModules(['mf-leads/EnquiryForm', 'mf-checkout/ReserveButton']);
    await waitFor(() => expect(loadRemote.mock.calls).toEqual([['mf_leads/EnquiryForm'], ['mf_checkout/ReserveButton']]));

    render(
      <ServerRenderedContext.Provider value={{ modules: new Set(['mf-leads/EnquiryForm']) }}>
        <RemoteModule module="mf-leads/EnquiryForm" props={{ carId: 55123, title: 'Ask about this car' }} loading={<p>Loading</p>} />
      </ServerRenderedContext.Provider>,
    );
    await act(async () => enquiry.resolve({ default: EnquiryForm }));
    expect(await screen.findByRole('heading', { name: 'Ask about this car for car 55123' })).toBeTruthy();
    // Asked for once, as the app started, not again when hydration reached it.
    expect(loadRemote.mock.calls.filter(([id]) => id === 'mf_leads/EnquiryForm')).toHaveLength(1);
  });

  it('shows the fallback of a module whose early load failed after that one attempt, and Try again asks afresh', async () => {
    loadRemote.mockRejectedValueOnce(new TypeError('Failed to fetch')).mockResolvedValueOnce({ default: CheckoutPage });
    loadServerRenderedModules(['mf-checkout/CheckoutPage']);
    await waitFor(() => expect(loadRemote).toHaveBeenCalledTimes(1));

    render(
      <ServerRenderedContext.Provider value={{ modules: new Set(['mf-checkout/CheckoutPage']) }}>
        <RemoteModule module="mf-checkout/CheckoutPage" props={{ slug: '2021-toyota-hilux-sr5' }} loading={<p>Loading</p>} />
      </ServerRenderedContext.Provider>,
      { onCaughtError: () => undefined },
    );
    expect((await screen.findByRole('alert')).textContent).toContain('This part of the page could not be loaded right now.');
    expect(loadRemote).toHaveBeenCalledTimes(1);

    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { name: 'Reserve 2021-toyota-hilux-sr5' })).toBeTruthy();
    expect(loadRemote.mock.calls).toEqual([['mf_checkout/CheckoutPage'], ['mf_checkout/CheckoutPage']]);
  });
});
