import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestPlatform, testSearchAdminKey, testSearchKeySecret, type TestPlatform } from '../testing/test-platform';
import { searchKeyForSite } from './site-search';

const nested = (depth: number) => `${'['.repeat(depth)}1${']'.repeat(depth)}`;

/** Bodies that only serve to overflow a recursive walk are a 400 in Meilisearch's shape, never a 500. */
describe('deeply nested JSON sent to the search API', () => {
  let platform: TestPlatform;
  let siteKey: string;
  beforeAll(async () => {
    platform = await createTestPlatform();
    const site = await platform.ctx.db.selectFrom('sites').select('id').where('slug', '=', 'metro-motor-group').executeTakeFirstOrThrow();
    siteKey = searchKeyForSite(Number(site.id), testSearchKeySecret);
  });
  afterAll(async () => {
    await platform?.close();
  });

  const post = (url: string, key: string, payload: string, type = 'application/json') =>
    platform.app.inject({ method: 'POST', url, headers: { authorization: `Bearer ${key}`, 'content-type': type }, payload });

  it('answers a search nested 10,000 deep with 400 bad_request', async () => {
    for (const url of ['/meili/multi-search', '/meili/indexes/cars/search']) {
      const res = await post(url, siteKey, `{"q": "", "filter": ${nested(10_000)}}`);
      expect(res.statusCode, url).toBe(400);
      expect(res.json()).toMatchObject({ code: 'bad_request', message: expect.stringContaining('more than 32 levels deep') });
    }
  });

  it('answers documents nested 10,000 deep with 400 malformed_payload, as JSON and as NDJSON', async () => {
    const json = await post('/meili/indexes/deep/documents', testSearchAdminKey, `[{"id": 1, "deep": ${nested(10_000)}}]`);
    expect(json.statusCode).toBe(400);
    expect(json.json()).toMatchObject({ code: 'malformed_payload' });
    const ndjson = await post(
      '/meili/indexes/deep/documents',
      testSearchAdminKey,
      `{"id": 1, "deep": ${nested(10_000)}}\n`,
      'application/x-ndjson',
    );
    expect(ndjson.statusCode).toBe(400);
    expect(ndjson.json()).toMatchObject({ code: 'malformed_payload' });
  });

  it('still takes a document nested a few levels, as real records are', async () => {
    const res = await post(
      '/meili/indexes/deep/documents',
      testSearchAdminKey,
      JSON.stringify([{ id: 2, owner: { address: { geo: { lat: -33.8, lng: 151.2 } } } }]),
    );
    expect(res.statusCode).toBe(202);
  });
});
