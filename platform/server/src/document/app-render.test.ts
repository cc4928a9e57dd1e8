import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { PublicSiteConfig } from '@dealer/contracts/site';
import { AppRenderer } from './app-render';

const roots: string[] = [];
afterAll(() => roots.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/** A shell build folder (client/ and server/) whose server render is `source`, or none. */
function shellBuild(source: string | null): string {
  const root = mkdtempSync(join(tmpdir(), 'shell-build-'));
  roots.push(root);
  mkdirSync(join(root, 'client'));
  if (source !== null) {
    mkdirSync(join(root, 'server'));
    writeFileSync(join(root, 'server', 'render-app.cjs'), source);
  }
  return join(root, 'client');
}

function recordingLog() {
  const warnings: string[] = [];
  return { warnings, log: { warn: (_details: object, message: string) => warnings.push(message) } };
}

const site = { name: 'Metro Motor Group' } as PublicSiteConfig;

describe('the shell’s server render, as the platform runs it', () => {
  it('puts the markup the shell renders for the page and its hero into the first response', () => {
    const { log, warnings } = recordingLog();
    const renderer = new AppRenderer(
      shellBuild(`exports.renderApp = ({ site, url, hero }) => '<h1>' + site.name + '</h1><p>' + url + '</p>' + (hero ? '<img alt="' + hero.alt + '">' : '');`),
      log,
    );
    expect(renderer.renderPage(site, '/search/suv?make=Mazda', null)).toBe('<h1>Metro Motor Group</h1><p>/search/suv?make=Mazda</p>');
    expect(renderer.renderPage(site, '/cars/a-car', { slug: 'a-car', src: '/img/a.jpg', srcSet: '', sizes: '100vw', alt: '2024 Mazda CX-5' })).toContain('<img alt="2024 Mazda CX-5">');
    expect(warnings).toEqual([]);
  });

  it('leaves the page to the browser when the shell was built without a server render', () => {
    const { log, warnings } = recordingLog();
    expect(new AppRenderer(shellBuild(null), log).renderPage(site, '/', null)).toBeNull();
    expect(warnings).toEqual([]);
  });

  it('leaves the page to the browser, and says why, when a render throws; the next page is rendered again', () => {
    const { log, warnings } = recordingLog();
    const renderer = new AppRenderer(shellBuild(`exports.renderApp = ({ url }) => { if (url === '/broken') throw new Error('boom'); return '<main>ok</main>'; };`), log);
    expect(renderer.renderPage(site, '/broken', null)).toBeNull();
    expect(warnings).toEqual(['server render failed; the browser renders this page']);
    expect(renderer.renderPage(site, '/', null)).toBe('<main>ok</main>');
  });

  it('leaves every page to the browser when the server render cannot be loaded', () => {
    const { log, warnings } = recordingLog();
    const renderer = new AppRenderer(shellBuild(`throw new Error('cannot load');`), log);
    expect(renderer.renderPage(site, '/', null)).toBeNull();
    expect(renderer.renderPage(site, '/search', null)).toBeNull();
    expect(warnings).toEqual(['the shell server render could not be loaded; pages render in the browser']);
  });
});
