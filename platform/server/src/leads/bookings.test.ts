import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Location } from '@dealer/contracts/location';
import type { SiteConfig } from '@dealer/contracts/site';
import { bookingMessages, type BookingDay } from '@dealer/rules/booking-slots';
import { loadSiteConfig, findSiteIdBySlug } from '@dealer/db/site-store';
import { skipPostgres } from '@dealer/testing/postgres';
import { createDealerKey } from '@dealer/db/dealer-key-store';
import { createTestPlatform, testAdminKey, type TestPlatform } from '../testing/test-platform';
import { availabilityAt } from '@dealer/leads/bookings';

type Times = {
  dealership_id: number;
  location_id: number;
  location_name: string;
  kind: string;
  time_zone: string;
  slot_minutes: number;
  days: BookingDay[];
};
type Created = { id: number; update_token: string };

let ipCounter = 0;
const freshIp = () => {
  ipCounter += 1;
  return `10.77.${(ipCounter >> 8) & 255}.${ipCounter & 255}`;
};

const shopper = { name: 'Jane', last_name: 'Citizen', email: 'jane@example.com', phone: '0411222333', message: 'Looking forward to it' };
/** Each lead from its own shopper (e-mail and phone) unless a test says whose: one shopper may hold only so many bookings. */
let shopperCounter = 0;
const anotherShopper = () => {
  shopperCounter += 1;
  return { ...shopper, email: `jane.${shopperCounter}@example.com`, phone: `0411${String(shopperCounter).padStart(6, '0')}` };
};
const testDrive = (extra: Record<string, unknown>) => ({
  ...anotherShopper(),
  category: 'New Vehicle Enquiry',
  subcategory: 'Test Drive',
  ...extra,
});
const service = (extra: Record<string, unknown>) => ({ ...anotherShopper(), category: 'Service Enquiry', ...extra });

describe.each(['sqlite', 'postgres'] as const)('test drive and service bookings on %s', (engine) => {
  if (engine === 'postgres' && skipPostgres) {
    it.skip('needs PostgreSQL (skipped: SKIP_POSTGRES=1)', () => {});
    return;
  }

  const slug = 'metro-motor-group';
  let platform: TestPlatform;
  let site: SiteConfig;
  let showroom: Location;
  let workshop: Location;
  beforeAll(async () => {
    platform = await createTestPlatform({ engine, env: { LEADS_MOCK_MODE: '1' } });
    site = (await loadSiteConfig(platform.ctx.db, (await findSiteIdBySlug(platform.ctx.db, slug))!))!;
    showroom = site.locations.find((location) => location.visible && location.location_type === 'sales')!;
    workshop = site.locations.find((location) => location.visible && location.location_type === 'service')!;
  });
  afterAll(async () => {
    await platform?.close();
  });

  const get = (url: string, host = slug) => platform.app.inject({ method: 'GET', url, headers: { host: `${host}.localhost:3000` } });
  const send = (method: 'POST' | 'PUT', url: string, body: unknown, headers: Record<string, string> = {}) =>
    platform.app.inject({
      method,
      url,
      headers: { host: `${slug}.localhost:3000`, 'x-forwarded-for': freshIp(), ...headers },
      payload: body as string,
    });
  const create = (lead: Record<string, unknown>, prefix = '/api') => send('POST', `${prefix}/leads`, { lead });
  const update = (id: number, token: string, lead: Record<string, unknown>) =>
    send('PUT', `/api/leads/${id}`, { lead }, { 'x-lead-update-token': token });
  const times = async (location: Location, file = 'available_appointment_bookings.json') => {
    const res = await get(`/api/dealerships/${location.dealership_id}/${file}?location_id=${location.id}`);
    expect(res.statusCode).toBe(200);
    return res.json<Times>();
  };
  const starts = (answer: Times) => answer.days.flatMap((day) => day.slots.map((slot) => slot.start));
  const bookingsOf = (leadId: number) => platform.ctx.db.selectFrom('bookings').selectAll().where('lead_id', '=', leadId).execute();
  async function setCapacity(appointment: number) {
    const row = await platform.ctx.db.selectFrom('sites').select(['id', 'config']).where('slug', '=', slug).executeTakeFirstOrThrow();
    const config = JSON.parse(row.config) as SiteConfig;
    config.lead_settings = { ...config.lead_settings, booking_capacity: { appointment } };
    await platform.ctx.db
      .updateTable('sites')
      .set({ config: JSON.stringify(config) })
      .where('id', '=', row.id)
      .execute();
    platform.ctx.sites.clear();
  }

  it('lists a showroom’s test drive times in its own time zone, from two hours ahead', async () => {
    const answer = await times(showroom);
    expect(answer).toMatchObject({
      dealership_id: showroom.dealership_id,
      location_id: showroom.id,
      location_name: showroom.name,
      kind: 'appointment',
      slot_minutes: 30,
    });
    expect(answer.time_zone).toMatch(/^Australia\//);
    expect(answer.days.length).toBeGreaterThan(5);
    for (const start of starts(answer)) expect(Date.parse(start)).toBeGreaterThanOrEqual(Date.now() + 119 * 60_000);
  });

  it('lists service drop-offs from tomorrow, and only for locations that service cars', async () => {
    const answer = await times(workshop, 'available_service_bookings.json');
    expect(answer.kind).toBe('service');
    const tomorrow = new Date(Date.now() + 86_400_000).toLocaleDateString('en-CA', { timeZone: answer.time_zone });
    expect(answer.days[0]!.date >= tomorrow).toBe(true);
    const parts = site.locations.find((location) => location.location_type === 'parts');
    expect(parts, 'the demo group has a parts-only location').toBeDefined();
    expect(
      (await get(`/api/dealerships/${parts!.dealership_id}/available_service_bookings.json?location_id=${parts!.id}`)).statusCode,
    ).toBe(400);
  });

  it('refuses another site’s dealership, an unknown file and a location of another dealership', async () => {
    expect(
      (await get(`/api/dealerships/${showroom.dealership_id}/available_appointment_bookings.json`, 'ridgeline-trucks')).statusCode,
    ).toBe(404);
    expect((await get(`/api/dealerships/${showroom.dealership_id}/available_dinner_bookings.json`)).statusCode).toBe(404);
    const other = site.locations.find(
      (location) => location.dealership_id !== showroom.dealership_id && location.location_type === 'sales',
    );
    expect(other, 'the demo group has showrooms of several dealerships').toBeDefined();
    const res = await get(`/api/dealerships/${showroom.dealership_id}/available_appointment_bookings.json?location_id=${other!.id}`);
    expect(res.statusCode).toBe(400);
    expect(res.json<{ fields: Record<string, string> }>().fields.location_id).toBe('Please choose one of the listed locations.');
  });

  it('books an offered time: the lead says when for the dealer, the seat is confirmed', async () => {
    const start = starts(await times(showroom))[3]!;
    const res = await create(testDrive({ dateTime: start, location: showroom.id }));
    expect(res.statusCode).toBe(201);
    const { id } = res.json<Created>();
    const stored = await platform.ctx.db.selectFrom('leads').select('payload').where('id', '=', id).executeTakeFirstOrThrow();
    const payload = JSON.parse(stored.payload) as Record<string, unknown>;
    expect(payload.dateTime).toBe(start);
    // When and where, in the location's own words.
    expect(payload.booking_time).toMatch(/^\w{3}, \d{1,2} \w{3} \d{4}, \d{1,2}:\d{2} (am|pm) \(Australia\/\w+\) at /);
    expect(String(payload.booking_time).endsWith(` at ${showroom.name}`)).toBe(true);
    expect(payload.booking_location_id).toBe(showroom.id);
    expect(await bookingsOf(id)).toEqual([expect.objectContaining({ location_id: showroom.id, kind: 'appointment', held_until: null })]);
    expect(Number((await bookingsOf(id))[0]!.starts_at)).toBe(Date.parse(start));
  });

  it('books at the car’s own showroom on a site whose leads go to its primary location', async () => {
    expect(site.lead_settings?.push_to_primary_location).toBe(true);
    const carShowroom = site.locations.find((location) => location.visible && location.location_type === 'sales' && !location.primary)!;
    const start = starts(await times(carShowroom))[1]!;
    const res = await create(testDrive({ dateTime: start, location_id: carShowroom.id }));
    expect(res.statusCode).toBe(201);
    expect(await bookingsOf(res.json<Created>().id)).toEqual([expect.objectContaining({ location_id: carShowroom.id })]);
  });

  it('never lets a browser say a lead is booked: the booking fields are the server’s', async () => {
    const forged = await create(
      testDrive({ booking_time: 'Mon, 1 Jan 2030, 9:00 am (Australia/Sydney)', booking_location_id: showroom.id }),
    );
    expect(forged.statusCode).toBe(201);
    const stored = await platform.ctx.db
      .selectFrom('leads')
      .select('payload')
      .where('id', '=', forged.json<Created>().id)
      .executeTakeFirstOrThrow();
    expect(JSON.parse(stored.payload)).not.toHaveProperty('booking_time');
    expect(JSON.parse(stored.payload)).not.toHaveProperty('booking_location_id');
  });

  it('refuses a time that is not offered and one it cannot read, with the message beside the field', async () => {
    const start = starts(await times(showroom))[0]!;
    const offHours = start.replace(/T\d{2}:\d{2}/, 'T03:10');
    const refused = await create(testDrive({ dateTime: offHours, location: showroom.id }));
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({ message: bookingMessages.notOffered, fields: { dateTime: bookingMessages.notOffered } });
    const unreadable = await create(testDrive({ dateTime: 'whenever suits', location: showroom.id }));
    expect(unreadable.statusCode).toBe(400);
    expect(unreadable.json<{ fields: Record<string, string> }>().fields.dateTime).toBe(bookingMessages.unreadable);
    // An enquiry that is not a booking keeps whatever time the shopper wrote.
    expect((await create({ ...shopper, category: 'General Enquiry', dateTime: 'whenever suits' })).statusCode).toBe(201);
  });

  it('stops offering a time once it is full, and a late shopper gets a 409 saying so', async () => {
    await setCapacity(1);
    try {
      const start = starts(await times(showroom))[5]!;
      expect((await create(testDrive({ dateTime: start, location: showroom.id }))).statusCode).toBe(201);
      expect(starts(await times(showroom))).not.toContain(start);
      const late = await create(testDrive({ dateTime: start, location: showroom.id }));
      expect(late.statusCode).toBe(409);
      expect(late.json()).toEqual({ message: bookingMessages.taken, fields: { dateTime: bookingMessages.taken } });
      // The same time at another showroom is free.
      const elsewhere = site.locations.find(
        (location) =>
          location.visible &&
          location.location_type === 'sales' &&
          location.id !== showroom.id &&
          location.address.state === showroom.address.state,
      );
      expect(elsewhere, 'the demo group has two showrooms in one state').toBeDefined();
      expect(starts(await times(elsewhere!))).toContain(start);
      expect((await create(testDrive({ dateTime: start, location: elsewhere!.id }))).statusCode).toBe(201);
    } finally {
      await setCapacity(2);
    }
  });

  it('lets exactly one of two shoppers racing for the last seat have it', async () => {
    await setCapacity(1);
    try {
      const start = starts(await times(showroom))[7]!;
      const results = await Promise.all([0, 1, 2].map(() => create(testDrive({ dateTime: start, location: showroom.id }))));
      expect(results.map((res) => res.statusCode).sort()).toEqual([201, 409, 409]);
      const seats = await platform.ctx.db
        .selectFrom('bookings')
        .selectAll()
        .where('location_id', '=', showroom.id)
        .where('starts_at', '=', Date.parse(start))
        .execute();
      expect(seats).toHaveLength(1);
    } finally {
      await setCapacity(2);
    }
  });

  it('holds a partly filled form’s time for 30 minutes, keeps it on completion, frees it when expired or dropped', async () => {
    await setCapacity(1);
    try {
      const offered = starts(await times(showroom));
      const start = offered[9]!;
      const partial = await create(testDrive({ dateTime: start, location: showroom.id, lead_status: 'Incomplete', form_completed: false }));
      expect(partial.statusCode).toBe(201);
      const { id, update_token } = partial.json<Created>();
      const [hold] = await bookingsOf(id);
      expect(Number(hold!.held_until)).toBeGreaterThan(Date.now() + 29 * 60_000);
      expect(starts(await times(showroom))).not.toContain(start);

      // Completing keeps the time and confirms the seat.
      expect((await update(id, update_token, { message: 'See you then' })).statusCode).toBe(200);
      expect((await bookingsOf(id))[0]!.held_until).toBeNull();
      // A later partial save of a completed lead does not turn its booking back into a hold.
      expect(
        (await update(id, update_token, { message: 'One more thing', lead_status: 'Incomplete', form_completed: false })).statusCode,
      ).toBe(200);
      expect((await bookingsOf(id))[0]!.held_until).toBeNull();

      // Another shopper's abandoned hold frees its time once it expires.
      const other = offered[11]!;
      const abandoned = (
        await create(testDrive({ dateTime: other, location: showroom.id, lead_status: 'Incomplete', form_completed: false }))
      ).json<Created>();
      expect(starts(await times(showroom))).not.toContain(other);
      await platform.ctx.db
        .updateTable('bookings')
        .set({ held_until: Date.now() - 1 })
        .where('lead_id', '=', abandoned.id)
        .execute();
      expect(starts(await times(showroom))).toContain(other);
      expect((await create(testDrive({ dateTime: other, location: showroom.id }))).statusCode).toBe(201);

      // A shopper who changes their mind to "no particular time" gives the seat back.
      const third = offered[13]!;
      const changed = (
        await create(testDrive({ dateTime: third, location: showroom.id, lead_status: 'Incomplete', form_completed: false }))
      ).json<Created>();
      expect(
        (await update(changed.id, changed.update_token, { dateTime: '', lead_status: 'Incomplete', form_completed: false })).statusCode,
      ).toBe(200);
      expect(await bookingsOf(changed.id)).toEqual([]);
      expect(starts(await times(showroom))).toContain(third);
    } finally {
      await setCapacity(2);
    }
  });

  it('stops renewing a partly filled form’s hold two hours after the lead began, and still books it on completion', async () => {
    const start = starts(await times(showroom))[15]!;
    const partial = { dateTime: start, location: showroom.id, lead_status: 'Incomplete', form_completed: false };
    const { id, update_token } = (await create(testDrive(partial))).json<Created>();
    expect(await bookingsOf(id)).toHaveLength(1);

    // Saved again 100 minutes in: renewed, but only to the two-hour mark.
    await platform.ctx.db
      .updateTable('leads')
      .set({ created_at: Date.now() - 100 * 60_000 })
      .where('id', '=', id)
      .execute();
    expect((await update(id, update_token, { ...partial, message: 'still deciding' })).statusCode).toBe(200);
    const [renewed] = await bookingsOf(id);
    expect(Number(renewed!.held_until)).toBeLessThanOrEqual(Date.now() + 20 * 60_000 + 1000);
    expect(Number(renewed!.held_until)).toBeGreaterThan(Date.now() + 19 * 60_000);

    // Saved again past two hours: the time stays on the lead as asked, the seat goes back.
    await platform.ctx.db
      .updateTable('leads')
      .set({ created_at: Date.now() - 121 * 60_000 })
      .where('id', '=', id)
      .execute();
    expect((await update(id, update_token, { ...partial, message: 'any minute now' })).statusCode).toBe(200);
    expect(await bookingsOf(id)).toEqual([]);
    expect(starts(await times(showroom))).toContain(start);

    // Completing books the time if it is still free.
    expect((await update(id, update_token, { message: 'See you then' })).statusCode).toBe(200);
    expect((await bookingsOf(id))[0]!.held_until).toBeNull();
  });

  it('books a service drop-off at the chosen service centre', async () => {
    const start = starts(await times(workshop, 'available_service_bookings.json'))[0]!;
    const res = await create(service({ dateTime: start, location: workshop.id, serviceInterval: 'Logbook service' }));
    expect(res.statusCode).toBe(201);
    expect(await bookingsOf(res.json<Created>().id)).toEqual([expect.objectContaining({ kind: 'service', location_id: workshop.id })]);
  });

  it('offers no times on the state’s public holidays unless the site books on them', async () => {
    const inState = (state: string) =>
      site.locations.find((location) => location.visible && location.location_type === 'sales' && location.address.state === state);
    const melbourne = inState('VIC');
    const sydney = inState('NSW');
    expect(melbourne && sydney).toBeTruthy();
    // Friday 30 October 2026: Melbourne Cup Day (Tuesday 3 November) is in the next 14 days.
    const now = Date.parse('2026-10-30T09:00:00+11:00');
    const dates = async (location: Location, target: SiteConfig = site) =>
      (await availabilityAt(platform.ctx.db, target, location, 'appointment', now)).days.map((day) => day.date);
    expect(await dates(melbourne!)).not.toContain('2026-11-03');
    expect(await dates(melbourne!)).toContain('2026-11-04');
    expect(await dates(sydney!)).toContain('2026-11-03');
    const opensOnHolidays = { ...site, lead_settings: { ...site.lead_settings, bookings_on_public_holidays: true } };
    expect(await dates(melbourne!, opensOnHolidays)).toContain('2026-11-03');
  });

  it('never sends one car out on two test drives at once, while the showroom takes another car then', async () => {
    const cars = await platform.ctx.db.selectFrom('cars').select('id').where('site_id', '=', site.id).limit(2).execute();
    const [carA, carB] = cars.map((row) => Number(row.id));
    const carTimes = async (carId: number) => {
      const res = await get(
        `/api/dealerships/${showroom.dealership_id}/available_appointment_bookings.json?location_id=${showroom.id}&car_id=${carId}`,
      );
      expect(res.statusCode).toBe(200);
      return starts(res.json<Times>());
    };
    // Three starts in a row on one day, all free for car A.
    const free = await carTimes(carA!);
    const index = free.findIndex(
      (start, i) =>
        free[i + 2] &&
        Date.parse(free[i + 2]!) - Date.parse(start) === 60 * 60_000 &&
        Date.parse(free[i + 1]!) - Date.parse(start) === 30 * 60_000 &&
        i > 20,
    );
    const [at10, at1030, at11] = [free[index]!, free[index + 1]!, free[index + 2]!];

    expect((await create(testDrive({ dateTime: at10, location: showroom.id, car_id: carA }))).statusCode).toBe(201);
    const after = await carTimes(carA!);
    expect(after).not.toContain(at10);
    expect(after).not.toContain(at1030);
    expect(after).toContain(at11);
    expect(await carTimes(carB!)).toContain(at10);

    const clash = await create(testDrive({ dateTime: at1030, location: showroom.id, car_id: carA }));
    expect(clash.statusCode).toBe(409);
    expect(clash.json<{ fields: Record<string, string> }>().fields.dateTime).toBe(bookingMessages.taken);
    expect((await create(testDrive({ dateTime: at11, location: showroom.id, car_id: carA }))).statusCode).toBe(201);
    expect((await create(testDrive({ dateTime: at10, location: showroom.id, car_id: carB }))).statusCode).toBe(201);

    const otherSiteCar = await platform.ctx.db.selectFrom('cars').select('id').where('site_id', '<>', site.id).executeTakeFirstOrThrow();
    expect(
      (
        await get(
          `/api/dealerships/${showroom.dealership_id}/available_appointment_bookings.json?location_id=${showroom.id}&car_id=${otherSiteCar.id}`,
        )
      ).statusCode,
    ).toBe(400);
  });

  it('shows the dealer the diary: each booking with its lead, confirmed or held', async () => {
    const res = await platform.app.inject({
      method: 'GET',
      url: `/api/admin/bookings?site=${slug}`,
      headers: { authorization: `Bearer ${testAdminKey}` },
    });
    expect(res.statusCode).toBe(200);
    const { bookings } = res.json<{
      bookings: { lead_id: number; location_id: number; kind: string; starts_at: number; confirmed: boolean }[];
    }>();
    expect(bookings.length).toBeGreaterThan(3);
    expect(bookings.some((booking) => booking.kind === 'service')).toBe(true);
    expect(bookings.every((booking) => booking.starts_at > Date.now())).toBe(true);
    expect([...bookings].sort((a, b) => a.starts_at - b.starts_at)).toEqual(bookings);
    expect((await platform.app.inject({ method: 'GET', url: `/api/admin/bookings?site=${slug}` })).statusCode).toBe(401);
  });

  /** A day the showroom still has `slots` free starts on, late in the diary (earlier tests book its first days). */
  const quietDay = async (slots: number, back = 1) => {
    const days = (await times(showroom)).days.filter((day) => day.slots.length >= slots);
    expect(days.length, `the showroom has days with ${slots} free starts`).toBeGreaterThan(back);
    return days[days.length - back]!;
  };
  /** 'Saturday 14 December', as the shopper reads the day. */
  const dayName = (day: BookingDay) =>
    new Date(`${day.date}T12:00:00Z`).toLocaleDateString('en-AU', { weekday: 'long', day: 'numeric', month: 'long', timeZone: 'UTC' });
  const bookingsOfContact = (email: string) =>
    platform.ctx.db
      .selectFrom('bookings')
      .innerJoin('leads', 'leads.id', 'bookings.lead_id')
      .select('bookings.id')
      .where('leads.payload', 'like', `%${email}%`)
      .execute();
  const asAdmin = (method: 'GET' | 'POST', url: string, key = testAdminKey) =>
    platform.app.inject({ method, url, headers: { authorization: `Bearer ${key}` } });

  it('gives one shopper at most two bookings a day at a showroom: ten complete leads from one contact get two seats, the rest a message beside the picker', async () => {
    const day = await quietDay(10);
    const repeat = { email: 'Repeat.Booker@Example.com', phone: '0412 555 001' };
    const statuses: number[] = [];
    let refused: { message: string; fields: Record<string, string> } | undefined;
    for (const slot of day.slots.slice(0, 10)) {
      const res = await create(testDrive({ ...repeat, dateTime: slot.start, location: showroom.id }));
      statuses.push(res.statusCode);
      if (res.statusCode !== 201) refused ??= res.json();
    }
    expect(statuses).toEqual([201, 201, 409, 409, 409, 409, 409, 409, 409, 409]);
    const message = `You already have 2 bookings at ${showroom.name} on ${dayName(day)}. Please choose another day, or call us on ${showroom.contact_detail.phone} to change them.`;
    expect(refused).toEqual({ message, fields: { dateTime: message } });
    expect(await bookingsOfContact('Repeat.Booker@Example.com')).toHaveLength(2);
    // The same person however the e-mail is cased or the phone written; each is enough on its own.
    expect(
      (await create(testDrive({ email: 'repeat.booker@example.com', dateTime: day.slots[11]!.start, location: showroom.id }))).statusCode,
    ).toBe(409);
    expect((await create(testDrive({ phone: '+61 412 555 001', dateTime: day.slots[11]!.start, location: showroom.id }))).statusCode).toBe(
      409,
    );
    // A drop-off at the workshop that day is another location's diary; the enquiry without a time still reaches the dealer.
    const serviceDay = (await times(workshop, 'available_service_bookings.json')).days.find((entry) => entry.date === day.date);
    if (serviceDay)
      expect(
        (
          await create(
            service({ ...repeat, dateTime: serviceDay.slots[0]!.start, location: workshop.id, serviceInterval: 'Logbook service' }),
          )
        ).statusCode,
      ).toBe(201);
    expect((await create(testDrive({ ...repeat, location: showroom.id }))).statusCode).toBe(201);
    // Another shopper still books that day.
    expect((await create(testDrive({ dateTime: day.slots[11]!.start, location: showroom.id }))).statusCode).toBe(201);
  });

  it('gives one shopper at most four upcoming bookings across the diary', async () => {
    const days = (await times(showroom)).days.slice(1, 6);
    expect(days).toHaveLength(5);
    const regular = { email: 'regular@example.com', phone: '0412 555 002' };
    const statuses: number[] = [];
    let refused: { message: string; fields: Record<string, string> } | undefined;
    for (const day of days) {
      const res = await create(testDrive({ ...regular, dateTime: day.slots[day.slots.length - 1]!.start, location: showroom.id }));
      statuses.push(res.statusCode);
      if (res.statusCode !== 201) refused = res.json();
    }
    expect(statuses).toEqual([201, 201, 201, 201, 409]);
    const message = `You already have 4 upcoming bookings with us. Please call us on ${showroom.contact_detail.phone} to change one of them.`;
    expect(refused).toEqual({ message, fields: { dateTime: message } });
  });

  it('takes at most four bookings a day at a showroom from one address, whoever the shopper says they are', async () => {
    const day = await quietDay(6, 2);
    const address = freshIp();
    const statuses: number[] = [];
    let refused: { message: string; fields: Record<string, string> } | undefined;
    for (const slot of day.slots.slice(0, 6)) {
      const res = await send(
        'POST',
        '/api/leads',
        { lead: testDrive({ dateTime: slot.start, location: showroom.id }) },
        { 'x-forwarded-for': address },
      );
      statuses.push(res.statusCode);
      if (res.statusCode !== 201) refused ??= res.json();
    }
    expect(statuses).toEqual([201, 201, 201, 201, 429, 429]);
    const message = `4 bookings at ${showroom.name} on ${dayName(day)} have already been made from your connection. Please choose another day, or call us on ${showroom.contact_detail.phone} to book.`;
    expect(refused).toEqual({ message, fields: { dateTime: message } });
    // Another address books that day as before.
    expect((await create(testDrive({ dateTime: day.slots[5]!.start, location: showroom.id }))).statusCode).toBe(201);
  });

  it('holds one shopper to two seats a day however many of their leads race for them', async () => {
    const day = await quietDay(8, 3);
    const racer = { email: 'racer@example.com', phone: '0412 555 003' };
    const results = await Promise.all(
      day.slots.slice(0, 8).map((slot) => create(testDrive({ ...racer, dateTime: slot.start, location: showroom.id }))),
    );
    expect(results.map((res) => res.statusCode).sort()).toEqual([201, 201, 409, 409, 409, 409, 409, 409]);
    expect(await bookingsOfContact('racer@example.com')).toHaveLength(2);
  });

  it('lets the dealer release a booking: the seat is free for others, the lead stays', async () => {
    await setCapacity(1);
    try {
      const day = await quietDay(4, 4);
      const start = day.slots[0]!.start;
      const booked = await create(testDrive({ email: 'released@example.com', dateTime: start, location: showroom.id }));
      expect(booked.statusCode).toBe(201);
      const leadId = booked.json<Created>().id;
      expect(starts(await times(showroom))).not.toContain(start);
      const [booking] = await bookingsOf(leadId);

      // The diary names each booking by its id.
      const diary = (await asAdmin('GET', `/api/admin/bookings?site=${slug}&from=${Date.parse(start)}&to=${Date.parse(start)}`)).json<{
        bookings: { id: number; lead_id: number }[];
      }>();
      expect(diary.bookings).toEqual([expect.objectContaining({ id: Number(booking!.id), lead_id: leadId })]);

      // Another dealer's key finds no such booking; no key opens nothing.
      const other = await createDealerKey(
        platform.ctx.db,
        { id: (await findSiteIdBySlug(platform.ctx.db, 'harbour-used-cars'))!, slug: 'harbour-used-cars' },
        'Harbour sales',
      );
      expect((await asAdmin('POST', `/api/admin/bookings/${booking!.id}/release`, other.key)).statusCode).toBe(404);
      expect((await platform.app.inject({ method: 'POST', url: `/api/admin/bookings/${booking!.id}/release` })).statusCode).toBe(401);
      expect((await asAdmin('POST', '/api/admin/bookings/abc/release')).statusCode).toBe(400);

      const own = await createDealerKey(platform.ctx.db, { id: site.id, slug }, 'Metro sales');
      const released = await asAdmin('POST', `/api/admin/bookings/${booking!.id}/release`, own.key);
      expect(released.statusCode).toBe(200);
      expect(released.json()).toEqual({
        booking: {
          id: Number(booking!.id),
          lead_id: leadId,
          location_id: showroom.id,
          kind: 'appointment',
          starts_at: Date.parse(start),
          confirmed: true,
        },
      });
      expect(await bookingsOf(leadId)).toEqual([]);
      expect(starts(await times(showroom))).toContain(start);
      expect(await platform.ctx.db.selectFrom('leads').select('id').where('id', '=', leadId).executeTakeFirst()).toEqual({ id: leadId });
      // Released once: a second release finds nothing, and another shopper takes the seat.
      expect((await asAdmin('POST', `/api/admin/bookings/${booking!.id}/release`)).statusCode).toBe(404);
      expect((await create(testDrive({ dateTime: start, location: showroom.id }))).statusCode).toBe(201);
    } finally {
      await setCapacity(2);
    }
  });

  it('serves the times under /mock too, and a mock lead takes no seat', async () => {
    const res = await get(`/mock/dealerships/${showroom.dealership_id}/available_appointment_bookings.json?location_id=${showroom.id}`);
    expect(res.statusCode).toBe(200);
    const start = starts(res.json<Times>())[2]!;
    const mock = await create(testDrive({ dateTime: start, location: showroom.id }), '/mock');
    expect(mock.statusCode).toBe(201);
    expect(await bookingsOf(mock.json<Created>().id)).toEqual([]);
  });
});
