import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { BookingTimes } from '@dealer/contracts/booking-values';
import type { Location } from '@dealer/contracts/location';
import { findSiteIdBySlug, loadSiteConfig } from '@dealer/db/site-store';
import { runPlatformCli, UsageError } from './platform-cli';
import { createTestPlatform, siteRequest, type TestPlatform } from './testing/test-platform';

const site = 'metro-motor-group';
type Listed = { id: number; lead_id: number; location_id: number; kind: string; starts_at: number; confirmed: boolean };

describe("`platform bookings`: the dealer lists a site's diary and releases a booking", () => {
  let platform: TestPlatform;
  let showroom: Location;
  const saved = { ...process.env };

  beforeAll(async () => {
    platform = await createTestPlatform();
    const config = (await loadSiteConfig(platform.ctx.db, (await findSiteIdBySlug(platform.ctx.db, site))!))!;
    showroom = config.locations.find((location) => location.visible && location.location_type === 'sales')!;
  });
  afterAll(async () => {
    await platform?.close();
  });
  afterEach(() => {
    process.env = { ...saved };
  });

  const cli = async (args: string[]) => {
    Object.assign(process.env, { DATA_DIR: platform.ctx.config.dataDir, LOG_LEVEL: 'silent' });
    delete process.env.DATABASE_URL;
    const lines: string[] = [];
    await runPlatformCli(args, (line) => lines.push(line));
    return lines;
  };
  const offered = async () => {
    const res = await siteRequest(
      platform.app,
      site,
      'GET',
      `/api/dealerships/${showroom.dealership_id}/available_appointment_bookings.json?location_id=${showroom.id}`,
    );
    return res.json<BookingTimes>().days.flatMap((day) => day.slots.map((slot) => slot.start));
  };
  let shoppers = 0;
  const book = async (start: string) => {
    const n = ++shoppers;
    const res = await siteRequest(platform.app, site, 'POST', '/api/leads', {
      payload: {
        lead: {
          name: 'Ana',
          last_name: 'Shopper',
          email: `ana${n}@example.com`,
          phone: `04122220${String(n).padStart(2, '0')}`,
          category: 'New Vehicle Enquiry',
          subcategory: 'Test Drive',
          dateTime: start,
          location: showroom.id,
        },
      },
      headers: { 'x-forwarded-for': `203.0.113.${n}` },
    });
    expect(res.statusCode).toBe(201);
    return res.json<{ id: number }>().id;
  };

  it('lists the upcoming bookings soonest first, releases one (the seat is offered again, the lead stays) and says so', async () => {
    const [first, second] = (await offered()).slice(2, 4);
    const later = await book(second!);
    const sooner = await book(first!);
    const listed = (await cli(['bookings', site])).map((line) => JSON.parse(line) as Listed);
    expect(listed.map((row) => row.lead_id)).toEqual([sooner, later]);
    expect(listed[0]).toEqual({
      id: expect.any(Number),
      lead_id: sooner,
      location_id: showroom.id,
      kind: 'appointment',
      starts_at: Date.parse(first!),
      confirmed: true,
    });

    const id = listed[0]!.id;
    expect(await cli(['bookings', site, 'release', String(id)])).toEqual([
      `Booking ${id} on ${site} released: the test drive at ${new Date(Date.parse(first!)).toISOString()} is free again; lead ${sooner} stays.`,
    ]);
    expect((await cli(['bookings', site])).map((line) => (JSON.parse(line) as Listed).lead_id)).toEqual([later]);
    expect(await platform.ctx.db.selectFrom('leads').select('id').where('id', '=', sooner).executeTakeFirst()).toEqual({ id: sooner });
    // Both seats of the start are free again.
    await book(first!);
    await book(first!);
  });

  it('refuses what cannot be released, with the reason', async () => {
    const lead = await book((await offered())[6]!);
    const [booking] = (await cli(['bookings', site])).map((line) => JSON.parse(line) as Listed).filter((row) => row.lead_id === lead);
    await expect(cli(['bookings', 'harbour-used-cars', 'release', String(booking!.id)])).rejects.toThrow(
      `No booking ${booking!.id} on harbour-used-cars.`,
    );
    await expect(cli(['bookings', site, 'release', '987654'])).rejects.toThrow(`No booking 987654 on ${site}.`);
    await expect(cli(['bookings', site, 'release', 'abc'])).rejects.toThrow(UsageError);
    await expect(cli(['bookings', site, 'release'])).rejects.toThrow(UsageError);
    await expect(cli(['bookings', site, 'cancel', String(booking!.id)])).rejects.toThrow(UsageError);
    await expect(cli(['bookings', 'nobody'])).rejects.toThrow('No site with slug "nobody"');
    await expect(cli(['bookings'])).rejects.toThrow(UsageError);
    expect(await cli(['bookings', 'harbour-used-cars'])).toEqual([]);
  });
});
