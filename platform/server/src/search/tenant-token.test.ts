import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publicSiteConfigSchema, type SiteConfig } from '@dealer/contracts/site';
import type { MeilisearchConfig } from '../config';
import { findSiteIdBySlug, loadSiteConfig } from '@dealer/db/site-store';
import { siteDeps } from '../platform-context';
import { createTestPlatform, type TestPlatform } from '../testing/test-platform';
import { resolveSite } from '../tenancy/site-context';
import { generateDemoData } from '@dealer/demo/demo-data';
import { carsIndexUid, siteBaseFilter } from './site-search';
import { tenantTokenForSite, tenantTokenLifetimeSeconds } from './tenant-token';

const meili: MeilisearchConfig = {
  url: 'https://search.example.com',
  masterKey: 'a-meilisearch-master-key',
  searchKey: 'the-search-api-key-0123456789abcdef',
  searchKeyUid: '6062abda-a5aa-4414-ac91-ecd7944c0f8d',
};
const now = 1_748_822_400;
const toyota = generateDemoData(now).sites.find((site) => site.slug === 'toyota-demo')!;

const base64url = (part: string) => JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as Record<string, unknown>;
function decode(token: string) {
  const [header, payload, signature] = token.split('.');
  return { header: base64url(header!), payload: base64url(payload!), signed: `${header}.${payload}`, signature: signature! };
}

describe("the tenant token a site's browser searches a real Meilisearch with", () => {
  it("carries the site's base filter as its only rule, on the cars index", async () => {
    const { header, payload } = decode(await tenantTokenForSite(toyota, meili, now));
    expect(header).toEqual({ alg: 'HS256', typ: 'JWT' });
    expect(payload.searchRules).toEqual({ [carsIndexUid]: { filter: siteBaseFilter(toyota, now).filter } });
    expect((payload.searchRules as Record<string, { filter: string }>).cars!.filter).toContain('(make = "Toyota")');
  });

  it('names the search key it is signed with, by uid, and expires after a day', async () => {
    const { payload } = decode(await tenantTokenForSite(toyota, meili, now));
    expect(payload.apiKeyUid).toBe(meili.searchKeyUid);
    expect(payload.exp).toBe(now + tenantTokenLifetimeSeconds);
    expect(tenantTokenLifetimeSeconds).toBe(86_400);
  });

  it('is signed with the search key (HMAC-SHA256), so Meilisearch can check it and nobody else can make one', async () => {
    const { signed, signature } = decode(await tenantTokenForSite(toyota, meili, now));
    expect(signature).toBe(createHmac('sha256', meili.searchKey).update(signed).digest('base64url'));
    expect(signature).not.toBe(createHmac('sha256', 'another-key').update(signed).digest('base64url'));
  });

  it('never carries a key: not the search key, not the master key', async () => {
    const token = await tenantTokenForSite(toyota, meili, now);
    const { payload } = decode(token);
    expect(JSON.stringify(payload)).not.toContain(meili.searchKey);
    expect(token).not.toContain(meili.masterKey);
  });

  it('moves the sold-cars window with the clock, so each page gets a token of its own', async () => {
    const later = decode(await tenantTokenForSite(toyota, meili, now + 3600)).payload;
    expect((later.searchRules as Record<string, { filter: string }>).cars!.filter).toContain(
      `sold_date_timestamp >= ${now + 3600 - 3 * 86_400}`,
    );
  });

  it('refuses a key uid that is not a UUID v4, as Meilisearch would', async () => {
    await expect(tenantTokenForSite(toyota, { ...meili, searchKeyUid: 'not-a-uid' }, now)).rejects.toThrow(/UUIDv4/);
  });
});

describe("the search access a site's page hands its browser", () => {
  let platform: TestPlatform;
  let metro: SiteConfig;
  beforeAll(async () => {
    platform = await createTestPlatform();
    metro = (await loadSiteConfig(platform.ctx.db, (await findSiteIdBySlug(platform.ctx.db, 'metro-motor-group'))!))!;
  });
  afterAll(async () => {
    await platform?.close();
  });
  const request = { headers: { host: 'metro-motor-group.localhost:3000' }, protocol: 'http' } as never;

  it('is the real Meilisearch and a fresh tenant token when MEILISEARCH_URL is set', async () => {
    const started = Math.floor(Date.now() / 1000);
    const resolved = await resolveSite(request, { ...siteDeps(platform.ctx), meilisearch: meili });
    if (typeof resolved !== 'object' || !resolved) throw new Error('site not resolved');
    const { search } = resolved.publicConfig;
    expect(publicSiteConfigSchema.safeParse(resolved.publicConfig).success).toBe(true);
    expect(search.host).toBe(meili.url);
    expect(search.indexUid).toBe(carsIndexUid);
    const { payload } = decode(search.apiKey);
    expect(payload.apiKeyUid).toBe(meili.searchKeyUid);
    const filter = (payload.searchRules as Record<string, { filter: string }>).cars!.filter;
    expect(filter).toContain(`(site_id = ${metro.id})`);
    expect(payload.exp).toBeGreaterThanOrEqual(started + tenantTokenLifetimeSeconds);
    expect(JSON.stringify(resolved.publicConfig)).not.toContain(meili.searchKey);
    expect(JSON.stringify(resolved.publicConfig)).not.toContain(meili.masterKey);
  });

  it("is the platform's own /meili and the site's search key on the embedded engine, never the search admin key", async () => {
    const resolved = await resolveSite(request, siteDeps(platform.ctx));
    if (typeof resolved !== 'object' || !resolved) throw new Error('site not resolved');
    expect(resolved.publicConfig.search.host).toBe('http://metro-motor-group.localhost:3000/meili');
    expect(resolved.publicConfig.search.apiKey).toMatch(/^pk_site_\d+_/);
    expect(JSON.stringify(resolved.publicConfig)).not.toContain(platform.ctx.config.searchAdminKey);
  });
});
