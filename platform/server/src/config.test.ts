import { mkdtempSync, readFileSync, rmSync, statSync, existsSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, keepGeneratedKeys, loadConfig } from './config';

const cwd = '/srv/platform';

function configErrorOf(env: NodeJS.ProcessEnv): ConfigError {
  try {
    loadConfig(env, cwd);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error(`${JSON.stringify(env)} was accepted`);
}

describe('platform configuration', () => {
  it('starts with working defaults when nothing is set', () => {
    const config = loadConfig({}, cwd);
    expect(config).toMatchObject({
      port: 3000,
      host: '0.0.0.0',
      dataDir: '/srv/platform/data',
      databaseUrl: null,
      adminKeyGenerated: true,
      publicOriginSuffix: null,
      remotesDir: '/srv/platform/dist/remotes',
      remotesBaseUrl: null,
      shellClientDir: '/srv/platform/shell/dist/client',
      consoleClientDir: '/srv/platform/console/dist/client',
      logLevel: 'info',
      searchAdminKeyGenerated: true,
      searchKeySecretGenerated: true,
      meilisearch: null,
      http: {
        trustedProxies: [],
        headersTimeoutMs: 15_000,
        requestTimeoutMs: 90_000,
        idleTimeoutMs: 30_000,
        keepAliveTimeoutMs: 72_000,
        maxConnectionsPerAddress: 64,
        hstsMaxAgeSeconds: 31_536_000,
      },
      chat: { pollsPerMinute: 60 },
      // Feeds are never fetched from this machine or a private network unless told.
      feeds: { allowPrivateAddresses: false },
      events: { ratePerMinute: 120, retentionDays: 400 },
      search: {
        ratePerMinute: 3000,
        publicBudget: { queries: 30, hits: 100, facets: 64, highlightedFields: 1000, filterBytes: 64 * 1024 },
      },
      images: {
        cacheMaxBytes: 1024 * 1024 * 1024,
        renderConcurrency: Math.max(1, availableParallelism() - 1),
        renderQueue: 32,
        smallRenderConcurrency: 1,
        rendersPerAddress: 24,
        renderRatePerMinute: 240,
      },
      leads: {
        uploads: {
          maxBytes: 10 * 1024 * 1024,
          maxFiles: 10,
          maxBytesPerLead: 25 * 1024 * 1024,
          maxBytesPerAddressPerDay: 100 * 1024 * 1024,
          maxBytesPerSitePerDay: 2048 * 1024 * 1024,
        },
      },
      reservations: { holdsPerPerson: 2 },
      accounts: {
        emailFrom: 'no-reply@dealer-platform.localhost',
        alertIntervalMs: 60_000,
        signInCodes: { perAddressAndClient: 5, perAddress: 10 },
        consoleCodesPerHour: 10,
      },
    });
    expect(config.adminKey.length).toBeGreaterThanOrEqual(16);
    expect(config.searchKeySecret.length).toBeGreaterThanOrEqual(16);
    expect(config.searchAdminKey.length).toBeGreaterThanOrEqual(16);
  });

  it('makes up a different admin key, search secret and search admin key on each start when none is set', () => {
    const a = loadConfig({}, cwd);
    const b = loadConfig({}, cwd);
    expect(a.adminKey).not.toBe(b.adminKey);
    expect(a.searchKeySecret).not.toBe(b.searchKeySecret);
    expect(a.searchAdminKey).not.toBe(b.searchAdminKey);
    expect(a.searchAdminKey).not.toBe(a.adminKey);
  });

  it('takes every value it is given', () => {
    const config = loadConfig(
      {
        PORT: '8080',
        HOST: '127.0.0.1',
        DATA_DIR: 'var/data',
        DATABASE_URL: 'postgresql://dealer@db:5432/platform',
        PLATFORM_ADMIN_KEY: 'an-admin-key-of-enough-length',
        PUBLIC_ORIGIN_SUFFIX: 'sites.example.com',
        REMOTES_DIR: '/opt/remotes',
        REMOTES_BASE_URL: 'https://cdn.example.com/mf/',
        SHELL_CLIENT_DIR: 'client',
        CONSOLE_CLIENT_DIR: 'console-client',
        SEARCH_KEY_SECRET: 'a-search-secret-of-enough-length',
        SEARCH_ADMIN_KEY: 'a-search-admin-key-of-enough-length',
        MEILISEARCH_URL: 'https://search.example.com/',
        MEILISEARCH_MASTER_KEY: 'a-meilisearch-master-key',
        MEILISEARCH_SEARCH_KEY: 'a-meilisearch-search-key',
        MEILISEARCH_SEARCH_KEY_UID: '6062abda-a5aa-4414-ac91-ecd7944c0f8d',
        LOG_LEVEL: 'warn',
        TRUSTED_PROXIES: '10.0.0.1, 10.1.0.0/16,fd00::/8 ,loopback',
        SERVER_RENDER_BUDGET_MS: '400',
        KEPT_MARKUP_MB: '0',
        RENDER_THREADS: '3',
        HTTP_HEADERS_TIMEOUT_MS: '5000',
        HTTP_REQUEST_TIMEOUT_MS: '60000',
        HTTP_IDLE_TIMEOUT_MS: '20000',
        HTTP_KEEP_ALIVE_TIMEOUT_MS: '65000',
        EVENTS_RATE_LIMIT: '30',
        SEARCH_RATE_LIMIT: '0',
        SEARCH_PUBLIC_MAX_QUERIES: '10',
        SEARCH_PUBLIC_MAX_HITS: '48',
        SEARCH_PUBLIC_MAX_FACETS: '20',
        SEARCH_PUBLIC_MAX_HIGHLIGHTS: '0',
        SEARCH_PUBLIC_MAX_FILTER_KB: '16',
        IMAGE_CACHE_MAX_MB: '256',
        IMAGE_RENDER_CONCURRENCY: '4',
        IMAGE_RENDER_QUEUE: '8',
        PAYMENTS: 'live',
        STRIPE_API_URL: 'http://127.0.0.1:12111',
        ACCOUNT_EMAIL_FROM: 'garage@dealer.example',
        GARAGE_ALERT_INTERVAL_MS: '5000',
        SIGN_IN_CODES_PER_ADDRESS_AND_CLIENT: '3',
        SIGN_IN_CODES_PER_ADDRESS: '8',
        CONSOLE_SIGN_IN_CODES_PER_ADDRESS: '4',
        FACEBOOK_GRAPH_URL: 'http://127.0.0.1:9999',
        AD_EVENTS_RATE_LIMIT: '10',
        HTTP_MAX_CONNECTIONS_PER_ADDRESS: '0',
        HSTS_MAX_AGE_SECONDS: '86400',
        CHAT_POLL_RATE_LIMIT: '30',
        FEEDS_ALLOW_PRIVATE_ADDRESSES: 'yes',
      },
      cwd,
    );
    expect(config).toEqual({
      port: 8080,
      host: '127.0.0.1',
      dataDir: '/srv/platform/var/data',
      databaseUrl: 'postgresql://dealer@db:5432/platform',
      adminKey: 'an-admin-key-of-enough-length',
      adminKeyGenerated: false,
      publicOriginSuffix: 'sites.example.com',
      remotesDir: '/opt/remotes',
      remotesBaseUrl: 'https://cdn.example.com/mf',
      shellClientDir: '/srv/platform/client',
      serverRenderBudgetMs: 400,
      keptMarkupBytes: 0,
      renderThreads: 3,
      consoleClientDir: '/srv/platform/console-client',
      searchKeySecret: 'a-search-secret-of-enough-length',
      searchKeySecretGenerated: false,
      searchAdminKey: 'a-search-admin-key-of-enough-length',
      searchAdminKeyGenerated: false,
      meilisearch: {
        url: 'https://search.example.com',
        masterKey: 'a-meilisearch-master-key',
        searchKey: 'a-meilisearch-search-key',
        searchKeyUid: '6062abda-a5aa-4414-ac91-ecd7944c0f8d',
      },
      logLevel: 'warn',
      http: {
        trustedProxies: ['10.0.0.1', '10.1.0.0/16', 'fd00::/8', 'loopback'],
        headersTimeoutMs: 5000,
        requestTimeoutMs: 60_000,
        idleTimeoutMs: 20_000,
        keepAliveTimeoutMs: 65_000,
        maxConnectionsPerAddress: 0,
        hstsMaxAgeSeconds: 86_400,
      },
      chat: { pollsPerMinute: 30 },
      feeds: { allowPrivateAddresses: true },
      events: { ratePerMinute: 30, retentionDays: 400 },
      search: { ratePerMinute: 0, publicBudget: { queries: 10, hits: 48, facets: 20, highlightedFields: 0, filterBytes: 16 * 1024 } },
      images: {
        cacheMaxBytes: 256 * 1024 * 1024,
        renderConcurrency: 4,
        renderQueue: 8,
        smallRenderConcurrency: 1,
        rendersPerAddress: 24,
        renderRatePerMinute: 240,
      },
      leads: {
        mockMode: false,
        tokenSecret: expect.any(String),
        tokenSecretGenerated: true,
        rateLimit: { max: 20, windowMs: 600_000 },
        minFillMs: 2000,
        bookingLimits: { perContactPerDay: 2, perContactUpcoming: 4, perAddressPerDay: 4 },
        uploads: {
          maxBytes: 10 * 1024 * 1024,
          maxFiles: 10,
          maxBytesPerLead: 25 * 1024 * 1024,
          maxBytesPerAddressPerDay: 100 * 1024 * 1024,
          maxBytesPerSitePerDay: 2048 * 1024 * 1024,
        },
        delivery: {
          worker: true,
          pollMs: 250,
          backoffMs: [1000, 5000, 30000, 120000, 600000, 1800000, 3600000],
          maxAttempts: 8,
          leaseMs: 120_000,
          smtpUrl: null,
          emailFrom: 'leads@dealer-platform.localhost',
        },
      },
      payments: { mode: 'live', stripeApi: { host: '127.0.0.1', port: 12111, protocol: 'http' } },
      reservations: { holdsPerPerson: 2 },
      regoLookup: null,
      accounts: {
        emailFrom: 'garage@dealer.example',
        alertIntervalMs: 5000,
        signInCodes: { perAddressAndClient: 3, perAddress: 8 },
        consoleCodesPerHour: 4,
      },
      adEvents: { ratePerMinute: 10, graphUrl: 'http://127.0.0.1:9999', retentionDays: 30 },
    });
  });

  it('takes test payments unless told live, and refuses a Stripe API address that is not an origin', () => {
    expect(loadConfig({}, cwd).payments).toEqual({ mode: 'test', stripeApi: null });
    expect(configErrorOf({ PAYMENTS: 'real' }).message).toContain('PAYMENTS must be test or live');
    expect(configErrorOf({ STRIPE_API_URL: 'https://api.stripe.com/v1' }).message).toContain(
      'STRIPE_API_URL must be an http:// or https:// origin',
    );
  });

  it('lets one shopper hold two cars of a site at once unless told another number (0: no limit), and refuses one that is not a whole number of 0 or more', () => {
    expect(loadConfig({}, cwd).reservations).toEqual({ holdsPerPerson: 2 });
    expect(loadConfig({ RESERVATION_HOLDS_PER_PERSON: '0' }, cwd).reservations).toEqual({ holdsPerPerson: 0 });
    expect(configErrorOf({ RESERVATION_HOLDS_PER_PERSON: '-1' }).message).toContain('RESERVATION_HOLDS_PER_PERSON must be 0 (off) or more');
    expect(configErrorOf({ RESERVATION_HOLDS_PER_PERSON: 'two' }).message).toContain('RESERVATION_HOLDS_PER_PERSON must be a whole number');
  });

  it('sends server-side ad events to graph.facebook.com unless told another Graph API URL, and limits them per address', () => {
    expect(loadConfig({}, cwd).adEvents).toEqual({ ratePerMinute: 60, graphUrl: 'https://graph.facebook.com', retentionDays: 30 });
    expect(loadConfig({ FACEBOOK_GRAPH_URL: 'http://127.0.0.1:9999/', AD_EVENTS_RATE_LIMIT: '0' }, cwd).adEvents).toEqual({
      ratePerMinute: 0,
      graphUrl: 'http://127.0.0.1:9999',
      retentionDays: 30,
    });
    expect(loadConfig({ FACEBOOK_GRAPH_URL: 'https://proxy.example/meta/' }, cwd).adEvents.graphUrl).toBe('https://proxy.example/meta');
    expect(configErrorOf({ FACEBOOK_GRAPH_URL: 'graph.facebook.com' }).message).toContain(
      'FACEBOOK_GRAPH_URL must be an http:// or https:// URL',
    );
    expect(configErrorOf({ FACEBOOK_GRAPH_URL: 'https://graph.facebook.com/?access_token=x' }).message).toContain(
      'FACEBOOK_GRAPH_URL must be an http:// or https:// URL without a query',
    );
    expect(configErrorOf({ AD_EVENTS_RATE_LIMIT: '-1' }).message).toContain('AD_EVENTS_RATE_LIMIT must be 0 (off) or more');
  });

  it('lets server renders keep 16 MB of repeated parts unless told otherwise, 0 turning it off', () => {
    expect(loadConfig({}, cwd).keptMarkupBytes).toBe(16 * 1024 * 1024);
    expect(loadConfig({ KEPT_MARKUP_MB: '64' }, cwd).keptMarkupBytes).toBe(64 * 1024 * 1024);
    expect(configErrorOf({ KEPT_MARKUP_MB: '-1' }).message).toContain('KEPT_MARKUP_MB must be 0 (off) or more');
    expect(configErrorOf({ KEPT_MARKUP_MB: 'lots' }).message).toContain('KEPT_MARKUP_MB must be a whole number of megabytes');
  });

  it('renders pages on threads for every core but one (at most four) unless told otherwise, 0 rendering on the main thread', () => {
    expect(loadConfig({}, cwd).renderThreads).toBe(Math.min(4, availableParallelism() - 1));
    expect(loadConfig({ RENDER_THREADS: '0' }, cwd).renderThreads).toBe(0);
    expect(configErrorOf({ RENDER_THREADS: '-1' }).message).toContain('RENDER_THREADS must be 0 (off) or more');
    expect(configErrorOf({ RENDER_THREADS: 'two' }).message).toContain('RENDER_THREADS must be a whole number');
  });

  it('keeps events 400 days and sent ad events 30 unless told otherwise, and refuses an ad event retention shorter than its retries', () => {
    const config = loadConfig({ EVENTS_RETENTION_DAYS: '90', AD_EVENTS_RETENTION_DAYS: '7' }, cwd);
    expect([config.events.retentionDays, config.adEvents.retentionDays]).toEqual([90, 7]);
    expect(configErrorOf({ EVENTS_RETENTION_DAYS: '0' }).message).toContain('EVENTS_RETENTION_DAYS must be at least 1');
    expect(configErrorOf({ EVENTS_RETENTION_DAYS: 'forever' }).message).toContain('EVENTS_RETENTION_DAYS must be a number of days');
    expect(configErrorOf({ AD_EVENTS_RETENTION_DAYS: '2' }).message).toContain('AD_EVENTS_RETENTION_DAYS must be at least 7');
  });

  it('needs the master key, the search key and its uid with a Meilisearch URL, naming each one missing', () => {
    const error = configErrorOf({ MEILISEARCH_URL: 'http://127.0.0.1:7700' });
    for (const variable of ['MEILISEARCH_MASTER_KEY', 'MEILISEARCH_SEARCH_KEY', 'MEILISEARCH_SEARCH_KEY_UID']) {
      expect(error.message).toContain(`${variable}: ${variable} is required when MEILISEARCH_URL is set`);
    }
  });

  it('ignores the Meilisearch keys without a Meilisearch URL: search stays embedded', () => {
    expect(loadConfig({ MEILISEARCH_SEARCH_KEY: 'x' }, cwd).meilisearch).toBeNull();
  });

  it('accepts a postgres:// database URL and a local origin suffix with a port', () => {
    const config = loadConfig({ DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/test', PUBLIC_ORIGIN_SUFFIX: 'localhost:3000' }, cwd);
    expect(config.databaseUrl).toBe('postgres://postgres@127.0.0.1:5432/test');
    expect(config.publicOriginSuffix).toBe('localhost:3000');
  });

  it.each<[string, NodeJS.ProcessEnv]>([
    ['PORT', { PORT: 'abc' }],
    ['PORT', { PORT: '70000' }],
    ['PORT', { PORT: '0' }],
    ['PORT', { PORT: '80.5' }],
    ['DATABASE_URL', { DATABASE_URL: 'mysql://x' }],
    ['PLATFORM_ADMIN_KEY', { PLATFORM_ADMIN_KEY: 'short' }],
    ['SEARCH_KEY_SECRET', { SEARCH_KEY_SECRET: 'short' }],
    ['SEARCH_ADMIN_KEY', { SEARCH_ADMIN_KEY: 'short' }],
    ['MEILISEARCH_URL', { MEILISEARCH_URL: 'search.example.com:7700' }],
    ['MEILISEARCH_MASTER_KEY', { MEILISEARCH_MASTER_KEY: 'short' }],
    ['MEILISEARCH_SEARCH_KEY_UID', { MEILISEARCH_SEARCH_KEY_UID: 'not-a-uuid' }],
    ['REMOTES_BASE_URL', { REMOTES_BASE_URL: 'cdn.example.com' }],
    ['PUBLIC_ORIGIN_SUFFIX', { PUBLIC_ORIGIN_SUFFIX: 'https://sites.example.com' }],
    ['LOG_LEVEL', { LOG_LEVEL: 'verbose' }],
    ['DATA_DIR', { DATA_DIR: '' }],
    ['TRUSTED_PROXIES', { TRUSTED_PROXIES: 'proxy.example.com' }],
    ['TRUSTED_PROXIES', { TRUSTED_PROXIES: '10.0.0.0/33' }],
    ['TRUSTED_PROXIES', { TRUSTED_PROXIES: '10.0.0.1/8/8' }],
    ['TRUSTED_PROXIES', { TRUSTED_PROXIES: '10.0.0.1,*' }],
    ['SERVER_RENDER_BUDGET_MS', { SERVER_RENDER_BUDGET_MS: '5' }],
    ['HTTP_HEADERS_TIMEOUT_MS', { HTTP_HEADERS_TIMEOUT_MS: 'soon' }],
    ['HTTP_REQUEST_TIMEOUT_MS', { HTTP_REQUEST_TIMEOUT_MS: '0' }],
    ['HTTP_IDLE_TIMEOUT_MS', { HTTP_IDLE_TIMEOUT_MS: '1.5' }],
    ['HTTP_KEEP_ALIVE_TIMEOUT_MS', { HTTP_KEEP_ALIVE_TIMEOUT_MS: '-1' }],
    ['EVENTS_RATE_LIMIT', { EVENTS_RATE_LIMIT: 'many' }],
    ['SEARCH_RATE_LIMIT', { SEARCH_RATE_LIMIT: '-1' }],
    ['SEARCH_PUBLIC_MAX_QUERIES', { SEARCH_PUBLIC_MAX_QUERIES: '0' }],
    ['SEARCH_PUBLIC_MAX_FILTER_KB', { SEARCH_PUBLIC_MAX_FILTER_KB: 'lots' }],
    ['LEAD_UPLOAD_MAX_MB_PER_ADDRESS_PER_DAY', { LEAD_UPLOAD_MAX_MB_PER_ADDRESS_PER_DAY: '-5' }],
    ['IMAGE_CACHE_MAX_MB', { IMAGE_CACHE_MAX_MB: '0' }],
    ['IMAGE_RENDER_CONCURRENCY', { IMAGE_RENDER_CONCURRENCY: '0' }],
    ['IMAGE_RENDER_QUEUE', { IMAGE_RENDER_QUEUE: '-1' }],
    ['ACCOUNT_EMAIL_FROM', { ACCOUNT_EMAIL_FROM: 'Garage <garage@dealer.example>' }],
    ['GARAGE_ALERT_INTERVAL_MS', { GARAGE_ALERT_INTERVAL_MS: '10' }],
    ['SIGN_IN_CODES_PER_ADDRESS_AND_CLIENT', { SIGN_IN_CODES_PER_ADDRESS_AND_CLIENT: '0' }],
    ['SIGN_IN_CODES_PER_ADDRESS', { SIGN_IN_CODES_PER_ADDRESS: 'many' }],
    ['SIGN_IN_CODES_PER_ADDRESS', { SIGN_IN_CODES_PER_ADDRESS: '5' }],
    ['CONSOLE_SIGN_IN_CODES_PER_ADDRESS', { CONSOLE_SIGN_IN_CODES_PER_ADDRESS: '0' }],
    ['FACEBOOK_GRAPH_URL', { FACEBOOK_GRAPH_URL: 'ftp://graph.facebook.com' }],
    ['AD_EVENTS_RATE_LIMIT', { AD_EVENTS_RATE_LIMIT: 'lots' }],
  ])('refuses to start with a bad %s (%j), naming it', (variable, env) => {
    const error = configErrorOf(env);
    expect(error.message).toContain(`${variable}:`);
  });

  it('names every bad variable at once', () => {
    const error = configErrorOf({ PORT: 'abc', DATABASE_URL: 'mysql://x', PLATFORM_ADMIN_KEY: 'short' });
    for (const variable of ['PORT', 'DATABASE_URL', 'PLATFORM_ADMIN_KEY']) expect(error.message).toContain(`${variable}:`);
  });

  it('explains the rule a value broke', () => {
    expect(configErrorOf({ DATABASE_URL: 'mysql://x' }).message).toContain('DATABASE_URL must be a postgres:// or postgresql:// URL');
    expect(configErrorOf({ PLATFORM_ADMIN_KEY: 'short' }).message).toContain('PLATFORM_ADMIN_KEY must be at least 16 characters');
    expect(configErrorOf({ TRUSTED_PROXIES: 'proxy.example.com' }).message).toContain(
      'TRUSTED_PROXIES: TRUSTED_PROXIES must be IP addresses or CIDR ranges separated by commas, e.g. 10.0.0.1,10.1.0.0/16 (or loopback, linklocal, uniquelocal)',
    );
    expect(configErrorOf({ HTTP_HEADERS_TIMEOUT_MS: 'soon' }).message).toContain(
      'HTTP_HEADERS_TIMEOUT_MS: HTTP_HEADERS_TIMEOUT_MS must be a number of milliseconds',
    );
  });

  it('refuses a connection cap, an HSTS age or a chat poll limit that is not a whole number of 0 or more', () => {
    expect(configErrorOf({ HTTP_MAX_CONNECTIONS_PER_ADDRESS: '-1' }).message).toContain(
      'HTTP_MAX_CONNECTIONS_PER_ADDRESS must be 0 (off) or more',
    );
    expect(configErrorOf({ HTTP_MAX_CONNECTIONS_PER_ADDRESS: 'many' }).message).toContain(
      'HTTP_MAX_CONNECTIONS_PER_ADDRESS must be a whole number',
    );
    expect(configErrorOf({ HSTS_MAX_AGE_SECONDS: '1.5' }).message).toContain('HSTS_MAX_AGE_SECONDS must be a whole number of seconds');
    expect(configErrorOf({ HSTS_MAX_AGE_SECONDS: '-1' }).message).toContain(
      'HSTS_MAX_AGE_SECONDS must be 0 or more (0 tells browsers to forget it)',
    );
    expect(configErrorOf({ CHAT_POLL_RATE_LIMIT: '-5' }).message).toContain('CHAT_POLL_RATE_LIMIT must be 0 (off) or more');
    expect(configErrorOf({ CHAT_POLL_RATE_LIMIT: 'often' }).message).toContain('CHAT_POLL_RATE_LIMIT must be a whole number');
  });

  it('trusts no proxy unless told to: an empty TRUSTED_PROXIES is none', () => {
    expect(loadConfig({}, cwd).http.trustedProxies).toEqual([]);
    expect(loadConfig({ TRUSTED_PROXIES: ' , ' }, cwd).http.trustedProxies).toEqual([]);
    expect(loadConfig({ TRUSTED_PROXIES: '::1,2001:db8::/32' }, cwd).http.trustedProxies).toEqual(['::1', '2001:db8::/32']);
  });

  it('refuses headers allowed to take longer than the whole request (Node would not start)', () => {
    expect(configErrorOf({ HTTP_HEADERS_TIMEOUT_MS: '20000', HTTP_REQUEST_TIMEOUT_MS: '10000' }).message).toContain(
      'HTTP_HEADERS_TIMEOUT_MS: HTTP_HEADERS_TIMEOUT_MS must not be longer than HTTP_REQUEST_TIMEOUT_MS',
    );
  });

  describe('generated keys kept under DATA_DIR', () => {
    const withDataDir = (run: (dataDir: string) => void) => {
      const dataDir = mkdtempSync(join(tmpdir(), 'dealer-config-test-'));
      try {
        run(dataDir);
      } finally {
        rmSync(dataDir, { recursive: true, force: true });
      }
    };

    it('keeps a generated admin key and search admin key, readable by the owner only, and reuses them on the next start', () => {
      withDataDir((dataDir) => {
        const first = loadConfig({ DATA_DIR: dataDir }, cwd);
        keepGeneratedKeys(first);
        expect(readFileSync(join(dataDir, 'admin-key'), 'utf8')).toBe(first.adminKey);
        expect(readFileSync(join(dataDir, 'search-admin-key'), 'utf8')).toBe(first.searchAdminKey);
        expect(statSync(join(dataDir, 'search-admin-key')).mode & 0o077).toBe(0);
        const second = loadConfig({ DATA_DIR: dataDir }, cwd);
        keepGeneratedKeys(second);
        expect(second.adminKey).toBe(first.adminKey);
        expect(second.searchAdminKey).toBe(first.searchAdminKey);
      });
    });

    it('keeps a generated search key secret, so the search keys of open tabs still work after a restart', () => {
      withDataDir((dataDir) => {
        const first = loadConfig({ DATA_DIR: dataDir }, cwd);
        keepGeneratedKeys(first);
        expect(readFileSync(join(dataDir, 'search-key-secret'), 'utf8')).toBe(first.searchKeySecret);
        expect(statSync(join(dataDir, 'search-key-secret')).mode & 0o077).toBe(0);
        const second = loadConfig({ DATA_DIR: dataDir }, cwd);
        expect(second.searchKeySecret).not.toBe(first.searchKeySecret);
        keepGeneratedKeys(second);
        expect(second.searchKeySecret).toBe(first.searchKeySecret);
      });
    });

    it('never writes a search key secret it was given, nor lets a kept one override it', () => {
      withDataDir((dataDir) => {
        keepGeneratedKeys(loadConfig({ DATA_DIR: dataDir }, cwd));
        const kept = readFileSync(join(dataDir, 'search-key-secret'), 'utf8');
        const given = loadConfig({ DATA_DIR: dataDir, SEARCH_KEY_SECRET: 'a-search-secret-of-enough-length' }, cwd);
        keepGeneratedKeys(given);
        expect(given.searchKeySecret).toBe('a-search-secret-of-enough-length');
        expect(readFileSync(join(dataDir, 'search-key-secret'), 'utf8')).toBe(kept);
      });
      withDataDir((dataDir) => {
        keepGeneratedKeys(loadConfig({ DATA_DIR: dataDir, SEARCH_KEY_SECRET: 'a-search-secret-of-enough-length' }, cwd));
        expect(existsSync(join(dataDir, 'search-key-secret'))).toBe(false);
      });
    });

    it('never writes a key it was given', () => {
      withDataDir((dataDir) => {
        const config = loadConfig(
          {
            DATA_DIR: dataDir,
            PLATFORM_ADMIN_KEY: 'an-admin-key-of-enough-length',
            SEARCH_ADMIN_KEY: 'a-search-admin-key-of-enough-length',
          },
          cwd,
        );
        keepGeneratedKeys(config);
        expect(existsSync(join(dataDir, 'admin-key'))).toBe(false);
        expect(existsSync(join(dataDir, 'search-admin-key'))).toBe(false);
        expect(config.searchAdminKey).toBe('a-search-admin-key-of-enough-length');
      });
    });
  });
});
