// npm run bench:bundle — what a shopper downloads, in gzip bytes, and how fast a car page is.
// Shell: the JS the browser actually requests from /assets on a site's home page (measured in
// Chromium against the built platform). Remotes: remoteEntry.js and each exposed module's own
// chunks, read from the published manifest of the version sites follow. Then the vehicle detail
// route: all JS of a first visit to a car page and Lighthouse on it (bench/detail-route.mjs).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { root } from '../scripts/pnpm.mjs';
import { remotes, remotesDir } from '../scripts/build-units.mjs';
import { launchChromium, startPlatform } from './platform.mjs';
import { measureDetailRoute, printDetailRoute, printTable } from './detail-route.mjs';

const gz = (file) => gzipSync(readFileSync(file), { level: 9 }).length;
const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;
const rows = [];

async function shellInitialJs(platform) {
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    const files = new Set();
    page.on('request', (request) => {
      const { pathname } = new URL(request.url());
      if (pathname.startsWith('/assets/') && pathname.endsWith('.js')) files.add(pathname.slice('/assets/'.length));
    });
    await page.goto(`${platform.origin}/`, { waitUntil: 'networkidle' });
    return [...files].reduce((sum, file) => sum + gz(join(root, 'shell/dist/client', file)), 0);
  } finally {
    await browser.close();
  }
}

if (!existsSync(join(root, 'shell/dist/client/assets.json'))) {
  console.error('Build first: npm run build');
  process.exit(1);
}
const platform = await startPlatform(3390);
let detail;
try {
  rows.push(['shell', 'initial JS on the home page', kb(await shellInitialJs(platform))]);
  detail = await measureDetailRoute({ platform });
} finally {
  platform.stop();
}
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

printTable(rows, ['bundle', 'what', 'gzip']);
printDetailRoute(detail, { verbose: process.argv.includes('--verbose') });
