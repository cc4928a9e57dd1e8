import { mkdir, writeFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { createGunzip } from 'node:zlib';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestPlatform, type TestPlatform } from '../testing/test-platform';

type Gate = { __releaseRender?: () => void; __renders?: number };
const gate = globalThis as Gate;

/**
 * A page requested over a real socket, as a browser does: `first` resolves with the text of the
 * first part to arrive, `whole` with all of it.
 */
function getPage(port: number, path: string, encoding: 'gzip' | null) {
  let first!: (text: string) => void;
  const firstPart = new Promise<string>((resolve) => (first = resolve));
  const whole = new Promise<{ status: number; encoding: string | undefined; text: string }>((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        path,
        headers: { host: 'metro-motor-group.localhost:3000', ...(encoding ? { 'accept-encoding': encoding } : {}) },
      },
      (res) => {
        const body = res.headers['content-encoding'] === 'gzip' ? res.pipe(createGunzip()) : res;
        body.setEncoding('utf8');
        let text = '';
        body.on('data', (chunk: string) => {
          if (!text) first(chunk);
          text += chunk;
        });
        body.on('end', () => resolve({ status: res.statusCode ?? 0, encoding: res.headers['content-encoding'], text }));
        body.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end();
  });
  return { firstPart, whole };
}

describe('a page is sent as it is made', () => {
  let platform: TestPlatform;
  let port: number;

  beforeAll(async () => {
    platform = await createTestPlatform({ engine: 'sqlite' });
    // A shell server render that waits until the test lets it finish.
    const server = join(platform.ctx.config.shellClientDir, '..', 'server');
    await mkdir(server, { recursive: true });
    await writeFile(
      join(server, 'render-app.cjs'),
      `exports.renderApp = async ({ url }) => { globalThis.__renders = (globalThis.__renders ?? 0) + 1; await new Promise((resolve) => (globalThis.__releaseRender = resolve)); return { html: '<main><h1>Rendered ' + new URL(url).pathname + '</h1></main>', state: null }; };`,
    );
    await platform.app.listen({ port: 0, host: '127.0.0.1' });
    port = (platform.app.server.address() as AddressInfo).port;
  });
  // A failed expectation must not leave the render (and the socket) waiting.
  afterEach(() => gate.__releaseRender?.());
  afterAll(() => platform?.close());

  it.each([null, 'gzip'] as const)(
    'sends the head (title, preloads, scripts) before the server render is done, the markup when it is (compression: %s)',
    async (encoding) => {
      const renders = gate.__renders ?? 0;
      const path = encoding ? '/?compressed' : '/';
      const page = getPage(port, path, encoding);
      const head = await page.firstPart;
      // The render is still waiting: the browser already has what it needs to start fetching.
      expect(gate.__renders).toBe(renders + 1);
      expect(head).toContain('</head>');
      expect(head).toMatch(/<script defer src="\/assets\/[^"]+\.js"><\/script>/);
      expect(head).not.toContain('Rendered');

      gate.__releaseRender!();
      const { status, encoding: sent, text } = await page.whole;
      expect(status).toBe(200);
      expect(sent).toBe(encoding ?? undefined);
      expect(text.startsWith(head)).toBe(true);
      expect(text).toContain(`<div id="root" data-ssr><main><h1>Rendered /</h1></main></div>`);
      expect(text.trimEnd().endsWith('</html>')).toBe(true);
    },
  );
});
