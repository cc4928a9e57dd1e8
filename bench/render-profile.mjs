// Where the server's time goes when it renders the search page with nothing cached: the built
// platform runs under `--cpu-prof` while autocannon asks for a new search page on every request
// (a crawler, or shoppers with new filters), then the profile's self time is summed per area.
//
//   npm run bench:render-profile            (DURATION=10 CONNECTIONS=10 INTERVAL_US=2000 by default)
//
// The profiler's sampling is work on the same two cores: at Node's default of a sample every 1,000 µs
// this machine rendered 250 pages/s under it against 400–465 without it (issue 25, twenty-first
// session); every 2,000 µs, 261–301; every 5,000 µs, 350. The shares hold; the absolute ms a page read
// high, more so the finer the sampling. Compare runs made at one interval.
import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { site, startPlatform } from './platform.mjs';

// Not 4190: fetch() refuses it (sieve, on the Fetch standard's list of bad ports), so the start-up check never answered.
const port = Number(process.env.PORT ?? 4180);
const searchPath = '/search/new-used-and-demo-cars';
const profileDir = mkdtempSync(join(tmpdir(), 'dealer-render-profile-'));

/** Areas of the server's code, by the file a function lives in (first match wins). */
const areas = [
  ['react-dom/server', /react-dom/],
  ['platform server (main.cjs)', /platform\/server\/dist\/main\.cjs/],
  ['remote server builds', /\/remotes\/|remote\.cjs|render-app\.cjs|dist\/server\//],
  ['search engine', /search-engine/],
  ['sqlite / kysely', /better-sqlite3|kysely/],
  ['fastify / inject', /fastify|light-my-request|avvio|find-my-way|helmet/],
  ['undici (Request/Response)', /undici|node:internal\/deps\/undici/],
  ['zod', /zod/],
  ['redux / rtk / immer', /redux|immer|reselect/],
  ['zlib', /zlib/],
  ['node:fs', /node:fs|internal\/fs/],
  ['other node internals', /^node:/],
];

function areaOf(node) {
  const url = node.callFrame.url;
  const name = node.callFrame.functionName;
  if (name === '(garbage collector)') return 'GC';
  if (name === '(idle)' || name === '(program)') return name;
  if (!url) return name === '(root)' ? 'root' : `native ${name || '(anonymous)'}`.slice(0, 40);
  for (const [area, pattern] of areas) if (pattern.test(url)) return area;
  return url.replace(/^.*node_modules\/(\.pnpm\/)?/, '').slice(0, 60);
}

/**
 * Self time per profile node, counting only samples of the load's last `windowMs` before the
 * profile ends (the process stops right after the load): its start-up and demo data are not pages.
 */
function selfTimes(profile, windowMs = Infinity) {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const self = new Map();
  const from = profile.endTime - windowMs * 1000;
  let at = profile.startTime;
  profile.samples.forEach((id, i) => {
    at += profile.timeDeltas[i] ?? 0;
    if (at < from) return;
    const node = byId.get(id);
    self.set(node, (self.get(node) ?? 0) + (profile.timeDeltas[i + 1] ?? 0) / 1000);
  });
  return self;
}

function load() {
  let n = 0;
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url: `http://127.0.0.1:${port}${searchPath}`,
        headers: { host: `${site}.localhost:${port}`, 'accept-encoding': 'gzip, deflate, br, zstd' },
        connections: Number(process.env.CONNECTIONS ?? 10),
        duration: Number(process.env.DURATION ?? 10),
        requests: [{ setupRequest: (req) => ({ ...req, path: `${searchPath}?bench=${++n}` }) }],
      },
      (error, result) => (error ? reject(error) : resolve(result)),
    );
  });
}

const intervalUs = Number(process.env.INTERVAL_US ?? 2000);
const platform = await startPlatform(port, {
  nodeArgs: ['--cpu-prof', `--cpu-prof-interval=${intervalUs}`, `--cpu-prof-dir=${profileDir}`],
});
let result;
try {
  // One request first, so what is read once per process is not in the profile's figures.
  await fetch(`http://127.0.0.1:${port}${searchPath}?warm=1`, { headers: { host: `${site}.localhost:${port}` } });
  result = await load();
} finally {
  platform.stop();
}
await platform.stopped();
// One profile per thread: the main thread's, and each render thread's (document/render-threads.ts).
const files = readdirSync(profileDir)
  .filter((name) => name.endsWith('.cpuprofile'))
  .sort();
if (!files.length) throw new Error(`No profile was written in ${profileDir}`);
const profiles = files.map((name) => ({
  thread:
    /\.(\d+)\.\d+\.cpuprofile$/.exec(name)?.[1] === '0' ? 'main thread' : `render thread ${/\.(\d+)\.\d+\.cpuprofile$/.exec(name)?.[1]}`,
  profile: JSON.parse(readFileSync(join(profileDir, name), 'utf8')),
}));
// The load's seconds, less one at its start (connections opening) and the stop after it.
const loadWindowMs = (result.duration - 1) * 1000;
const pages = result.requests.total * ((result.duration - 1) / result.duration);
const totals = new Map();
const functions = new Map();
const threadBusy = [];
for (const { thread, profile: threadProfile } of profiles) {
  let threadMs = 0;
  for (const [node, ms] of selfTimes(threadProfile, loadWindowMs)) {
    const area = areaOf(node);
    totals.set(area, (totals.get(area) ?? 0) + ms);
    if (area !== '(idle)') threadMs += ms;
    const key = `${node.callFrame.functionName || '(anonymous)'} ${node.callFrame.url.replace(/^.*\//, '')}:${node.callFrame.lineNumber}`;
    functions.set(key, (functions.get(key) ?? 0) + ms);
  }
  threadBusy.push([thread, threadMs]);
}
const busy = [...totals].filter(([area]) => area !== '(idle)').reduce((sum, [, ms]) => sum + ms, 0);
console.log(
  `\n${pages.toFixed(0)} pages in ${result.duration} s under the profiler (a sample every ${intervalUs} µs): ${result.requests.average.toFixed(0)} pages/s, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms`,
);
for (const [thread, ms] of threadBusy) console.log(`${thread} busy ${ms.toFixed(0)} ms: ${(ms / pages).toFixed(2)} ms per page`);
console.log(`JavaScript threads busy ${busy.toFixed(0)} ms: ${(busy / pages).toFixed(2)} ms per page\n`);
const table = (map, n) =>
  console.table(
    [...map]
      .filter(([area]) => area !== '(idle)')
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([area, ms]) => ({
        area,
        'self ms': Math.round(ms),
        'ms per page': (ms / pages).toFixed(3),
        share: `${((ms / busy) * 100).toFixed(1)}%`,
      })),
  );
table(totals, 25);
table(functions, 30);

// STACKS=<function name>: where that function's time is spent from (the heaviest callers first).
if (process.env.STACKS) {
  const stacks = new Map();
  for (const { profile } of profiles) {
    const parents = new Map();
    for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node);
    const byId = new Map(profile.nodes.map((node) => [node.id, node]));
    for (const [node, ms] of selfTimes(profile, loadWindowMs)) {
      if (node.callFrame.functionName !== process.env.STACKS) continue;
      const chain = [];
      for (let at = parents.get(node.id); at !== undefined && chain.length < 12; at = parents.get(at.id))
        chain.push(
          `${byId.get(at.id).callFrame.functionName || '(anon)'}@${at.callFrame.url.replace(/^.*\//, '')}:${at.callFrame.lineNumber}`,
        );
      const key = chain.join(' < ');
      stacks.set(key, (stacks.get(key) ?? 0) + ms);
    }
  }
  for (const [chain, ms] of [...stacks].sort((a, b) => b[1] - a[1]).slice(0, 8)) console.log(`${ms.toFixed(0)} ms: ${chain}\n`);
}

// INCLUSIVE=<regexp of function names>: time spent in those functions and everything they call.
if (process.env.INCLUSIVE) {
  const pattern = new RegExp(process.env.INCLUSIVE);
  const inclusive = new Map();
  for (const { profile } of profiles) {
    const byId = new Map(profile.nodes.map((node) => [node.id, node]));
    const self = selfTimes(profile, loadWindowMs);
    const walk = (node, open) => {
      const name = node.callFrame.functionName;
      const counted = pattern.test(name) && !open.has(name);
      const inside = counted ? new Set([...open, name]) : open;
      for (const name of inside) inclusive.set(name, (inclusive.get(name) ?? 0) + (self.get(node) ?? 0));
      for (const child of node.children ?? []) walk(byId.get(child), inside);
    };
    walk(profile.nodes[0], new Set());
  }
  console.table(
    [...inclusive]
      .sort((a, b) => b[1] - a[1])
      .map(([name, ms]) => ({ name, 'total ms': Math.round(ms), 'ms per page': (ms / pages).toFixed(3) })),
  );
}
