// The shell's server build (shell/rspack.server.config.mjs → shell/dist/server/render-app.cjs): the
// platform server calls `renderApp` for a page's first response, and the browser hydrates it.
// Remotes' areas render as they do in the browser before their code arrives (their placeholder),
// so the header, footer, the shell's own pages and the car page's hero are in the HTML.
import { renderToString } from 'react-dom/server';
import { StaticRouter } from 'react-router';
import type { PublicSiteConfig } from '@dealer/contracts/site';
import { createPlatformStore } from '@dealer/state/store';
import { enableSiteRemotes } from './federation/remote-runtime';
import { setFirstPaintHero, type FirstPaintHero } from './federation/first-paint';
import { AppRoot } from './app-root';

export type RenderAppInput = { site: PublicSiteConfig; url: string; hero: FirstPaintHero | null };

/** The app's markup for `url` (path and query). Synchronous: one render at a time per process. */
export function renderApp({ site, url, hero }: RenderAppInput): string {
  enableSiteRemotes(site);
  setFirstPaintHero(hero);
  try {
    const store = createPlatformStore(site);
    return renderToString(<AppRoot site={site} store={store} router={(children) => <StaticRouter location={url}>{children}</StaticRouter>} />);
  } finally {
    setFirstPaintHero(null);
  }
}
