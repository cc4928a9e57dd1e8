import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NewSiteInput } from '@dealer/contracts/new-site';
import { consoleRequest, consoleSignIn } from '../../testing/console-requests';
import { createTestPlatform, siteRequest, type TestPlatform } from '../../testing/test-platform';

const newSite: NewSiteInput = {
  template: 'used-cars',
  name: 'Bayside Autos',
  slug: 'bayside-autos',
  locale: 'en-AU',
  domain_name: 'www.baysideautos.com.au',
  branding: { primary: '#00507a' },
  locations: [
    {
      name: 'Bayside Autos Brighton',
      phone: '03 9555 0101',
      email: 'sales@baysideautos.com.au',
      address: { street: '12 Bay Street', city: 'Brighton', state: 'VIC', postcode: '3186' },
    },
  ],
};

describe('an operator opens a dealer site from the console', () => {
  let platform: TestPlatform;
  let operator: string;
  let siteAdmin: string;
  beforeAll(async () => {
    platform = await createTestPlatform();
    operator = await consoleSignIn(platform.app, platform.ctx.db, 'operator@dealer-platform.localhost');
    siteAdmin = await consoleSignIn(platform.app, platform.ctx.db, 'site-admin@harbour-used-cars.localhost');
  }, 60_000);
  afterAll(async () => platform?.close());

  const create = (body: object, cookie = operator) => consoleRequest(platform.app, 'POST', '/api/console/sites', { cookie, payload: body });

  it('makes the site from its template; it serves its home, search and config at once, at its slug and its domain', async () => {
    const res = await create(newSite);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ slug: 'bayside-autos', name: 'Bayside Autos', url: 'https://www.baysideautos.com.au' });

    const config = (await siteRequest(platform.app, 'bayside-autos', 'GET', '/api/site')).json<{
      name: string;
      template: string;
      default_search_path: string;
      branding: { primary: string };
      locations: {
        name: string;
        address: { full: string };
        contact_detail: { opening_hours: { weekday: number; formated_hours: string }[] };
      }[];
      remotes: { name: string }[];
    }>();
    expect(config).toMatchObject({ name: 'Bayside Autos', template: 'used-cars', default_search_path: '/search/used-cars' });
    expect(config.branding.primary).toBe('#00507a');
    expect(config.locations[0]!.address.full).toBe('12 Bay Street, Brighton VIC 3186');
    expect(config.locations[0]!.contact_detail.opening_hours.find((day) => day.weekday === 1)!.formated_hours).toBe('8:30am - 5:30pm');
    // A used-car site runs the shop's remotes but not the garage, which its template leaves off.
    expect(config.remotes.map((remote) => remote.name)).toEqual(expect.arrayContaining(['mf-search', 'mf-vehicle', 'mf-leads']));
    expect(config.remotes.map((remote) => remote.name)).not.toContain('mf-garage');

    const home = await siteRequest(platform.app, 'bayside-autos', 'GET', '/');
    expect(home.statusCode).toBe(200);
    expect(home.body).toContain('Bayside Autos');
    expect((await siteRequest(platform.app, 'bayside-autos', 'GET', '/search/used-cars')).statusCode).toBe(200);
    const byDomain = await platform.app.inject({ method: 'GET', url: '/api/site', headers: { host: 'www.baysideautos.com.au' } });
    expect(byDomain.json<{ slug: string }>().slug).toBe('bayside-autos');
    expect((await siteRequest(platform.app, 'bayside-autos', 'GET', '/img/logo/bayside-autos.svg')).body).toContain('Bayside Autos');

    const audit = await consoleRequest(platform.app, 'GET', '/api/console/sites/bayside-autos/audit', { cookie: operator });
    expect(audit.json<{ entries: { action: string; user_email: string }[] }>().entries[0]).toMatchObject({
      action: 'sites.create',
      user_email: 'operator@dealer-platform.localhost',
    });
  });

  it('refuses an address or domain another site has, a name kept for the platform, and a brand site without its brand, beside each field', async () => {
    const taken = await create({ ...newSite, slug: 'harbour-used-cars', domain_name: 'www.harbourusedcars.com.au' });
    expect(taken.statusCode).toBe(400);
    expect(taken.json<{ fields: object }>().fields).toEqual({
      slug: 'Another site has this address; choose another.',
      domain_name: 'Another site has this domain.',
    });
    const reserved = await create({ ...newSite, slug: 'console', domain_name: null });
    expect(reserved.json<{ fields: object }>().fields).toEqual({ slug: 'That name is kept for the platform; choose another.' });
    const brand = await create({ ...newSite, slug: 'brand-site', domain_name: null, template: 'toyota-pre-owned' });
    expect(brand.json<{ fields: object }>().fields).toEqual({ manufacturer: 'A brand pre-owned site names its brand.' });
    const noLocation = await create({ ...newSite, slug: 'no-place', domain_name: null, locations: [] });
    expect(noLocation.json<{ fields: object }>().fields).toEqual({ locations: 'A site has at least one location.' });
  });

  it('is for operators: a site admin may not open a site', async () => {
    const res = await create({ ...newSite, slug: 'admins-own', domain_name: null }, siteAdmin);
    expect(res.statusCode).toBe(403);
    expect((await siteRequest(platform.app, 'admins-own', 'GET', '/api/site')).statusCode).toBe(404);
  });

  it('lists the templates to choose from', async () => {
    const res = await consoleRequest(platform.app, 'GET', '/api/console/site-templates', { cookie: operator });
    expect(res.json<{ templates: { id: string }[] }>().templates.map((t) => t.id)).toContain('motorcycles');
  });
});
