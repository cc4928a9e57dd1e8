import { isPlainObject } from './meili-values';
import { minWordSizeForTypos } from './query-words';

/*
 * An index's settings: Meilisearch's whole settings object (`MeiliSettings`), kept and given back
 * as set, and the part of it the search structure applies (`IndexSettings`).
 */

/** Meilisearch's default `faceting.maxValuesPerFacet`. */
export const defaultMaxValuesPerFacet = 100;
/** Meilisearch's default `pagination.maxTotalHits`. */
export const defaultMaxTotalHits = 1000;

export type FacetOrder = 'alpha' | 'count';
export type IndexSettings = {
  filterableAttributes: string[];
  sortableAttributes: string[];
  searchableAttributes: string[];
  /** Meilisearch's faceting settings: at most 100 values per facet, in alphanumeric order, unless set. */
  faceting?: { maxValuesPerFacet?: number; sortFacetValuesBy?: Record<string, FacetOrder> };
  /** Fields a search or document read may return (`['*']`: all). */
  displayedAttributes?: string[];
  /** At most one hit per value of this attribute (Meilisearch's `distinctAttribute`). */
  distinctAttribute?: string | null;
  /** Meilisearch's `pagination.maxTotalHits`: no search reaches past this many hits (default 1000). */
  maxTotalHits?: number;
};

export function copySettings(settings: IndexSettings): IndexSettings {
  const copy: IndexSettings = {
    filterableAttributes: [...settings.filterableAttributes],
    sortableAttributes: [...settings.sortableAttributes],
    searchableAttributes: [...settings.searchableAttributes],
  };
  if (settings.faceting) {
    copy.faceting = { ...settings.faceting };
    if (settings.faceting.sortFacetValuesBy) copy.faceting.sortFacetValuesBy = { ...settings.faceting.sortFacetValuesBy };
  }
  if (settings.displayedAttributes) copy.displayedAttributes = [...settings.displayedAttributes];
  if (settings.distinctAttribute !== undefined) copy.distinctAttribute = settings.distinctAttribute;
  if (settings.maxTotalHits !== undefined) copy.maxTotalHits = settings.maxTotalHits;
  return copy;
}

/** Meilisearch's settings object with its defaults. Only the attribute lists change how the embedded engine searches; the rest is kept and given back. */
export const defaultIndexSettings = {
  displayedAttributes: ['*'] as unknown,
  searchableAttributes: ['*'] as unknown,
  filterableAttributes: [] as unknown,
  sortableAttributes: [] as unknown,
  rankingRules: ['words', 'typo', 'proximity', 'attribute', 'sort', 'exactness'] as unknown,
  stopWords: [] as unknown,
  nonSeparatorTokens: [] as unknown,
  separatorTokens: [] as unknown,
  dictionary: [] as unknown,
  synonyms: {} as unknown,
  distinctAttribute: null as unknown,
  proximityPrecision: 'byWord' as unknown,
  typoTolerance: {
    enabled: true,
    minWordSizeForTypos: { ...minWordSizeForTypos },
    disableOnWords: [],
    disableOnAttributes: [],
    disableOnNumbers: false,
  } as unknown,
  faceting: { maxValuesPerFacet: defaultMaxValuesPerFacet, sortFacetValuesBy: { '*': 'alpha' } } as unknown,
  pagination: { maxTotalHits: defaultMaxTotalHits } as unknown,
  embedders: {} as unknown,
  searchCutoffMs: null as unknown,
  localizedAttributes: null as unknown,
  facetSearch: true as unknown,
  prefixSearch: 'indexingTime' as unknown,
};
export type SettingName = keyof typeof defaultIndexSettings;
export type MeiliSettings = { [K in SettingName]: unknown };
export const settingNames = Object.keys(defaultIndexSettings) as SettingName[];
/** Settings whose value is an object: a PATCH merges into them rather than replacing them. */
const objectSettings = new Set<SettingName>(['typoTolerance', 'faceting', 'pagination', 'embedders']);

/**
 * An object setting patched as Meilisearch patches it: the fields given replace those there,
 * objects within merge the same way (`sortFacetValuesBy: { make: 'count' }` keeps `'*': 'alpha'`),
 * and null puts a field back to its default (or takes it out when it has none).
 */
function patchObject(current: Record<string, unknown>, patch: Record<string, unknown>, defaults: unknown): Record<string, unknown> {
  const merged = { ...current };
  const defaultOf = (key: string) => (isPlainObject(defaults) ? defaults[key] : undefined);
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined) continue;
    if (value === null) {
      if (defaultOf(key) === undefined) delete merged[key];
      else merged[key] = structuredClone(defaultOf(key));
    } else if (isPlainObject(value) && isPlainObject(merged[key]))
      merged[key] = patchObject(merged[key] as Record<string, unknown>, value, defaultOf(key));
    else merged[key] = structuredClone(value);
  }
  return merged;
}

/** Replaces the named settings (null: back to the default), as Meilisearch's settings update does. */
export function applySettings(settings: MeiliSettings, partial: Partial<MeiliSettings>) {
  for (const name of settingNames) {
    if (!(name in partial)) continue;
    const value = partial[name];
    if (value === null || value === undefined) settings[name] = structuredClone(defaultIndexSettings[name]);
    else if (objectSettings.has(name) && isPlainObject(value) && isPlainObject(settings[name])) {
      settings[name] = patchObject(settings[name] as Record<string, unknown>, value, defaultIndexSettings[name]);
    } else settings[name] = structuredClone(value);
  }
}

/** The attribute names an attribute-list setting gives (granular filterable entries give their patterns). */
export function attributeNames(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((entry: unknown) =>
    typeof entry === 'string'
      ? [entry]
      : isPlainObject(entry) && Array.isArray(entry.attributePatterns)
        ? entry.attributePatterns.filter((p): p is string => typeof p === 'string')
        : [],
  );
}

/** The settings the search structure applies, read from Meilisearch's settings object. */
export function searchSettingsOf(settings: MeiliSettings): IndexSettings {
  const { searchableAttributes: searchable, displayedAttributes: displayed, distinctAttribute } = settings;
  const faceting = settings.faceting as IndexSettings['faceting'];
  const pagination = settings.pagination as { maxTotalHits?: number };
  return {
    filterableAttributes: attributeNames(settings.filterableAttributes),
    sortableAttributes: attributeNames(settings.sortableAttributes),
    searchableAttributes: Array.isArray(searchable) ? attributeNames(searchable) : ['*'],
    displayedAttributes: Array.isArray(displayed) ? attributeNames(displayed) : ['*'],
    distinctAttribute: typeof distinctAttribute === 'string' ? distinctAttribute : null,
    maxTotalHits: pagination.maxTotalHits ?? defaultMaxTotalHits,
    ...(faceting ? { faceting: { maxValuesPerFacet: faceting.maxValuesPerFacet, sortFacetValuesBy: faceting.sortFacetValuesBy } } : {}),
  };
}
