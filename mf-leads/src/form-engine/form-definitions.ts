import type { PublicSiteConfig } from '@dealer/contracts/site';
import { enquiryTypes } from '@dealer/contracts/lead-values';
import { createElement } from 'react';
import { regoRuleFor } from '@dealer/rules/rego';
import type { FieldDef, FormDef, StepDef } from './field-types';
import { RegoLookupField } from './rego-lookup-field';

type Site = Pick<PublicSiteConfig, 'locations' | 'dealerships' | 'features' | 'locale' | 'lead_settings'>;

const userDetails = (site: Site, extra: FieldDef[] = []): StepDef => ({
  heading: 'User Details',
  fields: [
    { name: 'name', type: 'fullName', label: 'Your name' },
    { name: 'email', type: 'email', label: 'Email' },
    { name: 'phone', type: 'phone', label: 'Phone' },
    ...(site.features.show_postcode
      ? [{ name: 'postcode', type: 'postcode', label: site.locale === 'en-US' ? 'ZIP code' : 'Postcode' } as FieldDef]
      : []),
    ...extra,
  ],
});

const salesLocations = (site: Site) =>
  site.locations
    .filter((location) => location.visible && location.location_type === 'sales')
    .map((location) => ({ value: location.id, name: location.name }));
const serviceLocations = (site: Site) =>
  site.locations
    .filter((location) => location.visible && location.location_type !== 'parts')
    .map((location) => ({ value: location.id, name: location.name }));

// SPEC §5: opt_in defaults to true; a site may start it unticked for Spam Act consent.
const optIn = (site: Site): FieldDef => ({
  name: 'opt_in',
  type: 'optIn',
  label: site.lead_settings?.consent_wording ?? 'Keep me updated with news and offers',
  optional: true,
  defaultValue: site.lead_settings?.opt_in_default ?? true,
});
const comments = (optional = false): FieldDef => ({ name: 'message', type: 'textarea', label: 'Comments', optional });
/** SPEC §5: the enquiry's Comments are required unless the dealer opted out (`lead_settings.comments_optional`). */
const enquiryComments = (site: Site) => comments(site.lead_settings?.comments_optional === true);

/** The enquiry form (SPEC §5): category select when shown, contact details, comments, opt-in. */
export function enquiryForm(site: Site, opts: { showCategory: boolean; category?: string; withLocation?: boolean }): FormDef {
  // On a car's page the car's own location is the dealership: no need to ask.
  const locations = opts.withLocation === false ? [] : salesLocations(site);
  return {
    id: 'enquiry',
    title: 'Submit an enquiry',
    category: opts.category ?? 'General Enquiry',
    steps: [
      {
        heading: 'Submit an enquiry',
        fields: [
          ...(opts.showCategory
            ? [
                {
                  name: 'category',
                  type: 'select',
                  label: 'Enquiry type',
                  defaultValue: opts.category ?? 'General Enquiry',
                  options: enquiryTypes.map((type) => ({ value: type, name: type })),
                } as FieldDef,
              ]
            : []),
          ...userDetails(site).fields,
          ...(locations.length > 1
            ? [{ name: 'location', type: 'locationSelect', label: 'Preferred dealership', options: locations } as FieldDef]
            : []),
          enquiryComments(site),
          optIn(site),
        ],
      },
    ],
  };
}

/** Book a Test Drive (multi-step): details first (saved as Incomplete), then the car, then when; a skip for the unsure. */
export function testDriveForm(site: Site, opts: { hasCar: boolean }): FormDef {
  return {
    id: 'test-drive',
    title: 'Book a Test Drive',
    category: 'New Vehicle Enquiry',
    subcategory: 'Test Drive',
    steps: [
      userDetails(site),
      {
        heading: 'Your vehicle',
        fields: opts.hasCar
          ? [
              {
                name: 'location',
                type: 'locationSelect',
                label: 'Where would you like to drive it?',
                options: salesLocations(site),
                optional: true,
              },
              { name: 'skip-when', type: 'button', label: "I'm flexible on the time: skip", skipTo: 3 },
            ]
          : [
              { name: 'Vehicle Make', type: 'string', label: 'Make you are interested in' },
              { name: 'Vehicle Model', type: 'string', label: 'Model', optional: true },
              ...(salesLocations(site).length > 1
                ? [
                    {
                      name: 'location',
                      type: 'locationSelect',
                      label: 'Where would you like to drive it?',
                      options: salesLocations(site),
                    } as FieldDef,
                  ]
                : []),
              { name: 'skip-when', type: 'button', label: "I'm flexible on the time: skip", skipTo: 3 },
            ],
      },
      // SPEC §5: the test drive date/time is optional; the times offered are the location's free ones.
      {
        heading: 'Date and time',
        fields: [{ name: 'dateTime', type: 'dateTime', label: 'Preferred date and time', optional: true, bookingKind: 'appointment' }],
      },
      { heading: 'Anything else?', fields: [comments(true), optIn(site)] },
    ],
  };
}

export function requestPhotosForm(site: Site): FormDef {
  const views = ['Interior', 'Exterior', 'Engine bay', 'Odometer', 'Service history', 'Any damage'];
  return {
    id: 'request-photos',
    title: 'Request Photos',
    category: 'New Vehicle Enquiry',
    subcategory: 'Request Photos',
    steps: [
      userDetails(site),
      {
        heading: 'Which photos would you like?',
        fields: [
          { name: 'photos_requested', type: 'checkGroup', label: 'Photos', options: views.map((view) => ({ value: view, name: view })) },
          comments(true),
          optIn(site),
        ],
      },
    ],
  };
}

export function financeForm(site: Site): FormDef {
  return {
    id: 'finance',
    title: 'Apply for finance',
    category: 'Finance Enquiry',
    steps: [
      userDetails(site),
      {
        heading: 'Your finance',
        fields: [
          { name: 'vehiclePriceBudget', type: 'currency', label: 'Vehicle price or budget ($)' },
          { name: 'deposit', type: 'currency', label: 'Deposit ($)', optional: true },
          {
            name: 'employment',
            type: 'radioGroup',
            label: 'Employment',
            options: ['Full time', 'Part time', 'Self employed', 'Other'].map((v) => ({ value: v, name: v })),
          },
          {
            name: 'preferredDealership',
            type: 'websiteLocationSelect',
            label: 'Preferred dealership',
            options: site.dealerships.map((d) => ({ value: d.slug, name: d.name })),
            optional: true,
          },
          { name: 'car_id', type: 'hidden', label: '', optional: true },
          { name: 'car_type', type: 'hidden', label: '', optional: true },
          { name: 'vin', type: 'hidden', label: '', optional: true },
          comments(true),
          optIn(site),
        ],
      },
    ],
  };
}

/**
 * Trade-in / Sell your car: the car by rego and state (looked up to fill its make, model, year
 * and badge, which the shopper can also type), its km and photos (sent as files).
 */
export function tradeInForm(site: Site): FormDef {
  const rego = regoRuleFor(site.locale);
  return {
    id: 'trade-in',
    title: 'Value your trade-in',
    category: 'Sell My Car Enquiry',
    partialSave: false,
    steps: [
      userDetails(site),
      {
        heading: 'Your car',
        fields: [
          { name: 'Rego', type: 'rego', label: rego.label },
          ...(rego.states.length
            ? [
                {
                  name: 'regoState',
                  type: 'select',
                  label: rego.stateLabel,
                  options: rego.states.map((s) => ({ value: s, name: s })),
                } as FieldDef,
              ]
            : []),
          { name: 'rego-lookup', type: 'custom', label: 'Find my car', optional: true, render: () => createElement(RegoLookupField) },
          { name: 'Vehicle Make', type: 'string', label: 'Make', optional: true },
          { name: 'Vehicle Model', type: 'string', label: 'Model', optional: true },
          { name: 'Vehicle Year', type: 'year', label: 'Year', optional: true },
          { name: 'Vehicle Badge', type: 'string', label: 'Badge / variant', optional: true },
          { name: 'km', type: 'kilometre', label: site.locale === 'en-US' ? 'Odometer (miles)' : 'Odometer (km)' },
          {
            name: 'photos',
            type: 'file',
            label: 'Photos of your car',
            optional: true,
            accept: 'image/jpeg,image/png,image/webp,image/heic',
          },
          comments(true),
          optIn(site),
        ],
      },
    ],
  };
}

export function serviceForm(site: Site): FormDef {
  return {
    id: 'service',
    title: 'Book a service',
    category: 'Service Enquiry',
    steps: [
      userDetails(site),
      {
        heading: 'Your service',
        fields: [
          { name: 'Rego', type: 'rego', label: 'Registration (rego)', optional: true },
          { name: 'location', type: 'locationSelect', label: 'Service centre', options: serviceLocations(site) },
          {
            name: 'serviceInterval',
            type: 'serviceInterval',
            label: 'Service',
            options: ['Logbook service', 'Minor service', 'Major service', 'Tyres', 'Other'].map((v) => ({ value: v, name: v })),
          },
          { name: 'dateTime', type: 'dateTime', label: 'Preferred drop-off', optional: true, bookingKind: 'service' },
          comments(true),
          optIn(site),
        ],
      },
    ],
  };
}

export function contactForm(site: Site): FormDef {
  return { ...enquiryForm(site, { showCategory: true }), id: 'contact', title: 'Contact us' };
}

export function careersForm(site: Site): FormDef {
  return {
    id: 'careers',
    title: 'Careers',
    category: 'Careers Enquiry',
    conversionEventId: 51,
    steps: [
      {
        heading: 'Careers',
        fields: [
          ...userDetails(site).fields,
          { name: 'role', type: 'string', label: 'Role you are interested in', optional: true },
          enquiryComments(site),
          optIn(site),
        ],
      },
    ],
  };
}
