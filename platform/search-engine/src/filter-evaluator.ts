import type { FilterNode, GeoFilterNode } from './filter-parser';
import { isPlainObject } from './meili-values';

type Doc = Record<string, unknown>;
export type Scalar = string | number | boolean;

/** A string as filters compare it: trimmed, lower case. */
export const normalise = (value: string) => value.trim().toLowerCase();
const isScalar = (value: unknown): value is Scalar => typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';

/** What EXISTS, IS NULL and IS EMPTY read at an attribute: flags, since an array of objects can be several at once. */
export const Presence = { Exists: 1, Null: 2, Empty: 4 } as const;

/**
 * Calls `visit` with every value a document holds at `attribute`, as Meilisearch flattens documents:
 * `a.b` is the key `a.b`, the key `b` of the object `a`, and the key `b` of each object in an array
 * `a` (arrays in arrays too), all of them at once.
 */
function forEachAt(node: unknown, attribute: string, visit: (value: unknown) => void) {
  if (Array.isArray(node)) {
    for (const item of node) forEachAt(item, attribute, visit);
    return;
  }
  if (!isPlainObject(node)) return;
  // A key set to undefined (never in JSON) is no key.
  if (node[attribute] !== undefined && Object.hasOwn(node, attribute)) visit(node[attribute]);
  for (let dot = attribute.indexOf('.'); dot !== -1; dot = attribute.indexOf('.', dot + 1)) {
    const key = attribute.slice(0, dot);
    if (Object.hasOwn(node, key)) forEachAt(node[key], attribute.slice(dot + 1), visit);
  }
}

/** Scalars of an array and of the arrays in it; null and objects in an array are no values. */
function pushItems(items: unknown[], values: Scalar[]) {
  for (const item of items) {
    if (Array.isArray(item)) pushItems(item, values);
    else if (isScalar(item)) values.push(item);
  }
}

/** Presence flags of one value a document holds at an attribute; its scalars pushed into `values`. */
function flagsOf(value: unknown, values: Scalar[] | null): number {
  if (value === null) return Presence.Exists | Presence.Null;
  if (isScalar(value)) {
    values?.push(value);
    return value === '' ? Presence.Exists | Presence.Empty : Presence.Exists;
  }
  if (Array.isArray(value)) {
    if (value.length === 0) return Presence.Exists | Presence.Empty;
    if (values) pushItems(value, values);
    return Presence.Exists;
  }
  return Object.keys(value as Doc).length === 0 ? Presence.Exists | Presence.Empty : Presence.Exists;
}

/**
 * The strings, numbers and booleans a document holds at an attribute (pushed into `values`), and
 * its Presence flags. As in Meilisearch, null and empty (`""`, `[]`, `{}`) count as the value of a
 * key, not as an item of an array: `[{age: null}]` is null at `age`, `[null]` is not null.
 */
export function readAttribute(doc: Doc, attribute: string, values: Scalar[] | null): number {
  if (!attribute.includes('.')) {
    const value = doc[attribute];
    return value !== undefined && Object.hasOwn(doc, attribute) ? flagsOf(value, values) : 0;
  }
  let flags = 0;
  forEachAt(doc, attribute, (value) => {
    flags |= flagsOf(value, values);
  });
  return flags;
}

/** The value at an attribute (see forEachAt): where the document holds it in several places, an array of them. */
export function valueAt(doc: Doc, attribute: string): unknown {
  if (!attribute.includes('.')) return Object.hasOwn(doc, attribute) ? doc[attribute] : undefined;
  const found: unknown[] = [];
  forEachAt(doc, attribute, (value) => found.push(value));
  return found.length === 0 ? undefined : found.length === 1 ? found[0] : found;
}

function valuesAt(doc: Doc, attribute: string): Scalar[] {
  const values: Scalar[] = [];
  readAttribute(doc, attribute, values);
  return values;
}

function equals(actual: Scalar, expected: string): boolean {
  if (typeof actual === 'number') return expected.trim() !== '' && Number(expected) === actual;
  if (typeof actual === 'boolean') return normalise(expected) === String(actual);
  return normalise(actual) === normalise(expected);
}

/** An `IN [...]` list as sets, so a long one costs a lookup per value the document holds. */
type Wanted = { texts: Set<string>; numbers: Set<number> };
const wantedByNode = new WeakMap<FilterNode, Wanted>();
function wantedOf(node: Extract<FilterNode, { type: 'in' }>): Wanted {
  let wanted = wantedByNode.get(node);
  if (!wanted) {
    wanted = {
      texts: new Set(node.values.map(normalise)),
      numbers: new Set(node.values.filter((value) => value.trim() !== '').map(Number)),
    };
    wantedByNode.set(node, wanted);
  }
  return wanted;
}
const isWanted = (wanted: Wanted, actual: Scalar) =>
  typeof actual === 'number'
    ? wanted.numbers.has(actual)
    : wanted.texts.has(typeof actual === 'boolean' ? String(actual) : normalise(actual));

function compareNumber(actual: Scalar, op: '>' | '>=' | '<' | '<=', expected: string): boolean {
  const limit = Number(expected);
  if (typeof actual !== 'number' || expected.trim() === '' || Number.isNaN(limit)) return false;
  switch (op) {
    case '>':
      return actual > limit;
    case '>=':
      return actual >= limit;
    case '<':
      return actual < limit;
    case '<=':
      return actual <= limit;
  }
}

const coordinate = (value: unknown): number | null => {
  const number = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : Number.NaN;
  return Number.isFinite(number) ? number : null;
};

/** A document's `_geo` point as Meilisearch reads it (`{lat, lng}`, numbers or numeric strings); null when it has none. */
export function geoPointOf(doc: Doc): [lat: number, lng: number] | null {
  const geo = doc._geo;
  if (!isPlainObject(geo)) return null;
  const lat = coordinate(geo.lat);
  const lng = coordinate(geo.lng);
  return lat === null || lng === null ? null : [lat, lng];
}

const earthRadiusMeters = 6_371_000;
const radians = (degrees: number) => degrees * (Math.PI / 180);
const haversine = (theta: number) => (1 - Math.cos(theta)) / 2;

/** Metres between two points as Meilisearch measures them: haversine on a 6,371 km sphere, to the millimetre. */
export function geoDistanceMeters(from: readonly [number, number], to: readonly [number, number]): number {
  const phi1 = radians(from[0]);
  const phi2 = radians(to[0]);
  const delta = haversine(phi2 - phi1) + Math.cos(phi1) * Math.cos(phi2) * haversine(radians(to[1]) - radians(from[1]));
  return Math.round(2 * earthRadiusMeters * Math.asin(Math.sqrt(delta)) * 1000) / 1000;
}

/** Whether a point lies in a geo condition's circle or box (a box whose left is east of its right crosses the antimeridian). */
export function geoHolds(node: GeoFilterNode, lat: number, lng: number): boolean {
  if (node.invalid) return false;
  if (node.type === 'geoRadius') return geoDistanceMeters([node.lat, node.lng], [lat, lng]) <= node.radius + Number.EPSILON;
  if (lat < node.bottom || lat > node.top) return false;
  return node.left <= node.right
    ? lng >= node.left && lng <= node.right
    : (lng >= node.left && lng <= 180) || (lng >= -180 && lng <= node.right);
}

export function matchesFilter(node: FilterNode, doc: Doc): boolean {
  switch (node.type) {
    case 'true':
      return true;
    case 'and':
      return node.children.every((child) => matchesFilter(child, doc));
    case 'or':
      return node.children.some((child) => matchesFilter(child, doc));
    case 'not':
      return !matchesFilter(node.child, doc);
    case 'compare': {
      const values = valuesAt(doc, node.attribute);
      if (node.op === '=') return values.some((value) => equals(value, node.value));
      if (node.op === '!=') return !values.some((value) => equals(value, node.value));
      const op = node.op;
      return values.some((value) => compareNumber(value, op, node.value));
    }
    case 'range':
      // One value within both bounds, as Meilisearch's range reads it.
      return valuesAt(doc, node.attribute).some((value) => compareNumber(value, '>=', node.from) && compareNumber(value, '<=', node.to));
    case 'in': {
      const wanted = wantedOf(node);
      return valuesAt(doc, node.attribute).some((value) => isWanted(wanted, value));
    }
    case 'exists':
      return (readAttribute(doc, node.attribute, null) & Presence.Exists) !== 0;
    case 'null':
      return (readAttribute(doc, node.attribute, null) & Presence.Null) !== 0;
    case 'empty':
      return (readAttribute(doc, node.attribute, null) & Presence.Empty) !== 0;
    case 'geoRadius':
    case 'geoBoundingBox': {
      const point = geoPointOf(doc);
      return point !== null && geoHolds(node, point[0], point[1]);
    }
  }
}

/** Whether filterable attributes cover an attribute: named, or nested in one named (`doggos` covers `doggos.age`). */
export function isFilterableBy(attribute: string, filterableAttributes: readonly string[]): boolean {
  return filterableAttributes.some((filterable) => attribute === filterable || attribute.startsWith(`${filterable}.`));
}
