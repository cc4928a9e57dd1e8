import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(__dirname, '..', '..', '..');
const bundles = ['main.cjs', 'platform-cli.cjs'].map((name) => join(root, 'platform', 'server', 'dist', name));

/** The npm packages a server bundle requires at run time (every dependency stays external). */
function externalsOf(bundle: string): string[] {
  const text = readFileSync(bundle, 'utf8');
  return [
    ...new Set([...text.matchAll(/require\("([^".][^"]*)"\)/g)].map((match) => match[1]!).filter((name) => !name.startsWith('node:'))),
  ].sort();
}

describe('the built server', () => {
  // `npm start` runs the bundle with plain node: no pnpm NODE_PATH to fall back on, so each package
  // it requires must be a dependency of the server package itself, also those only the bundled
  // @dealer packages (db, leads, demo, search-engine, contracts, rules) import.
  it.each(bundles.map((bundle) => [bundle.slice(root.length + 1), bundle]))(
    '%s finds every package it requires without pnpm’s NODE_PATH',
    (_name, bundle) => {
      expect(existsSync(bundle), 'build the platform first (npm run build)').toBe(true);
      const externals = externalsOf(bundle);
      expect(externals).toContain('kysely');
      const env = { ...process.env };
      delete env.NODE_PATH;
      const script = `const { createRequire } = require('node:module'); const r = createRequire(${JSON.stringify(bundle)}); const missing = []; for (const name of ${JSON.stringify(externals)}) { try { r.resolve(name); } catch { missing.push(name); } } process.stdout.write(JSON.stringify(missing));`;
      const run = spawnSync(process.execPath, ['-e', script], { env, encoding: 'utf8' });
      expect(run.status, run.stderr).toBe(0);
      expect(JSON.parse(run.stdout)).toEqual([]);
    },
  );
});
