/**
 * The fields a feed's columns map to (issue 24), their names on the mapping screen, the header
 * names each is guessed from, and how a cell's text is read leniently: prices with dollar signs
 * and commas, odometers with "km", types and statuses in the words dealers' systems use.
 */
import type { Car } from '@dealer/contracts/car';

export const feedFieldNames = [
  'stocknum',
  'vin',
  'make',
  'model',
  'badge',
  'series',
  'year',
  'km',
  'price',
  'before_price',
  'car_type',
  'status',
  'colour',
  'body',
  'fuel',
  'transmission',
  'drive',
  'seats',
  'description',
  'features',
  'photos',
  'location',
] as const;
export type FeedField = (typeof feedFieldNames)[number];

/** A field as the mapping screen shows it; a new car cannot be made without the required ones (and a stock number or VIN). */
export const feedFields: { field: FeedField; label: string; required: boolean }[] = [
  { field: 'stocknum', label: 'Stock number', required: false },
  { field: 'vin', label: 'VIN', required: false },
  { field: 'make', label: 'Make', required: true },
  { field: 'model', label: 'Model', required: true },
  { field: 'badge', label: 'Badge', required: false },
  { field: 'series', label: 'Series', required: false },
  { field: 'year', label: 'Year', required: true },
  { field: 'km', label: 'Kilometres', required: false },
  { field: 'price', label: 'Price', required: true },
  { field: 'before_price', label: 'Price before (was)', required: false },
  { field: 'car_type', label: 'New, used or demo', required: false },
  { field: 'status', label: 'Status', required: false },
  { field: 'colour', label: 'Colour', required: false },
  { field: 'body', label: 'Body', required: false },
  { field: 'fuel', label: 'Fuel', required: false },
  { field: 'transmission', label: 'Transmission', required: false },
  { field: 'drive', label: 'Drive', required: false },
  { field: 'seats', label: 'Seats', required: false },
  { field: 'description', label: 'Description', required: false },
  { field: 'features', label: 'Features (separated by | or ;)', required: false },
  { field: 'photos', label: 'Photo addresses (http or https)', required: false },
  { field: 'location', label: 'Location (name or id)', required: false },
];

/** How a field is named in a reason: "the price 'POA' is not a number". */
export const feedFieldWords: Record<FeedField, string> = {
  stocknum: 'stock number',
  vin: 'VIN',
  make: 'make',
  model: 'model',
  badge: 'badge',
  series: 'series',
  year: 'year',
  km: 'kilometres',
  price: 'price',
  before_price: 'price before',
  car_type: 'type',
  status: 'status',
  colour: 'colour',
  body: 'body',
  fuel: 'fuel',
  transmission: 'transmission',
  drive: 'drive',
  seats: 'seats',
  description: 'description',
  features: 'features',
  photos: 'photos',
  location: 'location',
};

/** Header names (lower case, letters and digits only) each field is guessed from, the likeliest first. */
const headerNames: Record<FeedField, string[]> = {
  stocknum: ['stockno', 'stocknumber', 'stocknum', 'stock', 'stockid', 'stockcode', 'stockref', 'stocknbr'],
  vin: ['vin', 'vinnumber', 'vinno', 'chassis', 'chassisnumber', 'chassisno'],
  make: ['make', 'manufacturer', 'brand', 'marque'],
  model: ['model', 'modelname'],
  badge: ['badge', 'variant', 'trim', 'grade'],
  series: ['series', 'modelseries'],
  year: ['year', 'modelyear', 'buildyear', 'yearofmanufacture', 'manufactureyear', 'compliance'],
  km: ['km', 'kms', 'odometer', 'odometerkm', 'odometerreading', 'odo', 'kilometres', 'kilometers', 'mileage'],
  price: ['price', 'saleprice', 'sellingprice', 'driveawayprice', 'driveaway', 'retailprice', 'askingprice', 'egcprice', 'advertisedprice'],
  before_price: ['beforeprice', 'wasprice', 'was', 'previousprice', 'oldprice', 'originalprice'],
  car_type: ['cartype', 'type', 'condition', 'newused', 'stocktype', 'vehiclecondition', 'vehicletype'],
  status: ['status', 'stockstatus', 'availability'],
  colour: ['colour', 'color', 'exteriorcolour', 'exteriorcolor', 'bodycolour', 'bodycolor', 'paint'],
  body: ['body', 'bodytype', 'bodystyle', 'simplebody', 'shape'],
  fuel: ['fuel', 'fueltype'],
  transmission: ['transmission', 'gearbox', 'trans', 'transmissiontype'],
  drive: ['drive', 'drivetype', 'drivetrain', 'driveline'],
  seats: ['seats', 'seatingcapacity', 'seating', 'numberofseats', 'noofseats'],
  description: ['description', 'comments', 'dealercomments', 'sellercomments', 'notes', 'adtext', 'advertisement'],
  features: ['features', 'options', 'equipment', 'extras', 'featurelist', 'standardfeatures'],
  photos: ['photos', 'images', 'photourls', 'imageurls', 'pictures', 'photo', 'image', 'photourl', 'imageurl', 'pictureurls', 'pics'],
  location: ['location', 'locationname', 'yard', 'branch', 'dealership', 'site'],
};

const headerKey = (column: string) => column.toLowerCase().replace(/[^a-z0-9]/g, '');

/** The mapping a feed's header suggests: each field to the first column named as dealers' systems name it, each column used once. */
export function guessMapping(columns: string[]): Record<string, string> {
  const mapping: Record<string, string> = {};
  const used = new Set<string>();
  for (const field of feedFieldNames) {
    for (const name of headerNames[field]) {
      const column = columns.find((one) => !used.has(one) && headerKey(one) === name);
      if (column === undefined) continue;
      mapping[field] = column;
      used.add(column);
      break;
    }
  }
  return mapping;
}

/** A saved mapping, as far as the feed still has its columns (null when it lost the stock number and VIN both). */
export function mappingForColumns(saved: Record<string, string> | null, columns: string[]): Record<string, string> | null {
  if (!saved) return null;
  const kept = Object.fromEntries(Object.entries(saved).filter(([, column]) => columns.includes(column)));
  return kept.stocknum || kept.vin ? kept : null;
}

/**
 * A number as feeds write it: "$52,990", "52 990.00", "48,200 km", "7 seats". Null when the cell is
 * not a number at all ("POA", "TBA", "1.2.3").
 */
export function lenientNumber(text: string): number | null {
  const bare = text
    .trim()
    .toLowerCase()
    .replace(/^(aud|nzd|usd|au\$|nz\$|us\$)\s*/, '')
    .replace(/\s*(kms?|kilomet(re|er)s?|seats?|aud|nzd|usd)\.?$/, '')
    .replace(/[$€£\s,_]/g, '');
  if (!/^-?\d+(\.\d+)?$/.test(bare)) return null;
  return Number(bare);
}

/** New, used or demo from what systems write ("N", "Used", "Pre-owned", "Demonstrator", "Ex-demo"). */
export function carTypeOf(text: string): Car['car_type'] | null {
  const word = text
    .trim()
    .toLowerCase()
    .replace(/[^a-z]/g, '');
  if (['new', 'n', 'brandnew'].includes(word)) return 'new';
  if (['used', 'u', 'preowned', 'secondhand', 'usedcar', 'certifiedpreowned'].includes(word)) return 'used';
  if (['demo', 'd', 'demonstrator', 'exdemo', 'demonstration'].includes(word)) return 'demo';
  return null;
}

/** In stock, coming soon or sold from what systems write ("Available", "In transit", "SOLD"). */
export function statusOf(text: string): Car['status'] | null {
  const word = text
    .trim()
    .toLowerCase()
    .replace(/[^a-z]/g, '');
  if (['instock', 'available', 'forsale', 'stock', 'active', 'current'].includes(word)) return 'in_stock';
  if (['comingsoon', 'intransit', 'arriving', 'incoming', 'ordered', 'onorder'].includes(word)) return 'coming_soon';
  if (['sold', 'delivered'].includes(word)) return 'sold';
  return null;
}

/** The items of a features cell: split on | or ;, trimmed, each once. */
export const featureList = (text: string) => [
  ...new Set(
    text
      .split(/[|;]/)
      .map((one) => one.trim())
      .filter(Boolean),
  ),
];

/** The addresses of a photos cell (split on | , ; or spaces): the http(s) ones, each once, and what else it held. */
export function photoList(text: string): { urls: string[]; other: string[] } {
  const urls: string[] = [];
  const other: string[] = [];
  for (const token of text.split(/[|,;\s]+/).filter(Boolean)) {
    const url = URL.canParse(token) ? new URL(token) : null;
    if (url && (url.protocol === 'http:' || url.protocol === 'https:')) {
      if (!urls.includes(url.href)) urls.push(url.href);
    } else other.push(token);
  }
  return { urls, other };
}
