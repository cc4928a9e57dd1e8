import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { z } from 'zod';

const envSchema = z.object({
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
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

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
  logLevel: z.infer<typeof envSchema>['LOG_LEVEL'];
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
    logLevel: e.LOG_LEVEL,
  };
}
