import type { ChatProvider } from '@dealer/rules/chat';

/**
 * The chat providers' browser APIs as their snippets set them up: each adapter prepares what the
 * provider's script reads, loads the script once, and opens, hides or shows the provider's window.
 */
type ProviderWindow = Window & {
  __lc?: { license: number | string; group: number | string; integration_name?: string };
  LiveChatWidget?: { call(method: string, ...args: unknown[]): void; on(event: string, callback: (data: unknown) => void): void };
  zE?: (...args: unknown[]) => void;
  PodiumWebChat?: { open?: () => void; hide?: () => void; show?: () => void };
  ImpelChat?: { open?: () => void; hide?: () => void; show?: () => void };
};

export type ProviderStatus = 'idle' | 'loading' | 'ready' | 'failed';

type Adapter = {
  /** What the provider's script reads before it loads. */
  prepare(win: ProviderWindow, attributes: Record<string, string>): void;
  /** Whether the provider's API is there to be called. */
  ready(win: ProviderWindow): boolean;
  open(win: ProviderWindow): void;
  setVisible(win: ProviderWindow, visible: boolean): void;
  /** Tells about each message the shopper sends, where the provider's API reports it. */
  onShopperMessage?(win: ProviderWindow, listener: () => void): void;
};

const adapters: { [K in ChatProvider['kind']]: (provider: Extract<ChatProvider, { kind: K }>) => Adapter } = {
  podium: (provider) => ({
    prepare(_win, attributes) {
      attributes.id = 'podium-widget';
      attributes['data-organization-api-token'] = provider.organization;
    },
    ready: (win) => typeof win.PodiumWebChat?.open === 'function',
    open: (win) => win.PodiumWebChat?.open?.(),
    setVisible: (win, visible) => (visible ? win.PodiumWebChat?.show?.() : win.PodiumWebChat?.hide?.()),
  }),
  livechat: (provider) => ({
    prepare(win) {
      win.__lc = { ...win.__lc, license: provider.license, group: provider.group, integration_name: 'dealer-platform' };
    },
    ready: (win) => typeof win.LiveChatWidget?.call === 'function',
    open: (win) => win.LiveChatWidget?.call('maximize'),
    setVisible: (win, visible) => win.LiveChatWidget?.call(visible ? 'minimize' : 'hide'),
    onShopperMessage(win, listener) {
      win.LiveChatWidget?.on('new_event', (event) => {
        const author = (event as { author?: { type?: string } } | null)?.author;
        if (author?.type === 'customer') listener();
      });
    },
  }),
  zendesk: () => ({
    prepare(_win, attributes) {
      attributes.id = 'ze-snippet';
    },
    ready: (win) => typeof win.zE === 'function',
    open: (win) => win.zE?.('messenger', 'open'),
    setVisible: (win, visible) => win.zE?.('messenger', visible ? 'show' : 'hide'),
  }),
  impel: (provider) => ({
    prepare(_win, attributes) {
      attributes.id = 'impel-chat';
      attributes['data-impel-key'] = provider.key;
    },
    ready: (win) => typeof win.ImpelChat?.open === 'function',
    open: (win) => win.ImpelChat?.open?.(),
    setVisible: (win, visible) => (visible ? win.ImpelChat?.show?.() : win.ImpelChat?.hide?.()),
  }),
};

const adapterOf = (provider: ChatProvider): Adapter => (adapters[provider.kind] as (p: ChatProvider) => Adapter)(provider);

/** How long a provider's script has to load and set up its API before the built-in chat stands in. */
export const providerLoadTimeoutMs = 10_000;

/** One load per page: the provider stays loaded while the shopper moves between pages. */
let loading: { src: string; done: Promise<boolean> } | null = null;

/**
 * Loads the provider's script (once) and resolves true when its API is ready, false when the
 * script failed or its API did not appear in time: then the built-in chat takes the shopper's message.
 */
export function loadProvider(provider: ChatProvider): Promise<boolean> {
  if (loading?.src === provider.src) return loading.done;
  const win = window as ProviderWindow;
  const adapter = adapterOf(provider);
  const done = new Promise<boolean>((resolve) => {
    if (adapter.ready(win)) return resolve(true);
    const attributes: Record<string, string> = {};
    adapter.prepare(win, attributes);
    const script = document.createElement('script');
    script.async = true;
    script.src = provider.src;
    for (const [name, value] of Object.entries(attributes)) script.setAttribute(name, value);
    const started = Date.now();
    const waitForApi = () => {
      if (adapter.ready(win)) return resolve(true);
      if (Date.now() - started > providerLoadTimeoutMs) return resolve(false);
      setTimeout(waitForApi, 100);
    };
    script.addEventListener('load', waitForApi);
    script.addEventListener('error', () => resolve(false));
    document.body.appendChild(script);
  });
  loading = { src: provider.src, done };
  return done;
}

export const openProvider = (provider: ChatProvider) => adapterOf(provider).open(window as ProviderWindow);

/** The provider's own window and launcher follow the page's rule (hidden on careers pages and, per site, on stock pages). */
export const setProviderVisible = (provider: ChatProvider, visible: boolean) =>
  adapterOf(provider).setVisible(window as ProviderWindow, visible);

export function onProviderShopperMessage(provider: ChatProvider, listener: () => void) {
  adapterOf(provider).onShopperMessage?.(window as ProviderWindow, listener);
}
