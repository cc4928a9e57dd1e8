import { describe, expect, it } from 'vitest';
import { pageContentSchema, type PageContent } from '@dealer/contracts/content';
import type { Location } from '@dealer/contracts/location';
import type { PublicSiteConfig } from '@dealer/contracts/site';
import { testSite } from '@dealer/contracts/testing/test-site';
import { defaultPages, fitText } from './default-pages';
import { resolveRoute } from './routes';

/** The markup rich text may hold (the console's editor and the server's sanitiser agree on it). */
const allowedTags = new Set(['p', 'h2', 'h3', 'h4', 'strong', 'em', 'u', 's', 'a', 'ul', 'ol', 'li', 'blockquote', 'br']);

/** Every html field of a page. */
function htmlOf(page: PageContent): string[] {
  return page.blocks.flatMap((block) => {
    if (block.type === 'rich_text') return [block.html];
    if (block.type === 'faq') return block.items.map((item) => item.answer_html);
    return [];
  });
}

/** Tags outside the allowlist, attributes a link does not get from the server's sanitiser, and unescaped text. */
function markupProblems(html: string): string[] {
  const problems: string[] = [];
  const link = /^ href="(\/[a-z0-9/-]*|https:\/\/[^"]+" target="_blank" rel="noopener noreferrer|mailto:[^"]+|tel:[+\d]+)"$/;
  for (const [, closing, tag, attributes] of html.matchAll(/<(\/?)([a-zA-Z0-9]+)([^>]*)>/g)) {
    if (!allowedTags.has(tag!)) problems.push(`<${tag}>`);
    const fine = attributes === '' || (tag === 'br' && attributes === ' /') || (tag === 'a' && !closing && link.test(attributes!));
    if (!fine) problems.push(`<${closing}${tag}${attributes}>`);
  }
  if (/<(?![a-zA-Z/])|&(?![a-z]+;|#\d+;)/.test(html)) problems.push('unescaped < or &');
  return problems;
}

function place(id: number, type: Location['location_type'], street: string, city: string, state: string, postcode: string, full: string) {
  const [first] = testSite().locations;
  return {
    ...first!,
    id,
    name: `${city} ${type}`,
    location_type: type,
    primary: type === 'sales',
    dealer_license_number: type === 'sales' ? 'P12345' : null,
    contact_detail: { ...first!.contact_detail, phone: '(512) 555-0142', email: `${type}@lonestar.example.com` },
    address: { ...first!.address, street, city, state, postcode, full },
  };
}

const sites: Record<'AU' | 'NZ' | 'US', PublicSiteConfig> = {
  AU: testSite(),
  NZ: testSite({
    name: 'Kiwi Motors',
    locale: 'en-NZ',
    phone: '09 555 0142',
    address: { city: 'Auckland', state: 'Auckland' },
    locations: [place(201, 'sales', '12 Great South Road', 'Auckland', 'Auckland', '1061', '12 Great South Road, Penrose, Auckland 1061')],
  }),
  US: testSite({
    name: 'Lone Star Auto',
    locale: 'en-US',
    phone: '(512) 555-0142',
    address: { city: 'Austin', state: 'TX' },
    locations: [
      place(301, 'sales', '4100 N Lamar Blvd', 'Austin', 'TX', '78756', '4100 N Lamar Blvd, Austin, TX 78756'),
      place(302, 'service', '200 Main St', 'Round Rock', 'TX', '78664', '200 Main St, Round Rock, TX 78664'),
    ],
  }),
};

const expectedSlugs = [
  'privacy-policy',
  'terms-and-conditions',
  'about',
  'fleet-service',
  'vehicle-parts-and-accessories',
  'special-offers',
  'careers',
  'dealerships',
  'our-locations',
];

const textOf = (pages: ReturnType<typeof defaultPages>, slug: string) => {
  const page = pages.find((entry) => entry.slug === slug);
  if (!page) throw new Error(`no ${slug} page`);
  return htmlOf(page.content).join(' ');
};

describe.each(Object.entries(sites))('the default pages of a site in %s', (_country, site) => {
  const pages = defaultPages(site);

  it('are the starter pages, each a page the contract takes as it is', () => {
    expect(pages.map((page) => page.slug)).toEqual(expectedSlugs);
    for (const page of pages) {
      expect(pageContentSchema.parse(page.content), page.slug).toEqual(page.content);
      expect(page.content.seo.title!.length, page.slug).toBeLessThanOrEqual(70);
      expect(page.content.seo.description!.length, page.slug).toBeLessThanOrEqual(160);
      expect(resolveRoute(site, `/${page.slug}`), page.slug).toEqual({ kind: 'content', page: page.slug });
    }
  });

  it('write only the markup rich text allows, and link only to pages that exist', () => {
    for (const page of pages) {
      for (const html of htmlOf(page.content)) {
        expect(markupProblems(html), page.slug).toEqual([]);
        for (const [, href] of html.matchAll(/href="(\/[^"]*)"/g)) {
          expect(resolveRoute(site, href!).kind, `${page.slug} links ${href}`).not.toBe('not-found');
        }
      }
      for (const block of page.content.blocks) {
        if (block.type === 'cta') expect(resolveRoute(site, block.button.to).kind).toBe('lead-form');
      }
    }
  });

  it('give the privacy policy the sections a shopper needs, with the dealer’s contact details', () => {
    const privacy = textOf(pages, 'privacy-policy');
    for (const heading of [
      'What we collect',
      'Why we use it',
      'Who we share it with',
      'Cookies and analytics',
      'Marketing and opting out',
      'Complaints',
      'Contact us',
    ]) {
      expect(privacy).toContain(`<h2>${heading}</h2>`);
    }
    for (const words of [
      'Finance applications',
      'Test drives',
      'Reservations and deposits',
      'Stripe',
      'Manufacturers',
      'CRM',
      'href="/unsubscribe"',
    ]) {
      expect(privacy).toContain(words);
    }
    const main = site.locations[0]!;
    expect(privacy).toContain(main.contact_detail.email);
    expect(privacy).toContain(main.contact_detail.phone);
    expect(privacy).toContain(main.address.full);
  });

  it('puts the careers form and open jobs on the careers page, and a form on the parts page', () => {
    const careers = pages.find((page) => page.slug === 'careers')!.content.blocks.map((block) => block.type);
    expect(careers).toEqual(['rich_text', 'jobs_list', 'lead_form']);
    const parts = pages.find((page) => page.slug === 'vehicle-parts-and-accessories')!.content.blocks;
    expect(parts.find((block) => block.type === 'lead_form')).toMatchObject({ form: 'contact' });
    expect(pages.find((page) => page.slug === 'special-offers')!.content.blocks.map((block) => block.type)).toEqual([
      'rich_text',
      'offers_list',
    ]);
    expect(pages.find((page) => page.slug === 'about')!.content.blocks.map((block) => block.type)).toEqual([
      'hero',
      'rich_text',
      'locations',
    ]);
  });
});

describe('the law each country’s pages name', () => {
  const privacy = (country: keyof typeof sites) => textOf(defaultPages(sites[country]), 'privacy-policy');
  const terms = (country: keyof typeof sites) => textOf(defaultPages(sites[country]), 'terms-and-conditions');

  it('Australia: the Privacy Act 1988, the APPs, the OAIC; drive-away prices and the Australian Consumer Law', () => {
    expect(privacy('AU')).toContain('<em>Privacy Act 1988</em> (Cth)');
    expect(privacy('AU')).toContain('Australian Privacy Principles');
    expect(privacy('AU')).toContain('Office of the Australian Information Commissioner (OAIC)');
    expect(terms('AU')).toContain('<strong>drive-away</strong>');
    expect(terms('AU')).toContain('Our goods come with guarantees that cannot be excluded under the Australian Consumer Law.');
    expect(terms('AU')).toContain('governed by the law of New South Wales');
    expect(terms('AU')).toContain('dealer licence MD 012345');
  });

  it('New Zealand: the Privacy Act 2020, its IPPs, the Privacy Commissioner; the Consumer Guarantees Act', () => {
    expect(privacy('NZ')).toContain('<em>Privacy Act 2020</em>');
    expect(privacy('NZ')).toContain('Information Privacy Principles');
    expect(privacy('NZ')).toContain('Privacy Commissioner');
    expect(privacy('NZ')).not.toContain('Australian');
    expect(terms('NZ')).toContain('<em>Consumer Guarantees Act 1993</em>');
    expect(terms('NZ')).toContain('governed by the law of New Zealand');
    expect(terms('NZ')).not.toContain('drive-away');
  });

  it('United States: California’s CCPA/CPRA rights and state law, in US English', () => {
    expect(privacy('US')).toContain('Your California privacy rights');
    expect(privacy('US')).toContain('CCPA/CPRA');
    expect(privacy('US')).not.toMatch(/Privacy Act (1988|2020)/);
    expect(privacy('US')).toContain('ZIP code');
    expect(terms('US')).toContain('Buyers Guide');
    expect(terms('US')).toContain('governed by the law of the State of Texas');
    expect(terms('US')).not.toContain('drive-away');
    const all = defaultPages(sites.US)
      .map((page) => JSON.stringify(page.content))
      .join(' ');
    expect(all).not.toMatch(/enquir/i);
    expect(all).toContain('inquiry');
  });

  it('every country: finance subject to approval, deposits refundable under the dealer’s policy', () => {
    for (const country of ['AU', 'NZ', 'US'] as const) {
      expect(terms(country)).toContain('All finance is subject to the lender’s approval');
      expect(terms(country)).toContain('Deposits are refundable in line with our deposit policy');
    }
  });
});

describe('defaultPages', () => {
  it('escapes the dealer’s name in html but not in titles', () => {
    const pages = defaultPages(testSite({ name: 'Smith & Sons <Motors>' }));
    const about = pages.find((page) => page.slug === 'about')!.content;
    expect(about.title).toBe('About Smith & Sons <Motors>');
    const html = htmlOf(about).join('');
    expect(html).toContain('Smith &amp; Sons &lt;Motors&gt;');
    expect(markupProblems(html)).toEqual([]);
  });

  it('puts the about page at about-us on a site that serves its pages under /pages/', () => {
    const site = testSite({ features: { ...testSite().features, uses_pages_path: true } });
    expect(defaultPages(site).map((page) => page.slug)).toContain('about-us');
    expect(defaultPages(site).map((page) => page.slug)).not.toContain('about');
  });

  it('cuts long search texts at a word', () => {
    expect(fitText('Privacy Policy | A Very Long Dealership Name That Goes On And On Pty Ltd Trading As', 70)).toBe(
      'Privacy Policy | A Very Long Dealership Name That Goes On And On Pty…',
    );
    expect(fitText('Short', 70)).toBe('Short');
  });
});
