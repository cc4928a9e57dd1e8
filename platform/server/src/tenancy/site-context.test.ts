import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PublicSiteConfig, SiteConfig } from '@dealer/contracts/site';
import type { PlatformDb } from '@dealer/db/database';
import { changeSiteConfig, findSiteIdBySlug, setSiteRemote } from '@dealer/db/site-store';
import { skipPostgres } from '@dealer/testing/postgres';
import { siteDeps } from '../platform-context';
import { signPreview } from '../remotes/remote-preview';
import { createTestPlatform, siteRequest, testRemoteVersion, writeFakeRemotes, type TestPlatform } from '../testing/test-platform';
import { resolveSite, type SiteContext } from './site-context';
import { SiteCache } from './site-cache';

const slug = 'metro-motor-group';
const requestAt = (host: string) => ({ headers: { host }, protocol: 'http' }) as never;

/** A store that notes the tables it is asked to read. */
function countingReads(db: PlatformDb, reads: string[]): PlatformDb {
  return new Proxy(db, {
    get(target, name) {
      const value = Reflect.get(target, name, target) as unknown;
      if (name === 'selectFrom')
        return (table: string) => {
          reads.push(table);
          return target.selectFrom(table as never);
        };
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

describe.each(['sqlite', 'postgres'] as const)('the site a page is served, on %s', (engine) => {
  if (engine === 'postgres' && skipPostgres) {
    it.skip('needs PostgreSQL (skipped: SKIP_POSTGRES=1)', () => {});
    return;
  }
  let platform: TestPlatform;
  let siteId: number;
  beforeAll(async () => {
    platform = await createTestPlatform({ engine });
    siteId = (await findSiteIdBySlug(platform.ctx.db, slug))!;
  }, 60_000);
  afterAll(async () => platform?.close());

  /** The config the next page of the site is rendered with (the document carries it inline here). */
  const nextPage = async (): Promise<PublicSiteConfig> => {
    const res = await siteRequest(platform.app, slug, 'GET', '/');
    expect(res.statusCode).toBe(200);
    const inline = /<script id="site-config" type="application\/json">(.*?)<\/script>/s.exec(res.body)?.[1];
    return JSON.parse(inline!) as PublicSiteConfig;
  };
  /** A settings change as another process (the CLI) makes it: nothing in this one is told. */
  const change = (edit: (site: SiteConfig) => SiteConfig) =>
    changeSiteConfig(platform.ctx.db, platform.ctx.dialect, siteId, (site) => ({ site: edit(site), result: null }));

  it('hands every page of a site the same context while nothing changed, its config read once', async () => {
    const reads: string[] = [];
    const deps = { ...siteDeps(platform.ctx), sites: new SiteCache(countingReads(platform.ctx.db, reads), null) };
    const first = (await resolveSite(requestAt(`${slug}.localhost:3000`), deps)) as SiteContext;
    const second = (await resolveSite(requestAt(`${slug}.localhost:3000`), deps)) as SiteContext;
    expect(first.site.slug).toBe(slug);
    expect(second).toBe(first);
    // At another address: its own context (its search host), made of the same config.
    const elsewhere = (await resolveSite(requestAt(`${slug}.localhost:4000`), deps)) as SiteContext;
    expect(elsewhere).not.toBe(first);
    expect(elsewhere.site).toBe(first.site);
    expect(elsewhere.publicConfig.search.host).toBe(`http://${slug}.localhost:4000/meili`);
    expect(reads.filter((table) => table === 'locations')).toHaveLength(1);
  });

  it('gives the next page a new context after a settings change, a location change, a remote switch and a promotion', async () => {
    expect((await nextPage()).name).not.toBe('Metro Motors (renamed)');
    await change((site) => ({ ...site, name: 'Metro Motors (renamed)' }));
    expect((await nextPage()).name).toBe('Metro Motors (renamed)');

    await change((site) => ({
      ...site,
      locations: site.locations.map((location, i) => (i === 0 ? { ...location, name: 'Moved Yard' } : location)),
    }));
    expect((await nextPage()).locations[0]!.name).toBe('Moved Yard');

    expect((await nextPage()).remotes.map((remote) => remote.name)).toContain('mf-chat');
    await setSiteRemote(platform.ctx.db, siteId, 'mf-chat', { enabled: false });
    expect((await nextPage()).remotes.map((remote) => remote.name)).not.toContain('mf-chat');
    await setSiteRemote(platform.ctx.db, siteId, 'mf-chat', { enabled: true });
    expect((await nextPage()).remotes.map((remote) => remote.name)).toContain('mf-chat');

    // A newer build promoted by this process (a promotion by another is seen within a second: remote-registry.test.ts).
    await writeFakeRemotes(platform.ctx.config.remotesDir, '9.0.0-test');
    platform.ctx.registry.forget();
    expect((await nextPage()).remotes.find((remote) => remote.name === 'mf-search')?.version).toBe('9.0.0-test');
    await writeFakeRemotes(platform.ctx.config.remotesDir, testRemoteVersion);
    platform.ctx.registry.forget();
    expect((await nextPage()).remotes.find((remote) => remote.name === 'mf-search')?.version).toBe(testRemoteVersion);
  });

  it('makes a browser previewing remote versions a context of its own every time', async () => {
    const first = (await resolveSite(requestAt(`${slug}.localhost:3000`), siteDeps(platform.ctx))) as SiteContext;
    const remotes = first.site.remotes.map((remote) => ({ ...remote, enabled: remote.name !== 'mf-chat' }));
    const token = signPreview(platform.ctx.config.leads.tokenSecret, siteId, remotes);
    const request = { headers: { host: `${slug}.localhost:3000`, cookie: `dp_preview=${token}` }, protocol: 'http' } as never;
    const previewing = (await resolveSite(request, siteDeps(platform.ctx))) as SiteContext;
    expect(previewing.preview).toBe(true);
    expect(previewing.publicConfig.remotes.map((remote) => remote.name)).not.toContain('mf-chat');
    expect(await resolveSite(request, siteDeps(platform.ctx))).not.toBe(previewing);
    expect(await resolveSite(requestAt(`${slug}.localhost:3000`), siteDeps(platform.ctx))).toBe(first);
  });
});
