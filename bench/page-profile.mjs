// node bench/page-profile.mjs [path ...] — where a page's Lighthouse mobile time goes, one run per
// path on the built platform (metro-motor-group): LCP split into its phases (TTFB, load delay,
// load time, render delay), the long tasks and the scripts' main-thread time, each as a table.
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
    const child = spawn(lighthouse, [url, '--output=json', `--output-path=${out}`, '--only-categories=performance', '--quiet', `--chrome-flags=${chromiumFlags.join(' ')}`], {
      env: { ...process.env, CHROME_PATH: chromiumPath },
      stdio: 'ignore',
    });
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

const platform = await startPlatform(port);
try {
  for (const path of paths) {
    const lhr = await run(`${platform.origin}${path}`);
    const audit = (id) => lhr.audits[id];
    if (lhr.runtimeError) {
      console.log(`${path}: ${lhr.runtimeError.code}`);
      continue;
    }
    console.log(`\n${path}: score ${Math.round(lhr.categories.performance.score * 100)}, FCP ${Math.round(audit('first-contentful-paint').numericValue)} ms, LCP ${Math.round(audit('largest-contentful-paint').numericValue)} ms, TBT ${Math.round(audit('total-blocking-time').numericValue)} ms`);
    const phases = audit('largest-contentful-paint-element')?.details?.items?.[1]?.items ?? [];
    console.table(phases.map((phase) => ({ 'LCP phase': phase.phase, ms: Math.round(phase.timing) })));
    console.table((audit('long-tasks')?.details?.items ?? []).map((task) => ({ 'long task': name(task.url), 'starts (ms)': Math.round(task.startTime), ms: Math.round(task.duration) })));
    console.table((audit('bootup-time')?.details?.items ?? []).map((item) => ({ script: name(item.url), 'main thread (ms)': Math.round(item.total), 'of it scripting': Math.round(item.scripting) })));
  }
} finally {
  platform.stop();
}
