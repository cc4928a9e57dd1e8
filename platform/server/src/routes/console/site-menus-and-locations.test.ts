import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NavLink } from '@dealer/contracts/site';
import { consoleRequest, consoleSignIn } from '../../testing/console-requests';
import { listSiteCars } from '@dealer/db/car-store';
import { findSiteIdBySlug } from '@dealer/db/site-store';
import { carsIndexUid, searchKeyForSite } from '../../search/site-search';
import { createTestPlatform, siteRequest, testSearchKeySecret, type TestPlatform } from '../../testing/test-platform';

type Address = { street: string; city: string; state: string; postcode: string };
type Settings = {
  navigation: { header: NavLink[]; footer: NavLink[] };
  locations: { id: number; name: string; phone: string; email: string | null; address: Address }[];
};
type ShopSite = {
  navigation: { header: NavLink[]; footer: NavLink[] };
  locations: { id: number; name: string; contact_detail: { phone: string; email: string | null }; address: Address & { full: string } }[];
};

describe('a site’s menus and locations in the dealer console', () => {
  let platform: TestPlatform;
  const cookies = new Map<string, string>();
  beforeAll(async () => {
    platform = await createTestPlatform();
    for (const slug of ['harbour-used-cars', 'kiwi-motors', 'lone-star-auto'])
      cookies.set(slug, await consoleSignIn(platform.app, platform.ctx.db, `site-admin@${slug}.localhost`));
  }, 60_000);
  afterAll(async () => platform?.close());

  const read = async (slug: string) => {
    const res = await consoleRequest(platform.app, 'GET', `/api/console/sites/${slug}/settings`, { cookie: cookies.get(slug) });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<Settings>();
  };
  const save = (slug: string, payload: object) =>
    consoleRequest(platform.app, 'POST', `/api/console/sites/${slug}/settings`, { cookie: cookies.get(slug), payload });
  const shopSite = async (slug: string) => (await siteRequest(platform.app, slug, 'GET', '/api/site')).json<ShopSite>();

  it('renames, reorders, adds and removes header and footer links; the shop’s menus follow on the next request', async () => {
    const { navigation } = await read('harbour-used-cars');
    const [first, second, ...rest] = navigation.header;
    const header = [
      { ...second!, label: 'Browse our cars' },
      first!,
      ...rest.slice(1),
      { label: 'Roadside assist', to: 'https://roadside.example.com/help' },
    ];
    const footer = navigation.footer.slice(1);
    const res = await save('harbour-used-cars', { navigation: { header, footer } });
    expect(res.statusCode, res.body).toBe(200);
    expect((await shopSite('harbour-used-cars')).navigation).toEqual({ header, footer });
  });

  it('refuses a link to script or to nowhere beside its field, and keeps the menus as they were', async () => {
    const before = (await read('harbour-used-cars')).navigation;
    for (const to of ['javascript:alert(1)', 'data:text/html,<script>alert(1)</script>', '//evil.example.com', 'about', '']) {
      const header = [...before.header, { label: 'Bad', to }];
      const res = await save('harbour-used-cars', { navigation: { header, footer: before.footer } });
      expect(res.statusCode, to).toBe(400);
      expect(res.json<{ fields: Record<string, string> }>().fields).toEqual({
        [`navigation.header.${before.header.length}.to`]: 'A link goes to a page of the site (/about) or a web address (https://…).',
      });
    }
    const noLabel = await save('harbour-used-cars', { navigation: { header: [{ label: ' ', to: '/' }], footer: [] } });
    expect(noLabel.json<{ fields: Record<string, string> }>().fields).toEqual({ 'navigation.header.0.label': 'Give the link a label.' });
    expect((await shopSite('harbour-used-cars')).navigation).toEqual(before);
  });

  it.each([
    [
      'harbour-used-cars',
      '(02) 9000 1234',
      { street: '12 Wharf Road', city: 'Balmain', state: 'NSW', postcode: '2041' },
      '12 Wharf Road, Balmain NSW 2041',
    ],
    [
      'kiwi-motors',
      '09 300 1234',
      { street: '8 Quay Street', city: 'Auckland', state: '', postcode: '1010' },
      '8 Quay Street, Auckland 1010',
    ],
    [
      'lone-star-auto',
      '(512) 555-0134',
      { street: '400 Main Street', city: 'Austin', state: 'TX', postcode: '78701' },
      '400 Main Street, Austin, TX 78701',
    ],
  ])(
    'changes a location’s name, phone, e-mail and address on %s, written out in the country’s order',
    async (slug, phone, address, full) => {
      const [location] = (await read(slug)).locations;
      const res = await save(slug, {
        locations: [{ id: location!.id, name: 'Harbourside Branch', phone, email: 'sales@branch.example.com', address }],
      });
      expect(res.statusCode, res.body).toBe(200);
      const shown = (await shopSite(slug)).locations.find((one) => one.id === location!.id)!;
      expect(shown).toMatchObject({
        name: 'Harbourside Branch',
        contact_detail: { phone, email: 'sales@branch.example.com' },
      });
      expect(shown.address).toMatchObject({ ...address, full });
      // Its cars carry the new name and town, in the store and in search.
      const siteId = (await findSiteIdBySlug(platform.ctx.db, slug))!;
      const cars = (await listSiteCars(platform.ctx.db, siteId)).filter((car) => car.location_id === location!.id);
      expect(cars.length).toBeGreaterThan(0);
      expect(new Set(cars.map((car) => `${car.location_name}|${car.city}`))).toEqual(new Set([`Harbourside Branch|${address.city}`]));
      const search = await platform.app.inject({
        method: 'POST',
        url: `/meili/indexes/${carsIndexUid}/search`,
        headers: { authorization: `Bearer ${searchKeyForSite(siteId, testSearchKeySecret)}` },
        payload: { filter: `location_id = ${location!.id}`, limit: 5 },
      });
      const hits = search.json<{ hits: { location_name: string }[] }>().hits;
      expect(hits.length).toBeGreaterThan(0);
      expect(hits.every((hit) => hit.location_name === 'Harbourside Branch')).toBe(true);
    },
  );

  it('refuses a location without a name or with a bad e-mail, beside the field', async () => {
    const [location] = (await read('kiwi-motors')).locations;
    const res = await save('kiwi-motors', { locations: [{ id: location!.id, name: '', email: 'not-an-email' }] });
    expect(res.statusCode).toBe(400);
    expect(res.json<{ fields: Record<string, string> }>().fields).toEqual({
      'locations.0.name': 'The location needs a name.',
      'locations.0.email': 'Enter an e-mail address like name@example.com.',
    });
  });
});
