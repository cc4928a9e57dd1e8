import { describe, expect, it } from 'vitest';
import type { PublicSiteConfig, SiteConfig } from '@dealer/contracts/site';
import type { EnquiryFormSite } from './lead-validation';
import type { PhoneRuleSite } from './phone';
import {
  assembleLead,
  leadSource,
  primaryLocation,
  siteDealershipSlug,
  yesNoFields,
  type AssembleLeadInput,
  type LeadSettings,
  type LeadSite,
} from './lead-payload';

const site = (lead_settings?: LeadSettings, overrides: Partial<LeadSite> = {}): LeadSite => ({
  slug: 'servco-toyota',
  dealership_id: 7,
  dealerships: [
    { id: 3, slug: 'servco-mazda' },
    { id: 7, slug: 'servco-toyota-dealership' },
  ],
  locations: [
    { id: 101, slug: 'servco-parramatta', primary: false, groupings: ['sales'] },
    { id: 102, slug: 'servco-penrith', primary: true, groupings: ['primary', 'sales'] },
  ],
  ...(lead_settings ? { lead_settings } : {}),
  ...overrides,
});

const page = {
  url: 'https://www.servco.com.au/cars/2021-toyota-hilux-sr5',
  userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X)',
  visitedPages: ['/', '/search/used-cars', '/cars/2021-toyota-hilux-sr5'],
  linkedQueryParams: { utm_source: 'google', gclid: 'Cj0KCQ' },
};

const values = {
  category: 'Used Vehicle Enquiry',
  name: 'Sam',
  last_name: 'Citizen',
  phone: '0412 345 678',
  email: 'sam@example.com.au',
  message: 'Is it still available?',
  car_id: 55123,
};

const assemble = (overrides: Partial<AssembleLeadInput> = {}) => assembleLead({ values, site: site(), page, ...overrides });

describe('fixed fields', () => {
  it('adds source, website_slug, url, user agent, visited pages, linked query params and has_files', () => {
    expect(assemble()).toEqual({
      ...values,
      dealership_slug: 'servco-toyota-dealership',
      has_files: false,
      website_slug: 'servco-toyota',
      url: page.url,
      source: 'Website',
      user_agent: page.userAgent,
      visited_pages: page.visitedPages,
      linked_query_params: page.linkedQueryParams,
    });
    expect(leadSource).toBe('Website');
  });

  it('the browser cannot override the fields set here', () => {
    const lead = assemble({
      values: {
        ...values,
        source: 'Facebook',
        website_slug: 'other-site',
        url: 'x',
        user_agent: 'x',
        visited_pages: ['x'],
        linked_query_params: { a: 'b' },
      },
    });
    expect(lead).toMatchObject({
      source: 'Website',
      website_slug: 'servco-toyota',
      url: page.url,
      user_agent: page.userAgent,
      visited_pages: page.visitedPages,
      linked_query_params: page.linkedQueryParams,
    });
  });

  it('keeps the 50 most recent visited pages', () => {
    const pages = Array.from({ length: 75 }, (_, i) => `/p${i}`);
    const lead = assemble({ page: { ...page, visitedPages: pages } });
    expect(lead.visited_pages).toHaveLength(50);
    expect(lead.visited_pages[0]).toBe('/p25');
    expect(lead.visited_pages.at(-1)).toBe('/p74');
  });

  it.each<[Partial<AssembleLeadInput>, boolean]>([
    [{}, false],
    [{ hasFiles: true }, true],
    [{ values: { ...values, has_files: true } }, true],
    [{ values: { ...values, has_files: 'true' } }, true],
    [{ values: { ...values, has_files: true }, hasFiles: false }, false],
  ])('has_files with %j → %s', (overrides, expected) => {
    expect(assemble(overrides).has_files).toBe(expected);
  });
});

describe('name (first name, filled from first_name)', () => {
  it.each<[Record<string, unknown>, string | undefined]>([
    [{ name: 'Sam' }, 'Sam'],
    [{ name: ' Sam ', first_name: 'Samuel' }, 'Sam'],
    [{ first_name: 'Samuel' }, 'Samuel'],
    [{ name: '', first_name: 'Samuel' }, 'Samuel'],
    [{ name: 'undefined undefined', first_name: 'Samuel' }, 'Samuel'],
    [{ name: 'undefined undefined' }, undefined],
    [{}, undefined],
  ])('%j → %j', (nameValues, expected) => {
    const lead = assemble({ values: { category: 'General Enquiry', ...nameValues } });
    expect(lead.name).toBe(expected);
    expect('name' in lead).toBe(expected !== undefined);
  });
});

describe('category', () => {
  it.each<[Record<string, unknown>, { category?: string; subcategory?: string }]>([
    [{ category: 'Careers Enquiry' }, { category: 'General Enquiry', subcategory: 'Career Enquiry' }],
    [{ category: 'Service Enquiry' }, { category: 'Service Enquiry' }],
    [
      { category: 'Service Enquiry', subcategory: 'Logbook' },
      { category: 'Service Enquiry', subcategory: 'Logbook' },
    ],
    [
      { category: 'Careers Enquiry', subcategory: 'Sales' },
      { category: 'General Enquiry', subcategory: 'Career Enquiry' },
    ],
    [{}, {}],
  ])('%j → %j', (categoryValues, expected) => {
    const lead = assemble({ values: { name: 'Sam', ...categoryValues } });
    expect({ category: lead.category, subcategory: lead.subcategory }).toEqual({
      category: undefined,
      subcategory: undefined,
      ...expected,
    });
  });
});

describe('dealership slug and location id', () => {
  it.each<[string, LeadSite, Record<string, unknown>, { dealership_slug?: string; location_id?: number }]>([
    [
      'the form chooses',
      site(),
      { dealership_slug: 'servco-mazda', location_id: 101 },
      { dealership_slug: 'servco-mazda', location_id: 101 },
    ],
    ['falls back to the site dealership', site(), {}, { dealership_slug: 'servco-toyota-dealership' }],
    ['a blank choice falls back too', site(), { dealership_slug: ' ' }, { dealership_slug: 'servco-toyota-dealership' }],
    [
      'without a dealership_id the first dealership',
      site(undefined, { dealership_id: undefined }),
      {},
      { dealership_slug: 'servco-mazda' },
    ],
    ['no dealerships at all: none', site(undefined, { dealerships: [] }), {}, {}],
    [
      'the location select value is the location id',
      site(),
      { location: '101' },
      { dealership_slug: 'servco-toyota-dealership', location_id: 101 },
    ],
    ['a non-id location is not a location id', site(), { location: 'Parramatta' }, { dealership_slug: 'servco-toyota-dealership' }],
    [
      'forced slug wins over the form',
      site({ forced_dealership_slug: 'servco-group' }),
      { dealership_slug: 'servco-mazda', location_id: 101 },
      { dealership_slug: 'servco-group', location_id: 101 },
    ],
    [
      'a null forced slug does nothing',
      site({ forced_dealership_slug: null }),
      { dealership_slug: 'servco-mazda' },
      { dealership_slug: 'servco-mazda' },
    ],
    [
      'primary-location push: slug and id from the primary location',
      site({ push_to_primary_location: true }),
      { dealership_slug: 'servco-mazda', location_id: 101 },
      { dealership_slug: 'servco-penrith', location_id: 102 },
    ],
    [
      'forced slug and primary push: forced slug, primary id',
      site({ forced_dealership_slug: 'servco-group', push_to_primary_location: true }),
      {},
      { dealership_slug: 'servco-group', location_id: 102 },
    ],
    [
      'primary push without a primary location falls back',
      site({ push_to_primary_location: true }, { locations: [{ id: 101, slug: 'servco-parramatta', primary: false }] }),
      { dealership_slug: 'servco-mazda' },
      { dealership_slug: 'servco-mazda' },
    ],
  ])('%s', (_name, s, extra, expected) => {
    const lead = assembleLead({ values: { ...values, ...extra }, site: s, page });
    expect({ dealership_slug: lead.dealership_slug, location_id: lead.location_id }).toEqual({
      dealership_slug: undefined,
      location_id: undefined,
      ...expected,
    });
  });

  it('primaryLocation uses the primary flag, then the primary grouping', () => {
    expect(primaryLocation(site())?.id).toBe(102);
    expect(primaryLocation({ locations: [{ id: 9, slug: 'a', primary: false, groupings: ['primary'] }] })?.id).toBe(9);
    expect(primaryLocation({ locations: [] })).toBeUndefined();
    expect(siteDealershipSlug(site())).toBe('servco-toyota-dealership');
  });
});

describe("yes/no fields ('Ready to sell', 'Valuation guide', 'Best Finance', 'Best Deal')", () => {
  const answers = { 'Ready to sell': true, 'Valuation guide': false, 'Best Finance': 'true', 'Best Deal': 'false', Other: true };

  it('are the SPEC four', () => {
    expect(yesNoFields).toEqual(['Ready to sell', 'Valuation guide', 'Best Finance', 'Best Deal']);
  });

  it('become Yes/No on the site with yes_no_fields', () => {
    const lead = assemble({ site: site({ yes_no_fields: true }), values: { ...values, ...answers } });
    expect(lead).toMatchObject({ 'Ready to sell': 'Yes', 'Valuation guide': 'No', 'Best Finance': 'Yes', 'Best Deal': 'No', Other: true });
  });

  it('stay booleans elsewhere', () => {
    const lead = assemble({ values: { ...values, ...answers } });
    expect(lead).toMatchObject({ 'Ready to sell': true, 'Valuation guide': false });
  });

  it('unanswered ones stay unanswered', () => {
    const lead = assemble({ site: site({ yes_no_fields: true }) });
    expect('Ready to sell' in lead).toBe(false);
  });
});

describe('opt_in and consent wording', () => {
  const wording = 'I agree to receive offers from Servco Toyota by email and SMS.';
  it.each<[LeadSettings | undefined, unknown, { opt_in?: boolean; consent_wording?: string }]>([
    [undefined, true, { opt_in: true }],
    [undefined, 'false', { opt_in: false }],
    [{ consent_wording: wording }, false, { opt_in: false, consent_wording: wording }],
    [{ consent_wording: wording }, undefined, {}],
    [{ consent_wording: null }, true, { opt_in: true }],
  ])('settings %j, opt_in %j → %j', (settings, optIn, expected) => {
    const lead = assemble({ site: site(settings), values: { ...values, ...(optIn === undefined ? {} : { opt_in: optIn }) } });
    expect({ opt_in: lead.opt_in, consent_wording: lead.consent_wording }).toEqual({
      opt_in: undefined,
      consent_wording: undefined,
      ...expected,
    });
  });
});

describe('multi-step fields', () => {
  it.each<[Partial<AssembleLeadInput>, Record<string, unknown>]>([
    [{ leadId: 812 }, { lead_id: 812 }],
    [{ values: { ...values, lead_id: '812' } }, { lead_id: 812 }],
    [{ leadId: 900, values: { ...values, lead_id: 812 } }, { lead_id: 900 }],
    [
      { stepNumber: 2, skippedSteps: [{ from: 0, to: 2 }] },
      { step_number: 2, skipped_steps: [{ from: 0, to: 2 }] },
    ],
    [{ skippedSteps: [] }, {}],
  ])('%j → %j', (overrides, expected) => {
    const lead = assemble(overrides);
    expect({ lead_id: lead.lead_id, step_number: lead.step_number, skipped_steps: lead.skipped_steps }).toEqual({
      lead_id: undefined,
      step_number: undefined,
      skipped_steps: undefined,
      ...expected,
    });
  });

  it('partial-save fields in the values pass through', () => {
    expect(assemble({ values: { ...values, lead_status: 'Incomplete', form_completed: false } })).toMatchObject({
      lead_status: 'Incomplete',
      form_completed: false,
    });
  });
});

describe('contract fit', () => {
  it('the stored and public site configs can be passed as they are', () => {
    // Compile-time: tsc fails here if the site contract drifts from what these rules read.
    const asLeadSite = (s: SiteConfig | PublicSiteConfig): LeadSite => s;
    const asFormSite = (s: SiteConfig | PublicSiteConfig): EnquiryFormSite => s;
    const asPhoneSite = (s: SiteConfig | PublicSiteConfig): PhoneRuleSite => s;
    expect([asLeadSite, asFormSite, asPhoneSite]).toHaveLength(3);
  });
});
