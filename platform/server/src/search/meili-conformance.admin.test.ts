import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InjectOptions } from 'fastify';
import { Meilisearch, type RecordAny } from 'meilisearch';
import { createTestPlatform, testSearchAdminKey, type TestPlatform } from '../testing/test-platform';
import { EmbeddedSearchEngine } from '@dealer/search-engine/search-engine';
import { carsIndexUid } from './site-search';
import { apiError } from '@dealer/testing/meili-api-error';

/**
 * Meilisearch's indexer-side contract, answered by the embedded engine: documents (deletion by
 * filter, NDJSON and CSV, displayed fields), settings, tasks and batches. Driven through the
 * official client where it has a method, raw HTTP for the exact error bodies.
 */

describe('the Meilisearch indexer contract of the embedded engine', () => {
  let platform: TestPlatform;
  let admin: Meilisearch;

  beforeAll(async () => {
    platform = await createTestPlatform();
    await platform.app.listen({ port: 0, host: '127.0.0.1' });
    admin = new Meilisearch({
      host: `http://127.0.0.1:${(platform.app.server.address() as AddressInfo).port}/meili`,
      apiKey: testSearchAdminKey,
    });
  });
  afterAll(async () => {
    await platform?.close();
  });

  const call = (method: InjectOptions['method'], url: string, opts: { payload?: unknown; contentType?: string } = {}) =>
    platform.app.inject({
      method,
      url,
      headers: { authorization: `Bearer ${testSearchAdminKey}`, ...(opts.contentType ? { 'content-type': opts.contentType } : {}) },
      ...(opts.payload === undefined ? {} : { payload: opts.payload as InjectOptions['payload'] }),
    });
  const errorOf = (res: { statusCode: number; json<T>(): T }) => ({
    status: res.statusCode,
    ...res.json<{ code: string; message: string }>(),
  });

  // -------------------------------------------------------------------------------------------
  describe('deleting documents by filter', () => {
    const docs = [
      { id: 1, make: 'Toyota' },
      { id: 2, make: 'Mazda' },
      { id: 3, make: 'Kia' },
    ];
    beforeAll(async () => {
      await admin
        .index('deletions')
        .updateSettings({ filterableAttributes: ['make'] })
        .waitTask();
      await admin.index('deletions').addDocuments(docs).waitTask();
    });

    it.each([[''], ['   '], [[]], [['']], [[[]]], [['  ', []]]])('refuses the empty filter %j, deleting nothing', async (filter) => {
      expect(errorOf(await call('POST', '/meili/indexes/deletions/documents/delete', { payload: { filter } }))).toMatchObject({
        status: 400,
        code: 'invalid_document_filter',
        message: 'Sending an empty filter is forbidden.',
      });
      expect((await admin.index('deletions').getDocuments()).total).toBe(3);
    });

    it("refuses a missing filter, and one that is not a filter, in Meilisearch's words", async () => {
      expect(errorOf(await call('POST', '/meili/indexes/deletions/documents/delete', { payload: {} }))).toMatchObject({
        status: 400,
        code: 'missing_document_filter',
        message: 'Missing field `filter`',
      });
      expect(errorOf(await call('POST', '/meili/indexes/deletions/documents/delete', { payload: { filter: null } }))).toMatchObject({
        status: 400,
        code: 'invalid_document_filter',
        message: 'Invalid syntax for the filter parameter: `expected String, Array, found: null`.',
      });
      expect(
        errorOf(await call('POST', '/meili/indexes/deletions/documents/delete', { payload: { filter: 'make = Kia', colour: 'red' } })),
      ).toMatchObject({
        status: 400,
        code: 'bad_request',
        message: 'Unknown field `colour`: expected one of `filter`',
      });
      expect((await admin.index('deletions').getDocuments()).total).toBe(3);
    });

    it('refuses it through the official client as well, and still deletes by a real filter', async () => {
      expect(await apiError(admin.index('deletions').deleteDocuments({ filter: '' }))).toMatchObject({
        status: 400,
        code: 'invalid_document_filter',
      });
      expect(await admin.index('deletions').deleteDocuments({ filter: 'make = Kia' }).waitTask()).toMatchObject({
        status: 'succeeded',
        details: { deletedDocuments: 1 },
      });
      expect((await admin.index('deletions').getDocuments()).total).toBe(2);
    });

    it('is refused by the engine itself, whoever calls it', () => {
      const engine = new EmbeddedSearchEngine();
      engine.addDocuments('cars', [{ id: 1 }], { primaryKey: 'id', merge: false });
      expect(() => engine.deleteDocumentsByFilter('cars', '  ')).toThrow('Sending an empty filter is forbidden.');
      expect(engine.index('cars')!.size).toBe(1);
    });
  });

  // -------------------------------------------------------------------------------------------
  describe('documents as NDJSON and CSV', () => {
    it('adds NDJSON documents, one object a line', async () => {
      const ndjson = '{"id": 1, "title": "Carol", "year": 2015}\n\n{"id": 2, "title": "Moana", "tags": ["a", "b"]}\n';
      const task = await admin.index('ndjson').addDocumentsFromString(ndjson, 'application/x-ndjson').waitTask();
      expect(task).toMatchObject({ status: 'succeeded', details: { receivedDocuments: 2, indexedDocuments: 2 } });
      expect(await admin.index('ndjson').getDocument(2)).toEqual({ id: 2, title: 'Moana', tags: ['a', 'b'] });
    });

    it('adds CSV documents with typed headers, quoted fields and empty cells as null', async () => {
      const csv = [
        'id:number,title,price:number,available:boolean,notes',
        '1,"Hilux, SR5",45990.5,true,"said ""mint""\non two lines"',
        '2,Corolla,,false,',
        ' 3 ,Yaris, 19990 , true ,plain',
      ].join('\r\n');
      const task = await admin.index('csv').addDocumentsFromString(csv, 'text/csv').waitTask();
      expect(task).toMatchObject({ status: 'succeeded', details: { receivedDocuments: 3 } });
      const { results } = await admin.index('csv').getDocuments<RecordAny>();
      expect(results).toEqual([
        { id: 1, title: 'Hilux, SR5', price: 45990.5, available: true, notes: 'said "mint"\non two lines' },
        { id: 2, title: 'Corolla', price: null, available: false, notes: null },
        { id: 3, title: 'Yaris', price: 19990, available: true, notes: 'plain' },
      ]);
    });

    it('reads CSV with another delimiter, and updates with PUT', async () => {
      await admin.index('csv').updateDocumentsFromString('id:number;title\n2;Corolla Ascent', 'text/csv', { csvDelimiter: ';' }).waitTask();
      expect(await admin.index('csv').getDocument(2)).toMatchObject({ id: 2, title: 'Corolla Ascent', available: false });
    });

    it('refuses a payload it cannot read with malformed_payload', async () => {
      const post = (payload: string, contentType: string, query = '') =>
        call('POST', `/meili/indexes/formats/documents${query}`, { payload, contentType });
      expect(errorOf(await post('id:number,price:number\n1,cheap', 'text/csv'))).toEqual({
        status: 400,
        code: 'malformed_payload',
        type: 'invalid_request',
        link: 'https://docs.meilisearch.com/errors#malformed_payload',
        message: 'The `csv` payload provided is malformed: `Error parsing number "cheap" at line 1: invalid float literal`.',
      });
      expect(errorOf(await post('id,sold:boolean\n1,yes', 'text/csv'))).toMatchObject({
        code: 'malformed_payload',
        message:
          'The `csv` payload provided is malformed: `Error parsing boolean "yes" at line 1: provided string was not `true` or `false``.',
      });
      expect(errorOf(await post('id,title\n1,a,b', 'text/csv'))).toMatchObject({
        status: 400,
        code: 'malformed_payload',
        message: expect.stringContaining('found record with 3 fields, but the previous record has 2 fields') as unknown,
      });
      expect(errorOf(await post('{"id": 1}\n{"id": 2', 'application/x-ndjson'))).toMatchObject({
        status: 400,
        code: 'malformed_payload',
        message: expect.stringMatching(
          /^The `ndjson` payload provided is malformed\. `Couldn't serialize document value: .* at line 2`\.$/,
        ) as unknown,
      });
      expect(errorOf(await post('[{"id": 1}]', 'application/x-ndjson'))).toMatchObject({
        code: 'malformed_payload',
        message:
          "The `ndjson` payload provided is malformed. `Couldn't serialize document value: data are neither an object nor a list of objects`.",
      });
      expect(errorOf(await post('', 'text/csv'))).toMatchObject({
        status: 400,
        code: 'missing_payload',
        message: 'A csv payload is missing.',
      });
    });

    it('refuses a content type it does not take, and a delimiter where there is no CSV', async () => {
      expect(
        errorOf(await call('POST', '/meili/indexes/formats/documents', { payload: 'id\n1', contentType: 'text/plain' })),
      ).toMatchObject({
        status: 415,
        code: 'invalid_content_type',
        message:
          'The Content-Type `text/plain` is invalid. Accepted values for the Content-Type header are: `application/json`, `application/x-ndjson`, `text/csv`',
      });
      expect(errorOf(await call('POST', '/meili/indexes/formats/documents?csvDelimiter=;', { payload: [{ id: 1 }] }))).toMatchObject({
        status: 415,
        code: 'invalid_content_type',
        message:
          'The Content-Type `application/json` does not support the use of a csv delimiter. The csv delimiter can only be used with the Content-Type `text/csv`.',
      });
      expect(
        errorOf(await call('POST', '/meili/indexes/formats/documents?csvDelimiter=ab', { payload: 'id\n1', contentType: 'text/csv' })),
      ).toMatchObject({
        status: 400,
        code: 'invalid_document_csv_delimiter',
        message:
          'Invalid value in parameter `csvDelimiter`: expected a string of one character, but found the following string of 2 characters: `ab`',
      });
      expect(
        errorOf(await call('POST', '/meili/indexes/formats/documents', { payload: '[{"id": 1}]', contentType: 'application/xml' })),
      ).toMatchObject({ status: 415, code: 'invalid_content_type' });
      expect(errorOf(await call('POST', '/meili/multi-search', { payload: '{"queries": []}', contentType: 'text/plain' }))).toMatchObject({
        status: 415,
        code: 'invalid_content_type',
      });
      // CSV is a document payload only: a search says so rather than reading it.
      expect(
        errorOf(await call('POST', `/meili/indexes/${carsIndexUid}/search`, { payload: 'q\ntoyota', contentType: 'text/csv' })),
      ).toMatchObject({
        status: 415,
        code: 'invalid_content_type',
        message: 'The Content-Type `text/csv` is invalid. Accepted values for the Content-Type header are: `application/json`',
      });
    });
  });

  // -------------------------------------------------------------------------------------------
  describe('displayed attributes on document reads', () => {
    beforeAll(async () => {
      await admin
        .index('displayed')
        .updateSettings({ displayedAttributes: ['id', 'title', 'location.city'], filterableAttributes: ['title'] })
        .waitTask();
      await admin
        .index('displayed')
        .addDocuments([
          { id: 1, title: 'Hilux', cost_price: 31000, location: { city: 'Sydney', street: '1 Main St' } },
          { id: 2, title: 'Corolla', cost_price: 19000, location: { city: 'Perth', street: '2 High St' } },
        ])
        .waitTask();
    });

    it('never gives a hidden field, asked for or not', async () => {
      const index = admin.index('displayed');
      expect(await index.getDocument(1)).toEqual({ id: 1, title: 'Hilux', location: { city: 'Sydney' } });
      expect(await index.getDocument(1, { fields: ['title', 'cost_price'] })).toEqual({ title: 'Hilux' });
      expect((await index.getDocuments({ fields: ['*'] })).results).toEqual([
        { id: 1, title: 'Hilux', location: { city: 'Sydney' } },
        { id: 2, title: 'Corolla', location: { city: 'Perth' } },
      ]);
      expect((await index.getDocuments({ filter: 'title = Corolla', fields: ['cost_price', 'id'] })).results).toEqual([{ id: 2 }]);
      expect(await index.getDocument(2, { fields: ['location'] })).toEqual({ location: { city: 'Perth' } });
    });

    it("checks the documents API's own parameters", async () => {
      expect(errorOf(await call('GET', '/meili/indexes/displayed/documents?limit=lots'))).toMatchObject({
        status: 400,
        code: 'invalid_document_limit',
        message: 'Invalid value in parameter `limit`: could not parse `lots` as a positive integer',
      });
      expect(errorOf(await call('POST', '/meili/indexes/displayed/documents/fetch', { payload: { fields: 'title' } }))).toMatchObject({
        code: 'invalid_document_fields',
        message: 'Invalid value type at `.fields`: expected an array, but found a string: `"title"`',
      });
      expect(errorOf(await call('GET', '/meili/indexes/displayed/documents?sort=title:asc'))).toMatchObject({
        status: 400,
        code: 'bad_request',
      });
    });
  });

  // -------------------------------------------------------------------------------------------
  describe('settings', () => {
    it('answers a setting that is a plain string as JSON', async () => {
      await admin
        .index('settings_json')
        .updateSettings({ filterableAttributes: ['make'] })
        .waitTask();
      const res = await call('GET', '/meili/indexes/settings_json/settings/proximity-precision');
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.body).toBe('"byWord"');
      expect(await admin.index('settings_json').getProximityPrecision()).toBe('byWord');
      expect(await admin.index('settings_json').getPrefixSearch()).toBe('indexingTime');
      expect(await admin.index('settings_json').getDistinctAttribute()).toBeNull();
      await admin.index('settings_json').updateDistinctAttribute('make').waitTask();
      expect(await admin.index('settings_json').getDistinctAttribute()).toBe('make');
    });

    it('puts an object setting given as null back to its default', async () => {
      const index = admin.index('settings_json');
      await index.updateSettings({ pagination: { maxTotalHits: 50 }, faceting: { maxValuesPerFacet: 5 } }).waitTask();
      expect((await index.updateSettings({ pagination: null, faceting: null } as never).waitTask()).status).toBe('succeeded');
      expect(await index.getPagination()).toEqual({ maxTotalHits: 1000 });
      expect(await index.getFaceting()).toEqual({ maxValuesPerFacet: 100, sortFacetValuesBy: { '*': 'alpha' } });
      await index.updatePagination({ maxTotalHits: 50 }).waitTask();
      await index.resetPagination().waitTask();
      expect(await index.getPagination()).toEqual({ maxTotalHits: 1000 });
    });

    it("merges faceting's sortFacetValuesBy into what is there, keeping `*`", async () => {
      const index = admin.index('settings_json');
      await index.updateSettings({ faceting: { sortFacetValuesBy: { make: 'count' } } }).waitTask();
      expect(await index.getFaceting()).toEqual({ maxValuesPerFacet: 100, sortFacetValuesBy: { '*': 'alpha', make: 'count' } });
      await index.updateFaceting({ sortFacetValuesBy: { model: 'count' }, maxValuesPerFacet: 20 }).waitTask();
      expect(await index.getFaceting()).toEqual({
        maxValuesPerFacet: 20,
        sortFacetValuesBy: { '*': 'alpha', make: 'count', model: 'count' },
      });
      await index.updateSettings({ typoTolerance: { minWordSizeForTypos: { oneTypo: 4 } } }).waitTask();
      expect((await index.getTypoTolerance())?.minWordSizeForTypos).toEqual({ oneTypo: 4, twoTypos: 9 });
    });
  });

  // -------------------------------------------------------------------------------------------
  describe('tasks and batches', () => {
    let first: number;
    let last: number;
    beforeAll(async () => {
      first = (await admin.createIndex('task_log', { primaryKey: 'id' }).waitTask()).uid;
      await admin
        .index('task_log')
        .addDocuments([{ id: 1 }])
        .waitTask();
      last = (
        await admin
          .index('task_log')
          .addDocuments([{ id: 2 }])
          .waitTask()
      ).uid;
    });

    it('filters tasks by date, RFC 3339 or a day, and refuses a date it cannot read', async () => {
      const created = (await admin.tasks.getTask(first)).enqueuedAt!;
      const before = new Date(Date.parse(created) - 60_000).toISOString();
      const inTaskLog = await admin.tasks.getTasks({ indexUids: ['task_log'], afterEnqueuedAt: before });
      expect(inTaskLog.results.map((task) => task.uid)).toEqual([last, last - 1, first]);
      expect((await admin.tasks.getTasks({ indexUids: ['task_log'], beforeEnqueuedAt: before })).total).toBe(0);
      expect(
        (await admin.tasks.getTasks({ indexUids: ['task_log'], beforeFinishedAt: '2999-01-01', afterStartedAt: '2000-01-01' })).total,
      ).toBe(3);
      // "After" a day means after that day is over.
      expect((await admin.tasks.getTasks({ indexUids: ['task_log'], afterEnqueuedAt: created.slice(0, 10) })).total).toBe(0);
      expect((await admin.tasks.getTasks({ canceledBy: [first] })).total).toBe(0);

      expect(errorOf(await call('GET', '/meili/tasks?beforeEnqueuedAt=yesterday'))).toEqual({
        status: 400,
        code: 'invalid_task_before_enqueued_at',
        type: 'invalid_request',
        link: 'https://docs.meilisearch.com/errors#invalid_task_before_enqueued_at',
        message:
          'Invalid value in parameter `beforeEnqueuedAt`: `yesterday` is an invalid date-time. It should follow the YYYY-MM-DD or RFC 3339 date-time format.',
      });
      expect(errorOf(await call('GET', '/meili/tasks?afterFinishedAt=2024-02-30'))).toMatchObject({
        code: 'invalid_task_after_finished_at',
      });
    });

    it.each([
      ['uids=1,dogo', 'invalid_task_uids', 'Invalid value in parameter `uids[1]`: could not parse `dogo` as a positive integer'],
      [
        'canceledBy=doggo',
        'invalid_task_canceled_by',
        'Invalid value in parameter `canceledBy`: could not parse `doggo` as a positive integer',
      ],
      ['batchUids=x', 'invalid_batch_uids', 'Invalid value in parameter `batchUids`: could not parse `x` as a positive integer'],
      [
        'statuses=doggo',
        'invalid_task_statuses',
        'Invalid value in parameter `statuses`: `doggo` is not a valid task status. Available statuses are `enqueued`, `processing`, `succeeded`, `failed`, `canceled`.',
      ],
      [
        'types=doggo',
        'invalid_task_types',
        'Invalid value in parameter `types`: `doggo` is not a valid task type. Available types are `documentAdditionOrUpdate`, `documentEdition`, `documentDeletion`, `settingsUpdate`, `indexCreation`, `indexDeletion`, `indexUpdate`, `indexSwap`, `taskCancelation`, `taskDeletion`, `dumpCreation`, `snapshotCreation`, `upgradeDatabase`.',
      ],
      [
        'indexUids=the%20good%20doggo',
        'invalid_index_uid',
        expect.stringMatching(/^Invalid value in parameter `indexUids`: `the good doggo` is not a valid index uid\./),
      ],
      [
        'reverse=doggo',
        'invalid_task_reverse',
        'Invalid value in parameter `reverse`: could not parse `doggo` as a boolean, expected either `true` or `false`',
      ],
      ['limit=doggo', 'invalid_task_limit', 'Invalid value in parameter `limit`: could not parse `doggo` as a positive integer'],
      [
        'colour=red',
        'bad_request',
        expect.stringMatching(/^Unknown parameter `colour`: expected one of `limit`, `from`, `reverse`, `batchUids`, `uids`,/),
      ],
    ])('refuses GET /tasks?%s with %s', async (query, code, message) => {
      expect(errorOf(await call('GET', `/meili/tasks?${query}`))).toMatchObject({ status: 400, code, message });
    });

    it('cancels nothing (every task has finished), as a taskCancelation task', async () => {
      const task = await admin.tasks.cancelTasks({ indexUids: ['task_log'], statuses: ['enqueued', 'processing', 'succeeded'] }).waitTask();
      expect(task).toMatchObject({
        status: 'succeeded',
        type: 'taskCancelation',
        indexUid: null,
        details: { matchedTasks: 3, canceledTasks: 0, originalFilter: '?indexUids=task_log&statuses=enqueued%2Cprocessing%2Csucceeded' },
      });
      expect((await admin.tasks.getTasks({ indexUids: ['task_log'] })).total).toBe(3);
    });

    it('deletes the finished tasks a filter names, as a taskDeletion task that stays listed', async () => {
      const task = await admin.tasks.deleteTasks({ indexUids: ['task_log'], uids: [first, last] }).waitTask();
      expect(task).toMatchObject({ status: 'succeeded', type: 'taskDeletion', details: { matchedTasks: 2, deletedTasks: 2 } });
      expect((await admin.tasks.getTasks({ indexUids: ['task_log'] })).results.map((left) => left.uid)).toEqual([last - 1]);
      expect(await apiError(admin.tasks.getTask(first))).toMatchObject({ status: 404, code: 'task_not_found' });
      expect((await admin.tasks.getTasks({ types: ['taskDeletion'] })).results.map((listed) => listed.uid)).toContain(task.uid);
    });

    it('refuses to cancel or delete without a filter, and anything but filters', async () => {
      const missing = (action: string) =>
        `Query parameters to filter the tasks to ${action} are missing. Available query parameters are: \`uids\`, \`indexUids\`, \`statuses\`, \`types\`, \`canceledBy\`, \`beforeEnqueuedAt\`, \`afterEnqueuedAt\`, \`beforeStartedAt\`, \`afterStartedAt\`, \`beforeFinishedAt\`, \`afterFinishedAt\`.`;
      expect(errorOf(await call('POST', '/meili/tasks/cancel'))).toMatchObject({
        status: 400,
        code: 'missing_task_filters',
        message: missing('cancel'),
      });
      expect(errorOf(await call('DELETE', '/meili/tasks'))).toMatchObject({
        status: 400,
        code: 'missing_task_filters',
        message: missing('delete'),
      });
      expect(await apiError(admin.tasks.deleteTasks({}))).toMatchObject({ status: 400, code: 'missing_task_filters' });
      expect(errorOf(await call('DELETE', '/meili/tasks?limit=5'))).toMatchObject({
        status: 400,
        code: 'bad_request',
        message:
          'Unknown parameter `limit`: expected one of `uids`, `batchUids`, `canceledBy`, `types`, `statuses`, `indexUids`, `afterEnqueuedAt`, `beforeEnqueuedAt`, `afterStartedAt`, `beforeStartedAt`, `afterFinishedAt`, `beforeFinishedAt`',
      });
      expect(errorOf(await call('POST', '/meili/tasks/cancel?afterEnqueuedAt=soon'))).toMatchObject({
        code: 'invalid_task_after_enqueued_at',
      });
    });

    it("lists batches, one per task, in Meilisearch's shape", async () => {
      const task = await admin.tasks.getTask(last - 1);
      const batch = await admin.batches.getBatch(task.batchUid!);
      expect(batch).toEqual({
        uid: task.batchUid,
        progress: null,
        details: task.details,
        stats: { totalNbTasks: 1, status: { succeeded: 1 }, types: { documentAdditionOrUpdate: 1 }, indexUids: { task_log: 1 } },
        duration: task.duration,
        startedAt: task.startedAt,
        finishedAt: task.finishedAt,
        batchStrategy: 'batched all enqueued tasks',
      });
      const page = await admin.batches.getBatches({ indexUids: ['task_log'], limit: 5 });
      expect(page).toMatchObject({ total: 1, limit: 5, from: task.batchUid, next: null });
      expect(page.results).toEqual([batch]);
      expect((await admin.batches.getBatches({ limit: 2 })).results).toHaveLength(2);
      expect(await apiError(admin.batches.getBatch(987_654))).toMatchObject({
        status: 404,
        code: 'batch_not_found',
        message: 'Batch `987654` not found.',
      });
      expect(errorOf(await call('GET', '/meili/batches/first'))).toMatchObject({ status: 400, code: 'invalid_batch_uids' });
    });
  });
});
