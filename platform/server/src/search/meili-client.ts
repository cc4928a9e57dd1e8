import type { FastifyInstance, HTTPMethods } from 'fastify';
import { Meilisearch, MeilisearchApiError, type MeilisearchErrorResponse } from 'meilisearch';
import type { PlatformConfig } from '../config';

const clientAgents = ['dealer-platform indexer'];

/** The official client against a Meilisearch host: a real server, or the platform's own `/meili` over HTTP. */
export function meiliClient(host: string, apiKey: string): Meilisearch {
  return new Meilisearch({ host, apiKey, clientAgents });
}

/**
 * The embedded engine's `/meili` API answered in process: the official client, with each request
 * handed to the platform app by `inject` instead of a socket. Same routes, key checks, validation
 * and answers as over HTTP, so the indexer can fill the index before the server listens.
 *
 * Uses the client's `httpClient` option (deprecated in 0.62, kept for now). Should it go, the
 * fallback is `meiliClient(loopbackSearchHost(config), key)` once the server listens.
 */
export class InProcessMeili {
  private app: FastifyInstance | null = null;

  /** Gives the client the app to answer it; until then a request fails. */
  attach(app: FastifyInstance) {
    this.app = app;
  }

  client(apiKey: string): Meilisearch {
    return new Meilisearch({
      host: 'http://embedded.invalid/meili',
      apiKey,
      clientAgents,
      httpClient: (input, init) => this.request(input, init),
    });
  }

  private async request(input: Parameters<typeof fetch>[0], init: RequestInit | undefined): Promise<unknown> {
    if (!this.app) throw new Error('The embedded search engine is not attached to the platform app yet.');
    const url = new URL(input instanceof Request ? input.url : String(input));
    const res = await this.app.inject({
      method: (init?.method ?? 'GET') as HTTPMethods,
      url: `${url.pathname}${url.search}`,
      headers: Object.fromEntries(new Headers(init?.headers).entries()),
      ...(typeof init?.body === 'string' ? { payload: init.body } : {}),
    });
    const body = res.body === '' ? undefined : (JSON.parse(res.body) as unknown);
    if (res.statusCode >= 400) {
      // As the client does for a fetch answer: its own error class, the body as the cause.
      throw new MeilisearchApiError(
        new Response(res.body, { status: res.statusCode, statusText: res.statusMessage }),
        body as MeilisearchErrorResponse | undefined,
      );
    }
    return body;
  }
}

/** The platform's own `/meili`, as a process on this machine reaches it (the CLI, while the server runs). */
export function loopbackSearchHost(config: Pick<PlatformConfig, 'host' | 'port'>): string {
  const host = ['0.0.0.0', '::', ''].includes(config.host) ? '127.0.0.1' : config.host.includes(':') ? `[${config.host}]` : config.host;
  return `http://${host}:${config.port}/meili`;
}

/** The client the indexer writes with: the real Meilisearch (master key) when configured, else the embedded engine (search admin key). */
export function indexerClient(config: Pick<PlatformConfig, 'meilisearch' | 'searchAdminKey'>, embedded: () => Meilisearch): Meilisearch {
  return config.meilisearch ? meiliClient(config.meilisearch.url, config.meilisearch.masterKey) : embedded();
}
