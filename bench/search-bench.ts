/**
 * Search bench: the search page's disjunctive multi-search (one main query with every facet, a
 * sort and the shopper's filters, plus one limit-1 query per facet without that facet's own
 * filter), all under the site's base filter, on
 *   (a) the demo dealer group (metro-motor-group, site 1, 1147 listed cars among the demo stock);
 *   (b) a platform index of 250,000 cars over 250 sites.
 * Compares the indexed SearchIndex with a naive full scan (matchesFilter per car) over the same
 * documents, and prints a markdown table.
 *
 *   tsx bench/search-bench.ts [--quick]
 */
import { pathToFileURL } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { sortOptions, buildSearchQueries, type SearchState } from '../shared/rules/src/search-query';
import { createRng, type Rng } from '@dealer/demo/prng';
import { matchesFilter } from '@dealer/search-engine/filter-evaluator';
import { parseFilter, type FilterNode } from '@dealer/search-engine/filter-parser';
import type { IndexSettings } from '@dealer/search-engine/index-settings';
import { SearchIndex } from '@dealer/search-engine/search-index';
import type { Doc, SearchParams } from '@dealer/search-engine/search-types';
import { carsPagination } from '@dealer/server/search/indexer';
import { carsIndexSettings, carsIndexUid } from '@dealer/server/search/site-search';
import { demoSearchData, platformSearchData, type BenchData, type BenchSite } from './search-data';

export const benchFacets = ['make', 'model', 'car_type', 'body', 'fuel', 'transmission', 'colour', 'location_name', 'price', 'km', 'year'];
const hitsPerPage = 24;
const day = 86_400;

/**
 * The site's base filter, as the platform builds it (site-search.ts `siteBaseFilter`): listed or
 * recently sold, shown on the website, the site's own stock and dealerships, its search filters.
 * Built here so the bench does not follow that function's signature as it changes.
 */
export function benchBaseFilter(site: BenchSite, nowSeconds: number): FilterNode {
  const soldSince = nowSeconds - site.include_sold_cars_days * day;
  const rules = [
    `((status IN [in_stock, coming_soon] AND sold = false) OR ((status = sold OR sold = true) AND sold_date_timestamp >= ${soldSince}))`,
    'show_on_dealer_website = true',
    `site_id = ${site.id}`,
    `dealership_id IN [${site.dealerships.map((dealership) => dealership.id).join(', ')}]`,
    ...site.search_filters,
  ];
  return parseFilter(rules.map((rule) => `(${rule})`).join(' AND '));
}

// ---------------------------------------------------------------------------------------------
// The naive engine: what SearchIndex did before, a full scan with matchesFilter per document.

type Engine = {
  search(
    params: SearchParams,
    base: FilterNode,
  ): { estimatedTotalHits?: number; totalHits?: number; hits: Doc[]; facetDistribution?: Record<string, Record<string, number>> };
};

export class NaiveIndex implements Engine {
  constructor(
    private readonly docs: Doc[],
    private readonly settings: IndexSettings,
  ) {}

  search(params: SearchParams, base: FilterNode) {
    const filter = parseFilter(params.filter);
    const terms = (params.q ?? '')
      .toLowerCase()
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .split(/[^a-z0-9]+/)
      .filter(Boolean);
    const matched: Doc[] = [];
    for (const doc of this.docs) {
      if (!matchesFilter(base, doc) || !matchesFilter(filter, doc)) continue;
      if (terms.length) {
        const text = this.settings.searchableAttributes
          .map((field) => String(doc[field] ?? ''))
          .join(' ')
          .toLowerCase();
        if (!terms.every((term) => text.includes(term))) continue;
      }
      matched.push(doc);
    }
    const keys = (params.sort ?? []).map((rule) => {
      const [attribute, direction] = rule.split(':');
      return { attribute: attribute!, sign: direction === 'desc' ? -1 : 1 };
    });
    if (keys.length) {
      matched.sort((a, b) => {
        for (const { attribute, sign } of keys) {
          const x = a[attribute] as number | null | undefined;
          const y = b[attribute] as number | null | undefined;
          if (x === undefined || x === null) {
            if (y === undefined || y === null) continue;
            return 1;
          }
          if (y === undefined || y === null) return -1;
          if (x !== y) return x < y ? -sign : sign;
        }
        return 0;
      });
    }
    const facetDistribution: Record<string, Record<string, number>> = {};
    for (const facet of params.facets ?? []) {
      const counts: Record<string, number> = {};
      for (const doc of matched) {
        const value = doc[facet];
        for (const item of Array.isArray(value) ? value : [value]) {
          if (item === undefined || item === null || typeof item === 'object') continue;
          counts[String(item)] = (counts[String(item)] ?? 0) + 1;
        }
      }
      facetDistribution[facet] = counts;
    }
    const offset = params.offset ?? 0;
    return { hits: matched.slice(offset, offset + (params.limit ?? 20)), estimatedTotalHits: matched.length, facetDistribution };
  }
}

// ---------------------------------------------------------------------------------------------
// Shopper searches

type SiteStock = { site: BenchSite; makes: string[]; modelsByMake: Map<string, string[]>; bodies: string[]; stocknums: string[] };

function stockBySite(data: BenchData, siteIds: number[]): SiteStock[] {
  return siteIds.map((id) => {
    const site = data.sites.find((candidate) => candidate.id === id)!;
    const own = data.docs.filter((doc) => doc.site_id === id);
    const modelsByMake = new Map<string, string[]>();
    for (const doc of own) {
      const models = modelsByMake.get(doc.make as string) ?? [];
      if (!models.includes(doc.model as string)) models.push(doc.model as string);
      modelsByMake.set(doc.make as string, models);
    }
    return {
      site,
      makes: [...modelsByMake.keys()],
      modelsByMake,
      bodies: [...new Set(own.map((doc) => doc.body as string))],
      stocknums: own.map((doc) => doc.stocknum as string),
    };
  });
}

/** A shopper's search page state: a few facets picked, a price range, sometimes words. */
function shopperState(rng: Rng, stock: SiteStock): SearchState {
  const filters: Record<string, string[]> = {};
  const ranges: SearchState['ranges'] = {};
  if (rng.chance(0.7) && stock.makes.length) {
    const makes = rng.shuffle(stock.makes).slice(0, rng.int(1, 2));
    filters.make = makes;
    if (rng.chance(0.3)) filters.model = [rng.pick(stock.modelsByMake.get(makes[0]!)!)];
  }
  if (rng.chance(0.25) && stock.bodies.length) filters.body = [rng.pick(stock.bodies)];
  if (rng.chance(0.2)) filters.car_type = [rng.pick(['new', 'used', 'demo'])];
  if (rng.chance(0.6)) {
    const min = rng.chance(0.5) ? rng.int(1, 4) * 10_000 : null;
    ranges.price = { min, max: rng.chance(0.7) || min === null ? (min ?? 0) + rng.int(1, 8) * 10_000 : null };
  }
  if (rng.chance(0.2)) ranges.km = { min: null, max: rng.int(1, 10) * 20_000 };
  if (rng.chance(0.2)) ranges.year = { min: rng.int(2012, 2022), max: null };
  let q = '';
  const roll = rng.next();
  if (roll < 0.1) q = rng.pick(stock.stocknums);
  else if (roll < 0.2 && filters.make) q = (stock.modelsByMake.get(filters.make[0]!)![0] ?? '').toLowerCase().slice(0, rng.int(3, 8));
  return { q, filters, ranges, sort: rng.pick(sortOptions({ withKms: true })).value, page: rng.chance(0.8) ? 1 : rng.int(2, 4) };
}

function multiSearch(rng: Rng, stock: SiteStock): SearchParams[] {
  return buildSearchQueries({
    state: shopperState(rng, stock),
    facets: benchFacets,
    indexUid: carsIndexUid,
    hitsPerPage,
    defaultSort: 'custom_rank:desc',
  }).map(({ indexUid: _indexUid, ...params }) => params);
}

// ---------------------------------------------------------------------------------------------
// Measuring

export type BenchRow = {
  engine: 'indexed' | 'naive scan';
  dataset: string;
  docs: number;
  multiSearches: number;
  queries: number;
  p50: number;
  p99: number;
  max: number;
  buildMs: number | null;
  heapMb: number | null;
  estimateMb: number | null;
};

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length - 1) * p))] ?? 0;

/** A full GC, for memory readings: --expose-gc's, or the same switched on at run time. */
const collector: (() => void) | undefined = (() => {
  const exposed = (globalThis as { gc?: () => void }).gc;
  if (exposed) return exposed;
  try {
    setFlagsFromString('--expose-gc');
    return runInNewContext('gc') as () => void;
  } catch {
    return undefined;
  }
})();

/** JS heap plus typed-array storage (which lives outside the JS heap). */
const memoryUsed = () => {
  const gc = collector;
  if (gc) {
    gc();
    gc();
  }
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.external;
};

function time(engine: Engine, stock: SiteStock[], data: BenchData, seed: number, maxSearches: number, budgetMs: number) {
  const rng = createRng(seed);
  const times: number[] = [];
  let queries = 0;
  const started = performance.now();
  for (let i = 0; i < maxSearches && performance.now() - started < budgetMs; i++) {
    const site = rng.pick(stock);
    const params = multiSearch(rng, site);
    const t0 = performance.now();
    // A request builds its base filter once (its clock moves on), then runs every query under it.
    const base = benchBaseFilter(site.site, data.now + i);
    for (const query of params) engine.search(query, base);
    times.push(performance.now() - t0);
    queries += params.length;
  }
  times.sort((a, b) => a - b);
  return {
    multiSearches: times.length,
    queries,
    p50: percentile(times, 0.5),
    p99: percentile(times, 0.99),
    max: times[times.length - 1] ?? 0,
  };
}

/** Indexed and naive answers agree on counts and (for searches without words) on the hits and facet counts. */
function crossCheck(indexed: SearchIndex, naive: NaiveIndex, stock: SiteStock[], data: BenchData, rounds: number) {
  const rng = createRng(99);
  for (let i = 0; i < rounds; i++) {
    const site = rng.pick(stock);
    const base = benchBaseFilter(site.site, data.now);
    for (const params of multiSearch(rng, site)) {
      if (params.q) continue;
      const a = indexed.search(params, base);
      const b = naive.search(params, base);
      if (a.estimatedTotalHits !== b.estimatedTotalHits)
        throw new Error(`count differs for ${JSON.stringify(params)}: ${a.estimatedTotalHits} vs ${b.estimatedTotalHits}`);
      // The index shows at most 100 values per facet (Meilisearch's maxValuesPerFacet); the scan shows all.
      for (const [facet, counts] of Object.entries(b.facetDistribution ?? {})) {
        const shown = a.facetDistribution?.[facet] ?? {};
        const agree =
          Object.keys(shown).length === Math.min(100, Object.keys(counts).length) &&
          Object.entries(shown).every(([value, count]) => counts[value] === count);
        if (!agree) throw new Error(`facet counts differ for ${facet} in ${JSON.stringify(params)}`);
      }
      if (params.sort?.length) {
        // Ties may fall either way: compare the sort values of the page.
        const key = params.sort[0]!.split(':')[0]!;
        if (JSON.stringify(a.hits.map((hit) => hit[key])) !== JSON.stringify(b.hits.map((hit) => hit[key])))
          throw new Error(`sorted page differs for ${JSON.stringify(params)}`);
      } else if (JSON.stringify(a.hits.map((hit) => hit.id)) !== JSON.stringify(b.hits.map((hit) => hit.id)))
        throw new Error(`page differs for ${JSON.stringify(params)}`);
    }
  }
}

/** Price and status changes one car at a time on the built index: how long an upsert takes, and the next search sees it. */
function updateLatency(index: SearchIndex, data: BenchData, count: number) {
  const rng = createRng(5);
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const doc = rng.pick(data.docs);
    const changed = { ...doc, price: (doc.price as number) + 1000, status: rng.pick(['in_stock', 'sold']) };
    const t0 = performance.now();
    index.upsert([changed]);
    const seen = index.search({ filter: `id = ${doc.id}`, limit: 1 }).hits[0];
    times.push(performance.now() - t0);
    if (seen?.price !== changed.price) throw new Error(`upsert of ${doc.id} not visible`);
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 0.5), p99: percentile(times, 0.99) };
}

export type BenchOptions = {
  platformCars?: number;
  platformSites?: number;
  indexedSearches?: number;
  indexedBudgetMs?: number;
  naiveSearches?: number;
  naiveBudgetMs?: number;
  log?: (line: string) => void;
};

export function runSearchBench(options: BenchOptions = {}) {
  const {
    platformCars = 250_000,
    platformSites = 250,
    indexedSearches = 3000,
    indexedBudgetMs = 60_000,
    naiveSearches = 200,
    naiveBudgetMs = 20_000,
    log = () => {},
  } = options;
  const rows: BenchRow[] = [];
  const notes: string[] = [];
  const datasets: { name: string; load: () => BenchData; siteIds: (data: BenchData) => number[] }[] = [
    { name: 'metro-motor-group (demo, site 1)', load: () => demoSearchData(), siteIds: () => [1] },
    {
      name: `platform ${platformCars.toLocaleString('en')} cars / ${platformSites} sites`,
      load: () => platformSearchData(platformCars, platformSites),
      siteIds: (data) => data.sites.map((site) => site.id),
    },
  ];
  for (const dataset of datasets) {
    log(`${dataset.name}: generating`);
    const data = dataset.load();
    const stock = stockBySite(data, dataset.siteIds(data));
    log(`${dataset.name}: ${data.docs.length} documents, building`);
    // As the platform fills it: one batch per site.
    const bySite = new Map<number, Doc[]>();
    for (const doc of data.docs) {
      const batch = bySite.get(doc.site_id as number);
      if (batch) batch.push(doc);
      else bySite.set(doc.site_id as number, [doc]);
    }
    const before = memoryUsed();
    const t0 = performance.now();
    // As the indexer sets it up: the pagination setting lets the biggest site page through all its cars.
    const index = new SearchIndex(carsIndexUid, { ...carsIndexSettings, maxTotalHits: carsPagination.maxTotalHits });
    for (const docs of bySite.values()) index.upsert(docs);
    // The first search pays for merging new words into the sorted word list: count it as build.
    index.search({ q: 'a', limit: 1 });
    const buildMs = performance.now() - t0;
    const heapMb = (memoryUsed() - before) / 2 ** 20;
    const estimateMb = index.memoryEstimateBytes() / 2 ** 20;
    const naive = new NaiveIndex(data.docs, carsIndexSettings);
    crossCheck(index, naive, stock, data, data.docs.length > 10_000 ? 3 : 20);
    log(`${dataset.name}: built in ${buildMs.toFixed(0)} ms; timing`);
    // Warm up the JIT, then measure.
    time(index, stock, data, 1, 200, 5_000);
    const indexed = time(index, stock, data, 2, indexedSearches, indexedBudgetMs);
    rows.push({ engine: 'indexed', dataset: dataset.name, docs: data.docs.length, ...indexed, buildMs, heapMb, estimateMb });
    log(`${dataset.name}: indexed p50 ${indexed.p50.toFixed(2)} ms p99 ${indexed.p99.toFixed(2)} ms; naive`);
    const scan = time(naive, stock, data, 2, naiveSearches, naiveBudgetMs);
    rows.push({
      engine: 'naive scan',
      dataset: dataset.name,
      docs: data.docs.length,
      ...scan,
      buildMs: null,
      heapMb: null,
      estimateMb: null,
    });
    if (data.docs.length > 10_000) {
      const updates = updateLatency(index, data, 500);
      notes.push(
        `${dataset.name}: one car's price/status upsert + a search seeing it: p50 ${updates.p50.toFixed(2)} ms, p99 ${updates.p99.toFixed(2)} ms`,
      );
    }
  }
  const fixed = (value: number | null, digits = 2) => (value === null ? '–' : value.toFixed(digits));
  const table = [
    '| engine | dataset | docs | multi-searches | queries | p50 (ms) | p99 (ms) | max (ms) | build (ms) | index memory Δ (MB) | index estimate (MB) |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...rows.map(
      (row) =>
        `| ${row.engine} | ${row.dataset} | ${row.docs} | ${row.multiSearches} | ${row.queries} | ${fixed(row.p50)} | ${fixed(row.p99)} | ${fixed(row.max)} | ${fixed(row.buildMs, 0)} | ${fixed(row.heapMb, 1)} | ${fixed(row.estimateMb, 1)} |`,
    ),
  ].join('\n');
  const gc = collector ? '' : ' (no GC available: the memory Δ includes garbage)';
  const markdown = `${table}\n\nOne multi-search = 1 main query (${benchFacets.length} facets, sort, page of ${hitsPerPage}) + ${benchFacets.length} limit-1 facet queries, under the site base filter. Memory Δ: JS heap + typed arrays before/after building${gc}.\n${notes.map((note) => `- ${note}`).join('\n')}\n`;
  return { rows, markdown };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const quick = process.argv.includes('--quick');
  const { markdown } = runSearchBench({
    log: (line) => console.error(line),
    ...(quick ? { platformCars: 25_000, platformSites: 25, indexedSearches: 300, naiveSearches: 10 } : {}),
  });
  console.log(markdown);
}
