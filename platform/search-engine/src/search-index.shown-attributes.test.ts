import { describe, expect, it } from 'vitest';
import type { SearchParams } from './search-types';
import { stock, stockIndex } from './testing/test-stock';

/*
 * The search page asks for the same few attributes of each car on every search: each car's shown
 * attributes are picked once and shared by the answers that show them, which must stay exactly what
 * a first pick would give as the stock changes and other searches ask for more.
 */

/** A card's attributes, as a new array each time (a request's JSON is read afresh), named in another order than stored. */
const cardAttributes = () => ['price', 'model', 'make', 'id'];
const byPrice = (extra: Partial<SearchParams> = {}): SearchParams => ({ sort: ['price:asc'], limit: 3, ...extra });

describe('the attributes a search shows of each car', () => {
  it('are what the search named, in the stored order, the same object for the same car on the next search', () => {
    const index = stockIndex();
    const first = index.search(byPrice({ attributesToRetrieve: cardAttributes() })).hits;
    const again = index.search(byPrice({ attributesToRetrieve: cardAttributes() })).hits;
    const priced = stock.filter((car) => typeof car.price === 'number').sort((a, b) => Number(a.price) - Number(b.price));
    expect(first).toEqual(priced.slice(0, 3).map(({ id, make, model, price }) => ({ id, make, model, price })));
    expect(Object.keys(first[0]!)).toEqual(['id', 'make', 'model', 'price']);
    again.forEach((hit, i) => expect(hit).toBe(first[i]));
  });

  it('show a car’s new price on the next search once the car is updated', () => {
    const index = stockIndex();
    const [cheapest] = index.search(byPrice({ attributesToRetrieve: cardAttributes() })).hits;
    const car = stock.find((doc) => doc.id === cheapest!.id)!;
    index.upsert([{ ...car, price: Number(car.price) - 1000 }]);
    const [after] = index.search(byPrice({ attributesToRetrieve: cardAttributes() })).hits;
    expect(after).toEqual({ ...cheapest, price: Number(car.price) - 1000 });
    expect(cheapest!.price).toBe(car.price);
  });

  it('follow the list each search names, whichever list was asked before', () => {
    const index = stockIndex();
    index.search(byPrice({ attributesToRetrieve: cardAttributes() }));
    const [withYear] = index.search(byPrice({ attributesToRetrieve: ['id', 'year'] })).hits;
    const [card] = index.search(byPrice({ attributesToRetrieve: cardAttributes() })).hits;
    expect(Object.keys(withYear!)).toEqual(['id', 'year']);
    expect(Object.keys(card!)).toEqual(['id', 'make', 'model', 'price']);
  });

  it('are left as they were by a search that adds a ranking score or highlights to its hits', () => {
    const index = stockIndex();
    const [plain] = index.search(byPrice({ attributesToRetrieve: cardAttributes() })).hits;
    const [scored] = index.search(byPrice({ attributesToRetrieve: cardAttributes(), showRankingScore: true })).hits;
    const [highlighted] = index.search(byPrice({ attributesToRetrieve: cardAttributes(), attributesToHighlight: ['make'] })).hits;
    expect(scored).toHaveProperty('_rankingScore');
    expect(highlighted).toHaveProperty('_formatted');
    expect(scored).not.toBe(plain);
    const [plainAgain] = index.search(byPrice({ attributesToRetrieve: cardAttributes() })).hits;
    expect(plainAgain).toBe(plain);
    expect(Object.keys(plainAgain!)).toEqual(['id', 'make', 'model', 'price']);
  });
});
