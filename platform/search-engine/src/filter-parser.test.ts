import { describe, expect, it } from 'vitest';
import { matchesFilter } from './filter-evaluator';
import { filterAttributes, FilterSyntaxError, parseFilter, parseFilterExpression, type FilterNode } from './filter-parser';

const eq = (attribute: string, value: string): FilterNode => ({ type: 'compare', attribute, op: '=', value });
const cmp = (attribute: string, op: '=' | '!=' | '>' | '>=' | '<' | '<=', value: string): FilterNode => ({
  type: 'compare',
  attribute,
  op,
  value,
});
const and = (...children: FilterNode[]): FilterNode => ({ type: 'and', children });
const or = (...children: FilterNode[]): FilterNode => ({ type: 'or', children });
const not = (child: FilterNode): FilterNode => ({ type: 'not', child });

describe('reading a search filter', () => {
  it.each<[string, FilterNode]>([
    ['make = Toyota', eq('make', 'Toyota')],
    ['make != Toyota', cmp('make', '!=', 'Toyota')],
    ['price > 20000', cmp('price', '>', '20000')],
    ['price >= 20000', cmp('price', '>=', '20000')],
    ['price < 20000', cmp('price', '<', '20000')],
    ['price <= 20000', cmp('price', '<=', '20000')],
    ['price<=20000', cmp('price', '<=', '20000')],
    ['year 2015 TO 2020', { type: 'range', attribute: 'year', from: '2015', to: '2020' }],
    ['make IN [Toyota, Mazda]', { type: 'in', attribute: 'make', values: ['Toyota', 'Mazda'] }],
    ['make IN [Toyota,"Land Rover",]', { type: 'in', attribute: 'make', values: ['Toyota', 'Land Rover'] }],
    ['make IN []', { type: 'in', attribute: 'make', values: [] }],
    ['make NOT IN [Toyota, Mazda]', not({ type: 'in', attribute: 'make', values: ['Toyota', 'Mazda'] })],
    ['badge EXISTS', { type: 'exists', attribute: 'badge' }],
    ['badge NOT EXISTS', not({ type: 'exists', attribute: 'badge' })],
    ['badge IS NULL', { type: 'null', attribute: 'badge' }],
    ['badge IS NOT NULL', not({ type: 'null', attribute: 'badge' })],
    ['tag IS EMPTY', { type: 'empty', attribute: 'tag' }],
    ['tag IS NOT EMPTY', not({ type: 'empty', attribute: 'tag' })],
    ['location.name = Parramatta', eq('location.name', 'Parramatta')],
  ])('reads %s', (source, tree) => {
    expect(parseFilterExpression(source)).toEqual(tree);
  });

  it.each<[string, FilterNode]>([
    ['make = Toyota AND year > 2019', and(eq('make', 'Toyota'), cmp('year', '>', '2019'))],
    ['make = Toyota OR make = Mazda AND year > 2019', or(eq('make', 'Toyota'), and(eq('make', 'Mazda'), cmp('year', '>', '2019')))],
    ['make = Toyota AND year > 2019 OR make = Mazda', or(and(eq('make', 'Toyota'), cmp('year', '>', '2019')), eq('make', 'Mazda'))],
    ['(make = Toyota OR make = Mazda) AND year > 2019', and(or(eq('make', 'Toyota'), eq('make', 'Mazda')), cmp('year', '>', '2019'))],
    ['a = 1 AND b = 2 AND c = 3', and(eq('a', '1'), eq('b', '2'), eq('c', '3'))],
    ['NOT make = Toyota', not(eq('make', 'Toyota'))],
    ['NOT make = Toyota AND year > 2019', and(not(eq('make', 'Toyota')), cmp('year', '>', '2019'))],
    ['NOT (make = Toyota OR make = Mazda)', not(or(eq('make', 'Toyota'), eq('make', 'Mazda')))],
    ['NOT NOT make = Toyota', not(not(eq('make', 'Toyota')))],
    ['((make = Toyota))', eq('make', 'Toyota')],
    [
      'price 10000 TO 20000 AND make IN [Kia] OR badge EXISTS',
      or(and({ type: 'range', attribute: 'price', from: '10000', to: '20000' }, { type: 'in', attribute: 'make', values: ['Kia'] }), {
        type: 'exists',
        attribute: 'badge',
      }),
    ],
  ])('applies AND before OR, NOT and parentheses in %s', (source, tree) => {
    expect(parseFilterExpression(source)).toEqual(tree);
  });

  it.each<[string, FilterNode]>([
    ['make = "Land Rover"', eq('make', 'Land Rover')],
    ["make = 'Alfa Romeo'", eq('make', 'Alfa Romeo')],
    ['"make" = Toyota', eq('make', 'Toyota')],
    ['name = "say \\"hi\\""', eq('name', 'say "hi"')],
    ["dealer = 'O\\'Brien Motors'", eq('dealer', "O'Brien Motors")],
    ['name = "it\'s"', eq('name', "it's")],
    ['name = \'a "b"\'', eq('name', 'a "b"')],
    ['make = "AND"', eq('make', 'AND')],
    ['model = "CX-5 (2022)"', eq('model', 'CX-5 (2022)')],
    ['make = ""', eq('make', '')],
  ])('reads the quoted text in %s', (source, tree) => {
    expect(parseFilterExpression(source)).toEqual(tree);
  });

  it.each<[string, FilterNode]>([
    ['', { type: 'true' }],
    ['   ', { type: 'true' }],
  ])('treats the empty filter %j as no filter', (source, tree) => {
    expect(parseFilterExpression(source)).toEqual(tree);
  });

  it('reads the array form as AND of its entries and OR inside a nested array', () => {
    expect(parseFilter(['car_type = used', ['make = Toyota', 'make = Mazda'], 'price < 30000'])).toEqual(
      and(eq('car_type', 'used'), or(eq('make', 'Toyota'), eq('make', 'Mazda')), cmp('price', '<', '30000')),
    );
    expect(parseFilter([])).toEqual({ type: 'true' });
    expect(parseFilter('make = Kia')).toEqual(eq('make', 'Kia'));
    expect(parseFilter(null)).toEqual({ type: 'true' });
    expect(parseFilter(undefined)).toEqual({ type: 'true' });
  });

  it('names every attribute a filter mentions', () => {
    const tree = parseFilter(['site_id = 1', ['make = Kia', 'NOT (price > 1 OR tag IS EMPTY)'], 'year 2000 TO 2001']);
    expect([...filterAttributes(tree)].sort()).toEqual(['make', 'price', 'site_id', 'tag', 'year']);
  });
});

describe('pointing at the mistake in a filter', () => {
  const errorOf = (source: string): FilterSyntaxError => {
    try {
      parseFilterExpression(source);
    } catch (error) {
      if (error instanceof FilterSyntaxError) return error;
      throw error;
    }
    throw new Error(`${source} parsed without error`);
  };

  it.each<[string, string, string, number, number]>([
    ['a missing operator', 'make Toyota', 'Was expecting an operation', 0, 4],
    ['a missing operator after AND', 'make = Kia AND year', 'Was expecting an operation', 15, 19],
    ['a lone !', 'make ! Kia', 'Was expecting an operation', 5, 6],
    ['a missing value', 'make =', 'Was expecting a value but instead got nothing', 6, 6],
    ['a keyword where a value goes', 'make = AND', 'Was expecting a value but instead got `AND`', 7, 10],
    ['an unclosed double quote', 'make = "Land Rover', 'is missing the following closing delimiter: `"`', 7, 18],
    ['an unclosed single quote', "make = 'Kia", "is missing the following closing delimiter: `'`", 7, 11],
    ['an unclosed parenthesis', '(make = Kia OR make = Mazda', 'is missing the following closing delimiter: `)`', 0, 27],
    ['an unclosed parenthesis further in', 'year > 2019 AND (make = Kia', 'is missing the following closing delimiter: `)`', 16, 27],
    ['trailing words', 'make = Toyota Camry', 'Found unexpected characters at the end of the filter: `Camry`', 14, 19],
    ['a stray closing parenthesis', 'make = Kia)', 'Found unexpected characters at the end of the filter: `)`', 10, 11],
    ['IN without a list', 'make IN Kia', 'Expected `[` after `IN` keyword', 8, 11],
    ['an unclosed list', 'make IN [Kia, Mazda', 'Expected matching `]`', 8, 9],
    ['IS without NULL or EMPTY', 'badge IS SET', 'Was expecting an operation', 6, 8],
    ['a dangling AND', 'make = Kia AND', 'Was expecting an operation', 14, 14],
  ])('reports %s', (_case, source, message, start, end) => {
    const error = errorOf(source);
    expect(error.message).toContain(message);
    expect([error.start, error.end]).toEqual([start, end]);
    // Meilisearch's last line: the 1-based column where the mistake starts, that column plus its length, then the filter.
    expect(error.message.endsWith(`\n${start + 1}:${end + 1} ${source}`)).toBe(true);
  });

  it('reports a mistake inside the array form', () => {
    expect(() => parseFilter(['make = Kia', ['year >']])).toThrow(FilterSyntaxError);
  });
});

describe('matching a car against a filter', () => {
  const car = {
    id: 100_001,
    make: 'Toyota',
    model: 'Land Cruiser',
    stocknum: '00123',
    price: 45_990,
    year: 2021,
    certified: true,
    reserved: false,
    categories: ['SUV', '4x4'],
    colour: null,
    tag: '',
    filtered_features: [],
    extras: {},
    location: { name: 'Parramatta' },
  };
  const bare = { id: 2, make: 'Mazda', price: 19_990 };

  it.each<[string, boolean]>([
    ['make = Toyota', true],
    ['make = toyota', true],
    ['make = "  TOYOTA  "', true],
    ['model = "land cruiser"', true],
    ['make = Toyot', false],
    ['make = Mazda', false],
    ['stocknum = 00123', true],
    ['price = 45990', true],
    ['price = "45990"', true],
    ['price = 45990.0', true],
    ['price = ""', false],
    ['price > 45000', true],
    ['price > 45990', false],
    ['price >= 45990', true],
    ['price < 45990', false],
    ['price <= 45990', true],
    ['price < 100000', true],
    ['price > abc', false],
    ['make > 1', false],
    ['price 40000 TO 50000', true],
    ['price 45990 TO 45990', true],
    ['price 46000 TO 50000', false],
    ['certified = true', true],
    ['certified = TRUE', true],
    ['certified = false', false],
    ['reserved = false', true],
    ['reserved = true', false],
    ['categories = suv', true],
    ['categories = 4x4', true],
    ['categories = Ute', false],
    ['categories IN [Ute, 4X4]', true],
    ['make IN [Mazda, Kia]', false],
    ['make IN []', false],
    ['make NOT IN [Mazda, Kia]', true],
    ['make != Mazda', true],
    ['make != TOYOTA', false],
    ['categories != SUV', false],
    ['location.name = parramatta', true],
    ['badge EXISTS', false],
    ['colour EXISTS', true],
    ['badge NOT EXISTS', true],
    ['colour IS NULL', true],
    ['make IS NULL', false],
    ['badge IS NULL', false],
    ['colour IS NOT NULL', false],
    ['tag IS EMPTY', true],
    ['filtered_features IS EMPTY', true],
    ['extras IS EMPTY', true],
    ['categories IS EMPTY', false],
    ['colour IS EMPTY', false],
    ['make IS NOT EMPTY', true],
    ['make = Mazda OR price > 40000', true],
    ['make = Mazda AND price > 40000', false],
    ['NOT make = Mazda', true],
    ['NOT (make = Toyota AND price > 40000)', false],
    ['', true],
  ])('%s → %s', (filter, expected) => {
    expect(matchesFilter(parseFilter(filter), car)).toBe(expected);
  });

  it.each<[string, boolean]>([
    ['badge != GX', true],
    ['NOT badge = GX', true],
    ['badge NOT IN [GX, VX]', true],
    ['badge = GX', false],
    ['badge IN [GX]', false],
    ['year > 2000', false],
    ['NOT year > 2000', true],
    ['year 2000 TO 2030', false],
    ['badge IS EMPTY', false],
    ['badge IS NOT EMPTY', true],
  ])('on a car without the attribute: %s → %s', (filter, expected) => {
    expect(matchesFilter(parseFilter(filter), bare)).toBe(expected);
  });

  it('matches the array form: every entry, any of a nested list', () => {
    expect(matchesFilter(parseFilter(['price < 50000', ['make = Mazda', 'make = Toyota']]), car)).toBe(true);
    expect(matchesFilter(parseFilter(['price < 40000', ['make = Mazda', 'make = Toyota']]), car)).toBe(false);
    expect(matchesFilter(parseFilter([['make = Mazda', 'make = Kia']]), car)).toBe(false);
  });
});
