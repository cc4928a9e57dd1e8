/**
 * The pages a new site starts with (issue 24): the privacy policy and terms of its country, and
 * starter pages for the links every site has (about, parts, fleet, offers, careers, locations), so
 * no menu link opens an empty page. The dealer rewrites them in the console; the demo seed adds
 * its own touches on top (platform/demo/src/demo-content.ts).
 */
import type { VehicleCategory } from '@dealer/contracts/car';
import type { ContentBlock, PageContent } from '@dealer/contracts/content';
import type { Location } from '@dealer/contracts/location';
import type { SiteConfig, SiteLocale } from '@dealer/contracts/site';
import { escapeHtml, privacyPolicy, termsAndConditions, type Country } from './default-legal-pages';
import { t } from './locale';
import { searchPathFor } from './routes';
import { siteTemplateDefaults } from './site-templates';
import { vehiclePhotoPath } from './images';

export { escapeHtml };

export type DefaultPagesSite = Pick<
  SiteConfig,
  'name' | 'locale' | 'phone' | 'address' | 'locations' | 'template' | 'vehicle_category' | 'default_search_path' | 'features'
>;

export type DefaultPage = { slug: string; content: PageContent };
type ContentImage = Extract<ContentBlock, { type: 'image' }>['image'];

export const countryOf = (locale: SiteLocale): Country => (locale === 'en-NZ' ? 'NZ' : locale === 'en-US' ? 'US' : 'AU');

/** A text cut to at most `max` characters at a word, with an ellipsis: search results cut longer ones anyway. */
export function fitText(text: string, max: number): string {
  const trimmed = text.trim();
  if (trimmed.length <= max) return trimmed;
  const cut = trimmed.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).replace(/[\s,.;:|–-]+$/, '')}…`;
}

/** A page's search title (≤ 70) and description (≤ 160). */
export const seoOf = (title: string, description: string): PageContent['seo'] => ({
  title: fitText(title, 70),
  description: fitText(description, 160),
});

/** Body styles the platform's drawn vehicle photos know, per category: varied pictures that fit the site. */
export const photoBodies: Record<VehicleCategory, readonly string[]> = {
  car: ['suv', 'sedan', 'hatch', 'ute', 'wagon', 'coupe'],
  subscription: ['suv', 'hatch', 'sedan', 'wagon'],
  rental: ['hatch', 'sedan', 'suv', 'van'],
  truck: ['prime-mover', 'cab-chassis', 'pantech', 'tipper', 'van'],
  motorcycle: ['adventure', 'naked', 'cruiser', 'sport', 'touring'],
  camper: ['caravan', 'motorhome', 'pop-top', 'camper-trailer'],
};

/** One of the platform's drawn vehicle photos for a site of this category (`index` picks body and angle). */
export function categoryPhoto(category: VehicleCategory, index: number, colour = 'white'): string {
  const bodies = photoBodies[category];
  return vehiclePhotoPath({ category, body: bodies[index % bodies.length]!, colour, variant: index % 8 });
}

const auStates: Record<string, string> = {
  NSW: 'New South Wales',
  VIC: 'Victoria',
  QLD: 'Queensland',
  WA: 'Western Australia',
  SA: 'South Australia',
  TAS: 'Tasmania',
  ACT: 'the Australian Capital Territory',
  NT: 'the Northern Territory',
};

const usStates: Record<string, string> = Object.fromEntries(
  (
    'AL Alabama|AK Alaska|AZ Arizona|AR Arkansas|CA California|CO Colorado|CT Connecticut|DE Delaware|DC District of Columbia|FL Florida|' +
    'GA Georgia|HI Hawaii|ID Idaho|IL Illinois|IN Indiana|IA Iowa|KS Kansas|KY Kentucky|LA Louisiana|ME Maine|MD Maryland|' +
    'MA Massachusetts|MI Michigan|MN Minnesota|MS Mississippi|MO Missouri|MT Montana|NE Nebraska|NV Nevada|NH New Hampshire|' +
    'NJ New Jersey|NM New Mexico|NY New York|NC North Carolina|ND North Dakota|OH Ohio|OK Oklahoma|OR Oregon|PA Pennsylvania|' +
    'RI Rhode Island|SC South Carolina|SD South Dakota|TN Tennessee|TX Texas|UT Utah|VT Vermont|VA Virginia|WA Washington|' +
    'WV West Virginia|WI Wisconsin|WY Wyoming'
  )
    .split('|')
    .map((entry) => [entry.slice(0, 2), entry.slice(3)]),
);

/** The location that speaks for the site: its primary one shown to shoppers, else the first shown. */
export function mainLocation(site: Pick<SiteConfig, 'locations'>): Location | undefined {
  const visible = site.locations.filter((location) => location.visible);
  return visible.find((location) => location.primary) ?? visible[0] ?? site.locations[0];
}

function contactHtml(site: DefaultPagesSite): string {
  const main = mainLocation(site);
  const email = main?.contact_detail.email ?? site.locations.find((location) => location.contact_detail.email)?.contact_detail.email;
  const phone = main?.contact_detail.phone || site.phone;
  const lines = [
    `<strong>${escapeHtml(site.name)}</strong>`,
    escapeHtml(main?.address.full ?? `${site.address.city} ${site.address.state}`),
    ...(phone ? [`Phone: <a href="tel:${phone.replace(/[^\d+]/g, '')}">${escapeHtml(phone)}</a>`] : []),
    ...(email ? [`E-mail: <a href="mailto:${escapeHtml(email)}">${escapeHtml(email)}</a>`] : []),
  ];
  // `<br />`, as the server's sanitiser writes it, so a stored default is what saving it unchanged would store.
  return `<p>${lines.join('<br />')}</p>`;
}

const richText = (id: string, html: string): ContentBlock => ({ type: 'rich_text', id, html });
const locationsBlock: ContentBlock = { type: 'locations', id: 'locations', show_hours: true };

/** US English where the site is American: the words the locale swaps (enquiry, colour…), in text and html alike. */
function localise(page: PageContent, locale: SiteLocale): PageContent {
  const say = (text: string) => t(locale, text);
  const blocks = page.blocks.map((block): ContentBlock => {
    switch (block.type) {
      case 'rich_text':
        return { ...block, html: say(block.html) };
      case 'faq':
        return { ...block, items: block.items.map((item) => ({ question: say(item.question), answer_html: say(item.answer_html) })) };
      case 'hero':
        return { ...block, headline: say(block.headline), ...(block.text ? { text: say(block.text) } : {}) };
      case 'lead_form':
        return block.title ? { ...block, title: say(block.title) } : block;
      default:
        return block;
    }
  });
  const seo = { ...page.seo, ...(page.seo.description ? { description: say(page.seo.description) } : {}) };
  return { ...page, title: say(page.title), blocks, seo };
}

/** What the site sells, in a shopper's words: 'new, used & demo cars'. */
const nounOf = (site: Pick<SiteConfig, 'template'>) => siteTemplateDefaults[site.template].noun.toLowerCase();

function aboutPage(site: DefaultPagesSite): PageContent {
  const name = escapeHtml(site.name);
  const city = escapeHtml(mainLocation(site)?.address.city ?? site.address.city);
  const image: ContentImage = { src: categoryPhoto(site.vehicle_category, 1), alt: `A vehicle from the ${site.name} range` };
  return {
    title: `About ${site.name}`,
    blocks: [
      {
        type: 'hero',
        id: 'hero',
        image,
        headline: `About ${site.name}`,
        text: `Local people helping you find, finance and look after your next vehicle.`,
        cta: { label: 'Browse our stock', to: searchPathFor(site) },
      },
      richText(
        'story',
        `<p>${name} sells ${escapeHtml(nounOf(site))} in ${city} and the areas around it. Our team is here to help you choose the right vehicle, arrange finance and a fair price for your trade-in, and keep your vehicle running well long after you drive away.</p>` +
          `<h2>Why buy from us</h2><ul><li>Every vehicle is checked by our team before it goes on sale.</li><li>Clear prices, with what is included said up front.</li><li>Finance, insurance and trade-ins arranged in one visit.</li><li>Service and parts from people who know your vehicle.</li></ul>` +
          `<p>Come and see us at one of our locations below, or <a href="/contact">send us an enquiry</a>.</p>`,
      ),
      locationsBlock,
    ],
    seo: seoOf(
      `About Us | ${site.name}`,
      `Meet ${site.name}: ${nounOf(site)} in ${mainLocation(site)?.address.city ?? site.address.city}, with finance, service and parts.`,
    ),
  };
}

function fleetPage(site: DefaultPagesSite): PageContent {
  return {
    title: 'Fleet Service',
    blocks: [
      richText(
        'intro',
        `<p>Whether you run two vehicles or two hundred, ${escapeHtml(site.name)} looks after businesses, government and not-for-profit fleets with one point of contact.</p>` +
          `<h2>What we offer fleets</h2><ul><li>Fleet pricing on new and demo vehicles, and buy-backs of your outgoing ones.</li><li>A dedicated fleet manager who handles orders, delivery and paperwork.</li><li>Priority servicing, with loan vehicles and pick-up where available.</li><li>Finance and leasing options arranged through our partners.</li></ul>`,
      ),
      {
        type: 'faq',
        id: 'questions',
        items: [
          {
            question: 'How many vehicles make a fleet?',
            answer_html: '<p>Usually three or more registered to a business, but ask us: we help smaller operators too.</p>',
          },
          {
            question: 'Can you service vehicles you did not sell us?',
            answer_html: '<p>Yes. We service most makes and keep records of every vehicle in your fleet.</p>',
          },
          {
            question: 'Do you offer finance or leasing for fleets?',
            answer_html: '<p>Yes. Finance and leasing are arranged through our partners and are subject to their approval.</p>',
          },
          {
            question: 'How quickly can you supply vehicles?',
            answer_html:
              '<p>Vehicles in stock can be ready within days; factory orders depend on the manufacturer. We give you dates before you order.</p>',
          },
        ],
      },
      {
        type: 'cta',
        id: 'contact',
        headline: 'Talk to our fleet team',
        text: 'Tell us about your fleet and we will put together a proposal.',
        button: { label: 'Contact us', to: '/contact-us' },
      },
    ],
    seo: seoOf(
      `Fleet Service | ${site.name}`,
      `Fleet pricing, a dedicated fleet manager, priority servicing and finance from ${site.name}.`,
    ),
  };
}

function partsPage(site: DefaultPagesSite): PageContent {
  return {
    title: 'Parts and Accessories',
    blocks: [
      richText(
        'intro',
        `<p>Our parts team supplies genuine and quality aftermarket parts and accessories for the ${escapeHtml(nounOf(site))} we sell and service, for workshops and owners alike.</p>` +
          `<ul><li>Genuine parts, backed by the manufacturer’s parts warranty.</li><li>Accessories fitted by our technicians, or ready to collect.</li><li>Parts ordered in for you when they are not on the shelf.</li></ul>` +
          `<p>Tell us your vehicle’s make, model and year (or its VIN) and what you need, and we will come back to you with price and availability.</p>`,
      ),
      { type: 'lead_form', id: 'parts-form', form: 'contact', title: 'Ask our parts team' },
    ],
    seo: seoOf(
      `Parts and Accessories | ${site.name}`,
      `Genuine parts and accessories from ${site.name}: ask our parts team for price and availability.`,
    ),
  };
}

function offersPage(site: DefaultPagesSite): PageContent {
  return {
    title: 'Special Offers',
    blocks: [
      richText(
        'intro',
        `<p>The latest offers from ${escapeHtml(site.name)}. Offers are for a limited time and while stock lasts; each one lists its terms.</p>`,
      ),
      { type: 'offers_list', id: 'offers', limit: 24 },
    ],
    seo: seoOf(`Special Offers | ${site.name}`, `Current deals on ${nounOf(site)} at ${site.name}, for a limited time.`),
  };
}

function careersPage(site: DefaultPagesSite): PageContent {
  return {
    title: 'Careers',
    blocks: [
      richText(
        'intro',
        `<p>Join the team at ${escapeHtml(site.name)}. We look for people who enjoy helping customers, in sales, service, parts and the office, and we train and promote from within.</p>` +
          `<p>See our open positions below. If none fits, send us your details anyway: we keep them on file for the next opening.</p>`,
      ),
      { type: 'jobs_list', id: 'jobs' },
      { type: 'lead_form', id: 'apply', form: 'careers', title: 'Send us your details' },
    ],
    seo: seoOf(`Careers | ${site.name}`, `Work at ${site.name}: open positions in sales, service, parts and administration.`),
  };
}

function locationsPage(site: DefaultPagesSite, title: string): PageContent {
  const count = site.locations.filter((location) => location.visible).length;
  return {
    title,
    blocks: [
      richText(
        'intro',
        count > 1
          ? `<p>${escapeHtml(site.name)} has ${count} locations. Find the nearest one, its opening hours and how to get in touch.</p>`
          : `<p>Find ${escapeHtml(site.name)}, our opening hours and how to get in touch.</p>`,
      ),
      locationsBlock,
    ],
    seo: seoOf(`${title} | ${site.name}`, `Addresses, opening hours and phone numbers of ${site.name}.`),
  };
}

/**
 * Every default page of the site, each ready for `pageContentSchema`. The about page sits at
 * `about-us` on a site that serves its pages under /pages/ (its footer links /pages/about-us).
 */
export function defaultPages(site: DefaultPagesSite): DefaultPage[] {
  const country = countryOf(site.locale);
  const main = mainLocation(site);
  const state = main?.address.state ?? site.address.state;
  const legal = {
    country,
    name: site.name,
    stateName: (country === 'US' ? usStates[state] : auStates[state]) ?? state,
    contactHtml: contactHtml(site),
    licence: main?.dealer_license_number ?? null,
    seo: seoOf,
  };
  const pages: DefaultPage[] = [
    { slug: 'privacy-policy', content: privacyPolicy(legal) },
    { slug: 'terms-and-conditions', content: termsAndConditions(legal) },
    { slug: site.features.uses_pages_path ? 'about-us' : 'about', content: aboutPage(site) },
    { slug: 'fleet-service', content: fleetPage(site) },
    { slug: 'vehicle-parts-and-accessories', content: partsPage(site) },
    { slug: 'special-offers', content: offersPage(site) },
    { slug: 'careers', content: careersPage(site) },
    { slug: 'dealerships', content: locationsPage(site, 'Dealerships') },
    { slug: 'our-locations', content: locationsPage(site, 'Our Locations') },
  ];
  return pages.map((page) => ({ slug: page.slug, content: localise(page.content, site.locale) }));
}
