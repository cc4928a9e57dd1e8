import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { PublicSiteConfig } from '@dealer/contracts/site';
import type { InProcessSearchAnswer, InProcessSearchRequest } from '../search/in-process-search';
import { AppRenderer, type Inject, type InjectRequest, type RenderedPage, type RenderPageInput } from './app-render';
import { siteConfigVersion } from './site-config-url';

/** What a render thread is started with (its `workerData`). */
export type RenderThreadOptions = {
  shellClientDir: string;
  remotesDir: string;
  budgetMs?: number;
  keptMarkupBytes?: number;
  /** Whether the page's searches are asked of the main thread's search routes (else through inject). */
  multiSearch: boolean;
};

/** What the main thread answers a thread's question with. */
export type AskKind = 'inject' | 'multiSearch' | 'site';

/** From the main thread to a render thread. */
export type ToThread =
  | { type: 'render'; id: number; siteKey: string; input: Omit<RenderPageInput, 'site'> }
  | { type: 'answer'; id: number; ok: true; value: unknown }
  | { type: 'answer'; id: number; ok: false; error: string };

/** From a render thread to the main thread. */
export type ToMain =
  | { type: 'rendered'; id: number; rendered: RenderedPage | null }
  | { type: 'ask'; id: number; kind: 'inject'; render: number; request: InjectRequest }
  | { type: 'ask'; id: number; kind: 'multiSearch'; render: number; request: InProcessSearchRequest }
  | { type: 'ask'; id: number; kind: 'site'; render: number }
  | { type: 'log'; details: object; message: string };

type Log = { warn: (details: object, message: string) => void };

type Pending = { input: RenderPageInput; resolve: (rendered: RenderedPage | null) => void; cancelTimeout: () => void };
/** `rendered`: the thread has answered a render (it started); one that stops before it counts as a failed start. */
type Thread = { index: number; worker: Worker; pending: Map<number, Pending>; rendered: boolean };

/** Calls `fire` after `ms` unless the returned function is called first. */
export type Timeouts = (fire: () => void, ms: number) => () => void;

const realTimeouts: Timeouts = (fire, ms) => {
  const timer = setTimeout(fire, ms);
  timer.unref();
  return () => clearTimeout(timer);
};

/** The render thread's file beside this one: the bundle's `render-thread.cjs`, or the source's `.ts` (tests, through tsx). */
export function renderThreadFile(): string {
  return __filename.endsWith('.ts') ? join(__dirname, 'render-thread.ts') : join(__dirname, 'render-thread.cjs');
}

/**
 * The shell's server render on threads of its own (`RENDER_THREADS`), so rendering pages never holds
 * the main thread, which answers the API, the searches and the leads meanwhile, and a second core
 * renders while the first serves. Each thread runs an AppRenderer (its own loaded builds and kept
 * markup); what a page's render asks of the platform (its API calls, its search, the site's config
 * when the thread has not seen that version) is answered here, where the store, the index and the
 * limits live. A render that has not answered in `timeoutMs`, or whose thread stopped, leaves the page
 * to the browser, as any failed server render does; the thread is started again for the next page.
 */
export class RenderThreads {
  private readonly threads: (Thread | null)[];
  private nextId = 0;
  private closed = false;
  /** Threads in a row that stopped before answering a render: past `maxFailedStarts`, pages render on the main thread. */
  private failedStarts = 0;
  private mainThread: AppRenderer | null = null;

  constructor(
    private readonly options: Omit<RenderThreadOptions, 'multiSearch'> & {
      threads: number;
      log: Log;
      inject?: Inject;
      multiSearch?: (request: InProcessSearchRequest) => Promise<InProcessSearchAnswer>;
      /** How long a render may take on its thread before the browser is left to render the page. */
      timeoutMs?: number;
      /** The clock the timeouts run on (tests fire them). */
      timeouts?: Timeouts;
      file?: string;
    },
  ) {
    this.threads = Array.from({ length: Math.max(1, options.threads) }, () => null);
  }

  /** Whether render threads can run here: the bundle has its thread file (an older build has not). */
  static available(file = renderThreadFile()): boolean {
    return existsSync(file);
  }

  private start(index: number): Thread {
    const file = this.options.file ?? renderThreadFile();
    const workerData: RenderThreadOptions = {
      shellClientDir: this.options.shellClientDir,
      remotesDir: this.options.remotesDir,
      budgetMs: this.options.budgetMs,
      keptMarkupBytes: this.options.keptMarkupBytes,
      multiSearch: Boolean(this.options.multiSearch),
    };
    // The source (tests) runs through tsx; the bundle's file is plain CommonJS.
    // The thread sees none of the platform's secrets (its environment holds the database URL and the keys): only the
    // mode React and the shared code read, and the time zone.
    const env = Object.fromEntries(
      Object.entries({ NODE_ENV: process.env.NODE_ENV, TZ: process.env.TZ }).filter(([, value]) => value !== undefined),
    );
    const worker = file.endsWith('.ts')
      ? new Worker(`require('tsx/cjs/api').register(); require(${JSON.stringify(file)});`, { eval: true, workerData, env })
      : new Worker(file, { workerData, env });
    worker.unref();
    const thread: Thread = { index, worker, pending: new Map(), rendered: false };
    const stopped = (reason: unknown) => {
      if (this.threads[index] !== thread) return;
      if (!thread.rendered) this.failedStarts += 1;
      if (!this.closed) this.options.log.warn({ err: reason }, 'a render thread stopped; its pages are left to the browser');
      this.retire(thread);
    };
    worker.on('message', (message: ToMain) => this.fromThread(thread, message));
    worker.on('error', stopped);
    worker.on('exit', (code) => stopped(new Error(`render thread exited with code ${code}`)));
    this.threads[index] = thread;
    return thread;
  }

  /** A thread no page goes to any more: its renders left to the browser, the next page starts another. */
  private retire(thread: Thread): void {
    if (this.threads[thread.index] === thread) this.threads[thread.index] = null;
    for (const pending of thread.pending.values()) {
      pending.cancelTimeout();
      pending.resolve(null);
    }
    thread.pending.clear();
  }

  private fromThread(thread: Thread, message: ToMain): void {
    if (message.type === 'log') {
      this.options.log.warn(message.details, message.message);
    } else if (message.type === 'rendered') {
      thread.rendered = true;
      this.failedStarts = 0;
      const pending = thread.pending.get(message.id);
      if (!pending) return;
      thread.pending.delete(message.id);
      pending.cancelTimeout();
      pending.resolve(message.rendered);
    } else {
      const reply = (answer: ToThread) => {
        try {
          thread.worker.postMessage(answer);
        } catch (error) {
          // An answer a message cannot carry: the render is told it failed, and leaves its part to the browser.
          this.options.log.warn({ err: error }, 'a render thread’s question could not be answered');
          thread.worker.postMessage({
            type: 'answer',
            id: message.id,
            ok: false,
            error: 'the answer could not be sent',
          } satisfies ToThread);
        }
      };
      const answer = (value: () => Promise<unknown>) =>
        value().then(
          (result) => reply({ type: 'answer', id: message.id, ok: true, value: result }),
          (error: unknown) =>
            reply({ type: 'answer', id: message.id, ok: false, error: error instanceof Error ? error.message : String(error) }),
        );
      // Only for a render this side still waits for, and as the shopper who asked for that page (not as the thread says).
      const pending = thread.pending.get(message.render);
      if (!pending) return void answer(() => Promise.reject(new Error('no such render')));
      const { inject, multiSearch } = this.options;
      if (message.kind === 'site') void answer(async () => pending.input.site);
      else if (message.kind === 'inject')
        void answer(async () => {
          if (!inject) throw new Error('no in-process API');
          return inject({ ...message.request, remoteAddress: pending.input.ip });
        });
      else
        void answer(async () => {
          if (!multiSearch) throw new Error('no in-process search');
          // As JSON text: a string crosses threads for less than the answer's objects, and the thread reads it as text anyway.
          const { body, ...rest } = await multiSearch({ ...message.request, ip: pending.input.ip });
          return { ...rest, json: JSON.stringify(body) };
        });
    }
  }

  /** The app's markup for the page, rendered on the least busy thread, or null (the browser renders it). */
  renderPage(input: RenderPageInput): Promise<RenderedPage | null> {
    if (this.closed) return Promise.resolve(null);
    if (this.failedStarts >= maxFailedStarts) {
      if (!this.mainThread) {
        this.options.log.warn({ failedStarts: this.failedStarts }, 'render threads cannot start; pages render on the main thread');
        this.mainThread = new AppRenderer(this.options);
      }
      return this.mainThread.renderPage(input);
    }
    let index = 0;
    for (let i = 1; i < this.threads.length; i++)
      if ((this.threads[i]?.pending.size ?? 0) < (this.threads[index]?.pending.size ?? 0)) index = i;
    const thread = this.threads[index] ?? this.start(index);
    const id = this.nextId++;
    const { site, ...rest } = input;
    return new Promise((resolve) => {
      const cancelTimeout = (this.options.timeouts ?? realTimeouts)(() => {
        if (!thread.pending.has(id)) return;
        this.options.log.warn(
          { url: input.url },
          'a server render took too long; its thread is started again, the browser renders the page',
        );
        // A thread that stopped answering (a render in a loop) would hold every page after it.
        this.retire(thread);
        void thread.worker.terminate();
      }, this.options.timeoutMs ?? 10_000);
      thread.pending.set(id, { input, resolve, cancelTimeout });
      try {
        thread.worker.postMessage({ type: 'render', id, siteKey: siteKeyOf(site), input: rest } satisfies ToThread);
      } catch (error) {
        // A page a message cannot carry (nothing in a page's input should be one): the browser renders it.
        thread.pending.delete(id);
        cancelTimeout();
        this.options.log.warn({ err: error, url: input.url }, 'a page could not be sent to a render thread; the browser renders it');
        resolve(null);
      }
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.threads.map((thread) => thread?.worker.terminate()));
  }
}

/** A site's config as a thread keeps it: its id and the version of its public config. */
const siteKeyOf = (site: PublicSiteConfig) => `${site.id} ${siteConfigVersion(site)}`;

/** Threads in a row that may stop before answering a render before pages go back to the main thread. */
const maxFailedStarts = 3;
