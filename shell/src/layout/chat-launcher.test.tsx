// @vitest-environment jsdom
import { act, type ComponentType } from 'react';
import { createRoot, hydrateRoot, type Root } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { Provider } from 'react-redux';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ChatWidgetProps } from '@dealer/contracts/remote-modules';
import type { PublicSiteConfig } from '@dealer/contracts/site';
import { testSite } from '@dealer/contracts/testing/test-site';
import { createPlatformStore } from '@dealer/state/store';
import { setConsent } from '../analytics/consent';
import { keepInteractionsBeforeHydration } from '../boot/before-hydration';
import { chatWelcomeClosedKey } from '@dealer/rules/chat';
import { showChatBubbleLater } from '../boot/chat-bubble';
import { enableSiteRemotes, forgetFailedRemote, loadRemoteModule } from '../federation/remote-runtime';
import { renderApp } from '../render-app.server';
import { ChatLauncher } from './chat-launcher';

vi.mock('../federation/remote-runtime', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../federation/remote-runtime')>()),
  loadRemoteModule: vi.fn(),
  forgetFailedRemote: vi.fn(),
}));

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const chatRemote = {
  name: 'mf-chat' as const,
  version: '1.3.0',
  manifestUrl: 'https://remotes.example.com/mf-chat/1.3.0/mf-manifest.json',
  entryUrl: 'https://remotes.example.com/mf-chat/1.3.0/remoteEntry.js',
};
const withChat = (overrides: Partial<PublicSiteConfig> = {}) => testSite({ remotes: [chatRemote], ...overrides });

/** The launcher in the markup the server sends, for `pathname` (the site's remotes on, as renderApp does). */
function serverMarkup(site: PublicSiteConfig, pathname = '/') {
  enableSiteRemotes(site);
  return renderToString(
    <Provider store={createPlatformStore(site)}>
      <ChatLauncher pathname={pathname} />
    </Provider>,
  );
}

const launchers = () => [...document.querySelectorAll<HTMLButtonElement>('button')].filter((button) => button.textContent === 'Text us');
const shellLauncher = () => document.querySelector<HTMLButtonElement>('[data-chat-launcher] .chat-widget__launcher');
const bubble = () => document.querySelector<HTMLElement>('[data-chat-bubble]');

/** mf-chat's widget as the loader hands it over: its own launcher, and the props it was given. */
const widgetProps: ChatWidgetProps[] = [];
function FakeChatWidget(props: ChatWidgetProps) {
  widgetProps.push(props);
  return (
    <div className="chat-widget" data-remote-version="1.3.0-test">
      <button type="button" className="dp-button dp-button--primary chat-widget__launcher">
        Text us
      </button>
    </div>
  );
}

/** loadRemoteModule's answers, one per press, settled when the test says. */
function loads() {
  const pending: { resolve: (module: { default: ComponentType<ChatWidgetProps> }) => void; reject: (error: Error) => void }[] = [];
  vi.mocked(loadRemoteModule).mockImplementation(() => new Promise((resolve, reject) => pending.push({ resolve, reject } as never)));
  return pending;
}

let root: Root | null = null;
let stopBubble: (() => void) | null = null;
beforeEach(() => {
  vi.mocked(loadRemoteModule).mockReset();
  vi.mocked(forgetFailedRemote).mockReset();
  widgetProps.length = 0;
});
afterEach(() => {
  vi.useRealTimers();
  act(() => root?.unmount());
  root = null;
  stopBubble?.();
  stopBubble = null;
  vi.restoreAllMocks();
  localStorage.clear();
  document.body.innerHTML = '';
});

/** A server-rendered page: the markup in a `data-ssr` root, with the document's first script running. */
function serverPage(site: PublicSiteConfig) {
  const container = document.createElement('div');
  container.id = 'root';
  container.setAttribute('data-ssr', '');
  container.innerHTML = serverMarkup(site);
  document.body.append(container);
  keepInteractionsBeforeHydration(container);
  stopBubble = showChatBubbleLater();
  return container;
}

const app = (site: PublicSiteConfig) => (
  <Provider store={createPlatformStore(site)}>
    <ChatLauncher pathname="/" />
  </Provider>
);

describe('the chat launcher the server renders', () => {
  it('is Text us and the welcome bubble, hidden, as markup: the site’s name in the bubble, its slug on the container', () => {
    const page = new DOMParser().parseFromString(serverMarkup(withChat()), 'text/html');
    const container = page.querySelector('[data-chat-launcher]')!;
    expect(container.className).toBe('chat-widget');
    expect(container.getAttribute('data-site')).toBe('metro-toyota-parramatta');

    const shown = container.querySelector<HTMLElement>('[data-chat-bubble]')!;
    expect(shown.className).toBe('chat-widget__bubble');
    expect(shown.getAttribute('role')).toBe('status');
    expect(shown.hidden).toBe(true);
    expect(shown.querySelector('p')!.textContent).toBe('Hi! Questions about a car? Metro Toyota Parramatta can text you back.');
    const close = shown.querySelector('[data-chat-bubble-close]')!;
    expect(close.outerHTML).toBe(
      '<button type="button" class="chat-widget__close" aria-label="Close message" data-chat-bubble-close="">×</button>',
    );

    const button = container.querySelector('.chat-widget__launcher')!;
    expect(button.outerHTML).toBe('<button type="button" class="dp-button dp-button--primary chat-widget__launcher">Text us</button>');
  });

  it('is in the page the server renders for the site', async () => {
    const site = withChat();
    const { html } = await renderApp({ site, url: 'https://www.metrotoyota.example.com.au/about', hero: null });
    expect(html).toContain('data-chat-launcher="" data-site="metro-toyota-parramatta"');
    expect(html).toContain('<button type="button" class="dp-button dp-button--primary chat-widget__launcher">Text us</button>');
  });

  it('is not there where SPEC §2 hides chat, nor on a site without mf-chat', () => {
    expect(serverMarkup(withChat(), '/careers')).toBe('');
    expect(serverMarkup(withChat(), '/about/current-positions')).toBe('');
    const hidesOnStock = withChat({ features: { ...testSite().features, hide_chat_on_stock_pages: true } });
    expect(serverMarkup(hidesOnStock, '/cars/2024-toyota-hilux-sr5')).toBe('');
    expect(serverMarkup(hidesOnStock, '/')).toContain('Text us');
    expect(serverMarkup(withChat(), '/cars/2024-toyota-hilux-sr5')).toContain('Text us');
    expect(serverMarkup(testSite({ remotes: [] }))).toBe('');
  });
});

describe('the chat launcher in the browser', () => {
  it('is adopted as it is, the bubble shown by the first script before the app started included', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout'] });
    const site = withChat();
    const container = serverPage(site);
    vi.advanceTimersByTime(3000);
    expect(bubble()!.hidden).toBe(false);
    vi.useRealTimers();

    const errors = vi.spyOn(console, 'error');
    const recoverable = vi.fn();
    await act(async () => {
      root = hydrateRoot(container, app(site), { onRecoverableError: recoverable });
    });
    expect(recoverable).not.toHaveBeenCalled();
    expect(errors).not.toHaveBeenCalled();
    expect(bubble()!.hidden).toBe(false);
    expect(loadRemoteModule).not.toHaveBeenCalled();
  });

  it('leaves the bubble the server wrote to the first script: closed before the app started, it stays closed (storage refused too)', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout'] });
    const site = withChat();
    const container = serverPage(site);
    vi.advanceTimersByTime(3000);
    vi.useRealTimers();
    vi.spyOn(Storage.prototype, 'getItem').mockImplementation(() => {
      throw new DOMException('denied', 'SecurityError');
    });
    vi.spyOn(Storage.prototype, 'setItem').mockImplementation(() => {
      throw new DOMException('denied', 'SecurityError');
    });
    document.querySelector<HTMLButtonElement>('[data-chat-bubble-close]')!.click();
    expect(bubble()!.hidden).toBe(true);

    vi.spyOn(performance, 'now').mockReturnValue(5000);
    await act(async () => {
      root = hydrateRoot(container, app(site));
    });
    expect(bubble()!.hidden).toBe(true);
  });

  it('loads the widget when Text us is pressed, busy meanwhile, then the widget’s launcher takes its place and the chat opens', async () => {
    const pending = loads();
    const site = withChat();
    const container = serverPage(site);
    await act(async () => {
      root = hydrateRoot(container, app(site));
    });

    shellLauncher()!.focus();
    await act(async () => shellLauncher()!.click());
    expect(loadRemoteModule).toHaveBeenCalledWith('mf-chat/ChatWidget');
    expect(shellLauncher()!.getAttribute('aria-busy')).toBe('true');
    expect(bubble()!.hidden).toBe(true);
    expect(localStorage.getItem(chatWelcomeClosedKey('metro-toyota-parramatta'))).toBe('1');
    // Pressed again while it loads: one load.
    await act(async () => shellLauncher()!.click());
    expect(loadRemoteModule).toHaveBeenCalledTimes(1);

    await act(async () => pending[0]!.resolve({ default: FakeChatWidget }));
    expect(launchers()).toHaveLength(1);
    expect(document.querySelector('[data-chat-launcher]')).toBeNull();
    expect(document.querySelector('[data-remote-version]')).not.toBeNull();
    expect(widgetProps.at(-1)).toEqual({ startedBy: 'interaction', thirdPartyAllowed: true, openOnStart: true });
    expect(document.activeElement).toBe(launchers()[0]);
  });

  it('tells the widget that third-party chat is allowed once the shopper accepts, on a site that asks', async () => {
    const pending = loads();
    const site = withChat({ consent_banner: true });
    const container = serverPage(site);
    await act(async () => {
      root = hydrateRoot(container, app(site));
    });
    await act(async () => shellLauncher()!.click());
    await act(async () => pending[0]!.resolve({ default: FakeChatWidget }));
    expect(widgetProps.at(-1)?.thirdPartyAllowed).toBe(false);

    await act(async () => setConsent('granted'));
    expect(widgetProps.at(-1)?.thirdPartyAllowed).toBe(true);
  });

  it('stays when the widget cannot be loaded, and the next press asks again', async () => {
    const pending = loads();
    const site = withChat();
    const container = serverPage(site);
    await act(async () => {
      root = hydrateRoot(container, app(site));
    });
    await act(async () => shellLauncher()!.click());
    await act(async () => pending[0]!.reject(new Error('network')));
    expect(forgetFailedRemote).toHaveBeenCalledWith('mf-chat/ChatWidget');
    expect(shellLauncher()!.hasAttribute('aria-busy')).toBe(false);
    expect(launchers()).toHaveLength(1);

    await act(async () => shellLauncher()!.click());
    expect(loadRemoteModule).toHaveBeenCalledTimes(2);
  });

  it('a press before the app started closes the bubble at once and, once the app has, loads the widget (the keeper hands the press over)', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout'] });
    loads();
    const site = withChat();
    const container = serverPage(site);
    shellLauncher()!.click();
    expect(localStorage.getItem(chatWelcomeClosedKey('metro-toyota-parramatta'))).toBe('1');

    await act(async () => {
      root = hydrateRoot(container, app(site));
    });
    expect(loadRemoteModule).not.toHaveBeenCalled();
    await act(async () => {
      vi.advanceTimersByTime(60);
    });
    expect(loadRemoteModule).toHaveBeenCalledWith('mf-chat/ChatWidget');
    expect(shellLauncher()!.getAttribute('aria-busy')).toBe('true');
    vi.advanceTimersByTime(3000);
    expect(bubble()!.hidden).toBe(true);
    vi.useRealTimers();
  });

  it('drawn by the browser after the bubble was due (a page without chat before it), shows the bubble at once unless it was closed before', async () => {
    vi.spyOn(performance, 'now').mockReturnValue(12_000);
    const site = withChat();
    const container = document.createElement('div');
    document.body.append(container);
    enableSiteRemotes(site);
    await act(async () => {
      root = createRoot(container);
      root.render(app(site));
    });
    expect(bubble()!.hidden).toBe(false);
    act(() => root?.unmount());

    localStorage.setItem(chatWelcomeClosedKey('metro-toyota-parramatta'), '1');
    await act(async () => {
      root = createRoot(container);
      root.render(app(site));
    });
    expect(bubble()!.hidden).toBe(true);
  });
});
