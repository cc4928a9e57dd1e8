// Runs in the browser (to build the request) and on the server (authoritatively, over what the
// browser sent), so it stays plain TypeScript with no schema library.
import { normaliseStoredCategory } from './enquiry';
import { capVisitedPages } from './first-page-tracking';
import type { StepSkip } from './multi-step';
import { positiveId as toId } from './ids';

/**
 * Per-site lead settings (optional on the site config until the contract carries them).
 * - forced_dealership_slug: every lead goes to this dealership slug (SPEC §3 "forced to a fixed dealership slug").
 * - push_to_primary_location: the slug and location id come from the primary location.
 * - yes_no_fields: the site whose 'Ready to sell', 'Valuation guide', 'Best Finance' and
 *   'Best Deal' answers are sent as 'Yes'/'No' rather than booleans.
 * - opt_in_default: the opt_in box starts ticked unless this is false (Spam Act consent).
 * - consent_wording: the opt-in text shown, stored with each lead that has an opt_in answer.
 * - mobile_only_phone: overrides features.mobile_only_phone (read by phone.ts phoneRuleFor).
 * Mirrors the site contract's leadSettingsSchema, without importing zod.
 */
export type LeadSettings = {
  forced_dealership_slug?: string | null;
  push_to_primary_location?: boolean;
  yes_no_fields?: boolean;
  opt_in_default?: boolean;
  consent_wording?: string | null;
  mobile_only_phone?: boolean;
};

/** The parts of the site config lead assembly reads; a SiteConfig or PublicSiteConfig fits. */
export type LeadSite = {
  slug: string;
  /** Picks the site's own dealership out of `dealerships`; without it the first one is used. */
  dealership_id?: number;
  dealerships: ReadonlyArray<{ id?: number; slug: string }>;
  locations: ReadonlyArray<{ id: number; slug: string; primary: boolean; groupings?: readonly string[] }>;
  lead_settings?: LeadSettings | null;
};

/** Where the lead came from. On the server these are the values the browser sent, and its User-Agent. */
export type LeadPage = {
  url: string;
  userAgent: string;
  /** Oldest first; only the 50 most recent are kept. */
  visitedPages: readonly string[];
  /** The first page's tracked query (first-page-tracking.ts linkedQueryParams). */
  linkedQueryParams: Readonly<Record<string, string>>;
};

export type AssembleLeadInput = {
  /** The form's values (Enquiry payload fields and any form-specific ones). */
  values: Readonly<Record<string, unknown>>;
  site: LeadSite;
  page: LeadPage;
  leadId?: number;
  stepNumber?: number;
  skippedSteps?: readonly StepSkip[];
  /** Files are attached (the with-files call). Defaults to the values' own has_files. */
  hasFiles?: boolean;
};

/** SPEC §3 lead payload: the form's values plus the fields below, sent as `{ lead }`. */
export type AssembledLead = Record<string, unknown> & {
  lead_id?: number;
  step_number?: number;
  skipped_steps?: StepSkip[];
  name?: string;
  category?: string;
  subcategory?: string;
  dealership_slug?: string;
  location_id?: number;
  opt_in?: boolean;
  consent_wording?: string;
  has_files: boolean;
  website_slug: string;
  url: string;
  source: 'Website';
  user_agent: string;
  visited_pages: string[];
  linked_query_params: Record<string, string>;
};

/** SPEC §3: the answers one site receives as 'Yes'/'No' (lead_settings.yes_no_fields). */
export const yesNoFields = ['Ready to sell', 'Valuation guide', 'Best Finance', 'Best Deal'] as const;

/** SPEC §3: every lead's source. */
export const leadSource = 'Website';

const text = (value: unknown): string | undefined => {
  if (typeof value !== 'string') return undefined;
  const trimmed = value.trim();
  return trimmed === '' ? undefined : trimmed;
};

/** Booleans, and the 'true'/'false' strings a multipart (with-files) body turns them into. */
const toBoolean = (value: unknown): boolean | undefined => {
  if (typeof value === 'boolean') return value;
  if (value === 'true') return true;
  if (value === 'false') return false;
  return undefined;
};

/** The site's own dealership slug: the one matching dealership_id, else the first listed. */
export function siteDealershipSlug(site: Pick<LeadSite, 'dealership_id' | 'dealerships'>): string | undefined {
  const own = site.dealership_id === undefined ? undefined : site.dealerships.find((d) => d.id === site.dealership_id);
  return (own ?? site.dealerships[0])?.slug;
}

/** The primary location: flagged primary, else the one grouped as primary. */
export function primaryLocation(site: Pick<LeadSite, 'locations'>): LeadSite['locations'][number] | undefined {
  return site.locations.find((l) => l.primary) ?? site.locations.find((l) => l.groupings?.includes('primary'));
}

/**
 * SPEC §3 lead payload. The values pass through, then:
 * - name is the first name; when missing, blank or the text 'undefined undefined' it is
 *   taken from first_name (and dropped if there is none, so validation reports it).
 * - category: a stored 'Careers Enquiry' becomes 'General Enquiry' with subcategory
 *   'Career Enquiry' (normaliseStoredCategory).
 * - dealership_slug: lead_settings.forced_dealership_slug, else the primary location's slug
 *   on push-to-primary sites, else the form's dealership_slug, else the site's dealership.
 * - location_id: the primary location's id on push-to-primary sites, else the form's
 *   location_id, else its location select value (the location id).
 * - yes_no_fields sites: the four answers become 'Yes'/'No'.
 * - opt_in as a boolean, with the site's consent wording beside it when set.
 * - source 'Website', website_slug, url, user_agent, visited_pages (50 most recent),
 *   linked_query_params, has_files; lead_id, step_number and skipped_steps when given.
 * Fields set here replace any the browser sent under the same name.
 */
export function assembleLead(input: AssembleLeadInput): AssembledLead {
  const { values, site, page } = input;
  const settings = site.lead_settings ?? {};
  const lead: Record<string, unknown> = { ...values };

  const name = text(values.name);
  const firstName = text(values.first_name);
  const resolvedName = name && name !== 'undefined undefined' ? name : firstName;
  if (resolvedName) lead.name = resolvedName;
  else delete lead.name;

  const category = text(values.category);
  if (category) {
    const normalised = normaliseStoredCategory(category);
    lead.category = normalised.category;
    if (normalised.subcategory) lead.subcategory = normalised.subcategory;
  }

  const primary = settings.push_to_primary_location ? primaryLocation(site) : undefined;
  const dealershipSlug = text(settings.forced_dealership_slug) ?? primary?.slug ?? text(values.dealership_slug) ?? siteDealershipSlug(site);
  if (dealershipSlug) lead.dealership_slug = dealershipSlug;
  else delete lead.dealership_slug;
  const locationId = primary?.id ?? toId(values.location_id) ?? toId(values.location);
  if (locationId !== undefined) lead.location_id = locationId;
  else delete lead.location_id;

  if (settings.yes_no_fields) {
    for (const field of yesNoFields) {
      const answer = toBoolean(values[field]);
      if (answer !== undefined) lead[field] = answer ? 'Yes' : 'No';
    }
  }

  const optIn = toBoolean(values.opt_in);
  if (optIn !== undefined) {
    lead.opt_in = optIn;
    const wording = text(settings.consent_wording);
    if (wording) lead.consent_wording = wording;
  }

  const leadId = input.leadId ?? toId(values.lead_id);
  if (leadId !== undefined) lead.lead_id = leadId;
  if (input.stepNumber !== undefined) lead.step_number = input.stepNumber;
  if (input.skippedSteps && input.skippedSteps.length > 0) {
    lead.skipped_steps = input.skippedSteps.map((skip) => ({ from: skip.from, to: skip.to }));
  }

  const linked: Record<string, string> = {};
  for (const [key, value] of Object.entries(page.linkedQueryParams)) if (typeof value === 'string') linked[key] = value;

  return {
    ...lead,
    has_files: input.hasFiles ?? toBoolean(values.has_files) ?? false,
    website_slug: site.slug,
    url: page.url,
    source: leadSource,
    user_agent: page.userAgent,
    visited_pages: capVisitedPages(page.visitedPages.filter((p): p is string => typeof p === 'string')),
    linked_query_params: linked,
  };
}
