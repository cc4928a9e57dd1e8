// npm run bench:pages — issue 12's and 25's page targets on the built platform (metro-motor-group):
//  - Lighthouse 12 mobile (simulated throttling), LIGHTHOUSE_RUNS runs (default 5) each at 4×, 6× and
//    1× CPU, on the home page, the search page, a car page and a static reference page served in the
//    same run: score, LCP, TBT, CLS, long tasks, main-thread work and its ratio to the reference,
//    Lighthouse's benchmarkIndex; every run printed, and every run must meet the targets (page-runs.mjs);
//  - the shell's first-load JS (every /assets/*.js the home page requests before it is idle), gzip;
//  - server throughput of the search page's HTML: autocannon, CONNECTIONS (10) connections for
//    DURATION seconds (10), requests a second and latency percentiles: from the page cache; then,
//    after WARMUP_SECONDS (30) of rendered pages not counted, LOAD_ROUNDS (3) rounds each rendered
//    every time (the same search) and rendered every time for a new search each, every round printed.
// Prints one table with the target beside each figure. Chromium: CHROMIUM_PATH, default /usr/bin/chromium.
import { existsSync, readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import autocannon from 'autocannon';
import { measureFirstTaps, printFirstTaps } from './first-tap.mjs';
import { root } from '../scripts/pnpm.mjs';
import { launchChromium, site, startPlatform } from './platform.mjs';
import { measurePages, printRuns, runTargetRows, startReferencePage } from './page-runs.mjs';

/** Issue 25's targets: every one of the runs meets them, not the median. */
export const pageTargets = {
  performance: 95,
  performanceAt6x: 90,
  mainThreadRatio: 2.5,
  longestTaskMs: 20,
  lcpMs: 1200,
  tbtMs: 100,
  cls: 0.02,
  shellJsKb: 120,
  searchPagesPerSecond: 300,
  searchP99Ms: 50,
};
const searchPath = '/search/new-used-and-demo-cars';
const port = Number(process.env.BENCH_PORT ?? 3392);

if (!existsSync(join(root, 'platform/server/dist/main.cjs')) || !existsSync(join(root, 'shell/dist/client/assets.json'))) {
  console.error('Build first: npm run build');
  process.exit(1);
}

const gz = (file) => gzipSync(readFileSync(file), { level: 9 }).length;

/** The shell's JS a first visit to the home page downloads, and the first car the search page links to. */
async function browse(origin) {
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    // Scripts the page runs, apart from those only prefetched for the shopper's first use (the app's libraries).
    const files = new Set();
    const prefetched = new Set();
    let lastRequest = Date.now();
    page.on('request', (request) => {
      lastRequest = Date.now();
      const { pathname } = new URL(request.url());
      if (!pathname.startsWith('/assets/') || !pathname.endsWith('.js')) return;
      (request.resourceType() === 'script' ? files : prefetched).add(pathname.slice('/assets/'.length));
    });
    // The app's files are fetched ahead 3 s after the load (shell/src/boot/app-entry.ts): wait for that, then a quiet second.
    const fetchedAhead = page.waitForRequest((request) => request.url().includes('/assets/app-prefetch.'), { timeout: 20_000 });
    await page.goto(`${origin}/`, { waitUntil: 'load' });
    await fetchedAhead;
    while (Date.now() - lastRequest < 1000) await new Promise((resolve) => setTimeout(resolve, 100));
    const size = (set) => [...set].reduce((sum, file) => sum + gz(join(root, 'shell/dist/client', file)), 0);
    const shellJs = size(files);
    const prefetchedJs = size(prefetched);
    await page.goto(`${origin}${searchPath}`, { waitUntil: 'load' });
    const link = page.locator('a[href*="/cars/"]').first();
    await link.waitFor({ timeout: 20_000 });
    return { shellJs, prefetchedJs, carPath: await link.getAttribute('href') };
  } finally {
    await browser.close();
  }
}

/** Fetches the vehicle photos a page's HTML names (every srcset width), as Chrome asks for them. */
async function warmPhotos(html) {
  const urls = new Set([...html.replaceAll('&amp;', '&').matchAll(/\/img\/vehicle\/[^"\s,]+/g)].map(([url]) => url));
  for (const url of [...urls].slice(0, 80)) {
    await new Promise((resolve, reject) => {
      const req = httpRequest(
        {
          host: '127.0.0.1',
          port,
          path: url,
          headers: { host: `${site}.localhost:${port}`, accept: 'image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8' },
        },
        (res) => {
          res.resume();
          res.on('end', resolve);
        },
      );
      req.on('error', reject);
      req.end();
    });
  }
}

/**
 * The bytes of a page's first response as a browser gets it (brotli, with its status line and headers): within a
 * new connection's first round trip (ten 1,460-byte segments) the browser has the whole document after one.
 */
function firstResponseBytes(path) {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: '127.0.0.1', port, path, headers: { host: `${site}.localhost:${port}`, 'accept-encoding': 'br' } },
      (res) => {
        let bytes = 0;
        res.on('data', (chunk) => (bytes += chunk.length));
        res.on('end', () => {
          const head = `HTTP/1.1 ${res.statusCode} ${res.statusMessage}\r\n${res.rawHeaders.map((v, i) => (i % 2 ? `${v}\r\n` : `${v}: `)).join('')}\r\n`;
          resolve(bytes + Buffer.byteLength(head));
        });
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/** A page's HTML as the site's host answers it (fetch cannot set Host; node:http can). */
function getPage(path) {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, headers: { host: `${site}.localhost:${port}` } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode, cache: res.headers['x-page-cache'], body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/**
 * The addresses' counter of the loads that render every page, shared by all of them: an address
 * asked again (a round starting its count over) is kept by the page cache on its second render and
 * answered from it on the third, so the third round of each group measured cache hits (each
 * compressing its page for the first time), not renders.
 */
let n = 0;

/**
 * The search page's HTML under load, as a crowd of first visits (no cookies, the site's host).
 * `rendered`: every request an address never asked before (a query parameter the page ignores), so
 * none is answered from the page cache: the cost of rendering it.
 */
function throughput(path, { rendered = false, searches = false, duration = Number(process.env.DURATION ?? 10) } = {}) {
  // `searches`: each request also a different search (a make, a condition, a page and a sort of the demo stock).
  const makes = [
    'BMW',
    'Ford',
    'Honda',
    'Hyundai',
    'Isuzu',
    'Kia',
    'Mazda',
    'Mercedes-Benz',
    'MG',
    'Mitsubishi',
    'Nissan',
    'Subaru',
    'Toyota',
    'Volkswagen',
  ];
  const search = (i) =>
    [
      `make=${encodeURIComponent(makes[i % makes.length])}`,
      ['', 'car_type=new', 'car_type=used', 'car_type=demo'][Math.floor(i / makes.length) % 4],
      ['', 'page=2'][Math.floor(i / (makes.length * 4)) % 2],
      ['', 'sort=price%3Aasc'][Math.floor(i / (makes.length * 8)) % 2],
    ]
      .filter(Boolean)
      .join('&');
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url: `http://127.0.0.1:${port}${path}`,
        // What Chromium asks for: every browser takes brotli, so the pages are compressed as shoppers get them.
        headers: { host: `${site}.localhost:${port}`, 'accept-encoding': 'gzip, deflate, br, zstd' },
        connections: Number(process.env.CONNECTIONS ?? 10),
        duration,
        ...(rendered
          ? {
              requests: [{ setupRequest: (req) => ({ ...req, path: `${path}?${searches ? `${search(n)}&` : ''}bench=${++n}` }) }],
            }
          : {}),
      },
      (error, result) => (error ? reject(error) : resolve(result)),
    );
  });
}

const platform = await startPlatform(port);
const ok = (pass) => (pass ? 'yes' : 'NO');

/**
 * The target rows of loads that render every page, one per round: pages/s (with no failed request)
 * and latency, each round printed and the worst of them against the target (every round must meet it).
 */
function renderedRows(label, loads) {
  const worstRate = Math.min(...loads.map((load) => load.requests.average));
  const worstP99 = Math.max(...loads.map((load) => load.latency.p99));
  const failed = loads.reduce((sum, load) => sum + load.non2xx + load.errors + load.timeouts, 0);
  const bytes = loads.reduce((sum, load) => sum + load.throughput.total, 0) / loads.reduce((sum, load) => sum + load.requests.total, 0);
  return [
    {
      measure: `${label}: pages/s, each of ${loads.length} rounds`,
      value: loads.map((load) => load.requests.average.toFixed(0)).join(', '),
      target: `≥ ${pageTargets.searchPagesPerSecond}`,
      met: ok(worstRate >= pageTargets.searchPagesPerSecond && failed === 0),
    },
    {
      measure: `${label}: latency p50 / p99, each round`,
      value: loads.map((load) => `${load.latency.p50} / ${load.latency.p99}`).join(', ') + ' ms',
      target: `p99 ≤ ${pageTargets.searchP99Ms} ms`,
      met: ok(worstP99 <= pageTargets.searchP99Ms),
    },
    // A busy server compresses the pages it makes with less effort (page-stream.ts): what that sent.
    {
      measure: `${label}: bytes a page, with headers`,
      value: `${bytes.toFixed(0)} B`,
      target: '',
      met: '',
    },
  ];
}

/**
 * Rounds of a load that renders every page, after a warm-up: a running server meets new addresses
 * with its code compiled and its threads started, and a server just started needs ~30 s of pages
 * for that here (10 s rounds from the start: 162, 218, 290, 315, 332 pages/s). The warm-up's own
 * figures are printed, not counted.
 */
async function renderedRounds(options) {
  const rounds = [];
  for (let round = 0; round < loadRounds; round++) rounds.push(await throughput(searchPath, options));
  return rounds;
}
const loadRounds = Number(process.env.LOAD_ROUNDS ?? 3);
const warmUpSeconds = Number(process.env.WARMUP_SECONDS ?? 30);
const rows = [];
try {
  const { shellJs, prefetchedJs, carPath } = await browse(platform.origin);
  const pages = [
    ['home', '/'],
    ['search', searchPath],
    ['car', carPath],
  ];
  // Warm the server's caches the way a live site's are (its pages and the photos they show, drawn
  // once per width and format and kept on disk), then measure.
  for (const [, path] of pages) await warmPhotos((await getPage(path)).body);
  const load = await throughput(searchPath);
  if (warmUpSeconds > 0) {
    const warmUp = await throughput(searchPath, { rendered: true, searches: true, duration: warmUpSeconds });
    console.log(
      `Warm-up, not counted: ${warmUpSeconds} s of new search pages, ${warmUp.requests.average.toFixed(0)} pages/s, p50 ${warmUp.latency.p50} / p99 ${warmUp.latency.p99} ms`,
    );
  }
  const renderLoads = await renderedRounds({ rendered: true });
  const searchLoads = await renderedRounds({ rendered: true, searches: true });
  const searchHtml = await getPage(searchPath);
  // Every page at 4×, 6× and 1× CPU beside a static reference page measured in the same run (page-runs.mjs).
  const reference = await startReferencePage();
  try {
    const measured = await measurePages([
      { name: 'reference', path: '/', url: `${reference.origin}/` },
      ...pages.map(([name, path]) => ({ name, path, url: `${platform.origin}${path}` })),
    ]);
    printRuns(measured);
    rows.push(...runTargetRows(measured, pageTargets));
  } finally {
    reference.close();
  }
  rows.push({
    measure: 'shell first-load JS run (home, gzip)',
    value: `${(shellJs / 1024).toFixed(1)} KB`,
    target: `≤ ${pageTargets.shellJsKb} KB`,
    met: ok(shellJs / 1024 <= pageTargets.shellJsKb),
  });
  rows.push({
    measure: 'shell JS prefetched for the first use, not run (home, gzip)',
    value: `${(prefetchedJs / 1024).toFixed(1)} KB`,
    target: '',
    met: '',
  });
  // The first tap pays for starting the app (shell/src/boot/app-trigger.ts): measured, every run printed.
  printFirstTaps(await measureFirstTaps(platform.origin, carPath, searchPath));
  const non2xx = load.non2xx + load.errors + load.timeouts;
  rows.push({
    measure: `search page HTML: pages/s (${load.connections} connections, ${load.duration} s)`,
    value: load.requests.average.toFixed(0),
    target: `≥ ${pageTargets.searchPagesPerSecond}`,
    met: ok(load.requests.average >= pageTargets.searchPagesPerSecond && non2xx === 0),
  });
  rows.push({
    measure: 'search page HTML: latency p50 / p99',
    value: `${load.latency.p50} / ${load.latency.p99} ms`,
    target: `p99 ≤ ${pageTargets.searchP99Ms} ms`,
    met: ok(load.latency.p99 <= pageTargets.searchP99Ms),
  });
  rows.push({
    measure: 'search page HTML: non-2xx, errors, timeouts',
    value: `${load.non2xx}, ${load.errors}, ${load.timeouts}`,
    target: '0',
    met: ok(non2xx === 0),
  });
  for (const [name, path] of pages) {
    const bytes = await firstResponseBytes(path);
    rows.push({
      measure: `${name}: first response, brotli with headers`,
      value: `${bytes} B`,
      target: '≤ 14600 B',
      met: ok(bytes <= 14_600),
    });
  }
  const cards = searchHtml.body.match(/class="vehicle-card"/g)?.length ?? 0;
  rows.push({
    measure: 'search page HTML: result cards in the first response',
    value: String(cards),
    target: '> 0',
    met: ok(searchHtml.status === 200 && cards > 0),
  });
  // Issue 25: a crawler or a shopper with new filters meets an empty cache; the same targets as the cached page.
  rows.push(...renderedRows('search page rendered every time (no page cache)', renderLoads));
  rows.push(...renderedRows('search page rendered every time, a new search each (make, condition, page, sort)', searchLoads));
} finally {
  platform.stop();
}
console.log(`\nPages of ${site} (Lighthouse: the worst of ${process.env.LIGHTHOUSE_RUNS ?? 5} runs; every run must meet the target)`);
console.table(rows);
