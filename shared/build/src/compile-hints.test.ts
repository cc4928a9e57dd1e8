import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { rspack } from '@rspack/core';
import { afterEach, describe, expect, it } from 'vitest';
import { compileHints } from './mf-config.mjs';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/** A production build of a page script (`main`) that loads the app's code (`app`) later. */
async function build() {
  const dir = mkdtempSync(join(tmpdir(), 'compile-hints-'));
  dirs.push(dir);
  writeFileSync(
    join(dir, 'main.js'),
    `document.addEventListener('click', () => import(/* webpackChunkName: "app" */ './app.js').then((app) => app.start()));`,
  );
  writeFileSync(join(dir, 'app.js'), `export function start() { return [1, 2, 3].map((n) => n * 2).join(','); }`);
  const compiler = rspack({
    mode: 'production',
    context: dir,
    entry: { main: './main.js' },
    output: { path: join(dir, 'dist'), filename: '[name].js', chunkFilename: '[name].js' },
    plugins: [compileHints(/^(?!main\.)[^/]*\.js$/)],
  });
  await new Promise<void>((resolve, reject) =>
    compiler.run((error, stats) => (error || stats?.hasErrors() ? reject(error ?? new Error(stats?.toString())) : resolve())),
  );
  return (file: string) => readFileSync(join(dir, 'dist', file), 'utf8');
}

describe('compile hints on the code the app starts with', () => {
  it('mark the files it matches, after minifying, and leave the page script to lazy compilation', async () => {
    const output = await build();
    const app = output('app.js');
    expect(app.startsWith('//# allFunctionsCalledOnLoad\n')).toBe(true);
    // Minified code follows the hint: the comment was not stripped or moved by the minifier.
    expect(app.split('\n')[1]).toContain('start');
    expect(output('main.js')).not.toContain('allFunctionsCalledOnLoad');
  });
});
