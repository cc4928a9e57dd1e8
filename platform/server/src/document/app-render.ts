import { AsyncLocalStorage } from 'node:async_hooks';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire, isBuiltin } from 'node:module';
import { dirname, join } from 'node:path';
import { compileFunction } from 'node:vm';
import type { RemoteName } from '@dealer/contracts/remote-modules';
import type { PublicSiteConfig } from '@dealer/contracts/site';
import type { InProcessSearchAnswer, InProcessSearchRequest } from '../search/in-process-search';
import { KeptMarkupCache, type KeptMarkupScope } from './kept-markup-cache';
import { siteConfigVersion } from './site-config-url';

/** The hero the car page's placeholder shows (the shell's FirstPaintHero). */
export type AppHero = { slug: string; src: string; srcSet: string; sizes: string; alt: string };

/** A remote's server build's `modules` (@dealer/state/server-render ServerRemote), opaque to the platform. */
type ServerRemote = Record<string, unknown>;
type PlatformFetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;
type ShellRender = {
  renderApp: (input: {
    site: PublicSiteConfig;
    url: string;
    hero: AppHero | null;
    routeData: { content?: unknown; searchLanding?: unknown } | null;
    remotes: ServerRemote | null;
    budgetMs: number;
    onFallback: (module: string, reason: unknown) => void;
    keptMarkup?: KeptMarkupScope;
  }) => Promise<{ html: string; state: { modules: string[] } | null }>;
  sharedModules?: Record<string, unknown>;
  setPlatformFetch?: (fetchImpl: PlatformFetch) => void;
};
type Log = { warn: (details: object, message: string) => void };

/** An in-process request to the platform app (Fastify's `inject`). */
export type InjectRequest = {
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: Buffer;
  remoteAddress: string;
};
export type InjectAnswer = { statusCode: number; headers: Record<string, string | string[] | number | undefined>; rawPayload: Buffer };
export type Inject = (request: InjectRequest) => Promise<InjectAnswer>;

/** The page being rendered: whose site, asked for by whom. */
type RenderScope = { origin: string; ip: string };

/**
 * What the document gets: the app's markup, and what the browser hydrates its remote modules with.
 * `degraded`: a module was left to the browser this time (over budget, failed): not worth keeping.
 */
export type RenderedPage = {
  /**
   * The markup: text, or its UTF-8 bytes as a render thread sends it (moved across, not copied, and
   * written to the page as they are: the markup is two-byte text (the Save buttons' ♡), which crossing as a string
   * copied twice and turning into bytes for the compressor copied again, on the main thread).
   */
  html: string | Uint8Array;
  state: { modules: string[] } | null;
  degraded: boolean;
  /** The state already written as script JSON (a render thread writes it, so the main thread need not). */
  stateJson?: string;
};

/** The page's search answered with its body already JSON (what a render thread is sent), or as a value. */
type MultiSearchAnswer = InProcessSearchAnswer | (Omit<InProcessSearchAnswer, 'body'> & { json: string });

export type RenderPageInput = {
  site: PublicSiteConfig;
  /** The site's origin as the shopper asked for it; the page's data is fetched from it in process. */
  origin: string;
  /** Path and query. */
  url: string;
  hero: AppHero | null;
  /**
   * The site's remotes at the versions it runs: the route's, and those whose modules the page places
   * in its slots (the car page's lead buttons, Save and Reserve).
   */
  remotes: readonly { name: RemoteName; version: string }[];
  /** The shopper's address: the page's own API calls count against it, as the browser's would. */
  ip: string;
  /**
   * The page's own data the platform read for the document, rendered from as it is: a content page;
   * a search page's landing (null: the slug has none; absent: not looked up, the page asks).
   */
  routeData?: { content?: unknown; searchLanding?: unknown } | null;
};

/**
 * An answer whose body is text already in hand (the page's search, answered in process): a Response
 * whose reading methods give that text at once, without the body stream a Response wraps around it
 * (that stream and its reading cost ~80 µs of a page's render here; this ~15 µs). It may be read
 * more than once, and its `body` is null: the page's code reads answers as text or JSON.
 */
export class TextResponse extends Response {
  readonly #text: string;

  constructor(text: string, init: ResponseInit) {
    super(null, init);
    this.#text = text;
  }

  // Fields, not methods: the Response type declares its reading methods as properties.
  override readonly text = (): Promise<string> => Promise.resolve(this.#text);

  override readonly json = (): Promise<unknown> => new Promise((resolve) => resolve(JSON.parse(this.#text)));

  override readonly arrayBuffer = (): Promise<ArrayBuffer> => Promise.resolve(new TextEncoder().encode(this.#text).buffer as ArrayBuffer);

  override readonly blob = (): Promise<Blob> => Promise.resolve(new Blob([this.#text], { type: this.headers.get('content-type') ?? '' }));

  override readonly clone = (): TextResponse =>
    new TextResponse(this.#text, { status: this.status, statusText: this.statusText, headers: this.headers });
}

/** Published versions never change; a few hundred at most are worth keeping loaded. */
const maxLoadedRemotes = 200;

/**
 * The shell's server render (shell/dist/server/render-app.cjs, beside its browser build), loaded
 * once at run time: the platform does not import browser code, it runs the shell's own build of
 * it. Without that file (an old build), or when a render throws, the page is sent as before and the
 * browser renders it: a failed server render never costs the shopper the page.
 *
 * The route's remote renders too when the version the site runs published a server build
 * (`server/remote.cjs` in its version folder): evaluated with the shell render's React, router and
 * store as the modules it shares, its first data fetched from this app in process (`inject`). So do
 * the modules it places in slots, from their own remotes' server builds; a remote without one is
 * left to the browser there.
 */
export class AppRenderer {
  private shell: ShellRender | null | undefined;
  private readonly remotes = new Map<string, ServerRemote | null>();
  private readonly scope = new AsyncLocalStorage<RenderScope>();

  constructor(
    private readonly options: {
      shellClientDir: string;
      remotesDir: string;
      log: Log;
      inject?: Inject;
      /** `/meili/multi-search` answered without inject (the page's search: the same checks, count and answers). */
      multiSearch?: (request: InProcessSearchRequest) => Promise<MultiSearchAnswer>;
      /** How long the route's module may wait for its first data before the browser is left to it. */
      budgetMs?: number;
      /** What the parts pages repeat (cards, header, footer) may hold; 0: every page renders them all. */
      keptMarkupBytes?: number;
    },
  ) {
    const bytes = options.keptMarkupBytes ?? 16 * 1024 * 1024;
    this.keptMarkup = bytes > 0 ? new KeptMarkupCache(bytes) : null;
  }

  private readonly keptMarkup: KeptMarkupCache | null;

  private loadShell(): ShellRender | null {
    if (this.shell !== undefined) return this.shell;
    const file = join(this.options.shellClientDir, '..', 'server', 'render-app.cjs');
    this.shell = null;
    if (existsSync(file)) {
      try {
        const loaded = createRequire(file)(file) as Partial<ShellRender>;
        if (typeof loaded.renderApp === 'function') {
          this.shell = loaded as ShellRender;
          if (this.options.inject) this.shell.setPlatformFetch?.(this.inProcessFetch);
        }
      } catch (error) {
        this.options.log.warn({ err: error, file }, 'the shell server render could not be loaded; pages render in the browser');
      }
    }
    return this.shell;
  }

  /**
   * A remote version's server build, evaluated once. Its only imports are the modules the page
   * shares (React, router, store) and Node's own; anything else means it was built for another
   * shell, and the browser renders that remote instead.
   */
  private loadRemote(shell: ShellRender, remote: { name: RemoteName; version: string }): ServerRemote | null {
    const key = `${remote.name}@${remote.version}`;
    if (this.remotes.has(key)) return this.remotes.get(key) ?? null;
    const file = join(this.options.remotesDir, remote.name, remote.version, 'server', 'remote.cjs');
    let modules: ServerRemote | null = null;
    if (/^[\w.+-]+$/.test(remote.version) && existsSync(file) && shell.sharedModules) {
      const shared = shell.sharedModules;
      const nodeRequire = createRequire(file);
      const requireShared = (id: string) => {
        if (Object.hasOwn(shared, id)) return shared[id];
        if (isBuiltin(id)) return nodeRequire(id) as unknown;
        throw new Error(`${key} imports "${id}", which the shell's server render does not share`);
      };
      try {
        const module = { exports: {} as { modules?: ServerRemote } };
        const evaluate = compileFunction(readFileSync(file, 'utf8'), ['exports', 'require', 'module', '__filename', '__dirname'], {
          filename: file,
        });
        evaluate(module.exports, requireShared, module, file, dirname(file));
        modules = module.exports.modules && typeof module.exports.modules === 'object' ? module.exports.modules : null;
      } catch (error) {
        this.options.log.warn({ err: error, remote: key }, 'a remote server build could not be loaded; the browser renders that remote');
      }
    }
    if (this.remotes.size >= maxLoadedRemotes) this.remotes.delete(this.remotes.keys().next().value!);
    this.remotes.set(key, modules);
    return modules;
  }

  /**
   * The platform's own API for the page being rendered, answered in process: same routes, checks
   * and limits as over HTTP (counted against the shopper's address). Any other address (a hosted
   * Meilisearch) is fetched over the network.
   */
  private readonly inProcessFetch: PlatformFetch = async (input, init) => {
    const scope = this.scope.getStore();
    const search = scope && this.multiSearchOf(scope, input, init);
    if (search) return search;
    const request = input instanceof Request ? input : new Request(input, init);
    const url = new URL(request.url);
    if (!scope || !this.options.inject || url.origin !== scope.origin) return fetch(request);
    const headers: Record<string, string> = {};
    request.headers.forEach((value, name) => {
      headers[name] = value;
    });
    headers.host = url.host;
    const payload = request.body ? Buffer.from(await request.arrayBuffer()) : undefined;
    const answer = await this.options.inject({
      method: request.method,
      url: `${url.pathname}${url.search}`,
      headers,
      payload,
      remoteAddress: scope.ip,
    });
    const responseHeaders = new Headers();
    for (const [name, value] of Object.entries(answer.headers)) {
      if (value === undefined) continue;
      for (const item of Array.isArray(value) ? value : [String(value)]) responseHeaders.append(name, item);
    }
    const bodyless = answer.statusCode === 204 || answer.statusCode === 304;
    return new Response(bodyless ? null : new Uint8Array(answer.rawPayload), { status: answer.statusCode, headers: responseHeaders });
  };

  /**
   * The page's search (`POST <origin>/meili/multi-search`, its body the client's JSON text) asked
   * of the search routes directly, without a Request, inject or the answer's JSON read back from
   * bytes; null for any other request.
   */
  private multiSearchOf(scope: RenderScope, input: string | URL | Request, init: RequestInit | undefined): Promise<Response> | null {
    const { multiSearch } = this.options;
    const body = init?.body ?? '';
    if (!multiSearch || input instanceof Request || init?.method?.toUpperCase() !== 'POST' || typeof body !== 'string') return null;
    const url = new URL(input);
    if (url.origin !== scope.origin || url.pathname !== '/meili/multi-search') return null;
    const headers = new Headers(init.headers);
    return multiSearch({
      authorization: headers.get('authorization') ?? undefined,
      contentType: headers.get('content-type') ?? undefined,
      body,
      ip: scope.ip,
    }).then(
      (answer) =>
        new TextResponse('json' in answer ? answer.json : JSON.stringify(answer.body), {
          status: answer.status,
          headers: { ...answer.headers, 'content-type': 'application/json; charset=utf-8' },
        }),
    );
  }

  /** The app's markup for the page (and its hydration state), or null (the browser then renders it). */
  async renderPage(input: RenderPageInput): Promise<RenderedPage | null> {
    const shell = this.loadShell();
    if (!shell) return null;
    // Each remote names only its own modules (`<remote>/<module>`): merged, they cannot collide.
    const remotes: ServerRemote = {};
    for (const ref of input.remotes) Object.assign(remotes, this.loadRemote(shell, ref));
    let degraded = false;
    try {
      const rendered = await this.scope.run({ origin: input.origin, ip: input.ip }, () =>
        shell.renderApp({
          site: input.site,
          url: `${input.origin}${input.url}`,
          hero: input.hero,
          routeData: input.routeData ?? null,
          remotes,
          budgetMs: this.options.budgetMs ?? 250,
          // Kept per site config and remote versions: any change there renders every part afresh.
          keptMarkup: this.keptMarkup?.scope(
            `${input.site.id} ${siteConfigVersion(input.site)} ${input.remotes.map(({ name, version }) => `${name}@${version}`).join(' ')}`,
          ),
          onFallback: (module, reason) => {
            degraded = true;
            this.options.log.warn({ err: reason, module, url: input.url }, 'a remote module is left to the browser');
          },
        }),
      );
      return { html: rendered.html, state: rendered.state, degraded };
    } catch (error) {
      this.options.log.warn({ err: error, url: input.url }, 'server render failed; the browser renders this page');
      return null;
    }
  }
}
