import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { PublicSiteConfig } from '@dealer/contracts/site';

/** The hero the car page's placeholder shows (the shell's FirstPaintHero). */
export type AppHero = { slug: string; src: string; srcSet: string; sizes: string; alt: string };
type RenderApp = (input: { site: PublicSiteConfig; url: string; hero: AppHero | null }) => string;
type Log = { warn: (details: object, message: string) => void };

/**
 * The shell's server render (shell/dist/server/render-app.cjs, beside its browser build), loaded
 * once at run time: the platform does not import browser code, it runs the shell's own build of
 * it. Without that file (an old build), or when a render throws, the page is sent as before and the
 * browser renders it: a failed server render never costs the shopper the page.
 */
export class AppRenderer {
  private render: RenderApp | null | undefined;

  constructor(
    private readonly shellClientDir: string,
    private readonly log: Log,
  ) {}

  private load(): RenderApp | null {
    if (this.render !== undefined) return this.render;
    const file = join(this.shellClientDir, '..', 'server', 'render-app.cjs');
    this.render = null;
    if (existsSync(file)) {
      try {
        const loaded = createRequire(file)(file) as { renderApp?: RenderApp };
        this.render = typeof loaded.renderApp === 'function' ? loaded.renderApp : null;
      } catch (error) {
        this.log.warn({ err: error, file }, 'the shell server render could not be loaded; pages render in the browser');
      }
    }
    return this.render;
  }

  /** The app's markup for the page, or null (the browser then renders it). */
  renderPage(site: PublicSiteConfig, url: string, hero: AppHero | null): string | null {
    const render = this.load();
    if (!render) return null;
    try {
      return render({ site, url, hero });
    } catch (error) {
      this.log.warn({ err: error, url }, 'server render failed; the browser renders this page');
      return null;
    }
  }
}
