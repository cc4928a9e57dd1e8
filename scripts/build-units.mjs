// What `npm start`, `npm run build` and `remote:publish` build, and when a build is stale.
// A remote's version is its package version plus a hash of everything that goes into it,
// so the same sources give the same immutable version and a change gives a new one.
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { root } from './pnpm.mjs';
import { precompress } from './precompress.mjs';

export const remotes = ['mf-search', 'mf-vehicle', 'mf-leads', 'mf-checkout', 'mf-garage', 'mf-chat'];
export const remotesDir = resolve(root, process.env.REMOTES_DIR ?? 'dist/remotes');

function listFiles(path, into = []) {
  if (!existsSync(path)) return into;
  if (statSync(path).isFile()) {
    into.push(path);
    return into;
  }
  for (const entry of readdirSync(path).sort()) {
    if (['node_modules', 'dist', '.turbo'].includes(entry) || entry.endsWith('.test.ts') || entry.endsWith('.test.tsx')) continue;
    listFiles(join(path, entry), into);
  }
  return into;
}

const specifierPattern = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)['"]([^'"]+)['"]/g;
const sourceExtensions = ['', '.ts', '.tsx', '.mjs', '.js', '/index.ts', '/index.tsx'];

function resolveRelative(from, specifier) {
  for (const extension of sourceExtensions) {
    const candidate = resolve(from, '..', specifier + extension);
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return null;
}

/** A workspace package's file for `@dealer/<name>/<sub>`, through its package.json `exports` (exact or `./*`). */
function resolveWorkspace(specifier) {
  const match = /^@dealer\/([\w-]+)(?:\/(.+))?$/.exec(specifier);
  if (!match) return null;
  const dir = ['shared', 'platform']
    .map((area) => join(root, area, match[1]))
    .find((candidate) => existsSync(join(candidate, 'package.json')));
  if (!dir) return null;
  const exports = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).exports ?? {};
  const key = match[2] ? `./${match[2]}` : '.';
  const target = exports[key] ?? (exports['./*'] && match[2] ? exports['./*'].replace('*', match[2]) : null);
  return target ? { file: resolve(dir, target), manifest: join(dir, 'package.json') } : null;
}

/**
 * Every workspace file a build can reach from `dirs`: their own sources, then each relative or
 * `@dealer/*` import followed through the packages' exports. A change to a shared file only
 * changes the versions of the builds that import it.
 */
export function reachableFiles(dirs) {
  const seen = new Set();
  const queue = dirs.flatMap((dir) => listFiles(dir));
  while (queue.length) {
    const file = queue.pop();
    if (seen.has(file)) continue;
    seen.add(file);
    if (!/\.(ts|tsx|mjs|js)$/.test(file)) continue;
    for (const [, specifier] of readFileSync(file, 'utf8').matchAll(specifierPattern)) {
      if (specifier.startsWith('.')) {
        const target = resolveRelative(file, specifier);
        if (target) queue.push(target);
      } else if (specifier.startsWith('@dealer/')) {
        const target = resolveWorkspace(specifier);
        if (target && existsSync(target.file)) queue.push(target.file, target.manifest);
      }
    }
  }
  return [...seen].sort();
}

/** What every browser build depends on besides its sources: the lockfile and the build config factory. */
const buildInputs = () => [join(root, 'pnpm-lock.yaml'), join(root, 'shared', 'build')];

export function inputHash(paths, extra = '') {
  const hash = createHash('sha256');
  for (const file of paths.flatMap((path) => listFiles(path))) {
    hash.update(relative(root, file));
    hash.update(readFileSync(file));
  }
  hash.update(extra);
  return hash.digest('hex');
}

function rspackBin(dir) {
  return join(dir, 'node_modules', '.bin', 'rspack');
}

function run(bin, args, cwd, env = {}) {
  execFileSync(bin, args, { cwd, stdio: 'inherit', env: { ...process.env, NODE_ENV: 'production', ...env } });
}

/** Builds `dir` with rspack unless the hash of `inputs` matches the stamp of its last build. */
function buildUnit(name, dir, inputs, { force, outDir, expect, configs }) {
  const stamp = join(outDir, '.input-hash');
  const hash = inputHash(inputs);
  if (!force && existsSync(stamp) && readFileSync(stamp, 'utf8') === hash && existsSync(expect)) {
    console.log(`[build] ${name} is up to date`);
    return false;
  }
  for (const [label, config] of configs) {
    console.log(`[build] ${label}`);
    run(rspackBin(dir), ['build', '-c', config], dir);
  }
  writeFileSync(stamp, hash);
  return true;
}

/** Builds the shell's browser bundle and its server render unless their inputs are unchanged. */
export function buildShell({ force = false } = {}) {
  const dir = join(root, 'shell');
  const built = buildUnit(
    'shell',
    dir,
    [
      ...reachableFiles([join(dir, 'src')]),
      join(dir, 'package.json'),
      join(dir, 'rspack.config.mjs'),
      join(dir, 'rspack.server.config.mjs'),
      ...buildInputs(),
    ],
    {
      force,
      outDir: join(dir, 'dist'),
      expect: join(dir, 'dist', 'server', 'render-app.cjs'),
      configs: [
        ['shell (browser)', 'rspack.config.mjs'],
        ['shell (server render)', 'rspack.server.config.mjs'],
      ],
    },
  );
  precompress(join(dir, 'dist', 'client'));
  return built;
}

/** Builds the dealer console's browser bundle unless its inputs are unchanged. */
export function buildConsole({ force = false } = {}) {
  const dir = join(root, 'console');
  const built = buildUnit(
    'console',
    dir,
    [...reachableFiles([join(dir, 'src')]), join(dir, 'package.json'), join(dir, 'rspack.config.mjs'), ...buildInputs()],
    {
      force,
      outDir: join(dir, 'dist'),
      expect: join(dir, 'dist', 'client', 'assets.json'),
      configs: [['console (browser)', 'rspack.config.mjs']],
    },
  );
  precompress(join(dir, 'dist', 'client'));
  return built;
}

/** Builds the platform's Node server (platform/server/dist) unless its inputs are unchanged. */
export function buildServer({ force = false } = {}) {
  const dir = join(root, 'platform', 'server');
  const platformSources = readdirSync(join(root, 'platform')).map((pkg) => join(root, 'platform', pkg));
  return buildUnit('server', dir, [...reachableFiles(platformSources), join(root, 'pnpm-lock.yaml')], {
    force,
    outDir: join(dir, 'dist'),
    expect: join(dir, 'dist', 'main.cjs'),
    configs: [['server', 'rspack.config.mjs']],
  });
}

export function remoteVersion(remote, buildId = '') {
  const dir = join(root, remote);
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  const hash = inputHash(
    [
      ...reachableFiles([join(dir, 'src')]),
      join(dir, 'package.json'),
      join(dir, 'rspack.config.mjs'),
      join(dir, 'index.html'),
      ...buildInputs(),
    ],
    buildId,
  );
  return `${pkg.version}-${hash.slice(0, 10)}`;
}

/**
 * Publishes one remote as an immutable version folder; builds nothing if that version exists.
 * `promote` points the remote's `latest` at it (sites that pin a version are not affected).
 */
export function publishRemote(remote, { promote = true, buildId = '' } = {}) {
  if (!remotes.includes(remote)) throw new Error(`Unknown remote "${remote}". Remotes: ${remotes.join(', ')}`);
  const dir = join(root, remote);
  const version = remoteVersion(remote, buildId);
  const target = join(remotesDir, remote, version);
  let built = false;
  if (existsSync(join(target, 'mf-manifest.json'))) {
    console.log(`[build] ${remote} ${version} is already published`);
  } else {
    const staging = join(remotesDir, remote, `.staging-${version}`);
    rmSync(staging, { recursive: true, force: true });
    console.log(`[build] ${remote} ${version}`);
    run(rspackBin(dir), ['build', '-c', 'rspack.config.mjs'], dir, {
      REMOTE_OUT_DIR: staging,
      REMOTE_VERSION: version,
      REMOTE_BUILD_ID: buildId,
    });
    // The CHANGELOG goes with the build: the dealer console shows each version's notes.
    if (existsSync(join(dir, 'CHANGELOG.md'))) copyFileSync(join(dir, 'CHANGELOG.md'), join(staging, 'CHANGELOG.md'));
    rmSync(target, { recursive: true, force: true });
    renameSync(staging, target);
    built = true;
  }
  // The browser's files, compressed once (a version published before this gets them now); not its server build.
  precompress(target, { skip: ['server'] });
  if (promote) {
    mkdirSync(join(remotesDir, remote), { recursive: true });
    writeFileSync(join(remotesDir, remote, 'latest'), `${version}\n`);
  }
  return { version, built };
}
