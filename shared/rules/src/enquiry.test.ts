import { describe, it, expect } from 'vitest';
import { enquiryTypes } from '@dealer/contracts/lead';
import {
  conversionEventId,
  eventIds,
  normaliseStoredCategory,
  pageViewTypes,
  stepTrackingLabel,
  successCategory,
  type ConversionInput,
} from './enquiry';

describe('successCategory', () => {
  it.each([
    ['General Enquiry', undefined, 'general-enquiry'],
    ['General Enquiry', null, 'general-enquiry'],
    ['General Enquiry', '', 'general-enquiry'],
    ['Service Enquiry', undefined, 'service-enquiry'],
    ['Parts Enquiry', undefined, 'parts-enquiry'],
    ['New Vehicle Enquiry', undefined, 'new-vehicle-enquiry'],
    ['Used Vehicle Enquiry', undefined, 'used-vehicle-enquiry'],
    ['Fleet Enquiry', undefined, 'fleet-enquiry'],
    ['Finance Enquiry', undefined, 'finance-enquiry'],
    ['Careers Enquiry', undefined, 'careers-enquiry'],
    ['Sell My Car Enquiry', undefined, 'sell-my-car-enquiry'],
    ['  Test Drive / Booking ', undefined, 'test-drive-booking'],
    ['', undefined, 'general-enquiry'],
    ['General Enquiry', 'demo', 'demo-vehicle-enquiry'],
    ['General Enquiry', 'used', 'used-vehicle-enquiry'],
    ['General Enquiry', 'new', 'new-vehicle-enquiry'],
    ['Finance Enquiry', 'Used', 'used-vehicle-enquiry'],
    ['Service Enquiry', 'other', 'new-vehicle-enquiry'],
  ])('%j with car_type %j → %s', (category, carType, expected) => {
    expect(successCategory(category, carType)).toBe(expected);
  });

  it.each(enquiryTypes.map((type) => [type]))('%s gives a URL-safe slug', (type) => {
    expect(successCategory(type)).toMatch(/^[a-z0-9]+(?:-[a-z0-9]+)*$/);
  });
});

describe('normaliseStoredCategory', () => {
  it.each([
    ['Careers Enquiry', { category: 'General Enquiry', subcategory: 'Career Enquiry' }],
    ['General Enquiry', { category: 'General Enquiry' }],
    ['Service Enquiry', { category: 'Service Enquiry' }],
    ['Used Vehicle Enquiry', { category: 'Used Vehicle Enquiry' }],
  ])('%s → %j', (category, expected) => {
    expect(normaliseStoredCategory(category)).toEqual(expected);
  });
});

describe('conversionEventId', () => {
  const newCar = { car_type: 'new', tag: null } as const;
  const usedCar = { car_type: 'used', tag: null } as const;
  const demoCar = { car_type: 'demo', tag: null } as const;

  it.each<[string, ConversionInput, number]>([
    ['general enquiry', { category: 'General Enquiry' }, 22],
    ['service enquiry', { category: 'Service Enquiry' }, 22],
    ['custom id wins', { category: 'General Enquiry', car: usedCar, customEventId: 54 }, 54],
    ['careers', { category: 'Careers Enquiry' }, 51],
    ['careers after normalising', { category: 'General Enquiry', subcategory: 'Career Enquiry' }, 51],
    ['new car enquiry', { category: 'General Enquiry', car: newCar }, 14],
    ['demo car enquiry', { category: 'General Enquiry', car: demoCar }, 14],
    ['used car enquiry', { category: 'General Enquiry', car: usedCar }, 15],
    ['new vehicle category', { category: 'New Vehicle Enquiry' }, 14],
    ['used vehicle category', { category: 'Used Vehicle Enquiry' }, 15],
    ['new test drive', { category: 'General Enquiry', car: newCar, testDrive: true }, 17],
    ['demo test drive', { category: 'General Enquiry', car: demoCar, testDrive: true }, 17],
    ['used test drive', { category: 'General Enquiry', car: usedCar, testDrive: true }, 48],
    ['test drive without a car', { category: 'General Enquiry', testDrive: true }, 17],
    ['used test drive by category', { category: 'Used Vehicle Enquiry', testDrive: true }, 48],
    ['Test Drive Only car', { category: 'General Enquiry', car: { car_type: 'new', tag: 'Test Drive Only' } }, 17],
    ['starred Test Drive Only used car', { category: 'General Enquiry', car: { car_type: 'used', tag: 'Test Drive Only*' } }, 17],
    ['null custom id falls back', { category: 'General Enquiry', customEventId: null }, 22],
  ])('%s → %d', (_name, input, expected) => {
    expect(conversionEventId(input)).toBe(expected);
  });
});

describe('event id constants', () => {
  it.each([
    ['newVehicle', 14],
    ['usedVehicle', 15],
    ['newTestDrive', 17],
    ['usedTestDrive', 48],
    ['general', 22],
    ['favouriteAdded', 39],
    ['careers', 51],
    ['stepTracking', 32],
    ['phoneClick', 25],
    ['mapsClick', 41],
    ['financeRedirectClick', 58],
  ] as const)('%s is %d', (name, id) => {
    expect(eventIds[name]).toBe(id);
  });

  it.each([
    ['home', 1],
    ['inventoryListing', 2],
    ['newVehicleDetail', 3],
    ['usedVehicleDetail', 4],
    ['specialOffers', 5],
    ['fleet', 6],
    ['service', 7],
    ['parts', 8],
    ['finance', 9],
    ['insurance', 10],
    ['ownershipInfo', 11],
    ['contact', 12],
    ['about', 13],
  ] as const)('page view %s is %d', (name, id) => {
    expect(pageViewTypes[name]).toBe(id);
  });

  it('page view types run 1 to 13 in order', () => {
    expect(Object.values(pageViewTypes)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]);
  });
});

describe('stepTrackingLabel', () => {
  it.each([
    ['Book a Test Drive', 1, 'Book a Test Drive - Step 1'],
    ['Request Photos', 3, 'Request Photos - Step 3'],
  ] as const)('%s step %d → %s', (label, step, expected) => {
    expect(stepTrackingLabel(label, step)).toBe(expected);
  });
});
