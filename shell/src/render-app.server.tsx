// The shell's server build (shell/rspack.server.config.mjs → shell/dist/server/render-app.cjs): the
// platform server calls `renderApp` for a page's first response, and the browser hydrates it.
// The route's remote module renders too when the platform hands in its server build (the version
// the site pins) and its first data arrives within the budget; otherwise its area is the
// placeholder the browser shows before the remote's code arrives.
import * as ToolkitQuery from '@reduxjs/toolkit/query';
import * as ToolkitQueryReact from '@reduxjs/toolkit/query/react';
import * as statePlatformApi from '@dealer/state/platform-api';
import { renderToString } from 'react-dom/server';
import { StaticRouter } from 'react-router-dom';
import type { ExposedModule } from '@dealer/contracts/remote-modules';
import type { PublicSiteConfig } from '@dealer/contracts/site';
import { resolveRoute } from '@dealer/rules/routes';
import { routeOwner } from '@dealer/rules/route-modules';
import { createPlatformStore } from '@dealer/state/store';
import type { ServerRemote, ServerRenderable } from '@dealer/state/server-render';
import { enableSiteRemotes } from './federation/remote-runtime';
import { setFirstPaintHero, type FirstPaintHero } from './federation/first-paint';
import type { ServerRendered } from './federation/server-rendered';
import { sharedModules as pageModules } from './federation/shared-modules';
import { AppRoot } from './app-root';

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
  /** The route's remote's server build (the version the site runs), when it has one. */
  remote?: ServerRemote | null;
  /** How long the route's module may spend fetching its first data before the browser does it instead. */
  budgetMs?: number;
  /** Told when the route's module is left to the browser, and why. */
  onFallback?: (module: ExposedModule, reason: unknown) => void;
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
export async function renderApp({ site, url, hero, remote = null, budgetMs = 200, onFallback }: RenderAppInput): Promise<RenderAppOutput> {
  const page = new URL(url);
  const store = createPlatformStore(site, { apiBase: `${page.origin}/api` });
  const owner = routeOwner(resolveRoute(site, page.pathname, page.searchParams));
  const modules = new Set<ExposedModule>();
  const components: ServerRendered['components'] = {};
  const renderable = owner ? (remote?.[owner.module] as ServerRenderable<ExposedModule> | undefined) : undefined;
  if (owner && renderable) {
    try {
      if (renderable.prefetch) await withinBudget(renderable.prefetch(owner.props as never, { url: page, store }), budgetMs);
      modules.add(owner.module);
      components[owner.module] = renderable.Component;
    } catch (error) {
      onFallback?.(owner.module, error);
    }
  }

  // From here on synchronous: the site's remotes and the hero are module state of this render.
  enableSiteRemotes(site);
  setFirstPaintHero(hero);
  try {
    const html = renderToString(
      <AppRoot
        site={site}
        store={store}
        serverRendered={{ modules, components }}
        router={(children) => <StaticRouter location={`${page.pathname}${page.search}`}>{children}</StaticRouter>}
      />,
    );
    // The platform API is loaded here from the start (this module imports it), so its state is there.
    const api = store.getState().platformApi;
    const state = modules.size ? { modules: [...modules], api: api ? { platformApi: answeredQueries(api) } : undefined } : null;
    return { html, state };
  } finally {
    setFirstPaintHero(null);
  }
}
