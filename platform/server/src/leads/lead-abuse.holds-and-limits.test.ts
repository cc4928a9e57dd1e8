import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BookingTimes } from '@dealer/contracts/booking-values';
import type { Location } from '@dealer/contracts/location';
import { skipPostgres } from '@dealer/testing/postgres';
import type { TestPlatform } from '../testing/test-platform';
import { maxHoldsPerClient, updateRateLimit } from '@dealer/leads/lead-service';
import { contact, enquiry, freshAddress, leadAbuseOn, type Created, type Refused } from '../testing/lead-abuse';

// The public lead endpoints under abuse, by the numbers: booking times held only for a shopper who
// left contact details and only so many per address, saves and creates limited per address, and
// retries not counted. Bodies that are too big, too deep or broken are in lead-abuse.bodies-and-uploads.test.ts.

const testDrive = (extra: Record<string, unknown>) => ({ category: 'New Vehicle Enquiry', subcategory: 'Test Drive', ...extra });
const partial = { lead_status: 'Incomplete', form_completed: false };

describe.each(['sqlite', 'postgres'] as const)('the public lead endpoints under abuse on %s', (engine) => {
  if (engine === 'postgres' && skipPostgres) {
    it.skip('needs PostgreSQL (skipped: SKIP_POSTGRES=1)', () => {});
    return;
  }

  let platform: TestPlatform;
  let showroom: Location;
  const { open, call, create, update, payloadOf } = leadAbuseOn(engine);
  beforeAll(async () => {
    ({ platform, showroom } = await open());
  });
  afterAll(async () => {
    await platform?.close();
  });

  const offeredStarts = async () => {
    const res = await call(
      'GET',
      `/api/dealerships/${showroom.dealership_id}/available_appointment_bookings.json?location_id=${showroom.id}`,
    );
    expect(res.statusCode).toBe(200);
    return res.json<BookingTimes>().days.flatMap((day) => day.slots.map((slot) => slot.start));
  };
  const seatsOf = (leadId: number) =>
    platform.ctx.db.selectFrom('bookings').select(['held_until', 'starts_at']).where('lead_id', '=', leadId).execute();

  describe('booking seats', () => {
    it('gives no seat to 400 partial leads without contact details: every time they ask for stays offered', async () => {
      const starts = (await offeredStarts()).slice(0, 200);
      expect(starts.length, 'the demo showroom offers 200 test drive times').toBe(200);
      const ids: number[] = [];
      for (let index = 0; index < 400; index += 1) {
        const res = await create(testDrive({ name: 'Bot', dateTime: starts[index % starts.length], location: showroom.id, ...partial }));
        expect(res.statusCode, res.body).toBe(201);
        ids.push(res.json<Created>().id);
      }
      expect(await platform.ctx.db.selectFrom('bookings').select('id').where('lead_id', 'in', ids).execute()).toEqual([]);
      expect(await offeredStarts()).toEqual(expect.arrayContaining(starts));
      // The time is kept on the lead as asked; only a lead holding a seat says it is booked.
      const kept = await payloadOf(ids[0]!);
      expect(kept.dateTime).toBe(starts[0]);
      expect(kept).not.toHaveProperty('booking_time');
    });

    it('holds the time of a multi-step walk once its contact details are in, and confirms it on completion', async () => {
      const address = freshAddress();
      const start = (await offeredStarts())[30]!;
      // The test drive form: User Details (saved as Incomplete), then the vehicle, then when, then the rest.
      const details = await create(testDrive({ ...contact, step_number: 1, ...partial }), { address });
      expect(details.statusCode).toBe(201);
      const lead = details.json<Created>();
      expect((await update(lead, { location: showroom.id, step_number: 2, ...partial }, address)).statusCode).toBe(200);
      expect((await update(lead, { dateTime: start, step_number: 3, ...partial }, address)).statusCode).toBe(200);
      const [hold] = await seatsOf(lead.id);
      expect(Number(hold!.starts_at)).toBe(Date.parse(start));
      expect(Number(hold!.held_until)).toBeGreaterThan(Date.now() + 29 * 60_000);
      expect((await update(lead, { message: 'Saturday suits', opt_in: true }, address)).statusCode).toBe(200);
      expect(await seatsOf(lead.id)).toEqual([expect.objectContaining({ held_until: null })]);
      expect(await payloadOf(lead.id)).toMatchObject({ dateTime: start, booking_location_id: showroom.id });
    });

    it('takes the seat of a time asked before the contact step when the contact step is saved', async () => {
      const address = freshAddress();
      const start = (await offeredStarts())[31]!;
      const timeFirst = await create(testDrive({ name: 'Jane', dateTime: start, location: showroom.id, ...partial }), { address });
      expect(timeFirst.statusCode).toBe(201);
      const lead = timeFirst.json<Created>();
      expect(await seatsOf(lead.id)).toEqual([]);
      expect((await update(lead, { email: 'jane@example.com', ...partial }, address)).statusCode).toBe(200);
      expect((await seatsOf(lead.id)).map((seat) => Number(seat.starts_at))).toEqual([Date.parse(start)]);
      // Taking the email away again gives the seat back.
      expect((await update(lead, { email: '', ...partial }, address)).statusCode).toBe(200);
      expect(await seatsOf(lead.id)).toEqual([]);
    });

    it(`refuses a ${maxHoldsPerClient + 1}th hold from one address with a 429, and counts only holds still live`, async () => {
      const starts = (await offeredStarts()).slice(40, 46);
      const leads: Created[] = [];
      // Six shoppers, so only the address's holds are counted here (one shopper may book only so many a day).
      for (let index = 0; index < 6; index += 1)
        leads.push(
          (
            await create(testDrive({ ...contact, email: `holder.${index}@example.com`, phone: `04112220${index}0`, ...partial }))
          ).json<Created>(),
        );
      const address = freshAddress();
      for (const [index, lead] of leads.slice(0, 3).entries()) {
        expect((await update(lead, { dateTime: starts[index], location: showroom.id, ...partial }, address)).statusCode).toBe(200);
      }

      const fourth = await update(leads[3]!, { dateTime: starts[3], location: showroom.id, ...partial }, address);
      expect(fourth.statusCode).toBe(429);
      const message = `Your connection is already holding ${maxHoldsPerClient} booking times on this site. Please finish one of those bookings, try again in 30 minutes, or call the dealership.`;
      expect(fourth.json()).toEqual({ message, fields: { dateTime: message } });
      expect(Number(fourth.headers['retry-after'])).toBeGreaterThan(29 * 60);
      expect(Number(fourth.headers['retry-after'])).toBeLessThanOrEqual(30 * 60);
      expect(await seatsOf(leads[3]!.id)).toEqual([]);
      expect(await payloadOf(leads[3]!.id)).not.toHaveProperty('dateTime');
      // A create asking for a fourth hold is refused alike; one without contact details holds nothing and is taken.
      const created = await create(testDrive({ ...contact, dateTime: starts[4], location: showroom.id, ...partial }), { address });
      expect(created.statusCode).toBe(429);
      expect(created.json<Refused>().message).toBe(message);
      expect(
        (await create(testDrive({ name: 'Jane', dateTime: starts[4], location: showroom.id, ...partial }), { address })).statusCode,
      ).toBe(201);
      // Renewing a hold it has is no new hold; another address is counted on its own.
      expect((await update(leads[1]!, { message: 'still deciding', ...partial }, address)).statusCode).toBe(200);
      expect((await update(leads[4]!, { dateTime: starts[4], location: showroom.id, ...partial }, freshAddress())).statusCode).toBe(200);

      // A completed lead's seat is confirmed, not held, and a hold that ran out no longer counts.
      expect((await update(leads[0]!, { message: 'See you then' }, address)).statusCode).toBe(200);
      expect((await update(leads[3]!, { dateTime: starts[3], location: showroom.id, ...partial }, address)).statusCode).toBe(200);
      await platform.ctx.db
        .updateTable('bookings')
        .set({ held_until: Date.now() - 1 })
        .where('lead_id', '=', leads[1]!.id)
        .execute();
      expect((await update(leads[5]!, { dateTime: starts[5], location: showroom.id, ...partial }, address)).statusCode).toBe(200);
      expect(await seatsOf(leads[5]!.id)).toHaveLength(1);
    });

    it(`limits saves of leads to ${updateRateLimit.max} per address and site in 10 minutes, with a 429 that says when to retry`, async () => {
      const lead = (await create(testDrive({ ...contact, ...partial }))).json<Created>();
      const address = freshAddress();
      for (let index = 0; index < updateRateLimit.max; index += 1) {
        expect((await update(lead, { message: `step ${index}`, ...partial }, address)).statusCode).toBe(200);
      }
      const limited = await update(lead, { message: 'one more', ...partial }, address);
      expect(limited.statusCode).toBe(429);
      expect(limited.json()).toEqual({
        message:
          'Too many changes to enquiries have been sent from your connection. Please try again in 10 minutes, or call the dealership.',
      });
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(590);
      expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(600);
      // Counted before anything else: a save of a lead that does not exist counts and is refused too.
      expect((await call('PUT', '/api/leads/999999999', { address, payload: { lead: {} } })).statusCode).toBe(429);
      expect((await payloadOf(lead.id)).message).toBe(`step ${updateRateLimit.max - 1}`);
      expect((await update(lead, { message: 'from the shopper’s phone', ...partial }, freshAddress())).statusCode).toBe(200);
    });
  });

  describe('idempotent retries', () => {
    it('counts only new leads against the rate limit: three replays of one key and a new lead all succeed', async () => {
      const address = freshAddress();
      const key = `replay-${randomBytes(6).toString('hex')}`;
      const first = await create(enquiry({ name: 'Retry' }), { address, key });
      expect(first.statusCode).toBe(201);
      for (let index = 0; index < 3; index += 1) {
        const replay = await create(enquiry({ name: 'Retry' }), { address, key });
        expect(replay.statusCode).toBe(200);
        expect(replay.json()).toEqual(first.json());
      }
      expect((await create(enquiry({ name: 'Second' }), { address })).statusCode).toBe(201);
      // The limit (2) is still there for a third new lead.
      expect((await create(enquiry({ name: 'Third' }), { address })).statusCode).toBe(429);
      expect(await platform.ctx.db.selectFrom('leads').select('id').where('idempotency_key', '=', key).execute()).toHaveLength(1);
    });
  });
});
