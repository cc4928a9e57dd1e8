// The vehicle detail route as a shopper's first visit sees it, on the built platform:
//  - every JS file the browser downloads for /cars/<slug> on metro-motor-group (shell, mf-vehicle,
//    the remotes its slots load, and mf-chat after the 3 s deferral), in gzip bytes;
//  - Lighthouse 12 (mobile preset, simulated throttling) performance score, LCP and CLS of that
//    page: the median of LIGHTHOUSE_RUNS runs (default 5; the first one meets a cold server).
// Run alone: node bench/detail-route.mjs [--verbose]; npm run bench:bundle runs it too.
// Chromium: CHROMIUM_PATH or CHROME_PATH, default /usr/bin/chromium. Loopback only.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { traceCpu } from './trace-cpu.mjs';
import { chromiumFlags, chromiumPath, launchChromium, startPlatform } from './platform.mjs';

export const targets = { routeJsKb: 250, performance: 95, lcpMs: 1500, cls: 0.05 };
const chatDelayMs = 3000;

/** The first car the site's search page links to. */
async function firstCarPath(browser, origin) {
  const page = await browser.newPage();
  try {
    await page.goto(`${origin}/search/new-used-and-demo-cars`, { waitUntil: 'load' });
    const link = page.locator('a[href*="/cars/"]').first();
    await link.waitFor({ timeout: 20_000 });
    return await link.getAttribute('href');
  } finally {
    await page.close();
  }
}

/** Which part of the platform a URL belongs to: `shell` for /assets, the remote's name for /remotes. */
function ownerOf(url) {
  const { pathname } = new URL(url);
  if (pathname.startsWith('/assets/')) return 'shell';
  const remote = /^\/remotes\/([^/]+)\//.exec(pathname);
  return remote ? remote[1] : 'other';
}

/** Waits until no request has been in flight for `quietMs`. */
async function networkQuiet(state, quietMs = 750, limitMs = 20_000) {
  const started = Date.now();
  while (Date.now() - started < limitMs) {
    if (state.inFlight === 0 && Date.now() - state.lastActivity >= quietMs) return;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Every script of a cold first visit to `path`, waiting past the deferred chat. */
export async function routeScripts(browser, origin, path) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const state = { inFlight: 0, lastActivity: Date.now() };
  const scripts = [];
  page.on('request', () => {
    state.inFlight++;
    state.lastActivity = Date.now();
  });
  const settle = () => {
    state.inFlight--;
    state.lastActivity = Date.now();
  };
  page.on('requestfailed', settle);
  page.on('requestfinished', settle);
  page.on('response', async (response) => {
    const request = response.request();
    const url = new URL(response.url());
    if (request.resourceType() !== 'script' && !url.pathname.endsWith('.js')) return;
    const body = await response.body().catch(() => Buffer.alloc(0));
    scripts.push({
      url: url.pathname,
      owner: ownerOf(response.url()),
      raw: body.length,
      gzip: gzipSync(body, { level: 9 }).length,
      status: response.status(),
      libraries: librariesIn(body.toString('utf8')),
    });
  });
  await page.goto(`${origin}${path}`, { waitUntil: 'load' });
  await page.locator('.vehicle-page h1').waitFor({ timeout: 20_000 });
  await page.waitForTimeout(chatDelayMs + 500);
  await networkQuiet(state);
  await context.close();
  const chatShown = scripts.some((script) => script.owner === 'mf-chat');
  return { scripts, chatShown };
}

/**
 * Shared libraries the page must download once (the shell provides them to every remote), each
 * recognised by a string only its own code contains. A second copy means a remote loaded its
 * own fallback instead of the shell's singleton, or carries its own MF runtime again.
 */
const libraryMarkers = {
  // Not '__reactContainer$': the shell's first script looks for that key (before-hydration.ts) without carrying React.
  'react-dom': 'rendererPackageName:"react-dom"',
  'react-router': 'useLocation() may be used only in the context of a <Router>',
  '@reduxjs/toolkit': 'Minified Redux Toolkit error',
  redux: 'Minified Redux error',
  immer: '[Immer] minified error',
  'MF runtime core': '[ Federation Runtime ]',
};

const librariesIn = (body) =>
  Object.entries(libraryMarkers)
    .filter(([, marker]) => body.includes(marker))
    .map(([name]) => name);

/** Libraries found in more than one downloaded script, with those scripts. */
function duplicates(scripts) {
  const where = new Map();
  for (const script of scripts) for (const library of script.libraries) where.set(library, [...(where.get(library) ?? []), script]);
  return [...where].filter(([, found]) => found.length > 1).map(([library, found]) => ({ library, scripts: found }));
}

const lighthouseBin = () => join(fileURLToPath(new URL('.', import.meta.url)), 'node_modules', '.bin', 'lighthouse');

/**
 * One Lighthouse run (mobile preset, simulated throttling: Lighthouse's defaults). `cpuSlowdown`:
 * the CPU multiplier (Lighthouse's default is 4; 1 measures this machine's own main-thread work).
 */
function lighthouseOnce(url, cpuSlowdown = 4) {
  const dir = mkdtempSync(join(tmpdir(), 'dealer-lh-'));
  const out = join(dir, 'report.json');
  return new Promise((resolve, reject) => {
    const child = spawn(
      lighthouseBin(),
      [
        url,
        '--output=json',
        `--output-path=${out}`,
        '--only-categories=performance',
        '--quiet',
        `--throttling.cpuSlowdownMultiplier=${cpuSlowdown}`,
        `--chrome-flags=${chromiumFlags.join(' ')}`,
        // At 1× the trace is kept to read the main thread's CPU time from it (trace-cpu.mjs).
        ...(cpuSlowdown === 1 ? ['--save-assets'] : []),
      ],
      { env: { ...process.env, CHROME_PATH: chromiumPath }, stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('exit', (code) => {
      try {
        if (code !== 0) throw new Error(`lighthouse exited ${code}: ${stderr.slice(-2000)}`);
        const lhr = JSON.parse(readFileSync(out, 'utf8'));
        if (lhr.runtimeError) throw new Error(`lighthouse: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
        const audit = (id) => lhr.audits[id];
        const lcpElement = audit('largest-contentful-paint-element')?.details?.items?.[0]?.items?.[0]?.node;
        // Now and then the main-thread audit comes back without its figure (errorMessage, no
        // numericValue): such a run is repeated, not counted as a page that did no work.
        const mainThread = audit('mainthread-work-breakdown');
        if (!Number.isFinite(mainThread?.numericValue))
          throw new Error(`lighthouse: no main-thread figure (${mainThread?.errorMessage ?? 'no audit'})`);
        // Tasks over 50 ms in time order, with what Lighthouse says ran them: the page's own document
        // (parsing, style and layout), a script (its file), or Chromium itself (Unattributable).
        const longTasks = (audit('long-tasks')?.details?.items ?? [])
          .map((item) => ({ startMs: item.startTime, durationMs: item.duration, by: longTaskSource(item.url, url) }))
          .sort((x, y) => x.startMs - y.startMs);
        resolve({
          performance: Math.round((lhr.categories.performance.score ?? 0) * 100),
          fcpMs: audit('first-contentful-paint').numericValue,
          lcpMs: audit('largest-contentful-paint').numericValue,
          tbtMs: audit('total-blocking-time').numericValue,
          cls: audit('cumulative-layout-shift').numericValue,
          siMs: audit('speed-index').numericValue,
          lcpElement: lcpElement ? `${lcpElement.nodeLabel ?? ''} (${lcpElement.selector ?? ''})` : 'unknown',
          renderBlocking: (audit('render-blocking-resources')?.details?.items ?? []).map((item) => item.url),
          // Lighthouse's measure of this machine's speed at the time of the run (higher is faster).
          benchmarkIndex: Math.round(lhr.environment?.benchmarkIndex ?? 0),
          // Everything the main thread did (parse, style, layout, script...), ms at this run's multiplier.
          mainThreadMs: mainThread.numericValue,
          longTasks,
          // The same tasks' durations, longest first.
          longTasksMs: longTasks.map((task) => task.durationMs).sort((x, y) => y - x),
          // At 1×: the renderer main thread's own CPU time, and that of Chromium's other threads (trace-cpu.mjs).
          ...(cpuSlowdown === 1 ? traceCpu(join(dir, 'report-0.trace.json')) : {}),
        });
      } catch (error) {
        reject(error);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });
}

/** What ran a long task, in a word: the document, a script's file name, or Chromium. */
function longTaskSource(taskUrl, pageUrl) {
  if (!taskUrl || taskUrl === 'Unattributable') return 'chromium';
  if (taskUrl === pageUrl) return 'document';
  return new URL(taskUrl, pageUrl).pathname.split('/').pop() || taskUrl;
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)];
};

/** `runs` Lighthouse runs of one page at one CPU multiplier, each kept. */
export async function lighthouseRuns(url, runs = Number(process.env.LIGHTHOUSE_RUNS ?? 5), cpuSlowdown = 4) {
  const results = [];
  for (let i = 0; i < runs; i++) {
    // Lighthouse now and then fails to record a trace (NO_NAVSTART, NO_FCP): such a run is repeated.
    for (let attempt = 1; ; attempt++) {
      try {
        results.push(await lighthouseOnce(url, cpuSlowdown));
        break;
      } catch (error) {
        if (attempt >= 3) throw error;
        console.error(`Lighthouse run failed, repeating it: ${String(error.message).split('\n')[0]}`);
      }
    }
  }
  return results;
}

/** Each figure is the median over the runs (Lighthouse varies run to run, most of all in LCP). */
export async function lighthouse(url, runs = Number(process.env.LIGHTHOUSE_RUNS ?? 5)) {
  const results = await lighthouseRuns(url, runs);
  const figures = Object.fromEntries(
    ['performance', 'fcpMs', 'lcpMs', 'tbtMs', 'cls', 'siMs'].map((key) => [key, median(results.map((run) => run[key]))]),
  );
  const lcpRun = results.find((run) => run.lcpMs === figures.lcpMs);
  return { ...figures, lcpElement: lcpRun.lcpElement, renderBlocking: lcpRun.renderBlocking, runs: results };
}

/**
 * Measures the detail route on `platform` (from startPlatform), or on a platform it starts on
 * `port` and stops afterwards.
 */
export async function measureDetailRoute({ platform, port = 3391 } = {}) {
  const own = platform ? null : await startPlatform(port);
  const { origin } = platform ?? own;
  try {
    const browser = await launchChromium();
    let path;
    let route;
    try {
      path = await firstCarPath(browser, origin);
      route = await routeScripts(browser, origin, path);
    } finally {
      await browser.close();
    }
    const lh = await lighthouse(`${origin}${path}`);
    return { path, ...route, duplicates: duplicates(route.scripts), lighthouse: lh };
  } finally {
    own?.stop();
  }
}

const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;

export function printTable(rows, head) {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => String(row[i]).length)));
  const line = (cells) => `| ${cells.map((cell, i) => String(cell).padEnd(widths[i])).join(' | ')} |`;
  console.log(line(head));
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const row of rows) console.log(line(row));
}

/** Prints the detail route's tables: per-owner JS, then the figures against their targets. */
export function printDetailRoute(result, { verbose = false } = {}) {
  const owners = new Map();
  for (const script of result.scripts) {
    const entry = owners.get(script.owner) ?? { files: 0, gzip: 0 };
    owners.set(script.owner, { files: entry.files + 1, gzip: entry.gzip + script.gzip });
  }
  const total = result.scripts.reduce((sum, s) => sum + s.gzip, 0);
  const twice = result.duplicates.map(({ library, scripts }) => `${library} ×${scripts.length}`).join(', ') || 'none';
  console.log(
    `\nDetail route ${result.path} on metro-motor-group (first visit, cold cache, after the ${chatDelayMs / 1000} s chat deferral${result.chatShown ? '' : '; chat did not load'})`,
  );
  printTable(
    [...owners].sort((a, b) => b[1].gzip - a[1].gzip).map(([owner, { files, gzip }]) => [owner, String(files), kb(gzip)]),
    ['JS from', 'files', 'gzip'],
  );
  if (verbose) {
    printTable(
      [...result.scripts].sort((a, b) => b.gzip - a.gzip).map((s) => [s.url, s.owner, kb(s.raw), kb(s.gzip)]),
      ['file', 'owner', 'raw', 'gzip'],
    );
    for (const { library, scripts } of result.duplicates)
      console.log(`${library} downloaded ${scripts.length} times: ${scripts.map((s) => `${s.url} (${kb(s.gzip)})`).join(', ')}`);
  }
  const lh = result.lighthouse;
  const ok = (pass) => (pass ? 'ok' : 'MISS');
  console.log('');
  printTable(
    [
      ['route JS total (gzip)', kb(total), `≤ ${targets.routeJsKb} KB`, ok(total / 1024 <= targets.routeJsKb)],
      ['shared libraries downloaded twice', twice, 'none', ok(result.duplicates.length === 0)],
      ['Lighthouse mobile performance', String(lh.performance), `≥ ${targets.performance}`, ok(lh.performance >= targets.performance)],
      ['LCP', `${(lh.lcpMs / 1000).toFixed(2)} s`, `≤ ${targets.lcpMs / 1000} s`, ok(lh.lcpMs <= targets.lcpMs)],
      ['CLS', lh.cls.toFixed(3), `≤ ${targets.cls}`, ok(lh.cls <= targets.cls)],
      [
        'FCP / TBT / Speed Index',
        `${(lh.fcpMs / 1000).toFixed(2)} s / ${Math.round(lh.tbtMs)} ms / ${(lh.siMs / 1000).toFixed(2)} s`,
        '',
        '',
      ],
    ],
    ['detail page', 'value', 'target', ''],
  );
  console.log(
    `Lighthouse 12, mobile: medians of ${lh.runs.length} runs (scores ${lh.runs.map((r) => r.performance).join(', ')}; LCP ${lh.runs.map((r) => (r.lcpMs / 1000).toFixed(2)).join(', ')} s; CLS ${lh.runs.map((r) => r.cls.toFixed(3)).join(', ')}); LCP element: ${lh.lcpElement}`,
  );
  if (lh.renderBlocking.length) console.log(`render-blocking: ${lh.renderBlocking.join(', ')}`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  printDetailRoute(await measureDetailRoute(), { verbose: process.argv.includes('--verbose') });
}
