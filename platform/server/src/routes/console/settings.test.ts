import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleRequest, consoleSignIn } from '../../testing/console-requests';
import { createTestPlatform, siteRequest, type TestPlatform } from '../../testing/test-platform';

const slug = 'kiwi-motors';
type Hours = { weekday: number; status: 'Open' | 'Closed'; formated_hours: string; open: string | null; close: string | null };
type Settings = {
  name: string;
  features: Record<string, boolean>;
  lead_delivery: { kind: string; url?: string }[];
  secrets_set: Record<string, boolean>;
  locations: { id: number; name: string; opening_hours: Hours[] }[];
};

describe('a site’s settings in the dealer console', () => {
  let platform: TestPlatform;
  let admin: string;
  let staff: string;
  beforeAll(async () => {
    platform = await createTestPlatform();
    admin = await consoleSignIn(platform.app, platform.ctx.db, `site-admin@${slug}.localhost`);
    staff = await consoleSignIn(platform.app, platform.ctx.db, `staff@${slug}.localhost`);
  }, 60_000);
  afterAll(async () => platform?.close());

  const read = async (cookie = admin) => {
    const res = await consoleRequest(platform.app, 'GET', `/api/console/sites/${slug}/settings`, { cookie });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<Settings>();
  };
  const save = (payload: object, cookie = admin) =>
    consoleRequest(platform.app, 'POST', `/api/console/sites/${slug}/settings`, { cookie, payload });
  const shopSite = async () => (await siteRequest(platform.app, slug, 'GET', '/api/site')).json<Record<string, unknown>>();

  it('changes opening hours and a switch; the shop shows them on the next request, and the audit log says who', async () => {
    const before = await read();
    const location = before.locations[0]!;
    const sunday: Hours = { weekday: 0, status: 'Open', formated_hours: '10am - 2pm', open: '10:00', close: '14:00' };
    // The day's text is the server's to write: whatever the screen sent, the site shows '10am - 2pm'.
    const hours = location.opening_hours.map((day) => (day.weekday === 0 ? { ...sunday, formated_hours: 'anything' } : day));
    const res = await save({
      locations: [{ id: location.id, opening_hours: hours }],
      features: { show_postcode: !before.features.show_postcode },
    });
    expect(res.statusCode, res.body).toBe(200);
    const site = (await shopSite()) as {
      features: Record<string, boolean>;
      locations: { id: number; contact_detail: { opening_hours: Hours[] } }[];
    };
    expect(site.features.show_postcode).toBe(!before.features.show_postcode);
    expect(site.locations.find((one) => one.id === location.id)!.contact_detail.opening_hours.find((day) => day.weekday === 0)).toEqual(
      sunday,
    );
    const audit = (await consoleRequest(platform.app, 'GET', `/api/console/sites/${slug}/audit`, { cookie: admin })).json<{
      entries: { action: string; user_email: string; after: Record<string, unknown> }[];
    }>().entries;
    expect(audit[0]).toMatchObject({ action: 'settings.write', user_email: `site-admin@${slug}.localhost` });
    expect(Object.keys(audit[0]!.after).sort()).toEqual(['features', 'locations']);
  });

  it('keeps a webhook secret write-only: set, shown only as set, never in the shop’s config or the audit log', async () => {
    const res = await save({
      lead_delivery: [{ kind: 'webhook', url: 'https://crm.example.com/hooks/leads' }],
      secrets: { lead_webhook_secret: 'whsec_0123456789abcdef' },
    });
    expect(res.statusCode, res.body).toBe(200);
    const settings = await read();
    expect(settings.lead_delivery).toEqual([{ kind: 'webhook', url: 'https://crm.example.com/hooks/leads' }]);
    expect(settings.secrets_set.lead_webhook_secret).toBe(true);
    expect(JSON.stringify(settings)).not.toContain('whsec_0123456789abcdef');
    expect(JSON.stringify(await shopSite())).not.toContain('whsec_');
    const audit = await consoleRequest(platform.app, 'GET', `/api/console/sites/${slug}/audit`, { cookie: admin });
    expect(audit.body).not.toContain('whsec_');
  });

  it('refuses a day that closes before it opens, naming the day beside the hours', async () => {
    const location = (await read()).locations[0]!;
    const hours = location.opening_hours.map((day) =>
      day.weekday === 2 ? { ...day, status: 'Open' as const, open: '17:00', close: '09:00' } : day,
    );
    const res = await save({ locations: [{ id: location.id, opening_hours: hours }] });
    expect(res.statusCode).toBe(400);
    expect(res.json<{ fields: Record<string, string> }>().fields).toEqual({
      'locations.0.opening_hours': 'Tuesday: give an opening and a later closing time, or mark it closed.',
    });
  });

  it('refuses a bad value beside its field and saves nothing of that change', async () => {
    const before = await read();
    const res = await save({ name: 'Kiwi Motors Renamed', lead_delivery: [{ kind: 'webhook', url: 'not a url' }] });
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json<{ fields: Record<string, string> }>().fields)).toEqual(['lead_delivery.0.url']);
    expect((await read()).name).toBe(before.name);
  });

  it('changes every kind of switch, the days sold and new cars are marked, the search engines’ title and the colours', async () => {
    const res = await save({
      features: { split_testing: true, au_nz_phone: true, chat_provider: 'built_in' },
      garage_enabled: false,
      include_sold_cars_days: 14,
      just_arrived_days: 3,
      seo: { title: 'Kiwi Motors | Used cars in Auckland', description: 'Quality used cars, finance and service.' },
      branding: { primary: '#123456', accent: '#abc' },
    });
    expect(res.statusCode, res.body).toBe(200);
    const site = (await shopSite()) as {
      features: Record<string, unknown>;
      garage_enabled: boolean;
      include_sold_cars_days: number;
      specifications: { just_arrived_days: number };
      seo: { title: string };
      branding: Record<string, string>;
    };
    expect(site.features).toMatchObject({ split_testing: true, au_nz_phone: true, chat_provider: 'built_in' });
    expect([site.garage_enabled, site.include_sold_cars_days, site.specifications.just_arrived_days]).toEqual([false, 14, 3]);
    expect(site.seo.title).toBe('Kiwi Motors | Used cars in Auckland');
    expect(site.branding).toMatchObject({ primary: '#123456', accent: '#abc' });
    const page = await siteRequest(platform.app, slug, 'GET', '/');
    expect(page.body).toContain('--dp-primary:#123456');
    expect(page.body).toContain('<title>Kiwi Motors | Used cars in Auckland</title>');
  });

  it('refuses a colour that is not one, and days out of range, each beside its field', async () => {
    const res = await save({ branding: { primary: 'red;}body{display:none' }, include_sold_cars_days: 400, just_arrived_days: null });
    expect(res.statusCode).toBe(400);
    expect(res.json<{ fields: Record<string, string> }>().fields).toEqual({
      'branding.primary': 'A colour like #0b3d91.',
      include_sold_cars_days: 'At most 365 days.',
      just_arrived_days: 'Enter a number of days.',
    });
    expect(((await shopSite()) as { branding: { primary: string } }).branding.primary).toBe('#123456');
  });

  it('sends a test lead through the site’s delivery targets', async () => {
    const res = await consoleRequest(platform.app, 'POST', `/api/console/sites/${slug}/settings/test-lead`, { cookie: admin, payload: {} });
    expect(res.statusCode, res.body).toBe(200);
    const { lead_id: leadId } = res.json<{ lead_id: number }>();
    const jobs = await platform.ctx.db.selectFrom('lead_delivery_jobs').select('target').where('lead_id', '=', leadId).execute();
    expect(jobs.map((job) => (JSON.parse(job.target) as { kind: string }).kind)).toEqual(['webhook']);
  });

  it('lets staff read the settings but not change them', async () => {
    expect((await read(staff)).name).toBeTruthy();
    expect((await save({ name: 'Staff was here' }, staff)).statusCode).toBe(403);
  });
});
