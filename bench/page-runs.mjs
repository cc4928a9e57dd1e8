// bench:pages' Lighthouse part (issue 25): every page at 4× CPU (Lighthouse's mobile default), at 6×
// and at 1× (this machine's own main-thread work), beside a static reference page measured in the
// same run, so a slower or busier machine shows as such instead of moving the figures silently.
// Every run is printed and every run must meet the targets, not the median.
import { createServer } from 'node:http';
import { lighthouseRuns } from './detail-route.mjs';

/** One heading and no script: what any page costs a browser at the least. */
const referenceHtml =
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">' +
  '<title>Reference page</title><meta name="description" content="A page with one heading and no script."></head>' +
  '<body><h1>Reference page</h1><p>One heading, no script: the least a browser does for a page.</p></body></html>';

export function startReferencePage() {
  const server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-cache' });
    response.end(referenceHtml);
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      resolve({ origin: `http://127.0.0.1:${port}`, close: () => server.close() });
    });
  });
}

export const cpuMultipliers = [4, 6, 1];

/** Each page's runs at each multiplier: `{ name, path, runs: { 4: [...], 6: [...], 1: [...] } }`. */
export async function measurePages(pages, count = Number(process.env.LIGHTHOUSE_RUNS ?? 5)) {
  const measured = [];
  for (const { name, path, url } of pages) {
    const runs = {};
    for (const cpu of cpuMultipliers) runs[cpu] = await lighthouseRuns(url, count, cpu);
    measured.push({ name, path, runs });
  }
  return measured;
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)];
const ms = (value) => String(Math.round(value));

/** The reference page's main-thread work at 1×: the median of its runs. */
export const referenceMainThread = (measured) =>
  median(measured.find((page) => page.name === 'reference').runs[1].map((run) => run.mainThreadMs));

export function printRuns(measured) {
  const byRun = (pick) =>
    measured.map((page) => ({ page: page.name, ...Object.fromEntries(pick(page).map((text, i) => [`run ${i + 1}`, text])) }));
  console.log('\nAt 4× CPU, each Lighthouse run (score / LCP ms / TBT ms / CLS / long tasks: count, longest ms / benchmarkIndex):');
  console.table(
    byRun((page) =>
      page.runs[4].map(
        (run) =>
          `${run.performance} / ${ms(run.lcpMs)} / ${ms(run.tbtMs)} / ${run.cls.toFixed(3)} / ${run.longTasksMs.length}, ${ms(run.longTasksMs[0] ?? 0)} / ${run.benchmarkIndex}`,
      ),
    ),
  );
  // What each long task was (TBT is their time over 50 ms after the first paint): Chromium's own
  // (the navigation's commit), the document's (parsing, style, layout) or a script's.
  console.log("\nAt 4× CPU, each run's long tasks in time order (simulated start + duration ms, what ran it):");
  console.table(
    byRun((page) =>
      page.runs[4].map(
        (run) => (run.longTasks ?? []).map((task) => `${ms(task.startMs)}+${ms(task.durationMs)} ${task.by}`).join(', ') || 'none',
      ),
    ),
  );
  console.log('\nAt 6× CPU (score / LCP ms / TBT ms / benchmarkIndex):');
  console.table(
    byRun((page) => page.runs[6].map((run) => `${run.performance} / ${ms(run.lcpMs)} / ${ms(run.tbtMs)} / ${run.benchmarkIndex}`)),
  );
  const reference = referenceMainThread(measured);
  console.log(`\nAt 1× CPU, main-thread work ms (× the reference page's ${ms(reference)} ms) / benchmarkIndex:`);
  console.table(
    byRun((page) =>
      page.runs[1].map((run) => `${ms(run.mainThreadMs)} (${(run.mainThreadMs / reference).toFixed(2)}×) / ${run.benchmarkIndex}`),
    ),
  );
  // The same runs' traces (trace-cpu.mjs): the wait for Chromium's other threads taken out.
  const referenceCpu = median(measured.find((one) => one.name === 'reference').runs[1].map((run) => run.mainCpuMs ?? 0));
  console.log(
    `\nAt 1× CPU, from the trace: the renderer main thread's CPU ms (× the reference page's ${ms(referenceCpu)} ms), its tasks' wall ms, Chromium's other threads' CPU ms (the browser's main thread + the compositor + the rest), frames drawn, the longest task's wall / CPU ms, the longest task that ran the page's scripts, wall / CPU ms:`,
  );
  console.table(
    byRun((page) =>
      page.runs[1].map(
        (run) =>
          `${ms(run.mainCpuMs ?? 0)} (${((run.mainCpuMs ?? 0) / (referenceCpu || 1)).toFixed(2)}×), ${ms(run.mainWallMs ?? 0)}, ${ms(run.othersCpuMs ?? 0)} (${ms(run.othersMs?.browser ?? 0)} + ${ms(run.othersMs?.compositor ?? 0)} + ${ms(run.othersMs?.rest ?? 0)}), ${run.framesDrawn ?? 0}, ${ms(run.longestTaskMs ?? 0)} / ${ms(run.longestTaskCpuMs ?? 0)}, ${ms(run.longestScriptTaskMs ?? 0)} / ${ms(run.longestScriptTaskCpuMs ?? 0)}`,
      ),
    ),
  );
}

/** One row per target per page: the worst of its runs, met only if every run meets it. */
export function runTargetRows(measured, targets) {
  const reference = referenceMainThread(measured);
  const rows = [];
  const ok = (pass) => (pass ? 'yes' : 'NO');
  for (const page of measured.filter((one) => one.name !== 'reference')) {
    const at4 = page.runs[4];
    const worst = (runs, key, pick = Math.max) => pick(...runs.map((run) => run[key]));
    const add = (measure, value, target, met) => rows.push({ measure: `${page.name}: ${measure}`, value, target, met: ok(met) });
    add(
      'Lighthouse score at 4×, lowest',
      String(worst(at4, 'performance', Math.min)),
      `≥ ${targets.performance}`,
      worst(at4, 'performance', Math.min) >= targets.performance,
    );
    const low6 = worst(page.runs[6], 'performance', Math.min);
    add('Lighthouse score at 6×, lowest', String(low6), `≥ ${targets.performanceAt6x}`, low6 >= targets.performanceAt6x);
    add('TBT at 4×, highest', `${ms(worst(at4, 'tbtMs'))} ms`, `≤ ${targets.tbtMs} ms`, worst(at4, 'tbtMs') <= targets.tbtMs);
    add('LCP at 4×, highest', `${ms(worst(at4, 'lcpMs'))} ms`, `≤ ${targets.lcpMs} ms`, worst(at4, 'lcpMs') <= targets.lcpMs);
    add('CLS, highest', worst(at4, 'cls').toFixed(3), `≤ ${targets.cls}`, worst(at4, 'cls') <= targets.cls);
    const ratio = worst(page.runs[1], 'mainThreadMs') / reference;
    add(
      'main-thread work at 1×, highest',
      `${ms(worst(page.runs[1], 'mainThreadMs'))} ms (${ratio.toFixed(2)}×)`,
      `≤ ${targets.mainThreadRatio}× reference`,
      ratio <= targets.mainThreadRatio,
    );
    const longest = worst(page.runs[1], 'longestTaskMs');
    add('longest task at 1×, highest', `${ms(longest)} ms`, `≤ ${targets.longestTaskMs} ms`, longest <= targets.longestTaskMs);
    // The same limit on the tasks that ran the page's own scripts (the row above also counts Chromium's commit and layout).
    const longestScript = worst(page.runs[1], 'longestScriptTaskMs');
    add(
      'longest task running its scripts at 1×, highest',
      `${ms(longestScript)} ms`,
      `≤ ${targets.longestTaskMs} ms`,
      longestScript <= targets.longestTaskMs,
    );
    rows.push({ measure: `${page.name}: LCP element (4×, first run)`, value: at4[0].lcpElement.slice(0, 60), target: '', met: '' });
  }
  return rows;
}
