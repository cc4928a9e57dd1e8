import { describe, expect, it } from 'vitest';
import type { Location } from '@dealer/contracts/location';
import { MeiliError } from '@dealer/search-engine/search-errors';
import type { IndexSettings } from '@dealer/search-engine/index-settings';
import { SearchIndex } from '@dealer/search-engine/search-index';
import type { Doc, SearchParams } from '@dealer/search-engine/search-types';
import { carSearchDocument, carsIndexSettings } from './site-search';
import type { Car } from '@dealer/contracts/car';

/*
 * The embedded engine's query features against Meilisearch's documented behaviour (v1.16 docs and
 * milli's own tests), on small document sets like the docs' examples: what each parameter returns,
 * to the byte, score and message.
 */

const movieDocs: Doc[] = [
  { id: 1, title: 'Big Fat Liar', overview: 'A young liar and his friend travel to Hollywood', genre: 'comedy', year: 2002 },
  { id: 2, title: 'The Big Lebowski', overview: 'The dude abides', genre: 'comedy', year: 1998 },
  { id: 3, title: 'My Big Fat Greek Wedding', overview: 'A big fat wedding in Chicago', genre: 'romance', year: 2002 },
  { id: 4, title: 'Liar Liar', overview: 'A lawyer cannot lie for a day', genre: 'comedy', year: 1997 },
  { id: 5, title: 'Fat Albert', overview: 'Hey hey hey', genre: 'family', year: 2004 },
];
const movieSettings: IndexSettings = {
  filterableAttributes: ['genre', 'year'],
  sortableAttributes: ['year'],
  searchableAttributes: ['title', 'overview'],
};

function index(docs: Doc[], settings: Partial<IndexSettings> = {}) {
  const built = new SearchIndex('test', { filterableAttributes: [], sortableAttributes: [], searchableAttributes: ['*'], ...settings });
  built.upsert(docs);
  return built;
}
const movies = (settings: Partial<IndexSettings> = {}) => index(movieDocs, { ...movieSettings, ...settings });
const ids = (result: { hits: Doc[] }) => result.hits.map((hit) => hit.id);

function refusal(search: () => unknown): { code: string; status: number; message: string } {
  try {
    search();
  } catch (error) {
    if (error instanceof MeiliError) return { code: error.code, status: error.status, message: error.message };
    throw error;
  }
  throw new Error('expected the search to be refused');
}

describe('maxTotalHits: no search reaches past it', () => {
  const many = index(Array.from({ length: 1200 }, (_, i) => ({ id: i + 1 })));

  it('stops hits, offset and estimatedTotalHits at 1000 by default', () => {
    const near = many.search({ offset: 950, limit: 100 });
    expect(near).toMatchObject({ offset: 950, limit: 100, estimatedTotalHits: 1000 });
    expect(ids(near)).toEqual(Array.from({ length: 50 }, (_, i) => 951 + i));
    const past = many.search({ offset: 2000, limit: 10 });
    expect(past).toMatchObject({ hits: [], offset: 1000, limit: 10, estimatedTotalHits: 1000 });
  });

  it('counts pages exactly up to it: the last page ends at hit 1000', () => {
    expect(many.search({ page: 4, hitsPerPage: 300 })).toMatchObject({ page: 4, hitsPerPage: 300, totalHits: 1000, totalPages: 4 });
    expect(ids(many.search({ page: 4, hitsPerPage: 300 }))).toEqual(Array.from({ length: 100 }, (_, i) => 901 + i));
    expect(many.search({ page: 5, hitsPerPage: 300 }).hits).toEqual([]);
  });

  it('follows the pagination setting', () => {
    const few = index(
      Array.from({ length: 5 }, (_, i) => ({ id: i + 1 })),
      { maxTotalHits: 3 },
    );
    expect(few.search({ limit: 2, offset: 2 })).toMatchObject({ hits: [{ id: 3 }], estimatedTotalHits: 3, offset: 2, limit: 2 });
    expect(few.search({ hitsPerPage: 2, page: 2 })).toMatchObject({ hits: [{ id: 3 }], totalHits: 3, totalPages: 2 });
    few.updateSettings({ maxTotalHits: 5000 });
    expect(few.search({}).estimatedTotalHits).toBe(5);
  });
});

describe('page 0', () => {
  it('answers no hits, with the counts', () => {
    expect(movies().search({ page: 0, hitsPerPage: 2 })).toMatchObject({ hits: [], page: 0, hitsPerPage: 2, totalHits: 5, totalPages: 3 });
  });
});

describe('matchingStrategy', () => {
  const films = movies();

  it('last (the default): documents with every word first, then without the last word, and so on; the first word stays', () => {
    const result = films.search({ q: 'big fat liar' });
    expect(ids(result)).toEqual([1, 3, 2]);
    expect(result.estimatedTotalHits).toBe(3);
    expect(ids(films.search({ q: 'big fat liar', matchingStrategy: 'last' }))).toEqual([1, 3, 2]);
  });

  it('last: a document lacking the first word is never found, even holding the others', () => {
    expect(ids(films.search({ q: 'liar big' }))).toEqual([1, 4]);
    expect(ids(films.search({ q: 'lebowski liar' }))).toEqual([2]);
  });

  it('all: only documents holding every word', () => {
    expect(ids(films.search({ q: 'big fat liar', matchingStrategy: 'all' }))).toEqual([1]);
    expect(films.search({ q: 'big fat lebowski', matchingStrategy: 'all' })).toMatchObject({ hits: [], estimatedTotalHits: 0 });
  });

  it('frequency: the commonest words go first, the rarest stays ("big" and "fat" in three films, "liar" in two)', () => {
    expect(ids(films.search({ q: 'big fat liar', matchingStrategy: 'frequency' }))).toEqual([1, 4]);
  });

  it('never drops a quoted phrase: every other word may go', () => {
    expect(ids(films.search({ q: '"big fat" liar' }))).toEqual([1, 3]);
    expect(ids(films.search({ q: 'liar "big fat"' }))).toEqual([1, 3]);
  });
});

describe('distinct', () => {
  const films = movies();

  it('keeps the best-ranked hit of each value; counts and facets are of the hits kept', () => {
    const result = films.search({ q: 'big fat liar', distinct: 'genre', facets: ['genre'] });
    expect(ids(result)).toEqual([1, 3]);
    expect(result).toMatchObject({ estimatedTotalHits: 2, facetDistribution: { genre: { comedy: 1, romance: 1 } } });
  });

  it('keeps every document without the attribute, and pages over the distinct hits', () => {
    const withStrays = index([...movieDocs, { id: 6, title: 'Big Fish' }, { id: 7, title: 'Big' }], { ...movieSettings });
    expect(ids(withStrays.search({ distinct: 'genre', sort: ['year:asc'] }))).toEqual([4, 3, 5, 6, 7]);
    expect(withStrays.search({ distinct: 'genre', sort: ['year:asc'], hitsPerPage: 2, page: 2 })).toMatchObject({
      hits: [{ id: 5 }, { id: 6 }],
      totalHits: 5,
      totalPages: 3,
    });
  });

  it('applies the distinctAttribute setting to every search, and a value shared through an array excludes the later documents', () => {
    const cars = index(
      [
        { id: 1, name: 'Corolla Ascent', family: ['corolla', 'hatch'] },
        { id: 2, name: 'Corolla Cross', family: ['corolla', 'suv'] },
        { id: 3, name: 'RAV4 Cross', family: 'suv' },
        { id: 4, name: 'Yaris Cross', family: 'yaris' },
      ],
      { filterableAttributes: ['family'], distinctAttribute: 'family' },
    );
    expect(ids(cars.search({}))).toEqual([1, 3, 4]);
    expect(ids(cars.search({ q: 'cross' }))).toEqual([2, 4]);
  });
});

describe('attributesToSearchOn', () => {
  const films = movies();

  it('matches the words only in the attributes named', () => {
    expect(ids(films.search({ q: 'wedding' }))).toEqual([3]);
    expect(ids(films.search({ q: 'wedding', attributesToSearchOn: ['title'] }))).toEqual([3]);
    expect(ids(films.search({ q: 'dude', attributesToSearchOn: ['title'] }))).toEqual([]);
    expect(ids(films.search({ q: 'dude', attributesToSearchOn: ['overview'] }))).toEqual([2]);
    expect(ids(films.search({ q: 'liar', attributesToSearchOn: ['overview'] }))).toEqual([1]);
    expect(ids(films.search({ q: 'dude', attributesToSearchOn: ['*'] }))).toEqual([2]);
  });

  it('refuses an attribute that is not searchable, naming those that are (in order), as Meilisearch does', () => {
    expect(refusal(() => films.search({ q: 'dude', attributesToSearchOn: ['genre'] }))).toEqual({
      code: 'invalid_search_attributes_to_search_on',
      status: 400,
      message: 'Attribute `genre` is not searchable. Available searchable attributes are: `overview, title`.',
    });
    const hidden = movies({ displayedAttributes: ['title'] });
    expect(refusal(() => hidden.search({ q: 'dude', attributesToSearchOn: ['genre'] })).message).toBe(
      'Attribute `genre` is not searchable. Available searchable attributes are: `title, <..hidden-attributes>`.',
    );
  });

  it('ignores unknown attributes when every attribute is searchable', () => {
    const everything = index(movieDocs);
    expect(ids(everything.search({ q: 'dude', attributesToSearchOn: ['unknown', 'overview'] }))).toEqual([2]);
    expect(ids(everything.search({ q: 'dude', attributesToSearchOn: ['title'] }))).toEqual([]);
  });
});

describe("attributesToCrop, cropLength, cropMarker: _formatted cut around the best matches (milli's own cases)", () => {
  const texts = [
    'A quick brown fox can not jump 32 feet, right? Brr, it is cold!',
    '(A quick brown fox can not jump 32 feet, right? Brr, it is cold!)',
    'Natalie risk her future. Split The World is a book written by Emily Henry. I never read it.',
    'Natalie risk her future to build a world with the boy she loves. Emily Henry: The Love That Split The World.',
    'The world split void void void void void void void void void split the world void void',
    'split void the void void world void void void void void void void void void void split the world void void',
    'split split split split split split void void void void void void void void void void split the world void void',
  ];
  const book = index(texts.map((text, id) => ({ id, text })));
  const formatted = (params: SearchParams) =>
    Object.fromEntries(book.search({ limit: 20, ...params }).hits.map((hit) => [hit.id, (hit._formatted as { text: string }).text]));

  it('keeps 10 words around the best group of query words, marking the cuts with …', () => {
    expect(formatted({ q: 'split the world', attributesToCrop: ['text'] })).toEqual({
      2: '…Split The World is a book written by Emily Henry…',
      3: '…she loves. Emily Henry: The Love That Split The World.',
      4: '…void void void void void split the world void void',
      5: '…void void void void void split the world void void',
      6: '…void void void void void split the world void void',
    });
  });

  it('highlights within the crop when both are asked', () => {
    expect(formatted({ q: 'split the world', attributesToCrop: ['text'], attributesToHighlight: ['text'] })).toMatchObject({
      2: '…<em>Split</em> <em>The</em> <em>World</em> is a book written by Emily Henry…',
      3: '…she loves. Emily Henry: <em>The</em> Love That <em>Split</em> <em>The</em> <em>World</em>.',
      4: '…void void void void void <em>split</em> <em>the</em> <em>world</em> void void',
    });
  });

  it('keeps the first words when nothing matches', () => {
    expect(formatted({ attributesToCrop: ['text'] })).toMatchObject({
      0: 'A quick brown fox can not jump 32 feet, right…',
      1: '(A quick brown fox can not jump 32 feet, right…',
    });
  });

  it('takes cropLength, a length per attribute (attr:length), `*`, and the cropMarker asked for; 0 leaves the text whole', () => {
    const one = index([{ id: 1, text: 'void void split the world void void.', note: 'a split here' }]);
    const crop = (params: SearchParams) => one.search({ q: 'split the world', ...params }).hits[0]!._formatted;
    expect(crop({ attributesToCrop: ['text'], cropLength: 2 })).toEqual({ id: '1', text: '…split the…', note: 'a split here' });
    expect(crop({ attributesToCrop: ['text:1'], cropLength: 2 })).toMatchObject({ text: '…split…' });
    expect(crop({ attributesToCrop: ['*'], cropLength: 1, cropMarker: '[…]' })).toEqual({
      id: '1',
      text: '[…]split[…]',
      note: '[…]split[…]',
    });
    expect(crop({ attributesToCrop: ['text'], cropLength: 0 })).toMatchObject({ text: 'void void split the world void void.' });
    expect(crop({ attributesToCrop: ['text'], cropLength: 2, cropMarker: '' })).toMatchObject({ text: 'split the' });
  });

  it('keeps a quoted phrase whole, cutting one longer than the crop from its end', () => {
    const text =
      'The groundbreaking invention had the power to split the world between those who embraced progress and those who resisted change!';
    const one = index([{ id: 1, text }]);
    const crop = (q: string) =>
      (one.search({ q, attributesToCrop: ['text'], attributesToHighlight: ['text'] }).hits[0]!._formatted as { text: string }).text;
    expect(crop('"the world"')).toBe('…the power to split <em>the world</em> between those who embraced…');
    expect(crop('those "and those"')).toBe('…world between <em>those</em> who embraced progress <em>and those</em> who resisted…');
    expect(crop('"The groundbreaking invention had the power to split the world"')).toBe(
      '<em>The groundbreaking invention had the power to split the world</em>…',
    );
    expect(crop('"The groundbreaking invention had the power to split the world between those"')).toBe(
      '<em>The groundbreaking invention had the power to split the world</em>…',
    );
    expect(crop('"groundbreaking invention" "split the world between"')).toBe(
      '…<em>groundbreaking invention</em> had the power to <em>split the world between</em>…',
    );
    expect(crop('"groundbreaking invention" "had the power to split the world between those"')).toBe(
      '…<em>invention</em> <em>had the power to split the world between those</em>…',
    );
  });

  it('highlights the words of a phrase, and the halves of a split word, only side by side', () => {
    const one = index([{ id: 1, text: "the do or die can't be he do and or isn't he" }]);
    const [hit] = one.search({
      q: 'the "t he" door "do or"',
      attributesToHighlight: ['text'],
      highlightPreTag: '_',
      highlightPostTag: '_',
    }).hits;
    expect(hit!._formatted).toEqual({ id: '1', text: "_the_ _do or_ die can't be he do and or isn'_t he_" });
  });
});

describe('showMatchesPosition', () => {
  const doggos = index([
    {
      id: 1,
      name: 'Ŵôřlḑ famous doggo',
      doggos: [{ name: 'bobby', tags: ['good boy', 'bobby tables'] }, { name: 'buddy' }],
      age: 2017,
    },
    { id: 2, name: 'cat', doggos: [] },
  ]);

  it("gives each match's start and length in UTF-8 bytes, as Meilisearch measures them", () => {
    const [hit] = doggos.search({ q: 'world famous', showMatchesPosition: true }).hits;
    // "Ŵôřlḑ" is 5 characters and 10 bytes.
    expect(hit!._matchesPosition).toEqual({
      name: [
        { start: 0, length: 10 },
        { start: 11, length: 6 },
      ],
    });
  });

  it('names nested attributes by their dotted path and says which array items (outermost first) hold the match', () => {
    const [hit] = doggos.search({ q: 'bobby', showMatchesPosition: true }).hits;
    expect(hit!._matchesPosition).toEqual({
      'doggos.name': [{ start: 0, length: 5, indices: [0] }],
      'doggos.tags': [{ start: 0, length: 5, indices: [0, 1] }],
    });
  });

  it('covers the typed start of a longer word only, and numbers', () => {
    const [hit] = doggos.search({ q: '2017 fam', showMatchesPosition: true }).hits;
    expect(hit!._matchesPosition).toEqual({ age: [{ start: 0, length: 4 }], name: [{ start: 11, length: 3 }] });
  });

  it('is empty for a hit of a search without words, and absent unless asked', () => {
    expect(doggos.search({ showMatchesPosition: true, limit: 1 }).hits[0]).toMatchObject({ _matchesPosition: {} });
    expect(doggos.search({ q: 'bobby' }).hits[0]).not.toHaveProperty('_matchesPosition');
  });
});

describe('showRankingScore, showRankingScoreDetails, rankingScoreThreshold', () => {
  const films = movies();
  const scores = (params: SearchParams) =>
    Object.fromEntries(films.search({ showRankingScore: true, ...params }).hits.map((hit) => [hit.id, hit._rankingScore as number]));

  it('scores every hit of a search without words 1', () => {
    expect(Object.values(scores({}))).toEqual([1, 1, 1, 1, 1]);
  });

  it('scores all the words, exactly, above fewer words or typos, in [0, 1], in the order of the hits', () => {
    const all = scores({ q: 'big fat liar' });
    expect(all[1]).toBe(1);
    expect(all[3]).toBeGreaterThan(all[2]!);
    expect(all[2]).toBeGreaterThan(0);
    const typo = scores({ q: 'lebowksi', matchingStrategy: 'all' });
    const exact = scores({ q: 'lebowski', matchingStrategy: 'all' });
    expect(typo[2]).toBeLessThan(exact[2]!);
    expect(typo[2]).toBeGreaterThan(0);
    expect(scores({ q: 'liar liar', matchingStrategy: 'all' })[4]).toBe(1);
    const hits = films.search({ q: 'big fat liar', showRankingScore: true }).hits.map((hit) => hit._rankingScore as number);
    expect(hits).toEqual([...hits].sort((a, b) => b - a));
  });

  it('details each ranking rule as Meilisearch does', () => {
    const [, second] = films.search({ q: 'big fat liar', showRankingScoreDetails: true, sort: ['year:desc'] }).hits;
    expect(second!.id).toBe(3);
    expect(second!._rankingScoreDetails).toEqual({
      words: { order: 0, matchingWords: 2, maxMatchingWords: 3, score: 2 / 3 },
      typo: { order: 1, typoCount: 0, maxTypoCount: 2, score: 1 },
      proximity: { order: 2, score: 1 },
      attribute: { order: 3, attributeRankingOrderScore: 1, queryWordDistanceScore: 19 / 21, score: 61 / 63 },
      'year:desc': { order: 4, value: 2002 },
      exactness: { order: 5, matchType: 'noExactMatch', matchingWords: 2, maxMatchingWords: 2, score: 1 / 3 },
    });
    expect(second).not.toHaveProperty('_rankingScore');
  });

  it('leaves out the hits below the threshold, and out of the counts and facets', () => {
    const all = scores({ q: 'big fat liar' });
    const result = films.search({ q: 'big fat liar', rankingScoreThreshold: (all[3]! + all[2]!) / 2, facets: ['genre'] });
    expect(ids(result)).toEqual([1, 3]);
    expect(result).toMatchObject({ estimatedTotalHits: 2, facetDistribution: { genre: { comedy: 1, romance: 1 } } });
    expect(films.search({ rankingScoreThreshold: 1 }).estimatedTotalHits).toBe(5);
  });
});

describe('attributesToRetrieve and the displayedAttributes setting', () => {
  it('shows only the attributes retrieved, without forcing the id in', () => {
    const [hit] = movies().search({ q: 'lebowski', attributesToRetrieve: ['title', 'year'] }).hits;
    expect(hit).toEqual({ title: 'The Big Lebowski', year: 1998 });
    expect(movies().search({ q: 'lebowski', attributesToRetrieve: ['*'] }).hits[0]).toEqual(movieDocs[1]);
  });

  it('never shows an attribute the setting hides, retrieved or highlighted', () => {
    const hidden = movies({ displayedAttributes: ['id', 'title'] });
    const [hit] = hidden.search({ q: 'dude', attributesToRetrieve: ['*'], attributesToHighlight: ['title', 'overview'] }).hits;
    expect(hit).toEqual({ id: 2, title: 'The Big Lebowski', _formatted: { id: '2', title: 'The Big Lebowski' } });
    expect(hidden.search({ q: 'dude', attributesToRetrieve: ['overview', 'title'] }).hits[0]).toEqual({ title: 'The Big Lebowski' });
  });

  it('puts in _formatted the attributes retrieved and those highlighted or cropped, numbers as text', () => {
    const [hit] = movies().search({ q: 'lebowski', attributesToRetrieve: ['year'], attributesToHighlight: ['title'] }).hits;
    expect(hit).toEqual({ year: 1998, _formatted: { title: 'The Big <em>Lebowski</em>', year: '1998' } });
  });

  it('reaches into nested objects and arrays by dotted path', () => {
    const nested = index([
      {
        id: 1,
        name: 'Rex',
        owner: { name: 'Ann', phone: '0400' },
        doggos: [
          { name: 'bobby', age: 2 },
          { name: 'buddy', age: 4 },
        ],
      },
    ]);
    expect(nested.search({ attributesToRetrieve: ['owner.name', 'doggos.age'] }).hits[0]).toEqual({
      owner: { name: 'Ann' },
      doggos: [{ age: 2 }, { age: 4 }],
    });
  });
});

describe('_geoPoint sort and _geoDistance', () => {
  const places: Doc[] = [
    { id: 1, name: "Nàpiz' Milano", _geo: { lat: 45.4777599, lng: 9.1967508 } },
    { id: 2, name: 'Bouillon Pigalle', _geo: { lat: 48.8826517, lng: 2.3352748 } },
    { id: 3, name: 'Artico Gelateria Tradizionale', _geo: { lat: 45.4632046, lng: 9.1719421 } },
    { id: 4, name: 'Nowhere in particular' },
    { id: 5, name: 'Lille', _geo: { lat: '50.629973371633746', lng: '3.0569447399419567' } },
  ];
  const restaurants = index(places, { filterableAttributes: ['_geo'], sortableAttributes: ['_geo'] });

  it("orders by distance from the point, nearest first (asc) or last (desc), documents without _geo last either way (the docs' Eiffel Tower example)", () => {
    expect(ids(restaurants.search({ sort: ['_geoPoint(48.8561446,2.2978204):asc'] }))).toEqual([2, 5, 3, 1, 4]);
    expect(ids(restaurants.search({ sort: ['_geoPoint(48.8561446, 2.2978204):desc'] }))).toEqual([1, 3, 5, 2, 4]);
  });

  it("gives each hit with a _geo its distance in whole metres, coordinates given as numbers or text (Meilisearch's bug_4640 and geo_sort_with_words tests)", () => {
    const trucks = index(
      [
        { id: 1, name: 'Taco Truck', _geo: { lat: 34.0522, lng: -118.2437 } },
        { id: 2, name: 'La Bella Italia', _geo: { lat: '45.4777599', lng: '9.1967508' } },
        { id: 3, name: 'Crêpe Truck' },
      ],
      { sortableAttributes: ['_geo'] },
    );
    expect(trucks.search({ sort: ['_geoPoint(45.4777599, 9.1967508):asc'] }).hits).toEqual([
      { id: 2, name: 'La Bella Italia', _geo: { lat: '45.4777599', lng: '9.1967508' }, _geoDistance: 0 },
      { id: 1, name: 'Taco Truck', _geo: { lat: 34.0522, lng: -118.2437 }, _geoDistance: 9714063 },
      { id: 3, name: 'Crêpe Truck' },
    ]);
    const doggos = index(
      [
        { id: 0, doggo: 'jean', _geo: { lat: 0, lng: 0 } },
        { id: 1, doggo: 'intel', _geo: { lat: 88, lng: 0 } },
        { id: 2, doggo: 'jean bob', _geo: { lat: -89, lng: 0 } },
        { id: 3, doggo: 'jean michel', _geo: { lat: 0, lng: 178 } },
        { id: 4, doggo: 'bob marley', _geo: { lat: 0, lng: -179 } },
      ],
      { searchableAttributes: ['id', 'doggo'], sortableAttributes: ['_geo'] },
    );
    expect(doggos.search({ q: 'jean', sort: ['_geoPoint(0.0, 0.0):asc'] }).hits.map((hit) => [hit.id, hit._geoDistance])).toEqual([
      [0, 0],
      [2, 9896348],
      [3, 19792697],
    ]);
  });

  it('leaves _geoDistance out when _geo is not retrieved, and when no _geoPoint sort is asked', () => {
    expect(restaurants.search({ sort: ['_geoPoint(45.4777599, 9.1967508):asc'], attributesToRetrieve: ['id'] }).hits[0]).toEqual({ id: 1 });
    expect(restaurants.search({ limit: 1 }).hits[0]).not.toHaveProperty('_geoDistance');
  });

  it.each<[string, string]>([
    ['_geoPoint(200, 0):asc', 'Bad latitude `200`. Latitude must be contained between -90 and 90 degrees. '],
    ['_geoPoint(0, -2021):desc', 'Bad longitude `-2021`. Longitude must be contained between -180 and 180 degrees. '],
    [
      '_geoPoint(35, 85, 75):asc',
      'Invalid syntax for the geo parameter: expected expression formated like `_geoPoint(latitude, longitude)` and ending by `:asc` or `:desc`, found `_geoPoint(35, 85, 75)`.',
    ],
    [
      '_geoPoint:asc',
      'Invalid syntax for the geo parameter: expected expression formated like `_geoPoint(latitude, longitude)` and ending by `:asc` or `:desc`, found `_geoPoint`.',
    ],
    [
      '_geo:asc',
      "`_geo` is a reserved keyword and thus can't be used as a sort expression. Use the _geoPoint(latitude, longitude) built-in rule to sort on _geo field coordinates.",
    ],
    [
      '_geoRadius(1, 2, 3):asc',
      "`_geoRadius` is a reserved keyword and thus can't be used as a sort expression. Use the _geoPoint(latitude, longitude) built-in rule to sort on _geo field coordinates.",
    ],
    ['_geoDistance:asc', "`_geoDistance` is a reserved keyword and thus can't be used as a sort expression."],
    ['_geoPoint(1, 2)', 'Invalid syntax for the sort parameter: expected expression ending by `:asc` or `:desc`, found `_geoPoint(1, 2)`.'],
  ])("refuses %s with Meilisearch's message", (sort, message) => {
    expect(refusal(() => restaurants.search({ sort: [sort] }))).toEqual({ code: 'invalid_search_sort', status: 400, message });
  });

  it('needs _geo sortable', () => {
    const unsortable = index(places, { sortableAttributes: ['name'] });
    expect(refusal(() => unsortable.search({ sort: ['_geoPoint(0, 0):asc'] })).message).toBe(
      'Attribute `_geo` is not sortable. Available sortable attributes are: `name`.',
    );
    expect(refusal(() => index(places).search({ sort: ['_geoPoint(0, 0):asc'] })).message).toBe(
      'Attribute `_geo` is not sortable. This index does not have configured sortable attributes.',
    );
  });
});

describe('the platform\'s car documents carry their location as _geo ("cars near me")', () => {
  it("puts the car's location point in _geo, and the cars index can filter and sort on it", () => {
    const car = { id: 7, location_id: 12, location: { name: 'Parramatta', distribution_locations: [] } } as unknown as Car;
    const parramatta = { id: 12, address: { lat: -33.815, long: 151.0011 } } as Location;
    expect(carSearchDocument(car, 1, [parramatta])._geo).toEqual({ lat: -33.815, lng: 151.0011 });
    expect(carSearchDocument(car, 1)).not.toHaveProperty('_geo');
    expect(carsIndexSettings.filterableAttributes).toContain('_geo');
    expect(carsIndexSettings.sortableAttributes).toContain('_geo');
  });
});
