import { MeiliError } from './search-errors';
import { settingNames, type MeiliSettings, type SettingName } from './index-settings';
import { invalidType, isPlainObject, unknownField } from './meili-values';

/*
 * An index's settings as Meilisearch reads them from a request: all at once (`PATCH /settings`) or
 * one by its route name (`/settings/filterable-attributes`), each value checked against what the
 * setting may be, a wrong one refused with the setting's own error code.
 */

const snakeCase = (name: string) => name.replace(/[A-Z]/g, (ch) => `_${ch.toLowerCase()}`);
const kebabToCamel = (name: string) => name.replace(/-([a-z])/g, (_, ch: string) => ch.toUpperCase());

/** What each setting may be (null always resets it to the default). */
const settingChecks: Record<SettingName, { expected: string; ok: (value: unknown) => boolean }> = (() => {
  const strings = { expected: 'an array of strings', ok: (v: unknown) => Array.isArray(v) && v.every((item) => typeof item === 'string') };
  const object = { expected: 'an object', ok: isPlainObject };
  return {
    displayedAttributes: strings,
    searchableAttributes: strings,
    filterableAttributes: {
      expected: 'an array of strings or of objects with `attributePatterns`',
      ok: (v) =>
        Array.isArray(v) &&
        v.every(
          (item) =>
            typeof item === 'string' ||
            (isPlainObject(item) && Array.isArray(item.attributePatterns) && item.attributePatterns.every((p) => typeof p === 'string')),
        ),
    },
    sortableAttributes: strings,
    rankingRules: strings,
    stopWords: strings,
    nonSeparatorTokens: strings,
    separatorTokens: strings,
    dictionary: strings,
    synonyms: {
      expected: 'an object of arrays of strings',
      ok: (v) =>
        isPlainObject(v) && Object.values(v).every((list) => Array.isArray(list) && list.every((item) => typeof item === 'string')),
    },
    distinctAttribute: { expected: 'a string', ok: (v) => typeof v === 'string' },
    proximityPrecision: { expected: '`byWord` or `byAttribute`', ok: (v) => v === 'byWord' || v === 'byAttribute' },
    typoTolerance: object,
    faceting: {
      expected: 'an object with `maxValuesPerFacet` (a positive integer) and `sortFacetValuesBy` (`alpha` or `count` per facet)',
      ok: (v) =>
        isPlainObject(v) &&
        Object.keys(v).every((key) => key === 'maxValuesPerFacet' || key === 'sortFacetValuesBy') &&
        (v.maxValuesPerFacet === undefined ||
          v.maxValuesPerFacet === null ||
          (Number.isInteger(v.maxValuesPerFacet) && (v.maxValuesPerFacet as number) >= 0)) &&
        (v.sortFacetValuesBy === undefined ||
          v.sortFacetValuesBy === null ||
          (isPlainObject(v.sortFacetValuesBy) &&
            Object.values(v.sortFacetValuesBy).every((order) => order === 'alpha' || order === 'count'))),
    },
    pagination: {
      expected: 'an object with `maxTotalHits` (a positive integer)',
      ok: (v) =>
        isPlainObject(v) &&
        (v.maxTotalHits === undefined || v.maxTotalHits === null || (Number.isInteger(v.maxTotalHits) && (v.maxTotalHits as number) >= 0)),
    },
    embedders: object,
    searchCutoffMs: { expected: 'a positive integer', ok: (v) => typeof v === 'number' && Number.isInteger(v) && v >= 0 },
    localizedAttributes: { expected: 'an array of objects', ok: (v) => Array.isArray(v) && v.every(isPlainObject) },
    facetSearch: { expected: 'a boolean', ok: (v) => typeof v === 'boolean' },
    prefixSearch: { expected: '`indexingTime` or `disabled`', ok: (v) => v === 'indexingTime' || v === 'disabled' },
  };
})();

/** One setting's value, `path` naming where it was in the request; null (reset) always passes. */
export function checkSetting(name: SettingName, value: unknown, path: string) {
  if (value === null) return;
  const check = settingChecks[name];
  if (!check.ok(value)) throw invalidType(`invalid_settings_${snakeCase(name)}`, path, check.expected, value);
}

/** `PATCH /indexes/:uid/settings`: the settings an object names, each checked; any other field is a `bad_request`. */
export function readSettings(body: Record<string, unknown>): Partial<MeiliSettings> {
  const settings: Partial<MeiliSettings> = {};
  for (const [name, value] of Object.entries(body)) {
    if (!(settingNames as string[]).includes(name)) throw unknownField('bad_request', '', name, settingNames);
    checkSetting(name as SettingName, value, `.${name}`);
    settings[name as SettingName] = value;
  }
  return settings;
}

/** The setting a route names (`filterable-attributes`); one Meilisearch does not have is a 404. */
export function settingFromRoute(route: string): SettingName {
  const name = kebabToCamel(route);
  if (!(settingNames as string[]).includes(name)) throw new MeiliError('not_found', `Setting \`${route}\` does not exist.`, 404);
  return name as SettingName;
}
