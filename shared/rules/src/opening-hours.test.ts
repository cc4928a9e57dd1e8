import { describe, expect, it } from 'vitest';
import { closedDay, defaultOpeningHours, hoursByDays, openDay } from './opening-hours';

describe('a location’s hours as a shopper reads them', () => {
  it('start on Monday and put days with the same hours in one line, as the SPEC’s typical hours read', () => {
    // Stored from Sunday (weekday 0), as the stock feeds send them.
    const week = [openDay(0, '10:00', '16:00'), ...[1, 2, 3, 4, 5, 6].map((weekday) => openDay(weekday, '08:30', '17:30'))];
    expect(hoursByDays(week)).toEqual([
      { days: 'Monday to Saturday', hours: '8:30am - 5:30pm' },
      { days: 'Sunday', hours: '10am - 4pm' },
    ]);
  });

  it('name a closed day, and a day on its own when its neighbours differ', () => {
    expect(hoursByDays(defaultOpeningHours('sales'))).toEqual([
      { days: 'Monday to Friday', hours: '8:30am - 5:30pm' },
      { days: 'Saturday', hours: '9am - 4pm' },
      { days: 'Sunday', hours: 'Closed' },
    ]);
    const late = [1, 2, 3, 4, 5].map((weekday) => openDay(weekday, '08:30', weekday === 4 ? '20:00' : '17:30'));
    expect(hoursByDays([...late, closedDay(6), closedDay(0)]).map((line) => line.days)).toEqual([
      'Monday to Wednesday',
      'Thursday',
      'Friday',
      'Saturday to Sunday',
    ]);
  });

  it('never join days across one the dealer left out', () => {
    const gap = [1, 2, 4, 5].map((weekday) => openDay(weekday, '09:00', '17:00'));
    expect(hoursByDays(gap).map((line) => line.days)).toEqual(['Monday to Tuesday', 'Thursday to Friday']);
  });
});
