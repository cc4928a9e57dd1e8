import { describe, expect, it } from 'vitest';
import type { Car } from '@dealer/contracts/car';
import { generateDemoData } from '@dealer/demo/demo-data';
import { carFromEdit, type CarEdit } from './car-edit';
import { FeedFileRefused, readFeedCsv } from './feed-csv';
import { carTypeOf, guessMapping, lenientNumber, mappingForColumns, photoList, statusOf } from './feed-fields';
import { planFeed, rowsForReport, rowView } from './feed-plan';

const site = generateDemoData(1_780_000_000).sites.find((one) => one.slug === 'harbour-used-cars')!;
const [rozelle, monaVale] = site.locations;
const now = 1_780_000_000;

const car = (id: number, change: Partial<CarEdit>): Car =>
  carFromEdit(
    site,
    null,
    { make: 'Toyota', model: 'HiLux', year: 2021, price: 52_990, car_type: 'used', location_id: rozelle!.id, ...change } as CarEdit,
    id,
    now,
  );
const stock = () => [
  car(1, { stocknum: 'HUC-1', vin: 'MR0FZ29G301234567', km: 48_200, badge: 'SR5' }),
  car(2, { stocknum: 'HUC-2', make: 'Mazda', model: 'CX-5', price: 31_990, before_price: 33_990 }),
  car(3, { stocknum: 'HUC-3', make: 'Kia', model: 'Rio', price: 18_990, status: 'coming_soon' }),
  car(4, { stocknum: 'HUC-4', make: 'Ford', model: 'Focus', price: 9_990, status: 'sold' }),
];
const csv = (lines: string[]) => readFeedCsv(Buffer.from(lines.join('\r\n')));
const header = 'Stock No,VIN,Make,Model,Badge,Year,Kms,Price,Was Price,Images';
const plan = async (lines: string[], cars = stock(), knownPhotos?: Map<string, string>) => {
  const feed = await csv(lines);
  return planFeed(site, cars, feed, guessMapping(feed.columns), { knownPhotos, nowSeconds: now });
};
const byRow = <T extends { row: number }>(rows: T[], row: number) => rows.find((one) => one.row === row);

describe('mapping a feed’s columns', () => {
  it('guesses the fields from the header names dealers’ systems use, whatever their case and spacing', () => {
    expect(
      guessMapping(['Stock No', 'VIN', 'MAKE', 'model', 'Odometer', 'Sale Price', 'Photo URLs', 'Body Type', 'Colour', 'Notes']),
    ).toEqual({
      stocknum: 'Stock No',
      vin: 'VIN',
      make: 'MAKE',
      model: 'model',
      km: 'Odometer',
      price: 'Sale Price',
      photos: 'Photo URLs',
      body: 'Body Type',
      colour: 'Colour',
      description: 'Notes',
    });
    expect(guessMapping(['StockNumber', 'Kms', 'Images', 'Price'])).toEqual({
      stocknum: 'StockNumber',
      km: 'Kms',
      photos: 'Images',
      price: 'Price',
    });
    expect(guessMapping(['Photos'])).toEqual({ photos: 'Photos' });
  });

  it('keeps a saved mapping to the columns the feed still has, and drops it once it has neither stock number nor VIN', () => {
    expect(mappingForColumns({ stocknum: 'Stock', price: 'Price', km: 'Odo' }, ['Stock', 'Price'])).toEqual({
      stocknum: 'Stock',
      price: 'Price',
    });
    expect(mappingForColumns({ stocknum: 'Stock', price: 'Price' }, ['Ref', 'Price'])).toBeNull();
    expect(mappingForColumns(null, ['Stock'])).toBeNull();
  });

  it('reads numbers, types, statuses and photo lists as feeds write them', () => {
    expect(['$52,990', '52 990.00', '48,200 km', '7 seats', 'AUD 1,000', '0'].map(lenientNumber)).toEqual([
      52_990, 52_990, 48_200, 7, 1000, 0,
    ]);
    expect(['POA', 'TBA', '1.2.3', '', '$'].map(lenientNumber)).toEqual([null, null, null, null, null]);
    expect(['N', 'Pre-owned', 'Ex-Demo', 'demonstrator', 'lease'].map(carTypeOf)).toEqual(['new', 'used', 'demo', 'demo', null]);
    expect(['Available', 'IN TRANSIT', 'Sold', 'maybe'].map(statusOf)).toEqual(['in_stock', 'coming_soon', 'sold', null]);
    expect(
      photoList('https://a.example/1.jpg|https://a.example/2.jpg, http://b.example/3.jpg;ftp://c/4.jpg https://a.example/1.jpg photo.jpg'),
    ).toEqual({
      urls: ['https://a.example/1.jpg', 'https://a.example/2.jpg', 'http://b.example/3.jpg'],
      other: ['ftp://c/4.jpg', 'photo.jpg'],
    });
  });
});

describe('reading a feed’s CSV', () => {
  it('numbers rows as a spreadsheet does, skips blank ones, and reports a row with more values than columns', async () => {
    const feed = await csv(['Stock,Make,Price', 'A1,Kia,100', '', 'A2,"Mazda, Japan",200', 'A3,Ford,300,extra', 'A4,Holden']);
    expect(feed.columns).toEqual(['Stock', 'Make', 'Price']);
    expect(feed.rows).toEqual([
      { row: 2, cells: ['A1', 'Kia', '100'] },
      { row: 4, cells: ['A2', 'Mazda, Japan', '200'] },
      {
        row: 5,
        problem: 'Row 5: it has 4 values where the header names 3 columns (a comma inside a value needs quotes around the value).',
      },
      { row: 6, cells: ['A4', 'Holden', ''] },
    ]);
  });

  it('reads semicolon and tab separated files, a byte order mark, and Windows-1252 text', async () => {
    expect((await csv(['\ufeffStock;Make;Price', 'A1;Škoda;1'])).rows[0]).toEqual({ row: 2, cells: ['A1', 'Škoda', '1'] });
    expect((await csv(['Stock\tMake', 'A1\tKia'])).columns).toEqual(['Stock', 'Make']);
    const latin = await readFeedCsv(Buffer.concat([Buffer.from('Stock,Colour\nA1,'), Buffer.from([0x43, 0x72, 0xe8, 0x6d, 0x65])]));
    expect(latin.rows[0]!.cells).toEqual(['A1', 'Crème']);
  });

  it('reports a quote that never closes on its row, keeping the rows before it', async () => {
    const feed = await csv(['Stock,Make', 'A1,Kia', 'A2,"Mazda', 'A3,Ford']);
    expect(feed.rows).toEqual([
      { row: 2, cells: ['A1', 'Kia'] },
      { row: 3, problem: 'Row 3: a quote (") opens a value that never closes, so this row and the ones after it could not be read.' },
    ]);
  });

  it('refuses a spreadsheet that is not CSV, an empty file, and a file without a header row', async () => {
    const refused = (bytes: Buffer) =>
      readFeedCsv(bytes).then(
        () => null,
        (error: unknown) => error,
      );
    const xlsx = await refused(Buffer.from('PK\x03\x04\x14\x00\x06\x00', 'latin1'));
    expect(xlsx).toBeInstanceOf(FeedFileRefused);
    expect((xlsx as Error).message).toMatch(/not a CSV file/);
    expect(((await refused(Buffer.alloc(0))) as Error).message).toBe('The file is empty. Choose the CSV file of your stock.');
    expect(((await refused(Buffer.from('HUC-1,Toyota,52990\nHUC-2,Kia,1'))) as Error).message).toMatch(/no header row/);
    expect(((await refused(Buffer.from('just one column\nvalue'))) as Error).message).toMatch(/single column/);
    expect(((await refused(Buffer.from('\n\n'))) as Error).message).toMatch(/empty/);
  });

  it('names blank and repeated columns so each can be chosen', async () => {
    expect((await csv(['Stock,,Price,Price', 'A,B,1,2'])).columns).toEqual(['Stock', 'Column 2', 'Price', 'Price (2)']);
  });
});

describe('planning a feed against the site’s cars', () => {
  it('finds each car by stock number, else VIN: new, changed (naming the fields), unchanged, and removed cars', async () => {
    const result = await plan([
      header,
      // HUC-1 by its VIN, under a new stock number, with fewer km.
      'HUC-1B,MR0FZ29G301234567,Toyota,HiLux,SR5,2021,"41,000 km","$52,990",,',
      'HUC-2,,Mazda,CX-5,,2021,0,"31,990",,',
      'HUC-9,,Subaru,Outback,AWD,2020,"60,100",$27990,,',
    ]);
    expect(result.counts).toEqual({ new: 1, changed: 2, unchanged: 0, removed: 1, rejected: 0 });
    expect(rowView(byRow(result.rows, 2)!)).toEqual({
      row: 2,
      action: 'changed',
      stocknum: 'HUC-1B',
      name: '2021 Toyota HiLux SR5',
      changes: ['km', 'stocknum'],
    });
    // A blank 'was' price is taken off.
    expect(byRow(result.rows, 3)).toMatchObject({ action: 'changed', changes: ['before_price'] });
    expect(byRow(result.rows, 4)).toMatchObject({ action: 'new', stocknum: 'HUC-9', name: '2020 Subaru Outback AWD' });
    expect(byRow(result.rows, 4)!.edit).toMatchObject({
      car_type: 'used',
      status: 'in_stock',
      location_id: rozelle!.id,
      km: 60_100,
      price: 27_990,
    });
    // HUC-3 (coming soon) is gone from the feed; HUC-4 was sold already.
    expect(result.rows.filter((row) => row.action === 'removed').map((row) => [row.row, row.stocknum, row.edit])).toEqual([
      [0, 'HUC-3', { status: 'sold' }],
    ]);
  });

  it('leaves an unchanged car unchanged, and brings a sold car the feed lists back in stock', async () => {
    const result = await plan(['Stock No,Make,Model,Year,Price', 'HUC-2,Mazda,CX-5,2021,31990', 'HUC-4,Ford,Focus,2021,9990']);
    expect(byRow(result.rows, 2)).toMatchObject({ action: 'unchanged' });
    expect(byRow(result.rows, 2)!.changes).toBeUndefined();
    expect(byRow(result.rows, 3)).toMatchObject({ action: 'changed', changes: ['status'] });
  });

  it('rejects a row with its problem in the dealer’s words, and still plans the rest', async () => {
    const result = await plan([
      header,
      'HUC-10,,Toyota,Corolla,,2020,1000,POA,,',
      ',,Toyota,Yaris,,2020,1000,15000,,',
      'HUC-11,,Toyota,Camry,,1850,1000,25000,,',
      'HUC-12,ABC,Toyota,Camry,,2020,1000,25000,,',
      'HUC-13,,,Camry,,2020,1000,25000,,',
      'HUC-1,,Toyota,HiLux,SR5,2021,48200,52990,,',
      'HUC-1,,Toyota,HiLux,SR5,2021,48200,51990,,',
      'HUC-2,MR0FZ29G301234567,Mazda,CX-5,,2021,0,31990,,',
      'HUC-14,,Kia,Rio,,2020,1 000 000 000,1,,',
    ]);
    const reasons = result.rows.filter((row) => row.action === 'rejected').map((row) => row.reason);
    expect(reasons).toEqual([
      "Row 2: the price 'POA' is not a number",
      'Row 3: no stock number or VIN',
      "Row 4: the year '1850': A year from 1900.",
      "Row 5: the VIN 'ABC': A VIN is 17 letters and digits (no I, O or Q).",
      'Row 6: no make',
      'Row 8: stock number HUC-1 appears twice in the feed (also row 7)',
      'Row 9: VIN MR0FZ29G301234567 is the VIN of another car (stock number HUC-1)',
      "Row 10: the kilometres '1000000000': At most 2,000,000 km.",
    ]);
    // HUC-2's row was refused, not missing: the car is not marked sold. HUC-1 (row 7) is planned.
    expect(result.rows.filter((row) => row.action === 'removed').map((row) => row.stocknum)).toEqual(['HUC-3']);
    expect(byRow(result.rows, 7)).toMatchObject({ action: 'unchanged', stocknum: 'HUC-1' });
    expect(rowsForReport(result.rows, 3).map((row) => row.row)).toEqual([2, 3, 4]);
  });

  it('refuses two rows for one car, an unknown location, type or status', async () => {
    const result = await plan([
      'Stock,VIN,Make,Model,Year,Price,Location,Condition,Status',
      'HUC-1,,Toyota,HiLux,2021,1,,,',
      ',MR0FZ29G301234567,Toyota,HiLux,2021,1,,,',
      'HUC-20,,Kia,Rio,2020,1,Parramatta,,',
      'HUC-21,,Kia,Rio,2020,1,,lease,',
      'HUC-22,,Kia,Rio,2020,1,,,reserved',
      `HUC-23,,Kia,Rio,2020,1,${monaVale!.name.toUpperCase()},Demo,Coming soon`,
    ]);
    expect(result.rows.filter((row) => row.action === 'rejected').map((row) => row.reason)).toEqual([
      'Row 3: this row and row 2 are the same car (HUC-1)',
      "Row 4: the site has no location 'Parramatta'",
      "Row 5: the type 'lease' is not new, used or demo",
      "Row 6: the status 'reserved' is not in stock, coming soon or sold",
    ]);
    expect(byRow(result.rows, 7)!.edit).toMatchObject({ location_id: monaVale!.id, car_type: 'demo', status: 'coming_soon' });
  });

  it('sees a photo list as changed unless every photo was fetched before and the car shows them in that order', async () => {
    const cars = stock();
    cars[0] = { ...cars[0]!, images: ['/img/car/aaaa.jpg', '/img/car/bbbb.jpg'] };
    const row = 'HUC-1,MR0FZ29G301234567,Toyota,HiLux,SR5,2021,48200,52990,,';
    const known = new Map([
      ['https://x.example/a.jpg', '/img/car/aaaa.jpg'],
      ['https://x.example/b.jpg', '/img/car/bbbb.jpg'],
    ]);
    const same = await plan([header, `${row}https://x.example/a.jpg|https://x.example/b.jpg`], cars, known);
    expect(byRow(same.rows, 2)).toMatchObject({ action: 'unchanged', photoUrls: ['https://x.example/a.jpg', 'https://x.example/b.jpg'] });
    const reordered = await plan([header, `${row}https://x.example/b.jpg|https://x.example/a.jpg`], cars, known);
    expect(byRow(reordered.rows, 2)).toMatchObject({ action: 'changed', changes: ['photos'] });
    const added = await plan([header, `${row}https://x.example/a.jpg|https://x.example/c.jpg|photo.jpg`], cars, known);
    expect(byRow(added.rows, 2)).toMatchObject({
      action: 'changed',
      changes: ['photos'],
      reason: "Row 2: a photo is not an http(s) address and left out ('photo.jpg')",
    });
    // No photo column given in the row: the car keeps its photos.
    expect(byRow((await plan([header, row], cars, known)).rows, 2)).toMatchObject({ action: 'unchanged', photoUrls: null });
  });

  it('removes nothing when no row names a car (a wrong mapping or an empty export)', async () => {
    expect((await plan([header])).counts).toEqual({ new: 0, changed: 0, unchanged: 0, removed: 0, rejected: 0 });
    const unmapped = await csv(['Ref,Make', 'HUC-1,Toyota']);
    const result = await planFeed(site, stock(), unmapped, { make: 'Make' });
    expect(result.counts).toEqual({ new: 0, changed: 0, unchanged: 0, removed: 0, rejected: 1 });
  });

  it('plans a large feed without holding the event loop', async () => {
    const lines = [header, ...Array.from({ length: 5_000 }, (_, i) => `F-${i},,Kia,Rio,,2020,${i},${10_000 + i},,`)];
    let ticks = 0;
    const timer = setInterval(() => ticks++, 0);
    const result = await plan(lines);
    clearInterval(timer);
    expect(result.counts.new).toBe(5_000);
    expect(ticks).toBeGreaterThan(5);
  });
});
