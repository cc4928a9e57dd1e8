// node bench/page-profile.mjs [path|car ...] — where a page's Lighthouse mobile time goes, one run per
// path on the built platform (metro-motor-group): LCP split into its phases (TTFB, load delay,
// load time, render delay), the layout shifts and their elements, the long tasks and the scripts' main-thread time, each as a table.
// For finding what to change; bench:pages gives the medians the targets are checked against.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromiumFlags, chromiumPath, startPlatform } from './platform.mjs';

const paths = process.argv.slice(2).length ? process.argv.slice(2) : ['/', '/search/new-used-and-demo-cars'];
const port = Number(process.env.BENCH_PORT ?? 3397);
const lighthouse = new URL('./node_modules/.bin/lighthouse', import.meta.url).pathname;
const name = (url) => (url ?? '').split('/').pop()?.slice(0, 48) || 'document';

function run(url) {
  const dir = mkdtempSync(join(tmpdir(), 'dealer-profile-'));
  const out = join(dir, 'report.json');
  return new Promise((resolve, reject) => {
    const child = spawn(
      lighthouse,
      [
        url,
        '--output=json',
        `--output-path=${out}`,
        '--only-categories=performance',
        '--quiet',
        `--chrome-flags=${chromiumFlags.join(' ')}`,
      ],
      {
        env: { ...process.env, CHROME_PATH: chromiumPath },
        stdio: 'ignore',
      },
    );
    child.on('error', reject);
    child.on('exit', () => {
      try {
        resolve(JSON.parse(readFileSync(out, 'utf8')));
      } catch (error) {
        reject(error);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });
}

/** `car`: the first car the search page links to (demo stock is dated, so its slugs change). */
async function resolvePath(path) {
  if (path !== 'car') {
    await getHtml(path); // warms the server's render (a first, cold render is not what a shopper waits for)
    return path;
  }
  return /href="(\/cars\/[^"]+)"/.exec(await getHtml('/search/new-used-and-demo-cars'))?.[1] ?? path;
}

async function getHtml(path) {
  const { request } = await import('node:http');
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers: { host: new URL(platform.origin).host } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => resolve(body));
    });
    req.on('error', reject);
    req.end();
  });
}

const platform = await startPlatform(port);
try {
  for (const path of await Promise.all(paths.map(resolvePath))) {
    const lhr = await run(`${platform.origin}${path}`);
    const audit = (id) => lhr.audits[id];
    if (lhr.runtimeError) {
      console.log(`${path}: ${lhr.runtimeError.code}`);
      continue;
    }
    console.log(
      `\n${path}: score ${Math.round(lhr.categories.performance.score * 100)}, FCP ${Math.round(audit('first-contentful-paint').numericValue)} ms, LCP ${Math.round(audit('largest-contentful-paint').numericValue)} ms, TBT ${Math.round(audit('total-blocking-time').numericValue)} ms`,
    );
    const observed = audit('metrics')?.details?.items?.[0] ?? {};
    console.log(
      `observed (unthrottled): FCP ${observed.observedFirstContentfulPaint} ms, LCP ${observed.observedLargestContentfulPaint} ms, DOMContentLoaded ${observed.observedDomContentLoaded} ms, load ${observed.observedLoad} ms`,
    );
    console.log(`server response ${Math.round(audit('server-response-time')?.numericValue ?? 0)} ms`);
    const requests = audit('network-requests')?.details?.items ?? [];
    console.table(
      requests.slice(0, 14).map((r) => ({
        request: name(r.url).slice(0, 40),
        priority: r.priority,
        'start (ms)': Math.round(r.networkRequestTime ?? r.startTime),
        'end (ms)': Math.round(r.networkEndTime ?? r.endTime),
        KB: Math.round((r.transferSize ?? 0) / 1024),
      })),
    );
    const element = audit('largest-contentful-paint-element')?.details?.items?.[0]?.items?.[0]?.node;
    if (element) console.log(`LCP element: ${element.nodeLabel ?? ''} ${element.snippet ?? ''}`.slice(0, 300));
    const shifts = audit('layout-shifts')?.details?.items ?? [];
    console.log(`CLS ${(audit('cumulative-layout-shift')?.numericValue ?? 0).toFixed(3)}`);
    if (shifts.length)
      console.table(
        shifts.map((shift) => ({
          'layout shift': `${shift.node?.nodeLabel ?? ''} ${shift.node?.snippet ?? ''}`.slice(0, 90),
          score: Number(shift.score ?? 0).toFixed(4),
          cause: (shift.subItems?.items ?? [])
            .map((c) => c.cause ?? c.extra?.value ?? '')
            .join('; ')
            .slice(0, 60),
        })),
      );
    const phases = audit('largest-contentful-paint-element')?.details?.items?.[1]?.items ?? [];
    console.table(phases.map((phase) => ({ 'LCP phase': phase.phase, ms: Math.round(phase.timing) })));
    console.table(
      (audit('long-tasks')?.details?.items ?? []).map((task) => ({
        'long task': name(task.url),
        'starts (ms)': Math.round(task.startTime),
        ms: Math.round(task.duration),
      })),
    );
    console.table(
      (audit('mainthread-work-breakdown')?.details?.items ?? []).map((item) => ({
        'main thread': item.groupLabel ?? item.group,
        ms: Math.round(item.duration),
      })),
    );
    console.table(
      (audit('bootup-time')?.details?.items ?? []).map((item) => ({
        script: name(item.url),
        'main thread (ms)': Math.round(item.total),
        'of it scripting': Math.round(item.scripting),
      })),
    );
  }
} finally {
  platform.stop();
}
