import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateDemoData } from '@dealer/demo/demo-data';

const root = resolve(__dirname, '..', '..', '..');
const browserDirs = [join(root, 'shell', 'dist', 'client'), join(root, 'console', 'dist', 'client'), join(root, 'dist', 'remotes')];

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(path) : /\.(js|css|html|json)$/.test(entry.name) ? [path] : [];
  });
}

describe('what the browser downloads', () => {
  it('holds no site secret or third-party token from any demo site', () => {
    const files = browserDirs.flatMap(filesUnder);
    expect(files.length, 'build the platform first (npm run build)').toBeGreaterThan(10);
    const secrets = generateDemoData(1_790_000_000).sites.flatMap((site) =>
      Object.values(site.secrets).filter((value): value is string => Boolean(value)),
    );
    expect(secrets.length).toBeGreaterThan(10);
    const leaks = files.flatMap((file) => {
      const text = readFileSync(file, 'utf8');
      return [...secrets, 'DEMO_SECRET'].filter((secret) => text.includes(secret)).map((secret) => `${file}: ${secret}`);
    });
    expect(leaks).toEqual([]);
  });

  it('holds no server code or seed data', () => {
    const shellJs = filesUnder(join(root, 'shell', 'dist', 'client')).filter((file) => file.endsWith('.js'));
    const serverMarkers = ['better-sqlite3', 'generateDemoData', 'createHmac', 'kysely'];
    const found = shellJs.flatMap((file) =>
      serverMarkers.filter((marker) => readFileSync(file, 'utf8').includes(marker)).map((marker) => `${file}: ${marker}`),
    );
    expect(found).toEqual([]);
  });
});
