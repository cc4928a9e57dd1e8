import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';

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
      logLevel: 'info',
    });
    expect(config.adminKey.length).toBeGreaterThanOrEqual(16);
    expect(config.searchKeySecret.length).toBeGreaterThanOrEqual(16);
  });

  it('makes up a different admin key and search secret on each start when none is set', () => {
    const a = loadConfig({}, cwd);
    const b = loadConfig({}, cwd);
    expect(a.adminKey).not.toBe(b.adminKey);
    expect(a.searchKeySecret).not.toBe(b.searchKeySecret);
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
        SEARCH_KEY_SECRET: 'a-search-secret-of-enough-length',
        LOG_LEVEL: 'warn',
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
      searchKeySecret: 'a-search-secret-of-enough-length',
      logLevel: 'warn',
    });
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
    ['REMOTES_BASE_URL', { REMOTES_BASE_URL: 'cdn.example.com' }],
    ['PUBLIC_ORIGIN_SUFFIX', { PUBLIC_ORIGIN_SUFFIX: 'https://sites.example.com' }],
    ['LOG_LEVEL', { LOG_LEVEL: 'verbose' }],
    ['DATA_DIR', { DATA_DIR: '' }],
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
  });
});
