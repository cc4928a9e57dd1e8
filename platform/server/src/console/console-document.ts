import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import type { PlatformContext } from '../platform-context';
import { isConsoleHost } from '../tenancy/site-host';
import { sentFile } from '../http/precompressed';

const escape = (text: string) => text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

/** The console's one HTML document: its stylesheets and scripts from the build's assets.json, and a root to render into. */
export function consoleDocument(assets: { js: string[]; css: string[] }): string {
  const css = assets.css.map((file) => `<link rel="stylesheet" href="/console-assets/${escape(file)}">`).join('');
  const js = assets.js.map((file) => `<script defer src="/console-assets/${escape(file)}"></script>`).join('');
  return `<!doctype html><html lang="en-AU"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>Dealer console</title>${css}${js}</head><body><div id="root"></div></body></html>`;
}

/**
 * The dealer console's pages on its own host: every GET that is not the API, an asset or a remote
 * answers the console's document (the app routes in the browser); its build is served at
 * /console-assets/. Without a console build, the host says so.
 */
export async function consoleDocumentRoutes(app: FastifyInstance, ctx: PlatformContext) {
  const dir = ctx.config.consoleClientDir;
  const built = existsSync(join(dir, 'assets.json'));
  if (built)
    await app.register(fastifyStatic, {
      root: dir,
      prefix: '/console-assets/',
      decorateReply: false,
      index: false,
      cacheControl: false,
      preCompressed: true,
      setHeaders: (res, path) =>
        res.header('Cache-Control', sentFile(path).endsWith('assets.json') ? 'no-cache' : 'public, max-age=31536000, immutable'),
    });
  app.addHook('onRequest', async (request, reply) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return;
    if (!isConsoleHost(request.headers.host, ctx.config.publicOriginSuffix)) return;
    const path = request.url.split('?', 1)[0]!;
    // Pictures too: a page's or a car's photo shown in the console's editors comes from the image endpoint.
    if (['/api/', '/console-assets/', '/remotes/', '/img/'].some((prefix) => path.startsWith(prefix))) return;
    if (!built) return reply.code(503).type('text/plain').send('The dealer console is not built (pnpm --filter @dealer/console build).');
    const assets = JSON.parse(readFileSync(join(dir, 'assets.json'), 'utf8')) as { js: string[]; css: string[] };
    return reply
      .header('Cache-Control', 'no-store')
      .header('X-Robots-Tag', 'noindex')
      .type('text/html; charset=utf-8')
      .send(consoleDocument(assets));
  });
}
