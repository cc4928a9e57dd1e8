import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { RemoteRegistry } from './remote-registry';

const dir = mkdtempSync(join(tmpdir(), 'remotes-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function publish(remote: string, version: string, descriptor?: string, latest = true) {
  const folder = join(dir, remote, version);
  mkdirSync(folder, { recursive: true });
  writeFileSync(
    join(folder, 'mf-manifest.json'),
    JSON.stringify({ name: remote.replace('-', '_'), metaData: { remoteEntry: { name: 'remoteEntry.js' } }, exposes: [] }),
  );
  if (descriptor !== undefined) writeFileSync(join(folder, 'dealer-remote.json'), descriptor);
  if (latest) writeFileSync(join(dir, remote, 'latest'), `${version}\n`);
}

publish('mf-checkout', '1.3.0-old');
publish('mf-checkout', '1.4.0-new', JSON.stringify({ name: 'mf-checkout', slots: { 'vehicle.actions': ['ReserveButton'] } }));
publish('mf-vehicle', '1.4.0-a', JSON.stringify({ name: 'mf-vehicle', slots: {} }));
publish('mf-leads', '1.6.0-broken', '{ not json');
publish('mf-garage', '1.2.0-wrong', JSON.stringify({ name: 'mf-chat', slots: { 'vehicle.actions': ['FavouriteButton'] } }));
publish('mf-chat', '1.2.0-unknown-slot', JSON.stringify({ name: 'mf-chat', slots: { 'vehicle.nowhere': ['ChatWidget'] } }));

// A version whose manifest lists its exposed modules' files, as the remotes' builds write it.
const buttons = join(dir, 'mf-leads', '1.9.3-buttons');
mkdirSync(buttons, { recursive: true });
const exposed = (name: string, js: string[], css: string[] = []) => ({
  name,
  path: `./${name}`,
  assets: { js: { sync: js, async: ['static/js/async/form.js'] }, css: { sync: css, async: [] } },
});
writeFileSync(
  join(buttons, 'mf-manifest.json'),
  JSON.stringify({
    name: 'mf_leads',
    metaData: { remoteEntry: { name: 'remoteEntry.js' } },
    exposes: [
      exposed('EnquireButton', ['static/js/EnquireButton.js', 'static/js/shared-button.js'], ['static/css/EnquireButton.css']),
      exposed('TestDriveButton', ['static/js/TestDriveButton.js', 'static/js/shared-button.js']),
    ],
  }),
);

const registry = new RemoteRegistry(dir);
const base = 'https://cdn.example';

describe('the named slots a site’s remotes fill', () => {
  it('tells the browser which exposed modules of the version a site runs fill which slot', () => {
    const [checkout] = registry.resolve([{ name: 'mf-checkout', enabled: true, version: null }], base);
    expect(checkout).toEqual({
      name: 'mf-checkout',
      version: '1.4.0-new',
      manifestUrl: `${base}/remotes/mf-checkout/1.4.0-new/mf-manifest.json`,
      entryUrl: `${base}/remotes/mf-checkout/1.4.0-new/remoteEntry.js`,
      slots: { 'vehicle.actions': ['ReserveButton'] },
    });
  });

  it('gives a version published before remotes described themselves no slots (pinned sites keep working)', () => {
    const [checkout] = registry.resolve([{ name: 'mf-checkout', enabled: true, version: '1.3.0-old' }], base);
    expect(checkout?.version).toBe('1.3.0-old');
    expect(checkout).not.toHaveProperty('slots');
  });

  it('leaves out a remote that fills nothing, and a switched-off remote altogether', () => {
    expect(registry.resolve([{ name: 'mf-vehicle', enabled: true, version: null }], base)[0]).not.toHaveProperty('slots');
    expect(registry.resolve([{ name: 'mf-checkout', enabled: false, version: null }], base)).toEqual([]);
  });

  it('ignores a descriptor that does not parse, names another remote or names an unknown slot', () => {
    expect(registry.descriptor('mf-leads', '1.6.0-broken')).toBeNull();
    expect(registry.descriptor('mf-garage', '1.2.0-wrong')).toBeNull();
    expect(registry.descriptor('mf-chat', '1.2.0-unknown-slot')).toBeNull();
    const refs = registry.resolve(
      [
        { name: 'mf-leads', enabled: true, version: null },
        { name: 'mf-garage', enabled: true, version: null },
        { name: 'mf-chat', enabled: true, version: null },
      ],
      base,
    );
    expect(refs.map((ref) => ref.name)).toEqual(['mf-leads', 'mf-garage', 'mf-chat']);
    for (const ref of refs) expect(ref).not.toHaveProperty('slots');
  });
});

describe('the version sites that pin none run', () => {
  it('is read from disk at most once a second, so a page does not touch the disk; a promotion by another process is seen within that second', () => {
    let now = 1_000_000;
    const kept = new RemoteRegistry(dir, () => now);
    publish('mf-search', '1.8.0-a');
    expect(kept.latest('mf-search')).toBe('1.8.0-a');
    publish('mf-search', '1.9.0-b');
    now += 999;
    expect(kept.latestStamp()).toContain('1.8.0-a');
    expect(kept.resolve([{ name: 'mf-search', enabled: true, version: null }], base)[0]?.version).toBe('1.8.0-a');
    now += 1;
    expect(kept.latest('mf-search')).toBe('1.9.0-b');
    expect(kept.latestStamp()).toContain('1.9.0-b');
    expect(kept.resolve([{ name: 'mf-search', enabled: true, version: null }], base)[0]?.version).toBe('1.9.0-b');
  });

  it('is read again at once after this process promoted a version (forget)', () => {
    const now = 2_000_000;
    const kept = new RemoteRegistry(dir, () => now);
    publish('mf-garage', '1.3.0-a');
    expect(kept.latest('mf-garage')).toBe('1.3.0-a');
    publish('mf-garage', '1.4.0-b');
    expect(kept.latest('mf-garage')).toBe('1.3.0-a');
    kept.forget('mf-garage');
    expect(kept.latest('mf-garage')).toBe('1.4.0-b');
    publish('mf-garage', '1.5.0-c');
    kept.forget();
    expect(kept.latest('mf-garage')).toBe('1.5.0-c');
  });

  it('is none while the file names a version that was never published', () => {
    const kept = new RemoteRegistry(dir, () => 0);
    writeFileSync(join(dir, 'mf-chat', 'latest'), '9.9.9-missing\n');
    expect(kept.latest('mf-chat')).toBeNull();
  });
});

describe('the files of the remote modules a page’s markup holds', () => {
  it('are each module’s entry, first chunks and styles at the version the site runs, each once, and nothing of what it does not run', () => {
    const refs = registry.resolve([{ name: 'mf-leads', enabled: true, version: '1.9.3-buttons' }], base);
    const at = `${base}/remotes/mf-leads/1.9.3-buttons`;
    expect(
      registry.moduleFiles(refs, [
        'mf-leads/EnquireButton',
        'mf-leads/TestDriveButton',
        'mf-leads/NoSuchButton',
        'mf-garage/FavouriteButton',
      ]),
    ).toEqual([
      { href: `${at}/remoteEntry.js`, as: 'script' },
      { href: `${at}/static/js/EnquireButton.js`, as: 'script' },
      { href: `${at}/static/js/shared-button.js`, as: 'script' },
      { href: `${at}/static/css/EnquireButton.css`, as: 'style' },
      { href: `${at}/static/js/TestDriveButton.js`, as: 'script' },
    ]);
  });
});
