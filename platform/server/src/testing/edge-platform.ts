/**
 * Test support for the edge-hardening suites (http/edge-hardening.proxy-and-origin.test.ts and
 * http/edge-hardening.bad-and-slow-requests.test.ts): the platform behind one trusted proxy, with a
 * small event limit and HTTP timeouts short enough for a test, and the event a page posts when a
 * remote does not load. Production code does not import it.
 */
import { createTestPlatform, type TestPlatform } from './test-platform';

/** The proxy this platform trusts; app.inject's own 127.0.0.1 is an ordinary client here. */
export const proxy = '10.0.0.1';
export const eventsPerMinute = 5;

export const createEdgePlatform = () =>
  createTestPlatform({
    env: {
      TRUSTED_PROXIES: proxy,
      EVENTS_RATE_LIMIT: String(eventsPerMinute),
      LEADS_MOCK_MODE: '1',
      // Short enough for a test to see a slow client cut off.
      HTTP_HEADERS_TIMEOUT_MS: '300',
      HTTP_REQUEST_TIMEOUT_MS: '600',
      HTTP_IDLE_TIMEOUT_MS: '1000',
      HTTP_KEEP_ALIVE_TIMEOUT_MS: '300',
    },
  });

export const host = (slug: string) => `${slug}.localhost:3000`;
export const event = { category: 'remote_load_failed', url: '/cars/x', error_message: 'mf-vehicle did not load' };

/** Posts `event` (or the payload given) to a site's /api/events on the platform `platform()` gives. */
export const eventPoster =
  (platform: () => TestPlatform) =>
  (slug: string, opts: { ip?: string; via?: string; headers?: Record<string, string>; payload?: string } = {}) =>
    platform().app.inject({
      method: 'POST',
      url: '/api/events',
      remoteAddress: opts.via,
      headers: {
        host: host(slug),
        'content-type': 'application/json',
        ...(opts.ip ? { 'x-forwarded-for': opts.ip } : {}),
        ...opts.headers,
      },
      payload: opts.payload ?? JSON.stringify(event),
    });
