import type { OpeningHoursEntry } from '@dealer/contracts/location';

/** '08:30' → '8:30am', '16:00' → '4pm': the way the SPEC writes hours. */
export function displayTime(hhmm: string): string {
  const [h = 0, m = 0] = hhmm.split(':').map(Number);
  const suffix = h >= 12 ? 'pm' : 'am';
  const hour = h % 12 === 0 ? 12 : h % 12;
  return m === 0 ? `${hour}${suffix}` : `${hour}:${String(m).padStart(2, '0')}${suffix}`;
}

export const weekdayNames = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] as const;

/** What a dealer is told about the day `normaliseWeek` could not take. */
export const badDayMessage = (weekday: number) => `${weekdayNames[weekday]}: give an opening and a later closing time, or mark it closed.`;

/** A time of day as the hours are stored: 'HH:MM', 24-hour. */
export const isTimeOfDay = (value: string | null): value is string => value !== null && /^([01]\d|2[0-3]):[0-5]\d$/.test(value);

export const openDay = (weekday: number, from: string, to: string): OpeningHoursEntry => ({
  weekday,
  status: 'Open',
  formated_hours: `${displayTime(from)} - ${displayTime(to)}`,
  open: from,
  close: to,
});

export const closedDay = (weekday: number): OpeningHoursEntry => ({
  weekday,
  status: 'Closed',
  formated_hours: 'Closed',
  open: null,
  close: null,
});

/**
 * A week of hours as the dealer set them, each day's text written from its times (never taken as
 * sent). Null when a day is open without two valid times or closes before it opens: `weekday` is the
 * first such day.
 */
export function normaliseWeek(days: readonly OpeningHoursEntry[]): { week: OpeningHoursEntry[] } | { badDay: number } {
  // Each of the seven days once: a day given twice (or missing) is named.
  const missing = [0, 1, 2, 3, 4, 5, 6].find((weekday) => days.filter((day) => day.weekday === weekday).length !== 1);
  if (missing !== undefined) return { badDay: missing };
  const week: OpeningHoursEntry[] = [];
  for (const day of [...days].sort((a, b) => a.weekday - b.weekday)) {
    if (day.status === 'Closed') {
      week.push(closedDay(day.weekday));
      continue;
    }
    if (!isTimeOfDay(day.open) || !isTimeOfDay(day.close) || day.close <= day.open) return { badDay: day.weekday };
    week.push(openDay(day.weekday, day.open, day.close));
  }
  return { week };
}

/** A new location's hours until the dealer sets them: sales 8:30 to 5:30 weekdays and 9 to 4 Saturday; service and parts 7:30 to 5 weekdays; Sunday closed. */
export function defaultOpeningHours(type: 'sales' | 'service' | 'parts'): OpeningHoursEntry[] {
  return [0, 1, 2, 3, 4, 5, 6].map((weekday) => {
    if (weekday === 0) return closedDay(0);
    if (weekday === 6) return type === 'sales' ? openDay(6, '09:00', '16:00') : closedDay(6);
    return type === 'sales' ? openDay(weekday, '08:30', '17:30') : openDay(weekday, '07:30', '17:00');
  });
}

/** A day's place in the week as shoppers read a dealer's hours: from Monday. */
const fromMonday = (weekday: number) => (weekday + 6) % 7;

/**
 * A week of hours as a shopper reads it: from Monday, each run of days with the same hours in one
 * line ("Monday to Saturday", "8:30am - 5:30pm"; "Sunday", "10am - 4pm"), as the SPEC writes a
 * dealer's typical hours. A group's 25 locations showed 175 rows of a day each on its home page, more
 * than half of the page's elements; Metro's show 54.
 */
export function hoursByDays(entries: readonly OpeningHoursEntry[]): { days: string; hours: string }[] {
  const week = [...entries].sort((a, b) => fromMonday(a.weekday) - fromMonday(b.weekday));
  const lines: { first: number; last: number; hours: string }[] = [];
  for (const entry of week) {
    const hours = entry.status === 'Open' ? entry.formated_hours : 'Closed';
    const line = lines.at(-1);
    if (line && line.hours === hours && fromMonday(entry.weekday) === fromMonday(line.last) + 1) line.last = entry.weekday;
    else lines.push({ first: entry.weekday, last: entry.weekday, hours });
  }
  return lines.map(({ first, last, hours }) => ({
    days: first === last ? weekdayNames[first]! : `${weekdayNames[first]} to ${weekdayNames[last]}`,
    hours,
  }));
}
