// The e2e suite drives Debian's Chromium (no browser downloads here). As root we install it;
// otherwise we stop with a message saying what to install.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'].filter(Boolean);

export function findChromium() {
  return candidates.find((path) => existsSync(path)) ?? null;
}

export function ensureChromium() {
  const found = findChromium();
  if (found) return found;
  if (process.getuid?.() === 0) {
    console.log('[setup] installing Debian chromium for the e2e tests');
    execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit' });
    execFileSync('apt-get', ['install', '-y', '-qq', 'chromium'], {
      stdio: 'inherit',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
    const installed = findChromium();
    if (installed) return installed;
  }
  console.error('Chromium is needed for the end-to-end tests. Install it with: sudo apt-get install -y chromium (or set CHROMIUM_PATH).');
  process.exit(1);
}
