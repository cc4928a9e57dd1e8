// One render thread (document/render-threads.ts): the shell's server render off the platform's main
// thread. What a page's render asks of the platform is asked of the main thread, which owns the store,
// the search index and the limits.
import { AsyncLocalStorage } from 'node:async_hooks';
import { parentPort, workerData } from 'node:worker_threads';
import type { PublicSiteConfig } from '@dealer/contracts/site';
import type { InProcessSearchAnswer } from '../search/in-process-search';
import { AppRenderer, type InjectAnswer } from './app-render';
import type { AskKind, RenderThreadOptions, ToMain, ToThread } from './render-threads';
import { scriptJson } from './render-document';

const port = parentPort;
if (!port) throw new Error('render-thread runs as a worker thread');
const options = workerData as RenderThreadOptions;

const utf8 = new TextEncoder();

const questions = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
let nextQuestion = 0;

function ask<T>(kind: AskKind, body: Record<string, unknown>): Promise<T> {
  const id = nextQuestion++;
  return new Promise<T>((resolve, reject) => {
    questions.set(id, { resolve: resolve as (value: unknown) => void, reject });
    port!.postMessage({ type: 'ask', id, kind, ...body } as ToMain);
  });
}

/** The render a question is asked for: the main thread answers only for a render it still waits for. */
const currentRender = new AsyncLocalStorage<number>();

/** An error as a message carries it without losing what a log needs. */
const plainError = (error: unknown) =>
  error instanceof Error
    ? { name: error.name, message: error.message, stack: error.stack, code: (error as { code?: unknown }).code }
    : error;

function post(message: ToMain, transfer: ArrayBuffer[] = []): void {
  try {
    port!.postMessage(message, transfer);
  } catch {
    // Something in a log's details a message cannot carry (a function): the rest of them still go, as text.
    if (message.type === 'log') {
      const details = Object.fromEntries(
        Object.entries(message.details).map(([name, value]) => [name, typeof value === 'object' && value !== null ? String(value) : value]),
      );
      port!.postMessage({ type: 'log', details, message: message.message });
    }
  }
}

/** A few hundred sites' configs, by id and version: asked of the main thread the first time a version renders here. */
const sites = new Map<string, PublicSiteConfig>();
const maxSites = 256;

async function siteFor(key: string, render: number): Promise<PublicSiteConfig> {
  const known = sites.get(key);
  if (known) {
    sites.delete(key);
    sites.set(key, known);
    return known;
  }
  const site = await ask<PublicSiteConfig>('site', { render });
  if (sites.size >= maxSites) sites.delete(sites.keys().next().value!);
  sites.set(key, site);
  return site;
}

const renderer = new AppRenderer({
  shellClientDir: options.shellClientDir,
  remotesDir: options.remotesDir,
  budgetMs: options.budgetMs,
  keptMarkupBytes: options.keptMarkupBytes,
  log: {
    warn: (details, message) =>
      post({ type: 'log', details: 'err' in details ? { ...details, err: plainError(details.err) } : details, message }),
  },
  inject: async (request) => {
    const answer = await ask<InjectAnswer>('inject', { request, render: currentRender.getStore() });
    const bytes = answer.rawPayload as Uint8Array;
    return { ...answer, rawPayload: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) };
  },
  multiSearch: options.multiSearch
    ? (request) => ask<Omit<InProcessSearchAnswer, 'body'> & { json: string }>('multiSearch', { request, render: currentRender.getStore() })
    : undefined,
});

port.on('message', (message: ToThread) => {
  if (message.type === 'answer') {
    const question = questions.get(message.id);
    questions.delete(message.id);
    if (message.ok) question?.resolve(message.value);
    else question?.reject(new Error(message.error));
    return;
  }
  siteFor(message.siteKey, message.id)
    .then((site) => currentRender.run(message.id, () => renderer.renderPage({ ...message.input, site })))
    // The state goes as the document's script JSON: written here, not on the main thread, and a string crosses for less.
    // The markup goes as UTF-8 bytes, moved to the main thread rather than copied (RenderedPage).
    .then(
      (rendered) =>
        rendered && {
          ...rendered,
          html: typeof rendered.html === 'string' ? utf8.encode(rendered.html) : rendered.html,
          // Only the modules' names cross as a value (the document fetches their files ahead), the rest as JSON.
          state: rendered.state ? { modules: rendered.state.modules } : null,
          stateJson: rendered.state ? scriptJson(rendered.state) : undefined,
        },
    )
    .catch((error: unknown) => {
      post({
        type: 'log',
        details: { err: plainError(error), url: message.input.url },
        message: 'server render failed; the browser renders this page',
      });
      return null;
    })
    .then((rendered) =>
      post(
        { type: 'rendered', id: message.id, rendered },
        rendered && typeof rendered.html !== 'string' ? [rendered.html.buffer as ArrayBuffer] : [],
      ),
    );
});
