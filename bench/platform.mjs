// The built platform on a loopback port with a fresh data folder, and Chromium with the flags
// this closed network needs. Shared by the bench scripts.
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from '@playwright/test';
import { root } from '../scripts/pnpm.mjs';
import { serverEnv, serverNodeArgs } from '../scripts/server-process.mjs';

export const chromiumPath = process.env.CHROMIUM_PATH ?? process.env.CHROME_PATH ?? '/usr/bin/chromium';
export const chromiumFlags = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
export const site = 'metro-motor-group';

/**
 * Starts platform/server/dist/main.cjs as `npm run serve` does (with `nodeArgs` too) and resolves
 * once /api/health answers.
 */
export async function startPlatform(port, { nodeArgs = [] } = {}) {
  const server = spawn(process.execPath, [...serverNodeArgs, ...nodeArgs, join(root, 'platform/server/dist/main.cjs')], {
    cwd: root,
    // The load comes from one address standing for a crowd of shoppers: the per-address search
    // limit (which server-rendered pages count against too) would turn it into one abusive visitor.
    env: {
      ...serverEnv,
      ...process.env,
      PORT: String(port),
      DATA_DIR: mkdtempSync(join(tmpdir(), 'dealer-bench-')),
      LOG_LEVEL: 'warn',
      PLATFORM_ADMIN_KEY: 'bench-admin-key-0123456789',
      SEARCH_RATE_LIMIT: '0',
    },
    stdio: 'ignore',
  });
  let up = false;
  for (let i = 0; i < 150 && !up; i++) {
    up = await fetch(`http://127.0.0.1:${port}/api/health`)
      .then((r) => r.ok)
      .catch(() => false);
    if (!up) await new Promise((r) => setTimeout(r, 200));
  }
  if (!up) {
    server.kill();
    throw new Error(`The platform did not start on port ${port}`);
  }
  return {
    origin: `http://${site}.localhost:${port}`,
    stop: () => server.kill(),
    stopped: () => new Promise((resolve) => (server.exitCode !== null ? resolve() : server.once('exit', resolve))),
  };
}

export const launchChromium = () => chromium.launch({ executablePath: chromiumPath, args: chromiumFlags });
