/**
 * What applying a feed would do (issue 24), worked out without touching anything: for each row, a
 * new car, a change (and which fields), no change, or a refusal with the row's problem in the
 * dealer's words; and the cars in stock or coming soon that the feed no longer has, which become
 * sold. A row finds its car by stock number, else by VIN. The cars are made through the console's
 * own carEditSchema and carFromEdit, so a feed row and a console edit make the same car and are
 * refused for the same reasons.
 *
 * A blank cell leaves the field as it is (a new car's as a new car starts), except the ones a feed
 * clears by leaving them blank: badge, series, price before, colour, body, fuel, transmission,
 * drive, description and features. A car the feed lists again is for sale again: without a status
 * column a sold car comes back in stock.
 */
import type { Car } from '@dealer/contracts/car';
import type { SiteConfig } from '@dealer/contracts/site';
import { carEditOf, carEditSchema, CarRefused, carFromEdit, type CarEdit } from './car-edit';
import { breathe, type FeedCsv } from './feed-csv';
import { carTypeOf, featureList, feedFieldWords, lenientNumber, photoList, statusOf, type FeedField } from './feed-fields';

export type FeedAction = 'new' | 'changed' | 'unchanged' | 'removed' | 'rejected';
export type FeedCounts = Record<FeedAction, number>;

export type PlannedRow = {
  /** The row of the feed (the header is row 1); 0 for a car the feed no longer has. */
  row: number;
  action: FeedAction;
  stocknum: string;
  name: string;
  /** A rejected row's problem; on another row, what of it is left out (a photo that is not an address). */
  reason?: string;
  /** A changed car's fields, as the mapping names them. */
  changes?: string[];
  /** The car as it is (null: a new one), and the dealer fields the row sets on it. */
  before: Car | null;
  edit: Partial<CarEdit> | null;
  /** The photo addresses the row lists, in order (null: none given, the car's photos stay). */
  photoUrls: string[] | null;
};
export type FeedPlan = { counts: FeedCounts; rows: PlannedRow[] };

export type PlanOptions = {
  /** Feed photo addresses already fetched, to the address the site serves each at (`/img/car/…`). */
  knownPhotos?: Map<string, string>;
  nowSeconds?: number;
};

/** A car's field in the console's words to the feed field that sets it. */
const fieldOfEdit: Partial<Record<keyof CarEdit, FeedField>> = {
  simple_body: 'body',
  simple_fuel: 'fuel',
  simple_transmission: 'transmission',
  simple_drive: 'drive',
  filtered_features: 'features',
  location_id: 'location',
};
const feedFieldOf = (key: keyof CarEdit): string => fieldOfEdit[key] ?? key;

const numberFields = ['year', 'km', 'price', 'before_price', 'seats'] as const;
const textFields = { make: 'make', model: 'model', colour: 'colour', description: 'description' } as const;
const optionalTextFields = { badge: 'badge', series: 'series' } as const;
const simpleFields = { body: 'simple_body', fuel: 'simple_fuel', transmission: 'simple_transmission', drive: 'simple_drive' } as const;
const requiredForNew = ['make', 'model', 'year', 'price'] as const;

class RowRefused extends Error {}

/** The console's checks of a car's fields, any of them given. */
const rowSchema = carEditSchema.partial();

type Cells = (field: FeedField) => string | undefined;

/** The dealer fields a row sets: each mapped cell read leniently; a cell that cannot be read refuses the row. */
function editOfRow(
  site: SiteConfig,
  cell: Cells,
  isNew: boolean,
  before: Car | null,
): { edit: Partial<CarEdit>; photos: string[] | null; notes: string[] } {
  const edit: Partial<CarEdit> = {};
  const notes: string[] = [];
  for (const field of Object.keys(textFields) as (keyof typeof textFields)[]) {
    const value = cell(field);
    if (value !== undefined && (value || field === 'colour' || field === 'description')) edit[textFields[field]] = value;
  }
  for (const field of Object.keys(optionalTextFields) as (keyof typeof optionalTextFields)[]) {
    const value = cell(field);
    if (value !== undefined) edit[optionalTextFields[field]] = value || null;
  }
  for (const field of Object.keys(simpleFields) as (keyof typeof simpleFields)[]) {
    const value = cell(field);
    if (value !== undefined) edit[simpleFields[field]] = value;
  }
  for (const field of numberFields) {
    const value = cell(field);
    if (!value) {
      if (value === '' && field === 'before_price') edit.before_price = null;
      continue;
    }
    const number = lenientNumber(value);
    if (number === null) throw new RowRefused(`the ${feedFieldWords[field]} '${value}' is not a number`);
    edit[field] = field === 'km' ? Math.round(number) : number;
  }
  const type = cell('car_type');
  if (type) {
    const carType = carTypeOf(type);
    if (!carType) throw new RowRefused(`the type '${type}' is not new, used or demo`);
    edit.car_type = carType;
  } else if (isNew) edit.car_type = 'used';
  const status = cell('status');
  if (status) {
    const read = statusOf(status);
    if (!read) throw new RowRefused(`the status '${status}' is not in stock, coming soon or sold`);
    edit.status = read;
  } else if (isNew || before?.status === 'sold') edit.status = 'in_stock';
  const features = cell('features');
  if (features !== undefined) edit.filtered_features = featureList(features).slice(0, 100);
  const location = cell('location');
  if (location) {
    const found = site.locations.find((one) => one.name.toLowerCase() === location.toLowerCase() || String(one.id) === location);
    if (!found) throw new RowRefused(`the site has no location '${location}'`);
    edit.location_id = found.id;
  } else if (isNew) {
    if (!site.locations[0]) throw new RowRefused('the site has no location to put the car at');
    edit.location_id = site.locations[0].id;
  }
  const photoCell = cell('photos');
  let photos: string[] | null = null;
  if (photoCell) {
    const listed = photoList(photoCell);
    if (listed.other.length > 0)
      notes.push(
        `${listed.other.length === 1 ? 'a photo is' : `${listed.other.length} photos are`} not an http(s) address and left out ('${listed.other[0]!.slice(0, 80)}')`,
      );
    photos = listed.urls.length > 0 ? listed.urls.slice(0, 100) : null;
  }
  return { edit, photos, notes };
}

/** The first of zod's refusals in the dealer's words, naming the field and the value given. */
function schemaReason(issue: { path: PropertyKey[]; message: string }, edit: Partial<CarEdit>): string {
  const key = issue.path[0] as keyof CarEdit;
  const field = feedFieldOf(key) as FeedField;
  const raw = issue.path.length > 1 ? (edit[key] as unknown[])[issue.path[1] as number] : edit[key];
  const word = feedFieldWords[field] ?? field;
  return typeof raw === 'string' || typeof raw === 'number'
    ? `the ${word} '${String(raw).slice(0, 80)}': ${issue.message}`
    : `${word}: ${issue.message}`;
}

/** The photos a row lists as the site would serve them, or null while one of them is not fetched yet. */
const servedPhotos = (urls: string[], known: Map<string, string>) =>
  urls.every((url) => known.has(url)) ? urls.map((url) => known.get(url)!) : null;

/** Rejected rows first, then the rest in feed order (the removed ones last), as the dry run and the report list them. */
export function rowsForReport<T extends { action: FeedAction }>(rows: T[], cap: number): T[] {
  return [...rows.filter((row) => row.action === 'rejected'), ...rows.filter((row) => row.action !== 'rejected')].slice(0, cap);
}

/** A planned row as the API shows it. */
export const rowView = ({ row, action, stocknum, name, reason, changes }: PlannedRow) => ({
  row,
  action,
  stocknum,
  name,
  ...(reason ? { reason } : {}),
  ...(changes ? { changes } : {}),
});

export const countsOf = (rows: { action: FeedAction }[]): FeedCounts => {
  const counts: FeedCounts = { new: 0, changed: 0, unchanged: 0, removed: 0, rejected: 0 };
  for (const row of rows) counts[row.action]++;
  return counts;
};

/**
 * Plans a feed against the site's cars. `mapping` is field → column. A feed in which no row names
 * a car (every row without stock number and VIN: a wrong mapping, an empty export) removes nothing.
 */
export async function planFeed(
  site: SiteConfig,
  existingCars: Car[],
  feed: FeedCsv,
  mapping: Record<string, string>,
  options: PlanOptions = {},
): Promise<FeedPlan> {
  const known = options.knownPhotos ?? new Map<string, string>();
  const nowSeconds = options.nowSeconds ?? Math.floor(Date.now() / 1000);
  const byStock = new Map<string, Car>();
  const byVin = new Map<string, Car>();
  for (const car of existingCars) {
    if (car.stocknum && !byStock.has(car.stocknum)) byStock.set(car.stocknum, car);
    if (car.vin && !byVin.has(car.vin.toUpperCase())) byVin.set(car.vin.toUpperCase(), car);
  }
  const columnOf = new Map(Object.entries(mapping).map(([field, column]) => [field, feed.columns.indexOf(column)]));
  const claimed = new Map<number, number>();
  const seen = new Map<string, number>();
  const rows: PlannedRow[] = [];
  const reject = (row: number, reason: string, stocknum = '', name = '') =>
    rows.push({ row, action: 'rejected', stocknum, name, reason: `Row ${row}: ${reason}`, before: null, edit: null, photoUrls: null });

  for (const [index, line] of feed.rows.entries()) {
    if (index % 250 === 249) await breathe();
    if (line.problem !== undefined) {
      rows.push({
        row: line.row,
        action: 'rejected',
        stocknum: '',
        name: '',
        reason: line.problem,
        before: null,
        edit: null,
        photoUrls: null,
      });
      continue;
    }
    const cell: Cells = (field) => {
      const at = columnOf.get(field);
      return at === undefined || at < 0 ? undefined : (line.cells[at] ?? '').trim();
    };
    const stock = cell('stocknum') ?? '';
    const vin = (cell('vin') ?? '').toUpperCase();
    const rawName = [cell('year'), cell('make'), cell('model'), cell('badge')].filter(Boolean).join(' ');
    const key = stock || vin;
    if (!key) {
      reject(line.row, 'no stock number or VIN', '', rawName);
      continue;
    }
    const twiceStock = stock ? seen.get(`stock:${stock}`) : undefined;
    const twiceVin = vin ? seen.get(`vin:${vin}`) : undefined;
    if (stock && twiceStock === undefined) seen.set(`stock:${stock}`, line.row);
    if (vin && twiceVin === undefined) seen.set(`vin:${vin}`, line.row);
    const before = (stock ? byStock.get(stock) : undefined) ?? (vin ? byVin.get(vin) : undefined) ?? null;
    const sameCar = before ? claimed.get(before.id) : undefined;
    if (before && sameCar === undefined) claimed.set(before.id, line.row);
    if (twiceStock !== undefined) {
      reject(line.row, `stock number ${stock} appears twice in the feed (also row ${twiceStock})`, key, rawName);
      continue;
    }
    if (twiceVin !== undefined) {
      reject(line.row, `VIN ${vin} appears twice in the feed (also row ${twiceVin})`, key, rawName);
      continue;
    }
    if (sameCar !== undefined) {
      reject(line.row, `this row and row ${sameCar} are the same car (${before!.stocknum || before!.vin})`, key, rawName);
      continue;
    }
    const vinOwner = vin ? byVin.get(vin) : undefined;
    if (vinOwner && before && vinOwner.id !== before.id) {
      reject(line.row, `VIN ${vin} is the VIN of another car (stock number ${vinOwner.stocknum})`, key, rawName);
      continue;
    }
    try {
      const { edit, photos, notes } = editOfRow(site, cell, before === null, before);
      if (!before) {
        const missing = requiredForNew.find((field) => edit[field] === undefined);
        if (missing) throw new RowRefused(`no ${feedFieldWords[missing]}`);
        edit.stocknum = stock || vin;
        if (vin) edit.vin = vin;
      } else {
        if (stock) edit.stocknum = stock;
        if (vin) edit.vin = vin;
      }
      const checked = rowSchema.safeParse(edit);
      if (!checked.success) throw new RowRefused(schemaReason(checked.error.issues[0]!, edit));
      const after = carFromEdit(site, before, checked.data, before?.id ?? 0, nowSeconds);
      const changes: string[] = [];
      if (before) {
        const was = carEditOf(before);
        const is = carEditOf(after);
        for (const field of Object.keys(is) as (keyof CarEdit)[])
          if (field !== 'photos' && JSON.stringify(was[field]) !== JSON.stringify(is[field])) changes.push(feedFieldOf(field));
        if (photos && JSON.stringify(servedPhotos(photos, known)) !== JSON.stringify(before.images)) changes.push('photos');
      }
      rows.push({
        row: line.row,
        action: !before ? 'new' : changes.length > 0 ? 'changed' : 'unchanged',
        stocknum: after.stocknum,
        name: after.name,
        ...(notes.length > 0 ? { reason: `Row ${line.row}: ${notes.join('; ')}` } : {}),
        ...(before && changes.length > 0 ? { changes } : {}),
        before,
        edit: checked.data,
        photoUrls: photos,
      });
    } catch (error) {
      if (error instanceof RowRefused) reject(line.row, error.message, key, before?.name ?? rawName);
      else if (error instanceof CarRefused) reject(line.row, error.message, key, before?.name ?? rawName);
      else throw error;
    }
  }

  if (seen.size > 0)
    for (const car of existingCars) {
      if (claimed.has(car.id) || (car.status !== 'in_stock' && car.status !== 'coming_soon')) continue;
      rows.push({
        row: 0,
        action: 'removed',
        stocknum: car.stocknum,
        name: car.name,
        before: car,
        edit: { status: 'sold' },
        photoUrls: null,
      });
    }
  return { counts: countsOf(rows), rows };
}

/** Every photo address the feed's rows list (to look up which were fetched before planning). */
export function feedPhotoUrls(feed: FeedCsv, mapping: Record<string, string>): string[] {
  const at = mapping.photos === undefined ? -1 : feed.columns.indexOf(mapping.photos);
  if (at < 0) return [];
  const urls = new Set<string>();
  for (const line of feed.rows) for (const url of photoList(line.cells?.[at] ?? '').urls.slice(0, 100)) urls.add(url);
  return [...urls];
}
