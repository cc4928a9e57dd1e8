import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { PublicSiteConfig } from '@dealer/contracts/site';
import type { Inject, InjectRequest, RenderedPage, RenderPageInput } from './app-render';
import { RenderThreads } from './render-threads';

/** A rendered page's markup as text: a render thread sends its UTF-8 bytes. */
const markup = (rendered: RenderedPage | null | undefined) =>
  rendered && (typeof rendered.html === 'string' ? rendered.html : new TextDecoder().decode(rendered.html));

const roots: string[] = [];
afterAll(() => roots.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/** A shell build folder whose server render (render-app.cjs) is `shell`. */
function shellBuild(shell: string) {
  const root = mkdtempSync(join(tmpdir(), 'thread-build-'));
  roots.push(root);
  mkdirSync(join(root, 'client'));
  mkdirSync(join(root, 'server'));
  writeFileSync(join(root, 'server', 'render-app.cjs'), shell);
  return { shellClientDir: join(root, 'client'), remotesDir: join(root, 'remotes') };
}

/**
 * A shell render that asks the platform for the page's data in process (its `?ask=` path), shows
 * the site's name, the address and the answer, and says which thread it ran on. `?loop` never ends;
 * `?exit` stops its thread.
 */
const askingShell = `
const { threadId } = require('node:worker_threads');
let platformFetch = null;
let renders = 0;
exports.setPlatformFetch = (fetchImpl) => { platformFetch = fetchImpl; };
exports.renderApp = async ({ site, url }) => {
  const address = new URL(url);
  if (address.searchParams.has('loop')) for (;;);
  if (address.searchParams.has('exit')) process.exit(3);
  if (address.searchParams.has('throw')) throw new Error('the shell broke');
  const ask = address.searchParams.get('ask');
  const answer = ask ? await (await platformFetch(address.origin + ask, { headers: { accept: 'application/json' } })).text() : '';
  renders += 1;
  const secret = process.env.DEALER_TEST_SECRET ?? 'no secret';
  return { html: '<h1>' + site.name + '</h1><p>' + address.pathname + ' ' + answer + '</p><i>' + threadId + ' ' + renders + '</i><b>' + secret + '</b>', state: { modules: ['mf-search/SearchPage'] } };
};`;

const site = (name: string, id = 1) => ({ id, name }) as PublicSiteConfig;
const page = (url: string, over: Partial<RenderPageInput> = {}): RenderPageInput => ({
  site: site('Metro Motor Group'),
  origin: 'http://metro.example',
  url,
  hero: null,
  remotes: [],
  ip: '203.0.113.9',
  ...over,
});

function recordingLog() {
  const warnings: string[] = [];
  return { warnings, log: { warn: (_details: object, message: string) => warnings.push(message) } };
}

let threads: RenderThreads | null = null;
afterEach(async () => {
  await threads?.close();
  threads = null;
});

describe('server renders on render threads', () => {
  it('renders the page off the main thread, its API calls answered by the platform in process for the shopper’s address', async () => {
    // The platform's environment holds its secrets; a thread's code sees none of them.
    process.env.DEALER_TEST_SECRET = 'the database password';
    const requests: InjectRequest[] = [];
    const inject: Inject = async (request) => {
      requests.push(request);
      return { statusCode: 200, headers: { 'content-type': 'application/json' }, rawPayload: Buffer.from('{"cars":3}') };
    };
    const { log, warnings } = recordingLog();
    threads = new RenderThreads({ ...shellBuild(askingShell), threads: 1, log, inject });
    const rendered = await threads.renderPage(page('/search?ask=/api/cars'));
    expect(rendered?.html).toBeInstanceOf(Uint8Array);
    expect(markup(rendered)).toMatch(/^<h1>Metro Motor Group<\/h1><p>\/search \{"cars":3\}<\/p><i>[1-9]\d* 1<\/i><b>no secret<\/b>$/);
    // The state comes as the document's script JSON, written on the thread.
    expect(rendered?.stateJson).toBe('{"modules":["mf-search/SearchPage"]}');
    expect(rendered?.degraded).toBe(false);
    expect(requests).toEqual([
      expect.objectContaining({
        method: 'GET',
        url: '/api/cars',
        remoteAddress: '203.0.113.9',
        headers: expect.objectContaining({ host: 'metro.example' }),
      }),
    ]);
    expect(warnings).toEqual([]);
    delete process.env.DEALER_TEST_SECRET;
  });

  it('spreads pages over its threads, and each renders with the site’s config of the version it is given', async () => {
    threads = new RenderThreads({ ...shellBuild(askingShell), threads: 2, log: recordingLog().log });
    const pages = await Promise.all(
      ['Metro Motor Group', 'Harbour Used Cars', 'Metro Motor Group'].map((name, i) =>
        threads!.renderPage(page(`/p${i}`, { site: site(name, i === 1 ? 2 : 1) })),
      ),
    );
    expect(pages.map((rendered) => /<h1>(.*)<\/h1>/.exec(markup(rendered) ?? '')?.[1])).toEqual([
      'Metro Motor Group',
      'Harbour Used Cars',
      'Metro Motor Group',
    ]);
    const threadIds = new Set(pages.map((rendered) => /<i>(\d+) /.exec(markup(rendered) ?? '')?.[1]));
    expect(threadIds.size).toBe(2);
    // A new config (its version changes with what it says) is the one rendered.
    expect(markup(await threads.renderPage(page('/', { site: site('Metro Motor Group Sydney') })))).toContain(
      '<h1>Metro Motor Group Sydney</h1>',
    );
  });

  it('leaves a page to the browser when its render throws, stops its thread or never ends, and renders the next page', async () => {
    const { log, warnings } = recordingLog();
    // Timeouts fire when the test says: only the render that never ends is timed out.
    const timeouts: (() => void)[] = [];
    threads = new RenderThreads({
      ...shellBuild(askingShell),
      threads: 1,
      log,
      timeouts: (fire) => {
        timeouts.push(fire);
        return () => undefined;
      },
    });
    expect(await threads.renderPage(page('/?throw'))).toBeNull();
    expect(warnings).toContain('server render failed; the browser renders this page');
    expect(await threads.renderPage(page('/?exit'))).toBeNull();
    expect(warnings).toContain('a render thread stopped; its pages are left to the browser');
    expect(markup(await threads.renderPage(page('/after-exit')))).toContain('/after-exit');
    const looping = threads.renderPage(page('/?loop'));
    timeouts.at(-1)!();
    expect(await looping).toBeNull();
    expect(warnings).toContain('a server render took too long; its thread is started again, the browser renders the page');
    expect(markup(await threads.renderPage(page('/after-loop')))).toContain('/after-loop');
  });

  it('answers a thread’s questions only for a page it renders, as the shopper who asked for that page', async () => {
    // A thread whose code asks for another address, and for a render that does not exist.
    const dir = mkdtempSync(join(tmpdir(), 'thread-'));
    roots.push(dir);
    const file = join(dir, 'lying-thread.cjs');
    writeFileSync(
      file,
      `const { parentPort } = require('node:worker_threads');
const answers = new Map();
const ask = (message) => new Promise((resolve) => { answers.set(message.id, resolve); parentPort.postMessage({ type: 'ask', ...message }); });
parentPort.on('message', async (message) => {
  if (message.type === 'answer') return answers.get(message.id)(message);
  const request = { method: 'GET', url: '/api/cars', headers: { host: 'metro.example' }, remoteAddress: '192.0.2.66' };
  const ours = await ask({ id: 1, kind: 'inject', render: message.id, request });
  const nobody = await ask({ id: 2, kind: 'inject', render: 9999, request });
  parentPort.postMessage({ type: 'rendered', id: message.id, rendered: { html: JSON.stringify([ours.ok, nobody.ok, nobody.error]), state: null, degraded: false } });
});`,
    );
    const addresses: string[] = [];
    const inject: Inject = async (request) => {
      addresses.push(request.remoteAddress);
      return { statusCode: 200, headers: {}, rawPayload: Buffer.from('{}') };
    };
    threads = new RenderThreads({ ...shellBuild(askingShell), threads: 1, log: recordingLog().log, inject, file });
    expect(markup(await threads.renderPage(page('/')))).toBe(JSON.stringify([true, false, 'no such render']));
    expect(addresses).toEqual(['203.0.113.9']);
  });

  it('renders on the main thread once threads keep failing to start (a broken build), and says so', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'thread-'));
    roots.push(dir);
    const file = join(dir, 'broken-thread.cjs');
    writeFileSync(file, `throw new Error('this build is broken');`);
    const { log, warnings } = recordingLog();
    threads = new RenderThreads({ ...shellBuild(askingShell), threads: 1, log, file });
    for (let start = 0; start < 3; start++) expect(await threads.renderPage(page('/'))).toBeNull();
    expect(markup(await threads.renderPage(page('/on-main')))).toContain('/on-main');
    expect(warnings).toContain('render threads cannot start; pages render on the main thread');
  });

  it('answers nothing once closed', async () => {
    threads = new RenderThreads({ ...shellBuild(askingShell), threads: 1, log: recordingLog().log });
    await threads.close();
    expect(await threads.renderPage(page('/'))).toBeNull();
  });
});
