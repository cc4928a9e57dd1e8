import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Car } from '@dealer/contracts/car';
import { listSiteCars } from '@dealer/db/car-store';
import { findSiteIdBySlug } from '@dealer/db/site-store';
import { skipPostgres } from '@dealer/testing/postgres';
import { carsIndexUid, searchKeyForSite } from '../../search/site-search';
import { consoleRequest, consoleSignIn } from '../../testing/console-requests';
import { createTestPlatform, siteRequest, testSearchKeySecret, type TestPlatform } from '../../testing/test-platform';

const slug = 'harbour-used-cars';
type Counts = { new: number; changed: number; unchanged: number; removed: number; rejected: number };
type Upload = { id: number; columns: string[]; sample: string[][]; rows: number; mapping: Record<string, string> };
type DryRun = {
  counts: Counts;
  rows: { row: number; action: string; stocknum: string; name: string; reason?: string; changes?: string[] }[];
};
type ImportState = {
  id: number;
  status: string;
  progress: { done: number; total: number } | null;
  report: {
    counts: Counts;
    rows: DryRun['rows'];
    rows_total: number;
    photos: { fetched: number; failed: number; reused: number };
    seconds: number;
  } | null;
  error: string | null;
};

describe.each(['sqlite', 'postgres'] as const)('a site’s inventory feed in the dealer console on %s', (engine) => {
  if (engine === 'postgres' && skipPostgres) {
    it.skip('needs PostgreSQL (skipped: SKIP_POSTGRES=1)', () => {});
    return;
  }

  let platform: TestPlatform;
  let admin: string;
  let staff: string;
  let siteId: number;
  let photos: Server;
  let base: string;
  const asked = new Map<string, number>();

  beforeAll(async () => {
    const jpeg = (r: number, g: number, b: number) =>
      sharp({ create: { width: 800, height: 600, channels: 3, background: { r, g, b } } })
        .jpeg()
        .toBuffer();
    const pictures = new Map([
      ['/red.jpg', await jpeg(200, 0, 0)],
      ['/green.jpg', await jpeg(0, 200, 0)],
      ['/blue.jpg', await jpeg(0, 0, 200)],
    ]);
    photos = createServer((req, res) => {
      const path = req.url ?? '/';
      asked.set(path, (asked.get(path) ?? 0) + 1);
      const picture = pictures.get(path.replace(/\?.*$/, ''));
      if (path === '/feed.csv') return res.end(feedCsv(['FD-1', 'FD-2']));
      if (!picture) return res.writeHead(404, 'Not Found').end();
      // The blue photo is slow: the first import runs long enough to be met by a second.
      setTimeout(() => res.writeHead(200, { 'content-type': 'image/jpeg' }).end(picture), path === '/blue.jpg' ? 600 : 0);
    });
    await new Promise<void>((done) => photos.listen(0, '127.0.0.1', done));
    base = `http://127.0.0.1:${(photos.address() as AddressInfo).port}`;
    platform = await createTestPlatform({ engine, env: { FEEDS_ALLOW_PRIVATE_ADDRESSES: '1' } });
    admin = await consoleSignIn(platform.app, platform.ctx.db, `site-admin@${slug}.localhost`);
    staff = await consoleSignIn(platform.app, platform.ctx.db, `staff@${slug}.localhost`);
    siteId = (await findSiteIdBySlug(platform.ctx.db, slug))!;
  }, 60_000);
  afterAll(async () => {
    await platform?.close();
    await new Promise((done) => photos?.close(done));
  });

  const rows: Record<string, string> = {
    'FD-1': `FD-1,MR0FZ29G301234567,Toyota,HiLux,SR5,2021,"48,200 km","$52,990",${'{base}'}/red.jpg|${'{base}'}/green.jpg`,
    'FD-2': `FD-2,,Mazda,CX-5,Maxx,2020,61000,31990,${'{base}'}/green.jpg;${'{base}'}/missing.jpg`,
    'FD-3': `FD-3,,Kia,Rio,S,2019,72000,15990,${'{base}'}/blue.jpg`,
    'FD-4': 'FD-4,,Ford,Ranger,XLT,2020,50000,POA,',
    'FD-5': 'FD-5,,Holden,Astra,R,2018,90000,9990,,one value too many',
  };
  function feedCsv(stock: string[]) {
    return ['Stock No,VIN,Make,Model,Badge,Year,Odometer,Price,Images', ...stock.map((one) => rows[one]!.replaceAll('{base}', base))].join(
      '\n',
    );
  }
  const call = (method: 'GET' | 'POST' | 'PUT', path: string, payload?: object | string, cookie = admin) =>
    consoleRequest(platform.app, method, `/api/console/sites/${slug}/feed${path}`, {
      cookie,
      payload,
      headers: typeof payload === 'string' ? { 'content-type': 'text/csv' } : {},
    });
  const stateOf = async (id: number) => (await call('GET', `/imports/${id}`)).json<ImportState>();
  const finished = async (id: number) => {
    await expect.poll(async () => (await stateOf(id)).status, { timeout: 20_000, interval: 50 }).not.toBe('running');
    return stateOf(id);
  };
  const searchFor = async (q: string) => {
    const res = await platform.app.inject({
      method: 'POST',
      url: `/meili/indexes/${carsIndexUid}/search`,
      headers: { authorization: `Bearer ${searchKeyForSite(siteId, testSearchKeySecret)}` },
      payload: { q },
    });
    return res.json<{ hits: Car[] }>().hits;
  };
  const listed = async () =>
    (await listSiteCars(platform.ctx.db, siteId)).filter((car) => car.status === 'in_stock' || car.status === 'coming_soon');

  let first: Upload;
  let second: Upload;

  it('offers the fields to map, and nothing saved yet', async () => {
    const res = await call('GET', '');
    expect(res.statusCode, res.body).toBe(200);
    const feed = res.json<{ mapping: null; url: null; schedule: string; fields: { field: string; required: boolean }[]; imports: [] }>();
    expect([feed.mapping, feed.url, feed.schedule, feed.imports]).toEqual([null, null, 'off', []]);
    expect(feed.fields.find((one) => one.field === 'price')).toEqual({ field: 'price', label: 'Price', required: true });
    expect(feed.fields.map((one) => one.field)).toContain('photos');
  });

  it('takes a CSV upload: its columns, first rows and a guessed mapping', async () => {
    const res = await call('POST', '/imports', feedCsv(['FD-1', 'FD-2', 'FD-3', 'FD-4', 'FD-5']));
    expect(res.statusCode, res.body).toBe(201);
    first = res.json<Upload>();
    expect(first.columns).toEqual(['Stock No', 'VIN', 'Make', 'Model', 'Badge', 'Year', 'Odometer', 'Price', 'Images']);
    expect(first.rows).toBe(5);
    expect(first.sample.map((row) => row[0])).toEqual(['FD-1', 'FD-2', 'FD-3', 'FD-4']);
    expect(first.mapping).toMatchObject({ stocknum: 'Stock No', vin: 'VIN', km: 'Odometer', price: 'Price', photos: 'Images' });
  });

  it('takes a file of several megabytes, and refuses one that is not CSV, has no header row or is over 20 MB, beside the file', async () => {
    const xlsx = await consoleRequest(platform.app, 'POST', `/api/console/sites/${slug}/feed/imports`, {
      cookie: admin,
      payload: Buffer.from('PK\x03\x04\x14\x00\x06\x00\x08\x00', 'latin1'),
      headers: { 'content-type': 'text/csv' },
    });
    expect(xlsx.statusCode).toBe(400);
    expect(xlsx.json<{ fields: object }>().fields).toEqual({
      file: 'That file is not a CSV file. Save the spreadsheet as CSV (comma separated values) and upload that.',
    });
    const headless = await call('POST', '/imports', 'FD-1,Toyota,52990\nFD-2,Kia,1000\n');
    expect(headless.json<{ fields: { file: string } }>().fields.file).toMatch(/no header row/);
    const row = rows['FD-4']!;
    const large = await call('POST', '/imports', feedCsv([]) + `\n${row}`.repeat(Math.ceil((3 * 1024 * 1024) / row.length)));
    expect([large.statusCode, large.json<Upload>().rows]).toEqual([201, expect.any(Number)]);
    const tooLarge = await call('POST', '/imports', 'Stock No,Make\n' + 'x'.repeat(21 * 1024 * 1024));
    expect([tooLarge.statusCode, tooLarge.json<{ fields: object }>().fields]).toEqual([413, { file: 'The file is larger than 20 MB.' }]);
  });

  it('dry-runs: new and rejected rows with their reasons, the cars no longer in the feed, nothing applied', async () => {
    const before = await listed();
    const keyless = await call('POST', `/imports/${first.id}/dry-run`, { mapping: { make: 'Make' } });
    expect(keyless.statusCode).toBe(400);
    expect(keyless.json<{ fields: object }>().fields).toEqual({
      mapping: 'Map the stock number or the VIN: each car is found by one of them.',
    });
    const unknown = await call('POST', `/imports/${first.id}/dry-run`, { mapping: { ...first.mapping, wheels: 'Make' } });
    expect(unknown.json<{ fields: object }>().fields).toEqual({ mapping: '‘wheels’ is not a field a column can be mapped to.' });
    const stray = await call('POST', `/imports/${first.id}/dry-run`, { mapping: { ...first.mapping, colour: 'Paint' } });
    expect(stray.json<{ fields: object }>().fields).toEqual({ mapping: 'This feed has no column ‘Paint’.' });
    // A field left blank is not mapped.
    const res = await call('POST', `/imports/${first.id}/dry-run`, { mapping: { ...first.mapping, colour: '' } });
    expect(res.statusCode, res.body).toBe(200);
    const dry = res.json<DryRun>();
    expect(dry.counts).toEqual({ new: 3, changed: 0, unchanged: 0, removed: before.length, rejected: 2 });
    expect(dry.rows.slice(0, 2)).toEqual([
      {
        row: 5,
        action: 'rejected',
        stocknum: 'FD-4',
        name: '2020 Ford Ranger XLT',
        reason: "Row 5: the price 'POA' is not a number",
      },
      {
        row: 6,
        action: 'rejected',
        stocknum: '',
        name: '',
        reason: 'Row 6: it has 10 values where the header names 9 columns (a comma inside a value needs quotes around the value).',
      },
    ]);
    expect(dry.rows.slice(2, 5).map((row) => [row.row, row.action, row.stocknum, row.name])).toEqual([
      [2, 'new', 'FD-1', '2021 Toyota HiLux SR5'],
      [3, 'new', 'FD-2', '2020 Mazda CX-5 Maxx'],
      [4, 'new', 'FD-3', '2019 Kia Rio S'],
    ]);
    expect(await listed()).toHaveLength(before.length);
    expect(await searchFor('FD-1')).toEqual([]);
    expect((await call('GET', '')).json<{ mapping: object }>().mapping).toEqual(first.mapping);
  });

  it('applies in the background, one import of the site at a time, and search shows the cars with their photos', async () => {
    second = (await call('POST', '/imports', feedCsv(['FD-1', 'FD-2']))).json<Upload>();
    expect(second.mapping).toEqual(first.mapping);
    const started = await call('POST', `/imports/${first.id}/apply`, {});
    expect(started.statusCode, started.body).toBe(202);
    expect(started.json()).toEqual({ id: first.id, status: 'running' });
    const again = await call('POST', `/imports/${second.id}/apply`, {});
    expect([again.statusCode, again.json<{ message: string }>().message]).toEqual([409, 'An import of this site is running.']);
    const done = await finished(first.id);
    expect(done.status, done.error ?? '').toBe('done');
    expect(done.progress).toEqual({ done: done.report!.rows_total, total: done.report!.rows_total });
    expect(done.report!.counts).toMatchObject({ new: 3, rejected: 2 });
    expect(done.report!.photos).toEqual({ fetched: 3, failed: 1, reused: 0 });
    const fd2 = done.report!.rows.find((row) => row.stocknum === 'FD-2')!;
    expect(fd2.reason).toBe(`The photo at ${base}/missing.jpg answered 404 Not Found.`);

    const [hilux] = await searchFor('FD-1');
    expect(hilux).toMatchObject({ stocknum: 'FD-1', price: 52_990, km: 48_200, sold: false, photos_count: 2 });
    expect(hilux!.images).toHaveLength(2);
    expect(hilux!.images.every((url) => /^\/img\/car\/[0-9a-f]{32}\.jpg$/.test(url))).toBe(true);
    expect((await searchFor('FD-2'))[0]!.images).toHaveLength(1);
    const served = await siteRequest(platform.app, slug, 'GET', `${hilux!.images[0]}?w=320&q=75`);
    expect(served.statusCode).toBe(200);
    const page = await siteRequest(platform.app, slug, 'GET', `/cars/${hilux!.slug}`);
    expect(page.body).toContain('2021 Toyota HiLux SR5');
    expect((await siteRequest(platform.app, slug, 'GET', '/api/site')).json<{ stock: { count: number } }>().stock.count).toBe(3);
    const list = (await call('GET', '')).json<{ imports: { id: number; status: string; counts: Counts | null }[] }>().imports;
    expect(list.find((one) => one.id === first.id)).toMatchObject({ status: 'done', counts: { new: 3, rejected: 2 } });
  });

  it('marks a car the next feed no longer has sold, and fetches no photo twice (one that failed is tried again)', async () => {
    const res = await call('POST', `/imports/${second.id}/apply`, {});
    expect(res.statusCode, res.body).toBe(202);
    const done = await finished(second.id);
    expect(done.report!.counts).toEqual({ new: 0, changed: 1, unchanged: 1, removed: 1, rejected: 0 });
    expect(done.report!.rows.map((row) => [row.row, row.action, row.stocknum, row.changes ?? []])).toEqual([
      [2, 'unchanged', 'FD-1', []],
      [3, 'changed', 'FD-2', ['photos']],
      [0, 'removed', 'FD-3', []],
    ]);
    expect(done.report!.photos).toEqual({ fetched: 0, failed: 1, reused: 2 });
    const [rio] = await searchFor('FD-3');
    expect([rio?.status, rio?.sold, typeof rio?.sold_date_timestamp]).toEqual(['sold', true, 'number']);
    expect((await listed()).map((car) => car.stocknum).sort()).toEqual(['FD-1', 'FD-2']);
    expect([asked.get('/red.jpg'), asked.get('/green.jpg'), asked.get('/blue.jpg'), asked.get('/missing.jpg')]).toEqual([1, 1, 1, 2]);
    // The car keeps the photo it has while the other cannot be had.
    expect((await searchFor('FD-2'))[0]!.images).toHaveLength(1);
    const twice = await call('POST', `/imports/${second.id}/apply`, {});
    expect(twice.statusCode).toBe(409);
  });

  it('fetches a feed from its address now, and on the schedule with the saved mapping', async () => {
    const bad = await call('PUT', '/settings', { url: 'ftp://feeds.example/stock.csv' });
    expect(bad.json<{ fields: object }>().fields).toEqual({ url: 'Enter the feed’s address, starting with https:// or http://.' });
    const noUrl = await call('PUT', '/settings', { schedule: 'hourly' });
    expect(noUrl.json<{ fields: object }>().fields).toEqual({ url: 'Enter the feed’s address to pull it on a schedule.' });
    const fetched = await call('POST', '/imports', { url: `${base}/feed.csv` });
    expect(fetched.statusCode, fetched.body).toBe(201);
    expect(fetched.json<Upload>().rows).toBe(2);
    const saved = await call('PUT', '/settings', { url: `${base}/feed.csv`, schedule: 'hourly' });
    expect(saved.json()).toMatchObject({ url: `${base}/feed.csv`, schedule: 'hourly', mapping: first.mapping });
    expect(await platform.ctx.feeds.pullDue(Date.now() + 1_000)).toBe(1);
    const imports = (await call('GET', '')).json<{ imports: { source: string; status: string; counts: Counts | null }[] }>().imports;
    expect(imports[0]).toMatchObject({
      source: 'url',
      status: 'done',
      counts: { new: 0, changed: 1, unchanged: 1, removed: 0, rejected: 0 },
    });
    // Not due again for an hour.
    expect(await platform.ctx.feeds.pullDue(Date.now() + 1_000)).toBe(0);
  });

  it('lets staff look at the feed but not change or apply it', async () => {
    expect((await call('GET', '', undefined, staff)).statusCode).toBe(200);
    expect((await call('GET', `/imports/${first.id}`, undefined, staff)).statusCode).toBe(200);
    expect((await call('POST', '/imports', feedCsv(['FD-1']), staff)).statusCode).toBe(403);
    expect((await call('POST', `/imports/${second.id}/apply`, {}, staff)).statusCode).toBe(403);
    expect((await call('PUT', '/settings', { schedule: 'off' }, staff)).statusCode).toBe(403);
  });
});
