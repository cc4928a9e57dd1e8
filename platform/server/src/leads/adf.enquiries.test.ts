import { beforeAll, describe, expect, it } from 'vitest';
import { ADF_PROVIDER_NAME, adfRequestDate, leadToAdf } from '@dealer/leads/adf';
import { validateAdfStructure } from '@dealer/testing/adf-validate';
import type { DeliverableLead } from '@dealer/leads/deliverable-lead';
import { carOf, lead, loadJsdom, metro, metroCar, parse, shopper, siteOf, textAt, usedCarEnquiry } from '../testing/adf-leads';

// The ADF document of each kind of enquiry a dealer gets (SPEC's lead categories, trade-ins, test
// drives, other countries, awkward text), as a CRM reads it. Files, XML escaping and the ADF
// structure check are in adf.files-and-xml.test.ts.

beforeAll(loadJsdom);

const loneStar = siteOf('lone-star-auto');
const kiwi = siteOf('kiwi-motors');
const metroNewCar = carOf(metro, (car) => car.car_type === 'new');
const usCar = carOf(loneStar);
const nzCar = carOf(kiwi);

const vehicles = (doc: Document) => Array.from(doc.querySelectorAll('prospect > vehicle'));
const vehicleOf = (doc: Document, interest: string) =>
  vehicles(doc).find((vehicle) => vehicle.getAttribute('interest') === interest) ?? null;

type Expectation = {
  vehicles: { interest: string; status: string; year: string; make: string; model: string }[];
  check?: (doc: Document, xml: string) => void;
};

const cases: [string, DeliverableLead, Expectation][] = [
  [
    'used-car enquiry from the car page (car known, modal repeats make and model)',
    usedCarEnquiry,
    {
      vehicles: [{ interest: 'buy', status: 'used', year: String(metroCar.year), make: metroCar.make, model: metroCar.model }],
      check: (doc) => {
        const vehicle = vehicleOf(doc, 'buy')!;
        expect(textAt(vehicle, 'vin')).toBe(metroCar.vin);
        expect(textAt(vehicle, 'stock')).toBe(metroCar.stocknum);
        expect(textAt(vehicle, 'trim')).toBe(metroCar.badge);
        expect(textAt(vehicle, 'price')).toBe(String(metroCar.price));
        expect(vehicle.querySelector('price')!.getAttribute('type')).toBe('asking');
        expect(vehicle.querySelector('price')!.getAttribute('currency')).toBe('AUD');
        expect(textAt(vehicle, 'odometer')).toBe(String(metroCar.km));
        expect(vehicle.querySelector('odometer')!.getAttribute('units')).toBe('km');
        expect(textAt(vehicle, 'colorcombination > exteriorcolor')).toBe(metroCar.colour);
        expect(textAt(vehicle, 'comments')).toContain(`${metro.url}/cars/${metroCar.slug}`);
        expect(textAt(doc, 'customer > contact > name[part="first"]')).toBe('Jane');
        expect(textAt(doc, 'customer > contact > name[part="last"]')).toBe('Citizen');
        expect(textAt(doc, 'customer > contact > email')).toBe('jane@example.com');
        expect(textAt(doc, 'customer > contact > phone[type="voice"]')).toBe('0412 345 678');
        expect(textAt(doc, 'customer > contact > address > postalcode')).toBe('2150');
        const comments = textAt(doc, 'customer > comments')!;
        expect(comments.startsWith('Is it still available?')).toBe(true);
        expect(comments).toContain('Enquiry: Used Vehicle Enquiry');
        expect(comments).toContain('Marketing opt-in: Yes');
        expect(comments).toContain('Campaign: utm_source=google, utm_campaign=eofy');
        expect(comments).not.toContain('Vehicle Make');
        expect(comments).not.toContain('Mozilla');
        const location = metro.locations.find((candidate) => candidate.id === metroCar.location_id)!;
        expect(textAt(doc, 'vendor > id[source="dealership"]')).toBe(metroCar.dealership_slug);
        expect(textAt(doc, 'vendor > vendorname')).toBe(location.name);
        expect(textAt(doc, 'vendor > contact > phone')).toBe(location.contact_detail.phone);
        expect(textAt(doc, 'vendor > contact > address > street')).toBe(location.address.street);
        expect(textAt(doc, 'vendor > contact > address > postalcode')).toBe(location.address.postcode);
        expect(textAt(doc, 'provider > name')).toBe(ADF_PROVIDER_NAME);
        expect(textAt(doc, 'provider > service')).toBe('Website');
        expect(textAt(doc, 'provider > url')).toBe(metro.url);
      },
    },
  ],
  [
    'general enquiry without a car (an empty vehicle, vendor = primary location)',
    lead(metro, { ...shopper, category: 'General Enquiry', message: 'Are you open on Sunday?', opt_in: false }),
    {
      vehicles: [{ interest: 'buy', status: 'new', year: '', make: '', model: '' }],
      check: (doc) => {
        const primary = metro.locations.find((location) => location.primary)!;
        expect(textAt(doc, 'vendor > vendorname')).toBe(primary.name);
        expect(textAt(doc, 'customer > comments')).toContain('Marketing opt-in: No');
        expect(doc.querySelectorAll('vendor > id[source="carsales"]').length).toBe(primary.external_identifiers.length);
      },
    },
  ],
  [
    'Sell My Car: the SPEC names (Vehicle Make, Vehicle Model, Rego, km) are the trade-in',
    lead(metro, {
      ...shopper,
      category: 'Sell My Car Enquiry',
      'Vehicle Make': 'Mazda',
      'Vehicle Model': 'CX-5',
      year: '2017',
      Rego: 'ABC123',
      regoState: 'NSW',
      km: '85,000',
      message: 'Minor scratch on the bumper',
    }),
    {
      vehicles: [{ interest: 'trade-in', status: 'used', year: '2017', make: 'Mazda', model: 'CX-5' }],
      check: (doc) => {
        const trade = vehicleOf(doc, 'trade-in')!;
        expect(textAt(trade, 'odometer')).toBe('85000');
        expect(trade.querySelector('odometer')!.getAttribute('units')).toBe('km');
        expect(textAt(trade, 'id[source="registration"]')).toBe('ABC123');
        expect(textAt(trade, 'comments')).toContain('Rego: ABC123 (NSW)');
        expect(textAt(doc, 'customer > comments')).not.toContain('Rego');
      },
    },
  ],
  [
    'car enquiry with trade-in details: a second vehicle',
    lead(
      metro,
      {
        ...shopper,
        category: 'New Vehicle Enquiry',
        car_id: metroNewCar.id,
        'Vehicle Make': metroNewCar.make,
        'Vehicle Model': metroNewCar.model,
        Rego: 'XYZ789',
        trade_in_make: 'Holden',
        trade_in_model: 'Commodore',
        'Trade-in Year': 2012,
        trade_in_km: 160000,
      },
      metroNewCar,
    ),
    {
      vehicles: [
        { interest: 'buy', status: 'new', year: String(metroNewCar.year), make: metroNewCar.make, model: metroNewCar.model },
        { interest: 'trade-in', status: 'used', year: '2012', make: 'Holden', model: 'Commodore' },
      ],
      check: (doc) => {
        const trade = vehicleOf(doc, 'trade-in')!;
        expect(textAt(trade, 'odometer')).toBe('160000');
        expect(textAt(trade, 'id[source="registration"]')).toBe('XYZ789');
        expect(textAt(doc, 'customer > comments')).not.toMatch(/trade_in|Trade-in Year/);
      },
    },
  ],
  [
    'test drive booking: interest test-drive, the date in the comments',
    lead(
      metro,
      { ...shopper, category: 'New Vehicle Enquiry', subcategory: 'Test Drive', dateTime: '2025-05-10T10:30', car_id: metroNewCar.id },
      metroNewCar,
    ),
    {
      vehicles: [
        { interest: 'test-drive', status: 'new', year: String(metroNewCar.year), make: metroNewCar.make, model: metroNewCar.model },
      ],
      check: (doc) => {
        const comments = textAt(doc, 'customer > comments')!;
        expect(comments).toContain('Enquiry: New Vehicle Enquiry / Test Drive');
        expect(comments).toContain('Test drive date/time: 2025-05-10T10:30');
      },
    },
  ],
  [
    'a booked test drive: the time in the location’s own words, not the raw value',
    lead(
      metro,
      {
        ...shopper,
        category: 'New Vehicle Enquiry',
        subcategory: 'Test Drive',
        dateTime: '2026-11-23T09:00:00+11:00',
        booking_time: 'Mon, 23 Nov 2026, 9:00 am (Australia/Sydney)',
        booking_location_id: 12,
        car_id: metroNewCar.id,
      },
      metroNewCar,
    ),
    {
      vehicles: [
        { interest: 'test-drive', status: 'new', year: String(metroNewCar.year), make: metroNewCar.make, model: metroNewCar.model },
      ],
      check: (doc) => {
        const comments = textAt(doc, 'customer > comments')!;
        expect(comments).toContain('Test drive date/time: Mon, 23 Nov 2026, 9:00 am (Australia/Sydney)');
        expect(comments).not.toContain('2026-11-23T09:00');
        expect(comments).not.toMatch(/booking_location_id/i);
      },
    },
  ],
  [
    'US site: miles and USD, country US',
    lead(loneStar, { ...shopper, phone: '(512) 555-0100', postcode: '78751', category: 'Used Vehicle Enquiry', car_id: usCar.id }, usCar),
    {
      vehicles: [
        {
          interest: 'buy',
          status: usCar.car_type === 'new' ? 'new' : 'used',
          year: String(usCar.year),
          make: usCar.make,
          model: usCar.model,
        },
      ],
      check: (doc) => {
        const vehicle = vehicleOf(doc, 'buy')!;
        expect(vehicle.querySelector('odometer')!.getAttribute('units')).toBe('mi');
        expect(textAt(vehicle, 'odometer')).toBe(String(Math.round(usCar.km / 1.609344)));
        expect(vehicle.querySelector('price')!.getAttribute('currency')).toBe('USD');
        expect(textAt(doc, 'vendor > contact > address > country')).toBe('US');
        expect(textAt(doc, 'customer > contact > address > country')).toBe('US');
      },
    },
  ],
  [
    'NZ site: NZD and km',
    lead(kiwi, { ...shopper, category: 'Used Vehicle Enquiry' }, nzCar),
    {
      vehicles: [
        {
          interest: 'buy',
          status: nzCar.car_type === 'new' ? 'new' : 'used',
          year: String(nzCar.year),
          make: nzCar.make,
          model: nzCar.model,
        },
      ],
      check: (doc) => {
        expect(doc.querySelector('vehicle > price')!.getAttribute('currency')).toBe('NZD');
        expect(doc.querySelector('vehicle > odometer')!.getAttribute('units')).toBe('km');
      },
    },
  ],
  [
    'names and message with & < > quotes, control characters, a lone surrogate and an emoji',
    lead(metro, {
      name: `Ann & <Bob> "the" O'Brien`,
      last_name: `Smith > Jones & Co <script>`,
      email: 'a&b@example.com',
      phone: '0412 345 678',
      category: 'General Enquiry',
      message: `Line 1 ]]> <![CDATA[ x ]]>\nLine 2 \u0001\u0008\u000B\uFFFE\uD800 end 🚗`,
      'Best "Deal"': 'Yes & <more>',
    }),
    {
      vehicles: [{ interest: 'buy', status: 'new', year: '', make: '', model: '' }],
      check: (doc, xml) => {
        expect(xml).not.toContain('<Bob>');
        expect(xml).not.toContain('<script>');
        for (const invalid of ['\u0001', '\u0008', '\u000B', '\uFFFE', '\uD800']) expect(xml.includes(invalid)).toBe(false);
        expect(textAt(doc, 'customer > contact > name[part="first"]')).toBe(`Ann & <Bob> "the" O'Brien`);
        expect(textAt(doc, 'customer > contact > name[part="last"]')).toBe('Smith > Jones & Co <script>');
        expect(textAt(doc, 'customer > contact > email')).toBe('a&b@example.com');
        const comments = textAt(doc, 'customer > comments')!;
        expect(comments).toContain('Line 1 ]]> <![CDATA[ x ]]>\nLine 2  end 🚗');
        expect(comments).toContain('Best "Deal": Yes & <more>');
      },
    },
  ],
  [
    'service enquiry: the shopper’s car goes into the comments, not a trade-in',
    lead(metro, {
      ...shopper,
      category: 'Service Enquiry',
      Rego: 'SVC111',
      'Vehicle Make': 'Toyota',
      'Vehicle Model': 'Corolla',
      km: '60000',
      dateTime: '2025-05-12T08:00',
    }),
    {
      vehicles: [{ interest: 'buy', status: 'new', year: '', make: '', model: '' }],
      check: (doc) => {
        const comments = textAt(doc, 'customer > comments')!;
        expect(comments).toContain('Vehicle: Toyota Corolla, rego SVC111, 60000 km');
        expect(comments).toContain('Requested date/time: 2025-05-12T08:00');
        expect(comments).not.toContain('Rego:');
      },
    },
  ],
  [
    'new-vehicle enquiry naming a model without a car',
    lead(metro, { ...shopper, category: 'New Vehicle Enquiry', 'Vehicle Make': 'Toyota', 'Vehicle Model': 'RAV4' }),
    { vehicles: [{ interest: 'buy', status: 'new', year: '', make: 'Toyota', model: 'RAV4' }] },
  ],
  [
    'multipart-style strings and a wrapped payload: opt_in "false", location_id as text',
    lead(metro, {
      lead: {
        ...shopper,
        category: 'Finance Enquiry',
        opt_in: 'false',
        location_id: String(metro.locations[1]!.id),
        has_files: 'true',
        'Best Finance': 'Yes',
        cardNumber: '4111111111111111',
      },
    }),
    {
      vehicles: [{ interest: 'buy', status: 'new', year: '', make: '', model: '' }],
      check: (doc, xml) => {
        expect(textAt(doc, 'vendor > vendorname')).toBe(metro.locations[1]!.name);
        const comments = textAt(doc, 'customer > comments')!;
        expect(comments).toContain('Marketing opt-in: No');
        expect(comments).toContain('Best Finance: Yes');
        expect(comments).toContain('Files attached: Yes');
        expect(xml).not.toContain('4111111111111111');
      },
    },
  ],
  [
    'name fallback: "undefined undefined" falls back to first_name; one-word name',
    lead(metro, { name: 'undefined undefined', first_name: 'Kim', email: 'kim@example.com', phone: '', category: 'General Enquiry' }),
    {
      vehicles: [{ interest: 'buy', status: 'new', year: '', make: '', model: '' }],
      check: (doc) => {
        expect(textAt(doc, 'customer > contact > name')).toBe('Kim');
        expect(doc.querySelector('customer > contact > phone')).toBeNull();
      },
    },
  ],
];

describe('leadToAdf', () => {
  it.each(cases)('%s', (_label, input, expected) => {
    const xml = leadToAdf(input);
    expect(xml.startsWith('<?xml version="1.0"?>\n<?ADF VERSION="1.0"?>\n<adf>')).toBe(true);
    expect(validateAdfStructure(xml)).toEqual([]);
    const doc = parse(xml);
    const prospect = doc.querySelector('adf > prospect')!;
    expect(prospect.getAttribute('status')).toBe('new');
    const id = prospect.querySelector(':scope > id')!;
    expect(id.textContent).toBe(String(input.id));
    expect(id.getAttribute('sequence')).toBe('1');
    expect(id.getAttribute('source')).toBe(ADF_PROVIDER_NAME);
    expect(textAt(prospect, ':scope > requestdate')).toBe('2025-05-06T23:15:42Z');
    expect(
      vehicles(doc).map((vehicle) => ({
        interest: vehicle.getAttribute('interest'),
        status: vehicle.getAttribute('status'),
        year: textAt(vehicle, ':scope > year'),
        make: textAt(vehicle, ':scope > make'),
        model: textAt(vehicle, ':scope > model'),
      })),
    ).toEqual(expected.vehicles);
    expect(textAt(doc, 'vendor > vendorname')).not.toBe('');
    expected.check?.(doc, xml);
  });

  it('is deterministic for the same lead', () => {
    const input = cases[0]![1];
    expect(leadToAdf(input)).toBe(leadToAdf(input));
  });

  it('formats the request date as ISO 8601 UTC without fractions', () => {
    expect(adfRequestDate(Date.UTC(2024, 0, 2, 3, 4, 5, 999))).toBe('2024-01-02T03:04:05Z');
  });
});
