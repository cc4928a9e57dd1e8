import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { afterAll, describe, expect, it } from 'vitest';
import { noImportCycle } from './eslint-no-import-cycle.mjs';

const dir = mkdtempSync(join(tmpdir(), 'no-import-cycle-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const files = {
  'type-a.ts': "import type { B } from './type-b';\nexport type A = { b?: B };\n",
  'type-b.ts': "import type { A } from './type-a';\nexport type B = { a?: A };\n",
  'value-c.ts': "import { d } from './value-d';\nexport const c = () => d;\n",
  'value-d.ts': "export { e as d } from './value-e';\n",
  'value-e.ts': "export const e = () => import('./value-c');\n",
  'line-f.ts': "import { g } from './line-g';\nimport type { G } from './line-g';\nexport const f: G = g;\n",
  'line-g.ts': 'export type G = number;\nexport const g = 1;\n',
  'line-h.ts': "import { f } from './line-f';\nimport { g } from './line-g';\nexport const h = f + g;\n",
};
for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);

const eslint = new ESLint({
  cwd: dir,
  overrideConfigFile: true,
  overrideConfig: [
    { files: ['**/*.ts'], languageOptions: { parser: tseslint.parser } },
    { plugins: { workspace: { rules: { 'no-import-cycle': noImportCycle } } }, rules: { 'workspace/no-import-cycle': 'error' } },
  ],
});
const circlesOf = async (name) =>
  (await eslint.lintFiles([join(dir, name)]))[0].messages.map((message) => `${message.line}: ${message.message}`);

describe('no import circles', () => {
  it('counts a circle closed by type-only imports', async () => {
    expect(await circlesOf('type-a.ts')).toEqual([
      '1: Import circle: type-a.ts → type-b.ts → type-a.ts. Move what both sides need into a file of its own.',
    ]);
    expect(await circlesOf('type-b.ts')).toEqual([
      '1: Import circle: type-b.ts → type-a.ts → type-b.ts. Move what both sides need into a file of its own.',
    ]);
  });

  it('follows re-exports and dynamic imports round a longer circle', async () => {
    expect(await circlesOf('value-c.ts')).toEqual([
      '1: Import circle: value-c.ts → value-d.ts → value-e.ts → value-c.ts. Move what both sides need into a file of its own.',
    ]);
    expect(await circlesOf('value-e.ts')).toEqual([
      '1: Import circle: value-e.ts → value-c.ts → value-d.ts → value-e.ts. Move what both sides need into a file of its own.',
    ]);
  });

  it('lets two paths meet at one module without a circle', async () => {
    for (const name of ['line-f.ts', 'line-g.ts', 'line-h.ts']) expect(await circlesOf(name)).toEqual([]);
  });
});
