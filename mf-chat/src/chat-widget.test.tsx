// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { Provider } from 'react-redux';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ChatWidgetProps } from '@dealer/contracts/remote-modules';
import type { PublicSiteConfig } from '@dealer/contracts/site';
import { testSite } from '@dealer/contracts/testing/test-site';
import { createPlatformStore } from '@dealer/state/store';
import ChatWidget, { welcomeDelayMs } from './chat-widget';

const welcome = 'Hi! Questions about a car? Metro Toyota Parramatta can text you back.';
const closedKey = 'dealer:metro-toyota-parramatta:chat-welcome-closed';

function renderWidget(props: ChatWidgetProps, site: PublicSiteConfig = testSite()) {
  render(
    <Provider store={createPlatformStore(site)}>
      <ChatWidget {...props} />
    </Provider>,
  );
}

const textUs = () => screen.getByRole('button', { name: 'Text us' });
const chatPanel = () => screen.queryByRole('region', { name: 'Chat with us' });

beforeEach(() => vi.stubGlobal('__REMOTE_VERSION__', '1.3.0-test'));
afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  localStorage.clear();
  document.body.innerHTML = '';
});

describe('the chat widget from a shell that has no launcher of its own (no openOnStart)', () => {
  it('shows the welcome bubble 3 s after it is placed, and Text us opens and closes the built-in chat', () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    renderWidget({ startedBy: 'timer' });
    act(() => vi.advanceTimersByTime(welcomeDelayMs - 1));
    expect(screen.queryByText(welcome)).toBeNull();
    act(() => vi.advanceTimersByTime(1));
    expect(screen.getByRole('status').textContent).toContain(welcome);
    expect(chatPanel()).toBeNull();

    fireEvent.click(textUs());
    expect(chatPanel()).not.toBeNull();
    expect(screen.queryByText(welcome)).toBeNull();
    expect(localStorage.getItem(closedKey)).toBe('1');
    fireEvent.click(textUs());
    expect(chatPanel()).toBeNull();
  });
});

describe('the chat widget the shell loads when the shopper pressed its Text us (openOnStart)', () => {
  it('opens the built-in chat at once, shows no bubble of its own, and remembers the bubble as closed', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    renderWidget({ startedBy: 'interaction', openOnStart: true });
    expect(chatPanel()).not.toBeNull();
    expect(textUs().getAttribute('aria-expanded')).toBe('true');
    expect(localStorage.getItem(closedKey)).toBe('1');

    act(() => vi.advanceTimersByTime(10 * welcomeDelayMs));
    expect(screen.queryByText(welcome)).toBeNull();
    vi.useRealTimers();
    expect(await screen.findByRole('form', { name: 'Start a chat' })).toBeTruthy();

    // Closing it and pressing Text us again works as it always has.
    fireEvent.click(screen.getByRole('button', { name: 'Close chat' }));
    expect(chatPanel()).toBeNull();
    expect(screen.queryByText(welcome)).toBeNull();
    fireEvent.click(textUs());
    expect(chatPanel()).not.toBeNull();
  });

  it('opens the site’s provider (Podium) once its script has loaded, not the built-in chat', async () => {
    const site = testSite({ third_party: { ...testSite().third_party, podium_api_organization: 'metro-podium' } });
    renderWidget({ startedBy: 'interaction', openOnStart: true }, site);
    const script = document.querySelector<HTMLScriptElement>('script[src^="https://connect.podium.com/widget.js"]');
    expect(script).not.toBeNull();
    expect(textUs().getAttribute('aria-busy')).toBe('true');

    const podium = { open: vi.fn(), show: vi.fn(), hide: vi.fn() };
    vi.stubGlobal('PodiumWebChat', podium);
    await act(async () => {
      script!.dispatchEvent(new Event('load'));
    });
    await vi.waitFor(() => expect(podium.open).toHaveBeenCalledTimes(1));
    expect(chatPanel()).toBeNull();
    expect(document.querySelectorAll('script[src^="https://connect.podium.com/widget.js"]')).toHaveLength(1);
    expect(localStorage.getItem(closedKey)).toBe('1');
  });
});
