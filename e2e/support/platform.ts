import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { adminKey, e2ePort } from '../playwright.config';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

export const siteUrl = (slug: string, path = '/') => `http://${slug}.localhost:${e2ePort}${path}`;

const cliEnv = () => ({
  ...process.env,
  DATA_DIR: process.env.E2E_DATA_DIR!,
  REMOTES_DIR: join(root, 'dist', 'remotes'),
  LOG_LEVEL: 'silent',
});

/** `pnpm platform …` against the e2e server's database. */
export function platformCli(...args: string[]): string {
  return execFileSync(process.execPath, [join(root, 'platform/server/dist/platform-cli.cjs'), ...args], {
    cwd: root,
    env: cliEnv(),
    encoding: 'utf8',
  });
}

/** `pnpm remote:publish …`: builds a remote as a new version; returns the version it printed. */
export function publishRemote(remote: string, ...flags: string[]): string {
  const output = execFileSync(process.execPath, [join(root, 'scripts/remote-publish.mjs'), remote, ...flags], {
    cwd: root,
    env: cliEnv(),
    encoding: 'utf8',
  });
  const match = new RegExp(`${remote} (\\S+)`).exec(output.trim().split('\n').pop() ?? '');
  if (!match) throw new Error(`remote:publish printed no version:\n${output}`);
  return match[1]!;
}

export async function adminGet(path: string, key: string | null = adminKey) {
  const response = await fetch(`http://127.0.0.1:${e2ePort}${path}`, { headers: key ? { Authorization: `Bearer ${key}` } : {} });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** A dealer's (or the platform's) POST to the admin API. */
export async function adminPost(path: string, body: unknown, key: string | null = adminKey) {
  const response = await fetch(`http://127.0.0.1:${e2ePort}${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...(key ? { Authorization: `Bearer ${key}` } : {}) },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}
