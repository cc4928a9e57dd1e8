import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InjectOptions } from 'fastify';
import { createTestPlatform, testSearchAdminKey, testSearchKeySecret, type TestPlatform } from '../testing/test-platform';
import { EmbeddedSearchEngine } from '@dealer/search-engine/search-engine';
import { carsIndexUid, searchKeyForSite } from './site-search';

/** The edges of the embedded engine's `/meili` API that the official client does not reach on its own. */
describe("the embedded engine's Meilisearch API", () => {
  let platform: TestPlatform;
  beforeAll(async () => {
    platform = await createTestPlatform();
  });
  afterAll(async () => {
    await platform?.close();
  });

  const adminAuth = { authorization: `Bearer ${testSearchAdminKey}` };
  const call = (
    method: InjectOptions['method'],
    url: string,
    opts: { headers?: Record<string, string>; payload?: InjectOptions['payload'] } = {},
  ) => platform.app.inject({ method, url, headers: { ...adminAuth, ...opts.headers }, payload: opts.payload });
  const task = async (res: { statusCode: number; json<T>(): T }) => {
    expect(res.statusCode).toBe(202);
    return (await call('GET', `/meili/tasks/${res.json<{ taskUid: number }>().taskUid}`)).json<{
      status: string;
      error: { code: string } | null;
      details: Record<string, unknown>;
    }>();
  };

  it('answers its health check to anyone', async () => {
    const res = await platform.app.inject({ url: '/meili/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'available' });
  });

  it("answers a path that is not part of the API with Meilisearch's 404, not a page of the site", async () => {
    const res = await call('GET', '/meili/no-such-route', { headers: { host: 'metro-motor-group.localhost:3000' } });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 'not_found' });
  });

  it('takes a DELETE that says application/json but sends no body, as the official client sends it', async () => {
    await call('POST', '/meili/indexes', { payload: { uid: 'empty_body', primaryKey: 'id' } });
    const res = await call('DELETE', '/meili/indexes/empty_body/documents', { headers: { 'content-type': 'application/json' } });
    expect((await task(res)).status).toBe('succeeded');
  });

  it("explains a body it cannot read, in Meilisearch's words, with CORS on search answers", async () => {
    const documents = await call('POST', '/meili/indexes/anything/documents', {
      headers: { 'content-type': 'application/json' },
      payload: '[{"id": 1,',
    });
    expect(documents.statusCode).toBe(400);
    expect(documents.json()).toMatchObject({
      code: 'malformed_payload',
      type: 'invalid_request',
      link: expect.stringContaining('malformed_payload'),
    });

    const search = await call('POST', '/meili/multi-search', { headers: { 'content-type': 'application/json' }, payload: '{"queries": [' });
    expect(search.statusCode).toBe(400);
    expect(search.json()).toMatchObject({ code: 'bad_request' });
    expect(search.headers['access-control-allow-origin']).toBe('*');

    const notDocuments = await call('POST', '/meili/indexes/anything/documents', { payload: [1, 2] });
    expect(notDocuments.json()).toMatchObject({ code: 'malformed_payload' });

    const text = await call('POST', '/meili/indexes/anything/documents', { headers: { 'content-type': 'text/plain' }, payload: 'id\n1' });
    expect(text.statusCode).toBe(415);
    expect(text.json()).toMatchObject({ code: 'invalid_content_type' });
  });

  it("refuses a malformed path or body in Meilisearch's shape, code and words, with CORS on search answers", async () => {
    const meiliError = (code: string, message: string) => ({
      message,
      code,
      type: 'invalid_request',
      link: `https://docs.meilisearch.com/errors#${code}`,
    });
    for (const [method, url, payload, status, code, message] of [
      [
        'GET',
        '/meili/tasks/first',
        undefined,
        400,
        'invalid_task_uids',
        'Task uid `first` is invalid. It should only contain numeric characters.',
      ],
      [
        'GET',
        '/meili/batches/-1',
        undefined,
        400,
        'invalid_batch_uids',
        'Batch uid `-1` is invalid. It should only contain numeric characters.',
      ],
      ['PUT', '/meili/indexes/anything/settings/colours', ['red'], 404, 'not_found', 'Setting `colours` does not exist.'],
      ['DELETE', '/meili/indexes/anything/settings/colours', undefined, 404, 'not_found', 'Setting `colours` does not exist.'],
      ['POST', '/meili/indexes', [1], 400, 'bad_request', 'Invalid value type: expected an object, but found an array: `[1]`'],
      [
        'PATCH',
        '/meili/indexes/anything/settings',
        ['displayedAttributes'],
        400,
        'bad_request',
        'Invalid value type: expected an object, but found an array: `["displayedAttributes"]`',
      ],
      [
        'PATCH',
        '/meili/indexes/anything',
        ['id'],
        400,
        'invalid_index_primary_key',
        'Invalid value type at `.primaryKey`: expected a string',
      ],
      [
        'POST',
        '/meili/indexes/anything/documents/delete-batch',
        { ids: [1] },
        400,
        'bad_request',
        'Invalid value type: expected an array of document ids, but found an object: `{"ids":[1]}`',
      ],
      [
        'POST',
        '/meili/indexes/anything/documents/fetch',
        [],
        400,
        'bad_request',
        'Invalid value type: expected an object, but found an array: `[]`',
      ],
      [
        'POST',
        '/meili/multi-search',
        'queries',
        400,
        'bad_request',
        'Invalid value type: expected an object, but found a string: `"queries"`',
      ],
    ] as const) {
      const res = await call(method, url, {
        headers: { 'content-type': 'application/json' },
        payload: payload === undefined ? undefined : JSON.stringify(payload),
      });
      expect(res.statusCode, `${method} ${url}`).toBe(status);
      expect(res.json(), `${method} ${url}`).toEqual(meiliError(code, message));
      expect(res.headers['access-control-allow-origin'], `${method} ${url}`).toBe(url === '/meili/multi-search' ? '*' : undefined);
    }
  });

  it('reads a search body that is missing or null as an empty one, as Meilisearch does', async () => {
    for (const payload of [undefined, 'null']) {
      const res = await call('POST', `/meili/indexes/${carsIndexUid}/search`, { headers: { 'content-type': 'application/json' }, payload });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json<{ hits: unknown[] }>().hits.length).toBeGreaterThan(0);
    }
  });

  it('checks an index creation: uid given, well formed, no other fields', async () => {
    expect((await call('POST', '/meili/indexes', { payload: { primaryKey: 'id' } })).json()).toMatchObject({ code: 'missing_index_uid' });
    expect((await call('POST', '/meili/indexes', { payload: { uid: 'bad uid!' } })).json()).toMatchObject({ code: 'invalid_index_uid' });
    expect((await call('POST', '/meili/indexes', { payload: { uid: 'fine', colour: 'red' } })).json()).toMatchObject({
      code: 'bad_request',
    });
    expect((await call('POST', '/meili/indexes', { payload: { uid: 'fine', primaryKey: 3 } })).json()).toMatchObject({
      code: 'invalid_index_primary_key',
    });
  });

  it("checks settings: known names, right types; gives them all back with Meilisearch's defaults", async () => {
    expect((await call('PATCH', '/meili/indexes/settings_check/settings', { payload: { colour: ['red'] } })).json()).toMatchObject({
      code: 'bad_request',
    });
    expect(
      (await call('PATCH', '/meili/indexes/settings_check/settings', { payload: { filterableAttributes: 'make' } })).json(),
    ).toMatchObject({
      code: 'invalid_settings_filterable_attributes',
    });
    expect(
      (await call('PUT', '/meili/indexes/settings_check/settings/sortable-attributes', { payload: { price: true } })).json(),
    ).toMatchObject({
      code: 'invalid_settings_sortable_attributes',
    });
    expect((await call('GET', '/meili/indexes/settings_check/settings/no-such-setting')).statusCode).toBe(404);

    // A settings update creates the index, as in Meilisearch.
    expect(
      (
        await task(
          await call('PATCH', '/meili/indexes/settings_check/settings', {
            payload: { filterableAttributes: ['make'], pagination: { maxTotalHits: 500 } },
          }),
        )
      ).status,
    ).toBe('succeeded');
    const settings = (await call('GET', '/meili/indexes/settings_check/settings')).json<Record<string, unknown>>();
    expect(settings).toMatchObject({
      filterableAttributes: ['make'],
      searchableAttributes: ['*'],
      displayedAttributes: ['*'],
      rankingRules: ['words', 'typo', 'proximity', 'attribute', 'sort', 'exactness'],
      pagination: { maxTotalHits: 500 },
    });
    expect((await task(await call('DELETE', '/meili/indexes/settings_check/settings/filterable-attributes'))).status).toBe('succeeded');
    expect((await call('GET', '/meili/indexes/settings_check/settings/filterable-attributes')).json()).toEqual([]);
  });

  it('finds the primary key of new documents as Meilisearch does', async () => {
    expect((await task(await call('POST', '/meili/indexes/inferred/documents', { payload: [{ stock_id: 'A1', name: 'x' }] }))).status).toBe(
      'succeeded',
    );
    expect((await call('GET', '/meili/indexes/inferred')).json()).toMatchObject({ primaryKey: 'stock_id' });
    const several = await task(await call('POST', '/meili/indexes/ambiguous/documents', { payload: [{ id: 1, site_id: 2 }] }));
    expect(several).toMatchObject({ status: 'failed', error: { code: 'index_primary_key_multiple_candidates_found' } });
    const given = await task(
      await call('POST', '/meili/indexes/given/documents?primaryKey=sku', { payload: [{ sku: 'B-2', id: 'other', name: 'kept' }] }),
    );
    expect(given.status).toBe('succeeded');
    // Another primary key than `id` leaves the document's own `id` field as it was.
    expect((await call('GET', '/meili/indexes/given/documents/B-2')).json()).toEqual({ sku: 'B-2', id: 'other', name: 'kept' });
    const hits = (await call('POST', '/meili/indexes/given/search', { payload: { q: 'kept' } })).json<{ hits: unknown[] }>().hits;
    expect(hits).toEqual([{ sku: 'B-2', id: 'other', name: 'kept' }]);
  });

  it('refuses a site key everything but search, before reading the body', async () => {
    const siteKey = { authorization: `Bearer ${searchKeyForSite(1, testSearchKeySecret)}` };
    for (const [method, url] of [
      ['GET', '/meili/indexes'],
      ['POST', `/meili/indexes/${carsIndexUid}/documents`],
      ['DELETE', `/meili/indexes/${carsIndexUid}`],
      ['GET', '/meili/tasks/0'],
      ['GET', '/meili/version'],
    ] as const) {
      const res = await call(method, url, { headers: siteKey, payload: method === 'POST' ? [{ id: 1 }] : undefined });
      expect(res.statusCode, url).toBe(403);
      expect(res.json()).toMatchObject({ code: 'invalid_api_key', type: 'auth' });
    }
  });

  it("lets the admin key search every site's cars, unscoped", async () => {
    const res = await call('POST', '/meili/multi-search', {
      payload: { queries: [{ indexUid: carsIndexUid, facets: ['site_id'], limit: 0 }] },
    });
    expect(res.statusCode).toBe(200);
    expect(
      Object.keys(
        res.json<{ results: { facetDistribution: Record<string, Record<string, number>> }[] }>().results[0]!.facetDistribution.site_id!,
      ).length,
    ).toBe(10);
  });
});

describe("the embedded engine's task log", () => {
  it('keeps the most recent tasks only, as Meilisearch drops old ones', () => {
    const engine = new EmbeddedSearchEngine(3);
    for (const uid of ['a', 'b', 'c', 'd', 'e']) engine.createIndex(uid, 'id');
    expect(engine.listTasks().results.map((task) => task.uid)).toEqual([4, 3, 2]);
    expect(() => engine.task(0)).toThrow('Task `0` not found.');
    expect(engine.task(4)).toMatchObject({ indexUid: 'e', status: 'succeeded', type: 'indexCreation' });
  });

  it('pages tasks from a uid, either way', () => {
    const engine = new EmbeddedSearchEngine();
    for (const uid of ['a', 'b', 'c', 'd', 'e']) engine.createIndex(uid, 'id');
    expect(engine.listTasks({ limit: 2, from: 3 })).toMatchObject({ from: 3, next: 1, total: 5 });
    expect(engine.listTasks({ limit: 2, from: 3 }).results.map((task) => task.uid)).toEqual([3, 2]);
    expect(engine.listTasks({ limit: 2, reverse: true }).results.map((task) => task.uid)).toEqual([0, 1]);
    expect(engine.listTasks({ indexUids: ['c'] }).results.map((task) => task.uid)).toEqual([2]);
  });
});
