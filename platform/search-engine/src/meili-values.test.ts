import { describe, expect, it } from 'vitest';
import { describeValue, didYouMean } from './meili-values';
import { readTaskFilter, readTaskQuery } from './task-query';

describe("Meilisearch's words for values", () => {
  it.each([
    [null, 'null'],
    [true, 'a boolean'],
    [3, 'a positive integer'],
    [-3, 'a negative integer'],
    [1.5, 'a number'],
    ['x', 'a string'],
    [[], 'an array'],
    [{}, 'an object'],
  ])('calls %j %s', (value, words) => {
    expect(describeValue(value)).toBe(words);
  });

  it('suggests a known name a typo or two away, more for longer names, none for short ones', () => {
    const known = ['q', 'filter', 'sort', 'attributesToHighlight'];
    expect(didYouMean('filler', known)).toBe('did you mean `filter`? ');
    expect(didYouMean('sotr', known)).toBe('did you mean `sort`? ');
    expect(didYouMean('attributesToHighligth', known)).toBe('did you mean `attributesToHighlight`? ');
    expect(didYouMean('srt', known)).toBe('');
    expect(didYouMean('colour', known)).toBe('');
  });
});

describe('task query parameters', () => {
  it('reads a day as its midnight, and an "after" day as the end of it', () => {
    expect(readTaskQuery({ beforeEnqueuedAt: '2024-08-08', afterEnqueuedAt: '2024-08-08' })).toMatchObject({
      beforeEnqueuedAt: Date.parse('2024-08-08T00:00:00Z'),
      afterEnqueuedAt: Date.parse('2024-08-09T00:00:00Z'),
    });
    expect(readTaskQuery({ afterStartedAt: '2024-08-08T16:37:09.971+02:00' }).afterStartedAt).toBe(Date.parse('2024-08-08T14:37:09.971Z'));
  });

  it.each(['2024-8-8', '2024-08-08 10:00:00', '2024-08-08T10:00:00', '2024-13-01', '2024-02-30T00:00:00Z'])(
    'refuses the date %s',
    (date) => {
      expect(() => readTaskQuery({ afterFinishedAt: date })).toThrow(
        'is an invalid date-time. It should follow the YYYY-MM-DD or RFC 3339 date-time format.',
      );
    },
  );

  it('takes `*` as any, and counts it as a filter for cancel and delete', () => {
    expect(readTaskFilter({ statuses: '*', uids: '1,*' }, 'delete')).toEqual({});
    expect(readTaskQuery({ types: 'indexCreation,settingsUpdate', from: '4', reverse: 'true' })).toEqual({
      types: ['indexCreation', 'settingsUpdate'],
      limit: 20,
      from: 4,
      reverse: true,
    });
  });
});
