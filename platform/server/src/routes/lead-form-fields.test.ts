import { describe, expect, it } from 'vitest';
import { formFieldsToLead } from './leads';

describe('form-serialised leads', () => {
  it("reads a JSON lead field, lead[...] pairs and plain names, with the contract's types", () => {
    expect(formFieldsToLead([['lead', '{"name":"Jane","opt_in":true}']])).toEqual({ name: 'Jane', opt_in: true });
    expect(
      formFieldsToLead([
        ['lead[name]', 'Jane'],
        ['lead[opt_in]', 'false'],
        ['lead[car_id]', '17'],
        ['lead[visited_pages][]', '/a'],
        ['lead[visited_pages][]', '/b'],
        ['lead[linked_query_params][gclid]', 'g'],
        ['phone', '0411222333'],
        ['update_token', 'never stored'],
        ['lead[__proto__]', 'x'],
      ]),
    ).toEqual({
      name: 'Jane',
      opt_in: false,
      car_id: 17,
      visited_pages: ['/a', '/b'],
      linked_query_params: { gclid: 'g' },
      phone: '0411222333',
    });
    expect(formFieldsToLead([['lead', 'not json']])).toBeNull();
    expect(formFieldsToLead([['lead', '[1,2]']])).toBeNull();
  });
});
