import type { ComponentType } from 'react';
import type { ExposedModule, ExposedProps } from '@dealer/contracts/remote-modules';
import type { SearchLanding } from '@dealer/contracts/content';
import type { PlatformStore } from '@dealer/state/store';

/**
 * What the platform already read for the page's route, so a module need not ask for it again. A
 * key that is absent was not looked up (ask as usual); null means looked up and there is none.
 */
export type PrefetchRouteData = {
  /** The dealer's search landing page at the route's slug, as `GET /api/search-pages/:slug` answers it. */
  searchLanding?: SearchLanding | null;
};

/**
 * What a module's data loader gets on the server: the page's address, the page's store and what the
 * platform read for the route (from shell 1.7; absent before).
 */
export type PrefetchContext = { url: URL; store: PlatformStore; routeData?: PrefetchRouteData };

/** A module a remote can render on the server. */
export type ServerRenderable<M extends ExposedModule> = {
  Component: ComponentType<ExposedProps[M]>;
  /**
   * Fetches what the module's first render needs into the store (its own queries, so the browser
   * finds the answers in the store it hydrates with). Rejecting, or running over the platform's
   * time budget, leaves the module to the browser; the rest of the page still renders.
   */
  prefetch?: (props: ExposedProps[M], context: PrefetchContext) => Promise<unknown>;
};

/**
 * What a remote's server build (`server/remote.cjs` beside its browser build) exports as
 * `modules`: the exposed modules it renders on the server, by module name.
 */
export type ServerRemote = { [M in ExposedModule]?: ServerRenderable<M> };
