/**
 * Test support for the search index suites (search-index.word-search.test.ts and
 * search-index.results.test.ts): a small dealer stock of eight cars, two of them another dealer's,
 * in an index set up as the platform's cars index. Production code does not import it.
 */
import { parseFilter } from '../filter-parser';
import type { IndexSettings } from '../index-settings';
import { SearchIndex } from '../search-index';
import type { Doc, SearchParams } from '../search-types';

export const settings: IndexSettings = {
  filterableAttributes: ['site_id', 'make', 'model', 'car_type', 'price', 'km', 'year', 'colour', 'categories', 'status'],
  sortableAttributes: ['price', 'km', 'year', 'custom_rank'],
  searchableAttributes: ['name', 'make', 'model', 'badge', 'stocknum', 'colour', 'categories'],
};

type Car = {
  id: number;
  make: string;
  model: string;
  car_type: string;
  price?: number | null;
  km: number;
  year: number;
  colour: string;
  stocknum: string;
  categories: string[];
  badge?: string;
  custom_rank?: number;
  site_id?: number;
};

const car = (id: number, fields: Omit<Car, 'id'>): Doc => ({
  id,
  site_id: 1,
  name: `${fields.year} ${fields.make} ${fields.model}${fields.badge ? ` ${fields.badge}` : ''}`,
  status: 'in_stock',
  ...fields,
});

export const stock: Doc[] = [
  car(1, {
    make: 'Toyota',
    model: 'Corolla',
    badge: 'Ascent Sport',
    car_type: 'new',
    price: 30990,
    km: 10,
    year: 2025,
    colour: 'White',
    stocknum: 'MMG10001',
    categories: ['Hatch', 'Family'],
    custom_rank: 5,
  }),
  car(2, {
    make: 'Toyota',
    model: 'RAV4',
    badge: 'GX',
    car_type: 'used',
    price: 38990,
    km: 42000,
    year: 2021,
    colour: 'Silver',
    stocknum: 'MMG10002',
    categories: ['SUV', 'Family'],
    custom_rank: 9,
  }),
  car(3, {
    make: 'Toyota',
    model: 'LandCruiser',
    badge: 'Sahara',
    car_type: 'demo',
    price: 129990,
    km: 1500,
    year: 2024,
    colour: 'Black',
    stocknum: 'MMG10003',
    categories: ['SUV', '4x4'],
    custom_rank: 9,
  }),
  car(4, {
    make: 'Mazda',
    model: 'CX-5',
    badge: 'Touring',
    car_type: 'used',
    price: 27990,
    km: 61000,
    year: 2019,
    colour: 'Red',
    stocknum: 'MMG20004',
    categories: ['SUV'],
    custom_rank: 3,
  }),
  car(5, {
    make: 'Mazda',
    model: 'BT-50',
    car_type: 'new',
    price: null,
    km: 5,
    year: 2025,
    colour: 'White',
    stocknum: 'MMG20005',
    categories: ['Ute', '4x4'],
  }),
  car(6, {
    make: 'Kia',
    model: 'Sportage',
    badge: 'S',
    car_type: 'new',
    price: 36990,
    km: 10,
    year: 2025,
    colour: 'White',
    stocknum: 'MMG30006',
    categories: ['SUV'],
    custom_rank: 1,
  }),
  car(7, {
    make: 'Kia',
    model: 'Picanto',
    badge: 'GT-Line',
    car_type: 'used',
    km: 80000,
    year: 2017,
    colour: 'Red',
    stocknum: 'MMG30007',
    categories: ['Hatch'],
    custom_rank: 2,
  }),
  car(8, {
    make: 'Škoda',
    model: 'Octavia',
    badge: 'RS',
    car_type: 'used',
    price: 27990,
    km: 52000,
    year: 2020,
    colour: 'Blue',
    stocknum: 'MMG40008',
    categories: ['Sedan'],
    custom_rank: 4,
  }),
  // Another dealer's car: the site filter keeps it out.
  car(9, {
    make: 'Toyota',
    model: 'Corolla',
    car_type: 'used',
    price: 9990,
    km: 190000,
    year: 2011,
    colour: 'Silver',
    stocknum: 'HUC00009',
    categories: ['Hatch'],
    site_id: 2,
  }),
];

export const siteOne = parseFilter('site_id = 1');

export function stockIndex(overrides: Partial<IndexSettings> = {}) {
  const index = new SearchIndex('cars', { ...settings, ...overrides });
  index.upsert(stock);
  return index;
}

export const ids = (index: SearchIndex, params: SearchParams) => index.search(params, siteOne).hits.map((hit) => hit.id);
