import { describe, expect, it } from 'vitest';
import type { SiteConfig } from '@dealer/contracts/site';
import {
  vehiclePageViewType,
  dataLayerEvent,
  dataLayerPageView,
  eventLogEntry,
  isAnalyticsId,
  newAnalyticsId,
  pageViewTypeOf,
  tagOriginsFor,
  tagScriptsFor,
  thirdPartyAllowed,
} from './analytics';
import { pageViewTypes } from './enquiry';

const ids = (google: string | null, pixel: string | null) =>
  ({ third_party: { google_analytics_id: google, facebook_pixel: pixel } }) as unknown as Pick<SiteConfig, 'third_party'>;

describe('analytics ids', () => {
  it('makes device_ and session_ ids of 10 random characters (SPEC §9)', () => {
    const id = newAnalyticsId('device', (count) => Uint8Array.from({ length: count }, (_, i) => i * 7));
    expect(id).toMatch(/^device_[a-z0-9]{10}$/);
    expect(isAnalyticsId('device', id)).toBe(true);
    expect(isAnalyticsId('session', id)).toBe(false);
    expect(isAnalyticsId('session', 'session_abc')).toBe(false);
    expect(newAnalyticsId('session', (count) => new Uint8Array(count))).toBe('session_aaaaaaaaaa');
  });
});

describe('page-view types', () => {
  it('gives each route its SPEC §2 type, leaves the vehicle page to its remote, and gives none where SPEC has none', () => {
    expect(pageViewTypeOf({ kind: 'home' })).toBe(pageViewTypes.home);
    expect(pageViewTypeOf({ kind: 'search', searchSlug: 'used-cars' })).toBe(pageViewTypes.inventoryListing);
    expect(pageViewTypeOf({ kind: 'vehicle', slug: 'x' })).toBe('own');
    expect(pageViewTypeOf({ kind: 'lead-form', form: 'finance' })).toBe(pageViewTypes.finance);
    expect(pageViewTypeOf({ kind: 'lead-form', form: 'service' })).toBe(pageViewTypes.service);
    expect(pageViewTypeOf({ kind: 'lead-form', form: 'contact' })).toBe(pageViewTypes.contact);
    expect(pageViewTypeOf({ kind: 'content', page: 'special-offers' })).toBe(pageViewTypes.specialOffers);
    expect(pageViewTypeOf({ kind: 'content', page: 'fleet-service' })).toBe(pageViewTypes.fleet);
    expect(pageViewTypeOf({ kind: 'content', page: 'about-us' })).toBe(pageViewTypes.about);
    expect(pageViewTypeOf({ kind: 'content', page: 'privacy-policy' })).toBeNull();
    expect(pageViewTypeOf({ kind: 'checkout', slug: 'x' })).toBeNull();
    expect(pageViewTypeOf({ kind: 'not-found' })).toBeNull();
  });
});

describe('third-party tags', () => {
  it("loads a site's tags only for the ids it has: GA4 through gtag.js, a GTM container through gtm.js, the Meta pixel", () => {
    expect(tagScriptsFor(ids(null, null))).toEqual([]);
    expect(tagScriptsFor(ids('G-ABC123', null))).toEqual([
      { group: 'google', src: 'https://www.googletagmanager.com/gtag/js?id=G-ABC123' },
    ]);
    expect(tagScriptsFor(ids('GTM-XYZ', '123'))).toEqual([
      { group: 'google', src: 'https://www.googletagmanager.com/gtm.js?id=GTM-XYZ' },
      { group: 'facebook', src: 'https://connect.facebook.net/en_US/fbevents.js' },
    ]);
  });

  it("lets a site's pages reach only the hosts of the tags it has ids for", () => {
    expect(tagOriginsFor(ids(null, null))).toEqual({ script: [], connect: [], img: [] });
    const google = tagOriginsFor(ids('G-ABC123', null));
    expect(google.script).toEqual(['https://www.googletagmanager.com']);
    expect(google.connect).toContain('https://*.google-analytics.com');
    expect([...google.script, ...google.connect, ...google.img].join(' ')).not.toContain('facebook');
    const meta = tagOriginsFor(ids(null, '123'));
    expect(meta).toEqual({
      script: ['https://connect.facebook.net'],
      connect: ['https://www.facebook.com'],
      img: ['https://www.facebook.com'],
    });
    // Every tag a site loads comes from an origin its policy names.
    for (const tag of tagScriptsFor(ids('GTM-XYZ', '123')))
      expect(tagOriginsFor(ids('GTM-XYZ', '123')).script).toContain(new URL(tag.src).origin);
  });

  it('waits for consent on a site that asks, and loads nothing once the shopper refuses', () => {
    expect(thirdPartyAllowed({ consent_banner: true }, 'unasked')).toBe(false);
    expect(thirdPartyAllowed({ consent_banner: true }, 'granted')).toBe(true);
    expect(thirdPartyAllowed({ consent_banner: true }, 'refused')).toBe(false);
    expect(thirdPartyAllowed({}, 'unasked')).toBe(true);
    expect(thirdPartyAllowed({ consent_banner: false }, 'refused')).toBe(false);
  });
});

describe('what each destination is sent', () => {
  it('puts a conversion in the data layer with its SPEC event id and the id the pixel deduplicates by', () => {
    expect(dataLayerEvent({ eventId: 39, label: 'Toyota Corolla' }, 'uid-1')).toEqual({
      event: 'dealer_event',
      event_id: 39,
      event_label: 'Toyota Corolla',
      event_uid: 'uid-1',
    });
  });

  it('puts a page view in the data layer with its type only when it has one', () => {
    expect(dataLayerPageView({ pageType: 1, url: 'https://a.example/' })).toEqual({
      event: 'page_view',
      page_location: 'https://a.example/',
      page_type: 1,
    });
    expect(dataLayerPageView({ pageType: null, url: 'https://a.example/checkout' })).toEqual({
      event: 'page_view',
      page_location: 'https://a.example/checkout',
    });
  });

  it('logs the SPEC §3 analytics event with the device and session ids', () => {
    expect(
      eventLogEntry({
        category: 'event_39',
        url: 'https://a.example/cars/x',
        deviceId: 'device_aaaaaaaaaa',
        sessionId: 'session_bbbbbbbbbb',
        properties: { label: 'x' },
      }),
    ).toEqual({
      category: 'event_39',
      url: 'https://a.example/cars/x',
      anon_id: 'device_aaaaaaaaaa',
      session_id: 'session_bbbbbbbbbb',
      event_properties: { label: 'x' },
    });
  });
});

describe('a car page’s page-view type', () => {
  it('is new-vehicle detail for a new car and used-vehicle detail for any other', () => {
    expect(vehiclePageViewType({ car_type: 'new' })).toBe(pageViewTypes.newVehicleDetail);
    expect(vehiclePageViewType({ car_type: 'used' })).toBe(pageViewTypes.usedVehicleDetail);
    expect(vehiclePageViewType({ car_type: 'demo' })).toBe(pageViewTypes.usedVehicleDetail);
  });
});
