import { MeiliError } from './search-errors';

/*
 * Reading JSON bodies and query strings as Meilisearch reads them (its `deserr` layer): each
 * field's type checked, unknown fields refused, and errors worded and coded as Meilisearch words
 * and codes them, so the official client reports the same MeilisearchApiError either way.
 */

export const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A JSON value's type, in Meilisearch's words ("a positive integer", "an array", ...). */
export function describeValue(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string') return 'a string';
  if (typeof value === 'boolean') return 'a boolean';
  if (typeof value === 'number' && Number.isInteger(value)) return value < 0 ? 'a negative integer' : 'a positive integer';
  return 'a number';
}

const shown = (value: unknown) => JSON.stringify(value) ?? 'null';
const at = (path: string) => (path ? ` at \`${path}\`` : '');
const inside = (path: string) => (path ? ` inside \`${path}\`` : '');
export const quotedList = (names: readonly string[]) => names.map((name) => `\`${name}\``).join(', ');

export const invalidType = (code: string, path: string, expected: string, value: unknown) =>
  new MeiliError(code, `Invalid value type${at(path)}: expected ${expected}, but found ${describeValue(value)}: \`${shown(value)}\``, 400);

export const invalidValue = (code: string, path: string, message: string) =>
  new MeiliError(code, `Invalid value${at(path)}: ${message}`, 400);

export const missingField = (code: string, path: string, name: string) =>
  new MeiliError(code, `Missing field \`${name}\`${inside(path)}`, 400);

/** Edit distance with adjacent swaps, as Meilisearch measures a mistyped name. */
function editDistance(a: string, b: string): number {
  const rows: number[][] = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, rows[i - 2]![j - 2]! + 1);
      rows[i]![j] = best;
    }
  }
  return rows[a.length]![b.length]!;
}

/** "did you mean `filter`? " when a known name is a typo or two away (more typos for longer names), else nothing. */
export function didYouMean(received: string, accepted: readonly string[]): string {
  const length = Buffer.byteLength(received);
  if (length <= 3) return '';
  const allowed = length <= 7 ? 1 : length <= 12 ? 2 : length <= 17 ? 3 : length <= 24 ? 4 : 5;
  let best: { name: string; distance: number } | null = null;
  for (const name of accepted) {
    // Names further apart in length are further apart in edits: not measured (a long unknown name would cost its length times each name's).
    if (Math.abs(received.length - name.length) > allowed) continue;
    const distance = editDistance(received, name);
    if (distance <= allowed && (!best || distance < best.distance)) best = { name, distance };
  }
  return best ? `did you mean \`${best.name}\`? ` : '';
}

export const unknownField = (code: string, path: string, key: string, accepted: readonly string[]) =>
  new MeiliError(code, `Unknown field \`${key}\`${inside(path)}: ${didYouMean(key, accepted)}expected one of ${quotedList(accepted)}`, 400);

export const unknownValue = (code: string, path: string, value: string, accepted: readonly string[]) =>
  new MeiliError(code, `Unknown value \`${value}\`${at(path)}: ${didYouMean(value, accepted)}expected one of ${quotedList(accepted)}`, 400);

// ---------------------------------------------------------------------------------------------
// JSON fields
// ---------------------------------------------------------------------------------------------

/** Reads one field's value (already known not to be absent); throws Meilisearch's error for it. */
export type Read<T = unknown> = (value: unknown, path: string, code: string) => T;

export const readString: Read<string> = (value, path, code) => {
  if (typeof value !== 'string') throw invalidType(code, path, 'a string', value);
  return value;
};

export const readPositiveInteger: Read<number> = (value, path, code) => {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) throw invalidType(code, path, 'a positive integer', value);
  return value;
};

export const readBoolean: Read<boolean> = (value, path, code) => {
  if (typeof value !== 'boolean') throw invalidType(code, path, 'a boolean', value);
  return value;
};

export const readNumber: Read<number> = (value, path, code) => {
  if (typeof value !== 'number' || !Number.isFinite(value)) throw invalidType(code, path, 'a number', value);
  return value;
};

export const readList =
  <T>(item: Read<T>): Read<T[]> =>
  (value, path, code) => {
    if (!Array.isArray(value)) throw invalidType(code, path, 'an array', value);
    return value.map((entry, i) => item(entry, `${path}[${i}]`, code));
  };

export const readStrings = readList(readString);

export const readOneOf =
  <T extends string>(accepted: readonly T[]): Read<T> =>
  (value, path, code) => {
    const text = readString(value, path, code);
    if (!(accepted as readonly string[]).includes(text)) throw unknownValue(code, path, text, accepted);
    return text as T;
  };

/** A float in [0, 1], as `rankingScoreThreshold` and `semanticRatio` must be. */
export const readUnitInterval: Read<number> = (value, path, code) => {
  const number = readNumber(value, path, code);
  if (number < 0 || number > 1) {
    const name = path.slice(path.lastIndexOf('.') + 1);
    throw invalidValue(code, path, `the value of \`${name}\` is invalid, expected a float between \`0.0\` and \`1.0\`.`);
  }
  return number;
};

/** One field of an object: its name, error code, how it is read, whether null is accepted (as absent) and whether it must be there. */
export type Field = { name: string; code: string; read: Read; nullable?: boolean; required?: { code: string } };

/** Each list of fields by name, made once: a page's search reads 19 queries of ~30 fields each. */
const fieldMaps = new WeakMap<readonly Field[], Map<string, Field>>();
function fieldsByName(fields: readonly Field[]): Map<string, Field> {
  let byName = fieldMaps.get(fields);
  if (!byName) fieldMaps.set(fields, (byName = new Map(fields.map((field) => [field.name, field]))));
  return byName;
}

/**
 * Reads an object field by field. Null in a nullable field reads as absent. Unknown fields are
 * refused with `unknownCode` (or left alone, as facet search leaves them, when it is null).
 */
export function readObject(
  value: unknown,
  fields: readonly Field[],
  path: string,
  code: string,
  unknownCode: string | null = code,
): Record<string, unknown> {
  if (!isPlainObject(value)) throw invalidType(code, path, 'an object', value);
  const byName = fieldsByName(fields);
  const read: Record<string, unknown> = {};
  for (const [key, entry] of Object.entries(value)) {
    const field = byName.get(key);
    if (!field) {
      if (unknownCode === null) continue;
      throw unknownField(
        unknownCode,
        path,
        key,
        fields.map((known) => known.name),
      );
    }
    if (entry === undefined || (entry === null && field.nullable)) continue;
    read[key] = field.read(entry, `${path}.${key}`, field.code);
  }
  for (const field of fields) {
    if (field.required && read[field.name] === undefined) throw missingField(field.required.code, path, field.name);
  }
  return read;
}

// ---------------------------------------------------------------------------------------------
// Query string parameters
// ---------------------------------------------------------------------------------------------

const parameterError = (code: string, name: string, message: string) =>
  new MeiliError(code, `Invalid value in parameter \`${name}\`: ${message}`, 400);

export function parsePositiveInteger(text: string, name: string, code: string): number {
  const number = /^\d+$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(number)) throw parameterError(code, name, `could not parse \`${text}\` as a positive integer`);
  return number;
}

export function parseBoolean(text: string, name: string, code: string): boolean {
  if (text !== 'true' && text !== 'false')
    throw parameterError(code, name, `could not parse \`${text}\` as a boolean, expected either \`true\` or \`false\``);
  return text === 'true';
}

export function parseNumber(text: string, name: string, code: string): number {
  const number = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(text.trim()) ? Number(text) : Number.NaN;
  if (!Number.isFinite(number)) throw parameterError(code, name, `could not parse \`${text}\` as a number`);
  return number;
}

export function parseOneOf<T extends string>(text: string, name: string, code: string, accepted: readonly T[]): T {
  if (!(accepted as readonly string[]).includes(text)) {
    throw new MeiliError(
      code,
      `Unknown value \`${text}\` for parameter \`${name}\`: ${didYouMean(text, accepted)}expected one of ${quotedList(accepted)}`,
      400,
    );
  }
  return text as T;
}

/** A comma-separated list parameter (`facets=make,model`). */
export const parseList = (text: string): string[] =>
  text
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);

/** The parameters given, one string each (a repeated parameter counts as its last value); unknown names refused. */
export function queryParameters(query: unknown, accepted: readonly string[]): Map<string, string> {
  const given = new Map<string, string>();
  for (const [name, value] of Object.entries(isPlainObject(query) ? query : {})) {
    if (!accepted.includes(name)) {
      throw new MeiliError(
        'bad_request',
        `Unknown parameter \`${name}\`: ${didYouMean(name, accepted)}expected one of ${quotedList(accepted)}`,
        400,
      );
    }
    given.set(name, String(Array.isArray(value) ? value[value.length - 1] : value));
  }
  return given;
}

/** Each item of a list parameter, read by `parse` with its position in the error (`uids[1]`) when there are several. */
export function parseListWith<T>(text: string, name: string, parse: (item: string, name: string) => T): T[] {
  const items = text.split(',').map((item) => item.trim());
  return items.map((item, i) => parse(item, items.length > 1 ? `${name}[${i}]` : name));
}
