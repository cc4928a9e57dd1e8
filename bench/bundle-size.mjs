// npm run bench:bundle — what a shopper downloads, in gzip bytes.
// Shell: the JS the browser actually requests from /assets on a site's home page (measured in
// Chromium against the built platform). Remotes: remoteEntry.js and each exposed module's own
// chunks, read from the published manifest of the version sites follow.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from '@playwright/test';
import { root } from '../scripts/pnpm.mjs';
import { remotes, remotesDir } from '../scripts/build-units.mjs';

const gz = (file) => gzipSync(readFileSync(file), { level: 9 }).length;
const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;
const rows = [];

async function shellInitialJs() {
  const port = 3390;
  const server = spawn(process.execPath, [join(root, 'shell/dist/server/main.cjs')], {
    cwd: root,
    env: { ...process.env, PORT: String(port), DATA_DIR: mkdtempSync(join(tmpdir(), 'dealer-bench-')), LOG_LEVEL: 'warn', PLATFORM_ADMIN_KEY: 'bench-admin-key-0123456789' },
    stdio: 'ignore',
  });
  try {
    for (let i = 0; i < 100; i++) {
      const ok = await fetch(`http://127.0.0.1:${port}/api/health`).then((r) => r.ok).catch(() => false);
      if (ok) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    const browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
    const page = await browser.newPage();
    const files = new Set();
    page.on('request', (request) => {
      const { pathname } = new URL(request.url());
      if (pathname.startsWith('/assets/') && pathname.endsWith('.js')) files.add(pathname.slice('/assets/'.length));
    });
    await page.goto(`http://metro-motor-group.localhost:${port}/`, { waitUntil: 'networkidle' });
    await browser.close();
    return [...files].reduce((sum, file) => sum + gz(join(root, 'shell/dist/client', file)), 0);
  } finally {
    server.kill();
  }
}

if (!existsSync(join(root, 'shell/dist/client/assets.json'))) {
  console.error('Build first: npm run build');
  process.exit(1);
}
rows.push(['shell', 'initial JS on the home page', kb(await shellInitialJs())]);
for (const remote of remotes) {
  const version = readFileSync(join(remotesDir, remote, 'latest'), 'utf8').trim();
  const dir = join(remotesDir, remote, version);
  const manifest = JSON.parse(readFileSync(join(dir, 'mf-manifest.json'), 'utf8'));
  rows.push([`${remote} ${version}`, 'remoteEntry.js', kb(gz(join(dir, 'remoteEntry.js')))]);
  for (const expose of manifest.exposes) {
    const js = expose.assets.js.sync.reduce((sum, file) => sum + gz(join(dir, file)), 0);
    const css = expose.assets.css.sync.reduce((sum, file) => sum + gz(join(dir, file)), 0);
    rows.push(['', `./${expose.name} (own chunks)`, `${kb(js)}${css ? ` + ${kb(css)} CSS` : ''}`]);
  }
}

const widths = [0, 1, 2].map((i) => Math.max(...rows.map((row) => row[i].length), ['bundle', 'what', 'gzip'][i].length));
const line = (cells) => `| ${cells.map((cell, i) => cell.padEnd(widths[i])).join(' | ')} |`;
console.log(line(['bundle', 'what', 'gzip']));
console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
for (const row of rows) console.log(line(row));
