// @vitest-environment jsdom
import type { ReactElement } from 'react';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { EnquiryFormProps, ReserveButtonProps, VehicleContext } from '@dealer/contracts/remote-modules';
import type { PublicSiteConfig } from '@dealer/contracts/site';
import { NamedSlot, NamedSlotContext } from '@dealer/ui/remote-slot';
import { RemoteModule, renderNamedSlot } from './remote-module';
import { loadRemoteModule, remoteLoadTimeoutMs, startRemoteRuntime } from './remote-runtime';
import { RemoteLoadError } from './remote-load-error';

const federation = vi.hoisted(() => ({
  init: vi.fn(),
  loadRemote: vi.fn<(id: string) => Promise<unknown>>(),
  registerRemotes: vi.fn(),
}));
const reports = vi.hoisted(() => ({ reportRemoteFailure: vi.fn() }));

vi.mock('@module-federation/enhanced/runtime', () => federation);
vi.mock('@module-federation/runtime/core', () => ({ name: 'runtime-core' }));
vi.mock('@module-federation/retry-plugin', () => ({ RetryPlugin: vi.fn(() => ({ name: 'retry-plugin' })) }));
vi.mock('./report-failure', () => reports);

const { loadRemote, registerRemotes } = federation;
const { reportRemoteFailure } = reports;

const leadsManifest = 'https://remotes.example.com/mf-leads/1.5.1/mf-manifest.json';
const checkoutManifest = 'https://remotes.example.com/mf-checkout/1.3.0/mf-manifest.json';
const vehicleManifest = 'https://remotes.example.com/mf-vehicle/1.4.0/mf-manifest.json';
/** The remote entry beside a manifest: what the runtime loads. */
const entryOf = (manifest: string) => manifest.replace('mf-manifest.json', 'remoteEntry.js');

type Remotes = Pick<PublicSiteConfig, 'remotes'>;
/** A dealer with the leads remote on and checkout switched off. */
const leadsOnly: Remotes = {
  remotes: [{ name: 'mf-leads', version: '1.5.1', manifestUrl: leadsManifest, entryUrl: entryOf(leadsManifest) }],
};

/** The enquiry form as mf-leads would expose it: it shows the props the shell hands it. */
function EnquiryForm({ carId, title }: EnquiryFormProps) {
  return <h2>{`${title} for car ${carId}`}</h2>;
}
const enquiryProps: EnquiryFormProps = { carId: 55123, title: 'Ask about this car' };

/** A promise the test settles when it chooses. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** Renders like the shell's root does, recording what the boundary caught instead of logging it. */
function renderPage(ui: ReactElement) {
  const caught: unknown[] = [];
  const view = render(ui, { onCaughtError: (error) => void caught.push(error) });
  return { ...view, caught };
}

const fullFallback = 'This part of the page could not be loaded right now.';
const compactFallback = 'This section is unavailable.';

beforeEach(() => {
  startRemoteRuntime(leadsOnly);
  loadRemote.mockReset();
  registerRemotes.mockReset();
  federation.init.mockReset();
  reportRemoteFailure.mockReset();
});

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('a remote the dealer switched off', () => {
  it('renders nothing in its place and is never requested', () => {
    const { container } = renderPage(
      <RemoteModule module="mf-checkout/CheckoutPage" props={{ slug: '2021-toyota-hilux-sr5' }} loading={<p>Loading checkout</p>} />,
    );
    expect(container.innerHTML).toBe('');
    expect(loadRemote).not.toHaveBeenCalled();
  });
});

describe('a remote that loads', () => {
  it('starts the federation runtime only with the first remote loaded: the site’s remotes at the pinned manifests, the shell’s singletons, retries then failure logging', async () => {
    startRemoteRuntime({
      remotes: [
        ...leadsOnly.remotes,
        { name: 'mf-checkout', version: '1.3.0', manifestUrl: checkoutManifest, entryUrl: entryOf(checkoutManifest) },
      ],
    });
    expect(federation.init).not.toHaveBeenCalled();
    loadRemote.mockResolvedValue({ default: EnquiryForm });
    await loadRemoteModule('mf-leads/EnquiryForm');
    await loadRemoteModule('mf-leads/EnquiryForm');
    expect(federation.init).toHaveBeenCalledTimes(1);
    const options = federation.init.mock.calls[0]?.[0];
    expect(options.remotes).toEqual([
      { name: 'mf_leads', entry: entryOf(leadsManifest) },
      { name: 'mf_checkout', entry: entryOf(checkoutManifest) },
    ]);
    expect(options.plugins.map((plugin: { name: string }) => plugin.name)).toEqual(['retry-plugin', 'dealer-error-load']);
    expect(options.shareStrategy).toBe('loaded-first');
    const react = await import('react');
    expect(options.shared.react.lib()).toBe(react);
    expect(options.shared['@dealer/state/store'].shareConfig).toMatchObject({ singleton: true, strictVersion: true });
    expect((globalThis as { _FEDERATION_RUNTIME_CORE?: unknown })._FEDERATION_RUNTIME_CORE).toMatchObject({ name: 'runtime-core' });
  });

  it('shows the loading placeholder first, then the remote’s component with the props the page passed', async () => {
    const load = deferred<{ default: typeof EnquiryForm }>();
    loadRemote.mockReturnValueOnce(load.promise);
    renderPage(<RemoteModule module="mf-leads/EnquiryForm" props={enquiryProps} loading={<p>Loading the enquiry form</p>} />);

    expect(screen.getByText('Loading the enquiry form')).toBeTruthy();
    await waitFor(() => expect(loadRemote).toHaveBeenCalledWith('mf_leads/EnquiryForm'));

    await act(async () => load.resolve({ default: EnquiryForm }));
    expect(await screen.findByRole('heading', { name: 'Ask about this car for car 55123' })).toBeTruthy();
    expect(screen.queryByText('Loading the enquiry form')).toBeNull();
    expect(loadRemote).toHaveBeenCalledTimes(1);
  });

  it('shows a spinner while loading when the page gives no placeholder', () => {
    loadRemote.mockReturnValueOnce(new Promise(() => undefined));
    renderPage(<RemoteModule module="mf-leads/EnquiryForm" props={enquiryProps} />);
    expect(screen.getByRole('status').textContent).toBe('Loading');
  });
});

describe('a remote that cannot be fetched', () => {
  it.each([
    [false, fullFallback],
    [true, compactFallback],
  ])('shows the fallback with Try again (compact: %s) and Try again fetches it afresh', async (compact, message) => {
    loadRemote.mockRejectedValueOnce(new TypeError('Failed to fetch')).mockResolvedValueOnce({ default: EnquiryForm });
    const { caught } = renderPage(
      <RemoteModule module="mf-leads/EnquiryForm" props={enquiryProps} compact={compact} loading={<p>Loading the enquiry form</p>} />,
    );

    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain(message);
    expect(screen.queryByRole('heading')).toBeNull();
    expect(caught).toHaveLength(1);
    expect(caught[0]).toBeInstanceOf(RemoteLoadError);
    expect(caught[0]).toMatchObject({ reason: 'network', remote: 'mf-leads', module: 'mf-leads/EnquiryForm' });
    // The runtime plugin reports fetch failures; the boundary must not add a second report.
    expect(reportRemoteFailure).not.toHaveBeenCalled();
    expect(registerRemotes).not.toHaveBeenCalled();

    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));

    await waitFor(() => expect(registerRemotes).toHaveBeenCalledTimes(1));
    expect(registerRemotes).toHaveBeenCalledWith([{ name: 'mf_leads', entry: entryOf(leadsManifest) }], { force: true });
    expect(await screen.findByRole('heading', { name: 'Ask about this car for car 55123' })).toBeTruthy();
    expect(loadRemote).toHaveBeenCalledTimes(2);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('keeps the fallback when the second try fails too', async () => {
    loadRemote.mockRejectedValue(new TypeError('Failed to fetch'));
    renderPage(<RemoteModule module="mf-leads/EnquiryForm" props={enquiryProps} />);
    await screen.findByRole('alert');
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect((await screen.findByRole('alert')).textContent).toContain(fullFallback);
    expect(loadRemote).toHaveBeenCalledTimes(2);
  });
});

describe('a remote that never answers', () => {
  it(`shows the fallback after ${remoteLoadTimeoutMs} ms and is reported once, as a timeout`, async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    loadRemote.mockReturnValue(new Promise(() => undefined));
    const { caught } = renderPage(
      <RemoteModule module="mf-leads/EnquiryForm" props={enquiryProps} loading={<p>Loading the enquiry form</p>} />,
    );

    await act(() => vi.advanceTimersByTimeAsync(remoteLoadTimeoutMs - 1));
    expect(screen.getByText('Loading the enquiry form')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();

    await act(() => vi.advanceTimersByTimeAsync(1));
    expect(screen.getByRole('alert').textContent).toContain(fullFallback);
    expect(screen.queryByText('Loading the enquiry form')).toBeNull();

    expect(caught).toHaveLength(1);
    expect(caught[0]).toBeInstanceOf(RemoteLoadError);
    expect(caught[0]).toMatchObject({ name: 'RemoteLoadError', reason: 'timeout', remote: 'mf-leads' });
    // Reported by the runtime where it timed out, and not a second time by the boundary.
    expect(reportRemoteFailure).toHaveBeenCalledTimes(1);
    expect(reportRemoteFailure).toHaveBeenCalledWith('mf-leads', 'mf-leads/EnquiryForm', 'mf-leads/EnquiryForm did not load in time');
  });

  it('rejects loadRemoteModule with a RemoteLoadError whose reason is timeout', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    loadRemote.mockReturnValue(new Promise(() => undefined));
    const loading = loadRemoteModule('mf-leads/EnquiryForm');
    const outcome = expect(loading).rejects.toSatisfy((error) => error instanceof RemoteLoadError && error.reason === 'timeout');
    await vi.advanceTimersByTimeAsync(remoteLoadTimeoutMs);
    await outcome;
  });

  it('does not time out a remote that answered in time', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    loadRemote.mockResolvedValue({ default: EnquiryForm });
    await expect(loadRemoteModule('mf-leads/EnquiryForm')).resolves.toEqual({ default: EnquiryForm });
    await vi.advanceTimersByTimeAsync(remoteLoadTimeoutMs * 2);
    expect(reportRemoteFailure).not.toHaveBeenCalled();
  });
});

describe('a remote that loads but breaks', () => {
  it('shows the fallback when its component throws while rendering, and the boundary reports it', async () => {
    function BrokenForm(): never {
      throw new TypeError("Cannot read properties of undefined (reading 'price')");
    }
    loadRemote.mockResolvedValueOnce({ default: BrokenForm });
    const { caught } = renderPage(<RemoteModule module="mf-leads/EnquiryForm" props={enquiryProps} />);

    expect((await screen.findByRole('alert')).textContent).toContain(fullFallback);
    expect(caught).toHaveLength(1);
    expect(caught[0]).not.toBeInstanceOf(RemoteLoadError);
    expect(reportRemoteFailure).toHaveBeenCalledTimes(1);
    expect(reportRemoteFailure).toHaveBeenCalledWith(
      'mf-leads',
      'mf-leads/EnquiryForm',
      "Cannot read properties of undefined (reading 'price')",
    );
  });

  it('fails with reason empty when the remote hands back no module', async () => {
    loadRemote.mockResolvedValueOnce(undefined);
    const { caught } = renderPage(<RemoteModule module="mf-leads/EnquiryForm" props={enquiryProps} />);

    expect((await screen.findByRole('alert')).textContent).toContain(fullFallback);
    expect(caught).toHaveLength(1);
    expect(caught[0]).toBeInstanceOf(RemoteLoadError);
    expect(caught[0]).toMatchObject({ reason: 'empty', module: 'mf-leads/EnquiryForm' });
    expect(reportRemoteFailure).toHaveBeenCalledTimes(1);
    expect(reportRemoteFailure).toHaveBeenCalledWith('mf-leads', 'mf-leads/EnquiryForm', 'mf-leads/EnquiryForm loaded empty');
  });
});

describe('named slots on the vehicle page', () => {
  const car: VehicleContext = {
    id: 55123,
    slug: '2021-toyota-hilux-sr5',
    name: '2021 Toyota HiLux SR5',
    make: 'Toyota',
    model: 'HiLux',
    year: 2021,
    car_type: 'used',
    stocknum: 'U12345',
    vin: 'MR0HA3CD100123456',
    price: 48990,
    tag: null,
    location_id: 101,
    dealership_slug: 'metro-toyota-parramatta',
    primary_image_url: 'https://images.example.com/55123/1.jpg',
  };

  function ReserveButton({ car: reserved, variant }: ReserveButtonProps) {
    return <button type="button" data-variant={variant}>{`Reserve ${reserved.name}`}</button>;
  }

  const vehicleActions = () => (
    <NamedSlotContext.Provider value={renderNamedSlot}>
      <NamedSlot name="vehicle.actions" car={car} variant="secondary" />
    </NamedSlotContext.Provider>
  );

  it('renders the checkout remote’s Reserve button with the car when the site’s checkout fills the slot', async () => {
    startRemoteRuntime({
      remotes: [
        { name: 'mf-vehicle', version: '1.4.0', manifestUrl: vehicleManifest, entryUrl: entryOf(vehicleManifest) },
        {
          name: 'mf-checkout',
          version: '1.3.0',
          manifestUrl: checkoutManifest,
          entryUrl: entryOf(checkoutManifest),
          slots: { 'vehicle.actions': ['ReserveButton'] },
        },
      ],
    });
    loadRemote.mockImplementation(async (id) => (id === 'mf_checkout/ReserveButton' ? { default: ReserveButton } : undefined));
    renderPage(vehicleActions());

    const button = await screen.findByRole('button', { name: 'Reserve 2021 Toyota HiLux SR5' });
    expect(button.dataset.variant).toBe('secondary');
    expect(loadRemote.mock.calls).toEqual([['mf_checkout/ReserveButton']]);
  });

  it('renders nothing when no remote of the site fills the slot', async () => {
    startRemoteRuntime({
      remotes: [
        { name: 'mf-vehicle', version: '1.4.0', manifestUrl: vehicleManifest, entryUrl: entryOf(vehicleManifest) },
        { name: 'mf-checkout', version: '1.3.0', manifestUrl: checkoutManifest, entryUrl: entryOf(checkoutManifest) },
      ],
    });
    const { container } = renderPage(vehicleActions());
    await act(async () => undefined);
    expect(container.innerHTML).toBe('');
    expect(loadRemote).not.toHaveBeenCalled();
  });
});
