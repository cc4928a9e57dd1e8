import { describe, it, expect } from 'vitest';
import type { CarStatus } from '@dealer/contracts/car';
import { cardTag, isEnquirable, isListedInSearch, isTestDriveOnly, soldListingCutoff, type TagCar, type TagSite } from './tags';

const now = 1_700_000_000;
const day = 86_400;

const car = (over: Partial<TagCar> = {}): TagCar => ({
  status: 'in_stock',
  sold: false,
  reserved: false,
  certified: false,
  tag: null,
  simple_fuel: 'Petrol',
  created_at_timestamp: now - 30 * day,
  ...over,
});

const site = (fuelTags = false, specifications: TagSite['specifications'] = {}): TagSite => ({
  features: { fuel_tags: fuelTags },
  specifications,
});

describe('cardTag precedence', () => {
  it.each([
    ['nothing applies', car(), site(), null],
    ['electric on a fuel-tag site', car({ simple_fuel: 'Electric' }), site(true), { text: 'Electric', kind: 'fuel' }],
    ['hybrid on a fuel-tag site', car({ simple_fuel: 'Hybrid' }), site(true), { text: 'Hybrid', kind: 'fuel' }],
    ['plug-in hybrid on a fuel-tag site', car({ simple_fuel: 'Plug-in Hybrid' }), site(true), { text: 'Plug-in Hybrid', kind: 'fuel' }],
    ['PHEV spelling', car({ simple_fuel: 'PHEV' }), site(true), { text: 'Plug-in Hybrid', kind: 'fuel' }],
    ['electric without fuel tags', car({ simple_fuel: 'Electric' }), site(false), null],
    ['diesel on a fuel-tag site', car({ simple_fuel: 'Diesel' }), site(true), null],
    ['fuel beats reserved', car({ simple_fuel: 'Electric', reserved: true }), site(true), { text: 'Electric', kind: 'fuel' }],
    ['reserved', car({ reserved: true }), site(), { text: 'Reserved', kind: 'reserved' }],
    ['reserved beats certified', car({ reserved: true, certified: true }), site(), { text: 'Reserved', kind: 'reserved' }],
    ['on hold while a shopper pays the deposit', car({ on_hold_until_timestamp: now + 600 }), site(), { text: 'On hold', kind: 'on-hold' }],
    ['available again once the hold ran out', car({ on_hold_until_timestamp: now }), site(), null],
    ['no hold', car({ on_hold_until_timestamp: null }), site(), null],
    ['reserved beats on hold', car({ reserved: true, on_hold_until_timestamp: now + 600 }), site(), { text: 'Reserved', kind: 'reserved' }],
    ['on hold beats certified', car({ certified: true, on_hold_until_timestamp: now + 600 }), site(), { text: 'On hold', kind: 'on-hold' }],
    ['certified', car({ certified: true }), site(), { text: 'Certified', kind: 'certified' }],
    ['certified beats custom', car({ certified: true, tag: 'Special' }), site(), { text: 'Certified', kind: 'certified' }],
    ['custom tag', car({ tag: 'Special' }), site(), { text: 'Special', kind: 'custom' }],
    ['Test Drive Only is a custom tag', car({ tag: 'Test Drive Only' }), site(), { text: 'Test Drive Only', kind: 'custom' }],
    ['blank custom tag ignored', car({ tag: '  ' }), site(), null],
    ['custom beats coming soon', car({ tag: 'Pre-order', status: 'coming_soon' }), site(), { text: 'Pre-order', kind: 'custom' }],
    ['coming soon', car({ status: 'coming_soon' }), site(), { text: 'COMING SOON', kind: 'coming-soon' }],
    [
      'coming soon beats just arrived',
      car({ status: 'coming_soon', created_at_timestamp: now }),
      site(),
      { text: 'COMING SOON', kind: 'coming-soon' },
    ],
    ['just arrived today', car({ created_at_timestamp: now - 3600 }), site(), { text: 'JUST ARRIVED', kind: 'just-arrived' }],
    ['just arrived on day 8 exactly', car({ created_at_timestamp: now - 8 * day }), site(), { text: 'JUST ARRIVED', kind: 'just-arrived' }],
    ['not just arrived one second past 8 days', car({ created_at_timestamp: now - 8 * day - 1 }), site(), null],
    [
      'configured days',
      car({ created_at_timestamp: now - 10 * day }),
      site(false, { just_arrived_days: 14 }),
      { text: 'JUST ARRIVED', kind: 'just-arrived' },
    ],
    ['configured shorter window', car({ created_at_timestamp: now - 5 * day }), site(false, { just_arrived_days: 3 }), null],
    [
      'null days falls back to 8',
      car({ created_at_timestamp: now - 7 * day }),
      site(false, { just_arrived_days: null }),
      { text: 'JUST ARRIVED', kind: 'just-arrived' },
    ],
    ['0 days turns it off', car({ created_at_timestamp: now }), site(false, { just_arrived_days: 0 }), null],
    [
      'configured name',
      car({ created_at_timestamp: now }),
      site(false, { just_arrived_tag_name: 'New Arrival' }),
      { text: 'New Arrival', kind: 'just-arrived' },
    ],
    ['sold status', car({ status: 'sold' }), site(), { text: 'JUST SOLD', kind: 'sold' }],
    ['sold flag', car({ sold: true }), site(), { text: 'JUST SOLD', kind: 'sold' }],
    ['configured sold name', car({ status: 'sold' }), site(false, { sold_tag_name: 'SOLD' }), { text: 'SOLD', kind: 'sold' }],
    ['empty sold name falls back', car({ status: 'sold' }), site(false, { sold_tag_name: '' }), { text: 'JUST SOLD', kind: 'sold' }],
    [
      'sold beats everything',
      car({ status: 'sold', simple_fuel: 'Electric', reserved: true, certified: true, tag: 'Special' }),
      site(true),
      { text: 'JUST SOLD', kind: 'sold' },
    ],
  ] as const)('%s', (_name, input, config, expected) => {
    expect(cardTag(input, config, now)).toEqual(expected);
  });
});

describe('isTestDriveOnly', () => {
  it.each([
    ['Test Drive Only', true],
    ['Test Drive Only*', true],
    [' Test Drive Only ', true],
    ['Special', false],
    ['Pre-order', false],
    ['test drive only', false],
    [null, false],
  ] as const)('%j → %s', (tag, expected) => {
    expect(isTestDriveOnly({ tag })).toBe(expected);
  });
});

describe('isEnquirable', () => {
  it.each([
    ['in_stock', true],
    ['coming_soon', true],
    ['sold', false],
  ] as [CarStatus, boolean][])('%s → %s', (status, expected) => {
    expect(isEnquirable(status)).toBe(expected);
  });
});

describe('isListedInSearch', () => {
  const listed = { status: 'in_stock', sold: false, sold_date_timestamp: null, show_on_dealer_website: true } as const;
  it.each([
    ['in stock', listed, undefined, true],
    ['coming soon', { ...listed, status: 'coming_soon' }, undefined, true],
    ['hidden from the website', { ...listed, show_on_dealer_website: false }, undefined, false],
    ['sold now', { ...listed, status: 'sold', sold_date_timestamp: now }, undefined, true],
    ['sold exactly 259200 s ago', { ...listed, status: 'sold', sold_date_timestamp: now - 259_200 }, undefined, true],
    ['sold 259201 s ago', { ...listed, status: 'sold', sold_date_timestamp: now - 259_201 }, undefined, false],
    ['sold 4 days ago, 7-day window', { ...listed, status: 'sold', sold_date_timestamp: now - 4 * day }, 7, true],
    ['sold 8 days ago, 7-day window', { ...listed, status: 'sold', sold_date_timestamp: now - 8 * day }, 7, false],
    ['sold 1 day ago, 0-day window', { ...listed, status: 'sold', sold_date_timestamp: now - day }, 0, false],
    ['null window means 3 days', { ...listed, status: 'sold', sold_date_timestamp: now - 2 * day }, null, true],
    ['sold without a sold date', { ...listed, status: 'sold' }, undefined, false],
    ['sold flag on an in-stock status', { ...listed, sold: true, sold_date_timestamp: now - 10 * day }, undefined, false],
    ['recently sold but hidden', { ...listed, status: 'sold', sold_date_timestamp: now, show_on_dealer_website: false }, undefined, false],
  ] as const)('%s', (_name, input, days, expected) => {
    expect(isListedInSearch(input, days, now)).toBe(expected);
  });

  it.each([
    [undefined, now - 259_200],
    [3, now - 259_200],
    [1, now - 86_400],
  ] as const)('cutoff for %s days', (days, expected) => {
    expect(soldListingCutoff(days, now)).toBe(expected);
  });
});
