// The shell's server build (shell/rspack.server.config.mjs → shell/dist/server/render-app.cjs): the
// platform server calls `renderApp` for a page's first response, and the browser hydrates it.
// The route's remote module renders too when the platform hands in its server build (the version
// the site pins) and its first data arrives within the budget; otherwise its area is the
// placeholder the browser shows before the remote's code arrives. The modules it places in its slots
// (the car page's Enquire, Test drive, Reserve and Save buttons) render from their own remotes'
// server builds, so the first response holds them and nothing moves when the browser's code runs.
import * as ToolkitQuery from '@reduxjs/toolkit/query';
import * as ToolkitQueryReact from '@reduxjs/toolkit/query/react';
import * as statePlatformApi from '@dealer/state/platform-api';
import { renderToString } from 'react-dom/server';
import { StaticRouter } from 'react-router-dom';
import type { ResolvedPage } from '@dealer/contracts/content';
import type { ExposedModule } from '@dealer/contracts/remote-modules';
import type { PublicSiteConfig } from '@dealer/contracts/site';
import { resolveRoute } from '@dealer/rules/routes';
import { routeOwner } from '@dealer/rules/route-modules';
import { createPlatformStore, type PlatformStore } from '@dealer/state/store';
import { KeptMarkupContext, keptMarkupRender, type KeptMarkupCache } from '@dealer/ui/kept-markup';
import type { PrefetchRouteData, ServerRemote, ServerRenderable } from '@dealer/state/server-render';
import { enableSiteRemotes } from './federation/remote-runtime';
import { setFirstPaintHero, type FirstPaintHero } from './boot/first-paint';
import type { ServerRendered } from './federation/server-rendered';
import { sharedModules as pageModules } from './federation/shared-modules';
import { AppRoot } from './app-root';
import { routeDataFor } from './content/route-data';
import { PageBlocks } from './content/page-blocks';
import { ContentPage } from './pages/content-page';

/** The content chunk's components, rendered in place on the server (the browser loads them lazily). */
const contentComponents = { ContentPage, PageBlocks };

export { setPlatformFetch } from '@dealer/state/platform-fetch';

/**
 * The modules a remote's server build may import from the page instead of bundling: the render's
 * own instances, the browser's lazily loaded ones (federation/shared-modules.ts) included.
 */
export const sharedModules: Record<string, unknown> = {
  ...pageModules,
  '@reduxjs/toolkit/query': ToolkitQuery,
  '@reduxjs/toolkit/query/react': ToolkitQueryReact,
  '@dealer/state/platform-api': statePlatformApi,
};

export type RenderAppInput = {
  site: PublicSiteConfig;
  /** The page's absolute address. */
  url: string;
  hero: FirstPaintHero | null;
  /**
   * The modules the site's remotes render on the server (each remote's server build, at the version
   * the site runs, merged): the route's module and those placed in slots.
   */
  remotes?: ServerRemote | null;
  /** How long the route's module may spend fetching its first data before the browser does it instead. */
  budgetMs?: number;
  /** Told when the route's module is left to the browser, and why. */
  onFallback?: (module: ExposedModule, reason: unknown) => void;
  /**
   * What the platform resolved for the route before rendering, the same the document carries as
   * `#route-data`: the dealer's page at this address (null or absent: none, so a 404 or the page's default).
   */
  routeData?: ({ content?: ResolvedPage | null } & PrefetchRouteData) | null;
  /**
   * Parts kept from earlier renders of this site at these remotes' versions (result cards, the
   * header, the footer): repeated instead of rendered. Absent: everything renders.
   */
  keptMarkup?: KeptMarkupCache | null;
};

/** What the browser needs to hydrate the server's markup: the modules rendered and the API answers they used. */
export type ServerAppState = { modules: ExposedModule[]; api: unknown };
export type RenderAppOutput = { html: string; state: ServerAppState | null };

class BudgetExceeded extends Error {}

function withinBudget<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const budget = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new BudgetExceeded(`over the ${ms} ms budget`)), ms);
  });
  return Promise.race([work, budget]).finally(() => clearTimeout(timer));
}

/** Only answers travel to the browser (a failed or unfinished query is asked again there). */
function answeredQueries(api: { queries: Record<string, { status?: string } | undefined> }) {
  return { ...api, queries: Object.fromEntries(Object.entries(api.queries).filter(([, query]) => query?.status === 'fulfilled')) };
}

/** The app's markup for `url`, with the route's remote module rendered when it can be. */
export async function renderApp({
  site,
  url,
  hero,
  remotes = null,
  budgetMs = 200,
  onFallback,
  routeData = null,
  keptMarkup = null,
}: RenderAppInput): Promise<RenderAppOutput> {
  const page = new URL(url);
  const store = createPlatformStore(site, { apiBase: `${page.origin}/api` });
  try {
    return await renderWithStore(store, { site, page, hero, remotes, budgetMs, onFallback, routeData, keptMarkup });
  } finally {
    releasePageStore(store);
  }
}

/**
 * A page's store is done with once its markup and answers are out, but RTK Query keeps it alive: an
 * answer nothing subscribes to (the landing the platform handed in) is kept for `keepUnusedDataFor`
 * (60 s) on a timer, and a query still running past the budget goes on. On a server that renders
 * hundreds of pages a second that kept every page's store and answers for a minute, for the garbage
 * collector to walk. Resetting the API state clears those timers and aborts what still runs.
 */
function releasePageStore(store: PlatformStore) {
  store.dispatch(statePlatformApi.platformApi.util.resetApiState());
}

async function renderWithStore(
  store: PlatformStore,
  { site, page, hero, remotes, budgetMs, onFallback, routeData, keptMarkup }: Omit<RenderAppInput, 'url'> & { page: URL; budgetMs: number },
): Promise<RenderAppOutput> {
  const owner = routeOwner(resolveRoute(site, page.pathname, page.searchParams));
  const modules = new Set<ExposedModule>();
  const components: ServerRendered['components'] = {};
  // A module placed in a slot renders with the props it is given there: no data of its own to wait for.
  for (const [module, renderable] of Object.entries(remotes ?? {}) as [ExposedModule, ServerRenderable<ExposedModule> | undefined][]) {
    if (module === owner?.module || typeof renderable?.Component !== 'function') continue;
    modules.add(module);
    components[module] = renderable.Component;
  }
  const renderable = owner ? (remotes?.[owner.module] as ServerRenderable<ExposedModule> | undefined) : undefined;
  if (owner && renderable) {
    try {
      // Only what the platform looked up for the route's module (a key absent: the module asks itself).
      const prefetchData: PrefetchRouteData =
        routeData && 'searchLanding' in routeData ? { searchLanding: routeData.searchLanding ?? null } : {};
      if (renderable.prefetch)
        await withinBudget(renderable.prefetch(owner.props as never, { url: page, store, routeData: prefetchData }), budgetMs);
      modules.add(owner.module);
      components[owner.module] = renderable.Component;
    } catch (error) {
      onFallback?.(owner.module, error);
    }
  }

  // From here on synchronous: the site's remotes and the hero are module state of this render.
  enableSiteRemotes(site);
  setFirstPaintHero(hero);
  // The browser hydrates exactly the modules whose markup is in the page (the route's and the slots').
  const rendered = new Set<ExposedModule>();
  const kept = keptMarkup ? keptMarkupRender(keptMarkup, (module) => rendered.add(module as ExposedModule)) : null;
  try {
    const app = (
      <AppRoot
        site={site}
        store={store}
        serverRendered={{ modules, components, onRendered: (module) => rendered.add(module) }}
        routeData={routeDataFor(`${page.pathname}${page.search}`, routeData?.content ?? null)}
        contentComponents={contentComponents}
        router={(children) => <StaticRouter location={`${page.pathname}${page.search}`}>{children}</StaticRouter>}
      />
    );
    const html = kept
      ? kept.finish(renderToString(<KeptMarkupContext.Provider value={kept.store}>{app}</KeptMarkupContext.Provider>))
      : renderToString(app);
    // The platform API is loaded here from the start (this module imports it), so its state is there.
    const api = store.getState().platformApi;
    const state = rendered.size ? { modules: [...rendered], api: api ? { platformApi: answeredQueries(api) } : undefined } : null;
    return { html, state };
  } finally {
    setFirstPaintHero(null);
  }
}
