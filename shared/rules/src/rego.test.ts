import { describe, expect, it } from 'vitest';
import { normaliseRego, regoRuleFor, tradeInFieldsOf } from './rego';

describe('registration plates by country', () => {
  it.each([
    ['en-AU', 'ABC123', true],
    ['en-AU', 'MYCAR1234', true],
    ['en-AU', 'TOOLONG1234', false],
    ['en-AU', 'AB.123', false],
    ['en-NZ', 'KIWI01', true],
    ['en-NZ', 'KIWI012', false],
    ['en-US', 'TEST1234', true],
    ['en-US', 'TEST12345', false],
  ] as const)('%s %s → %s', (locale, plate, ok) => {
    expect(regoRuleFor(locale).pattern.test(plate)).toBe(ok);
  });

  it('asks for a state in Australia and the US but not in New Zealand', () => {
    expect(regoRuleFor('en-AU').states).toEqual(['NSW', 'VIC', 'QLD', 'WA', 'SA', 'TAS', 'ACT', 'NT']);
    expect(regoRuleFor('en-US').states).toContain('TX');
    expect(regoRuleFor('en-US').states).toHaveLength(51);
    expect(regoRuleFor('en-NZ').states).toEqual([]);
    expect(regoRuleFor('en-US').label).toBe('License plate');
  });

  it.each([
    ['abc 123', 'ABC123'],
    [' xyz-789 ', 'XYZ789'],
    [42, ''],
    [undefined, ''],
  ])('normalises %j → %j', (input, expected) => {
    expect(normaliseRego(input)).toBe(expected);
  });

  it('fills the trade-in fields the dealer’s ADF reads, leaving out what the register did not say', () => {
    expect(tradeInFieldsOf({ make: 'Mazda', model: 'CX-5', year: '2021', badge: 'Maxx Sport' })).toEqual({
      'Vehicle Make': 'Mazda',
      'Vehicle Model': 'CX-5',
      'Vehicle Year': '2021',
      'Vehicle Badge': 'Maxx Sport',
    });
  });
});
