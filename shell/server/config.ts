import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { z } from 'zod';

// The form Meilisearch gives API key uids in, and the only one generateTenantToken accepts.
const uuidV4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

const baseEnvSchema = z.object({
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'DATABASE_URL must be a postgres:// or postgresql:// URL')
    .optional(),
  PLATFORM_ADMIN_KEY: z.string().min(16, 'PLATFORM_ADMIN_KEY must be at least 16 characters').optional(),
  PUBLIC_ORIGIN_SUFFIX: z
    .string()
    .regex(/^[a-z0-9.-]+(:\d+)?$/i, 'PUBLIC_ORIGIN_SUFFIX must look like "localhost:3000" or "sites.example.com"')
    .optional(),
  REMOTES_DIR: z.string().min(1).default('./dist/remotes'),
  REMOTES_BASE_URL: z.string().url('REMOTES_BASE_URL must be an absolute URL').optional(),
  SHELL_CLIENT_DIR: z.string().min(1).default('./shell/dist/client'),
  SEARCH_KEY_SECRET: z.string().min(16).optional(),
  SEARCH_ADMIN_KEY: z.string().min(16, 'SEARCH_ADMIN_KEY must be at least 16 characters').optional(),
  MEILISEARCH_URL: z
    .string()
    .regex(/^https?:\/\/[^\s/]+/, 'MEILISEARCH_URL must be an http:// or https:// URL such as http://127.0.0.1:7700')
    .pipe(z.url('MEILISEARCH_URL must be an http:// or https:// URL such as http://127.0.0.1:7700'))
    .optional(),
  MEILISEARCH_MASTER_KEY: z.string().min(16, 'MEILISEARCH_MASTER_KEY must be at least 16 characters').optional(),
  MEILISEARCH_SEARCH_KEY: z.string().min(1).optional(),
  MEILISEARCH_SEARCH_KEY_UID: z.string().regex(uuidV4, 'MEILISEARCH_SEARCH_KEY_UID must be the uid (a UUID v4) of the MEILISEARCH_SEARCH_KEY key').optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

/** A real Meilisearch needs all of its settings: the indexer writes with the master key, browsers search with tenant tokens signed by the search key. */
const envSchema = baseEnvSchema.superRefine((env, ctx) => {
  if (!env.MEILISEARCH_URL) return;
  for (const name of ['MEILISEARCH_MASTER_KEY', 'MEILISEARCH_SEARCH_KEY', 'MEILISEARCH_SEARCH_KEY_UID'] as const) {
    if (!env[name]) ctx.addIssue({ code: 'custom', path: [name], message: `${name} is required when MEILISEARCH_URL is set` });
  }
});

/** Where the platform's search runs: its own embedded engine, or a Meilisearch server. */
export type MeilisearchConfig = { url: string; masterKey: string; searchKey: string; searchKeyUid: string };

export type PlatformConfig = {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | null;
  adminKey: string;
  adminKeyGenerated: boolean;
  publicOriginSuffix: string | null;
  remotesDir: string;
  remotesBaseUrl: string | null;
  shellClientDir: string;
  searchKeySecret: string;
  /** The key the indexer uses on the embedded engine's /meili API. Never handed to a browser. */
  searchAdminKey: string;
  searchAdminKeyGenerated: boolean;
  /** Set: search runs on this Meilisearch and browsers get tenant tokens. Null: the embedded engine. */
  meilisearch: MeilisearchConfig | null;
  logLevel: z.infer<typeof baseEnvSchema>['LOG_LEVEL'];
};

export class ConfigError extends Error {}

/** Reads the environment once at start; a bad value stops the platform with a message naming it. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): PlatformConfig {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const dataDir = resolve(cwd, e.DATA_DIR);
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir,
    databaseUrl: e.DATABASE_URL ?? null,
    adminKey: e.PLATFORM_ADMIN_KEY ?? randomBytes(24).toString('base64url'),
    adminKeyGenerated: !e.PLATFORM_ADMIN_KEY,
    publicOriginSuffix: e.PUBLIC_ORIGIN_SUFFIX ?? null,
    remotesDir: resolve(cwd, e.REMOTES_DIR),
    remotesBaseUrl: e.REMOTES_BASE_URL?.replace(/\/$/, '') ?? null,
    shellClientDir: resolve(cwd, e.SHELL_CLIENT_DIR),
    searchKeySecret: e.SEARCH_KEY_SECRET ?? randomBytes(24).toString('base64url'),
    searchAdminKey: e.SEARCH_ADMIN_KEY ?? randomBytes(24).toString('base64url'),
    searchAdminKeyGenerated: !e.SEARCH_ADMIN_KEY,
    meilisearch: e.MEILISEARCH_URL
      ? { url: e.MEILISEARCH_URL.replace(/\/$/, ''), masterKey: e.MEILISEARCH_MASTER_KEY!, searchKey: e.MEILISEARCH_SEARCH_KEY!, searchKeyUid: e.MEILISEARCH_SEARCH_KEY_UID! }
      : null,
    logLevel: e.LOG_LEVEL,
  };
}

function keptKey(dataDir: string, file: string, generated: string): string {
  const path = join(dataDir, file);
  if (existsSync(path)) {
    const kept = readFileSync(path, 'utf8').trim();
    if (kept) return kept;
  }
  writeFileSync(path, generated, { mode: 0o600 });
  return generated;
}

/**
 * Locally, generated keys are kept under DATA_DIR (mode 600) so restarts, the server and the
 * CLI agree on them. A key given in the environment is never written. DATA_DIR must exist.
 */
export function keepGeneratedKeys(config: PlatformConfig): void {
  if (config.adminKeyGenerated) config.adminKey = keptKey(config.dataDir, 'admin-key', config.adminKey);
  if (config.searchAdminKeyGenerated) config.searchAdminKey = keptKey(config.dataDir, 'search-admin-key', config.searchAdminKey);
}
