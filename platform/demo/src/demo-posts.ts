/**
 * The demo sites' news posts and special offers (issue 24): short, deterministic texts built from
 * the site's own makes, models and towns. Metro alone has 1,357 posts, so each is a few sentences
 * and costs a handful of string joins.
 */
import type { Car } from '@dealer/contracts/car';
import type { OfferContent, PostContent } from '@dealer/contracts/content';
import type { SiteConfig } from '@dealer/contracts/site';
import { categoryPhoto, countryOf, escapeHtml, fitText, seoOf } from '@dealer/rules/default-pages';
import { kebab } from '@dealer/rules/new-site-config';
import { t } from '@dealer/rules/locale';
import { isListed } from './demo-sites';
import { personFor } from './demo-reviews';
import type { Rng } from './prng';

const day = 86_400_000;
const year = 365.25 * day;
const months = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const colours = ['white', 'grey', 'silver', 'black', 'blue', 'red'];

export type ContentSite = Pick<
  SiteConfig,
  'name' | 'locale' | 'locations' | 'vehicle_category' | 'template' | 'stock' | 'dealerships' | 'blogs' | 'offers' | 'city'
>;

/** A date as the site's country writes it: 3 March 2026, or March 3, 2026 in the US. */
export function displayDate(site: Pick<SiteConfig, 'locale'>, at: number): string {
  const date = new Date(at);
  const [d, m, y] = [date.getUTCDate(), months[date.getUTCMonth()]!, date.getUTCFullYear()];
  return site.locale === 'en-US' ? `${m} ${d}, ${y}` : `${d} ${m} ${y}`;
}

/** A slug from a title, made unique among `taken` with a number when it repeats. */
export function uniqueSlug(taken: Set<string>, title: string): string {
  const base = kebab(title).slice(0, 70).replace(/-+$/, '');
  let slug = base;
  for (let n = 2; taken.has(slug); n++) slug = `${base}-${n}`;
  taken.add(slug);
  return slug;
}

/** The makes and models the site has in stock ('Toyota HiLux'), or the kind of vehicle it sells when it has none. */
function modelsOf(site: ContentSite): { make: string; model: string }[] {
  const models = Object.keys(site.stock.make_models).map((key) => {
    const [make = '', model = ''] = key.split(':');
    return { make, model };
  });
  return models.length > 0 ? models : [{ make: site.name, model: site.vehicle_category }];
}

const towns = (site: ContentSite) => [...new Set(site.locations.filter((entry) => entry.visible).map((entry) => entry.address.city))];

type PostIdea = (words: { make: string; model: string; other: string; town: string; year: number; thing: string }) => {
  title: string;
  lead: string;
};

const postIdeas: readonly PostIdea[] = [
  ({ year, make, model }) => ({
    title: `${year} ${make} ${model} review: what is new`,
    lead: `We spent a week with the ${year} ${make} ${model}.`,
  }),
  ({ make, model, other }) => ({
    title: `${make} ${model} vs ${other}: which suits you?`,
    lead: `Two popular choices on our yard go head to head.`,
  }),
  ({ model }) => ({
    title: `Five things to check before buying a used ${model}`,
    lead: `A used ${model} is a smart buy if you know what to look for.`,
  }),
  ({ make }) => ({
    title: `How to get the best trade-in price for your ${make}`,
    lead: `A little preparation adds real money to your trade-in.`,
  }),
  ({ make, model, town }) => ({
    title: `New ${make} ${model} stock arrives in ${town}`,
    lead: `Fresh stock of the ${make} ${model} has landed in ${town}.`,
  }),
  ({ town, year }) => ({ title: `Meet our ${town} team (${year})`, lead: `The people who look after you in ${town}.` }),
  ({ thing, year }) => ({
    title: `Finance explained: paying for your next ${thing} in ${year}`,
    lead: `Secured loans, leases and balloons, in plain words.`,
  }),
  ({ town }) => ({ title: `Weekend drives from ${town}`, lead: `Three drives our team loves, all within two hours of ${town}.` }),
  ({ make, model }) => ({
    title: `Getting the most from your ${make} ${model}’s first service`,
    lead: `What happens at the first service and why it matters.`,
  }),
  ({ thing, year }) => ({
    title: `${year} buyer’s guide: choosing the right ${thing}`,
    lead: `Size, budget and running costs, one question at a time.`,
  }),
  ({ town, year }) => ({
    title: `${year} community day in ${town}: thank you`,
    lead: `Thank you to everyone who came along to our community day in ${town}.`,
  }),
  ({ make, model }) => ({
    title: `Towing with the ${make} ${model}: what you need to know`,
    lead: `Towing capacity is only part of the story.`,
  }),
];

const postMiddles = [
  'Our team has driven, sold and serviced {model}s for years, and the questions customers ask us most are about running costs, safety and resale value.',
  'Before you decide, book a test drive at {town} and bring along everything you usually carry: it is the quickest way to know whether a vehicle fits your life.',
  'Our service department sees the same few issues again and again, and almost all of them are avoided by servicing on time and keeping the paperwork together.',
  'Prices move with the season, so it pays to watch for factory bonuses and run-out deals, and to have your finance approved before you shop.',
  'Talk to our finance team early: knowing your budget turns a long day of comparing into a short, confident decision.',
];

const postEndings = [
  'Have a question? Our team at {town} is happy to help, in person or online.',
  'Browse our stock online, then come and see us at {town}.',
  'Thanks for reading, and see you on the road.',
];

export type DemoPost = { slug: string; version: PostContent; published_at: number };

/** Exactly `site.blogs` posts, newest first, spread back over a few years before `now`. */
export function demoPosts(site: ContentSite, now: number, rng: Rng): DemoPost[] {
  const count = site.blogs;
  if (count <= 0) return [];
  const models = modelsOf(site);
  const places = towns(site);
  const thing = { car: 'car', subscription: 'car', rental: 'hire car', truck: 'truck', motorcycle: 'motorcycle', camper: 'caravan' }[
    site.vehicle_category
  ];
  const authors = Array.from({ length: 5 }, () => personFor(site, rng)).map((person) => `${person.first} ${person.last}`);
  const span = Math.min(8, 1 + Math.ceil(count / 200)) * year;
  const taken = new Set<string>();
  const say = (text: string) => t(site.locale, text);
  const posts: DemoPost[] = [];
  for (let index = 0; index < count; index++) {
    const published_at = Math.floor(now - ((index + rng.float(0.05, 0.95)) / count) * span);
    const { make, model } = rng.pick(models);
    const rival = rng.pick(models);
    const town = places.length > 0 ? rng.pick(places) : site.city;
    const words = { make, model, other: `${rival.make} ${rival.model}`, town, year: new Date(published_at).getUTCFullYear(), thing };
    const idea = rng.pick(postIdeas)(words);
    const title = say(idea.title);
    const fill = (text: string) => say(text.replace('{model}', model).replace('{town}', town));
    const paragraphs = [idea.lead, ...rng.shuffle(postMiddles).slice(0, rng.int(1, 2)), rng.pick(postEndings)].map(fill);
    const summary = fitText(`${paragraphs[0]} ${paragraphs[1]}`, 300);
    const version: PostContent = {
      title,
      blocks: [{ type: 'rich_text', id: 'body', html: paragraphs.map((text) => `<p>${escapeHtml(text)}</p>`).join('') }],
      seo: seoOf(`${title} | ${site.name}`.length <= 70 ? `${title} | ${site.name}` : title, summary),
      summary,
      image: { src: categoryPhoto(site.vehicle_category, index, rng.pick(colours)), alt: say(`${make} ${model}`) },
      author: rng.pick(authors),
    };
    posts.push({ slug: uniqueSlug(taken, title), version, published_at });
  }
  return posts;
}

type OfferIdea = { title: (make: string, model: string, town: string) => string; pitch: string; perModel: boolean };

function offerIdeas(site: ContentSite): readonly OfferIdea[] {
  const country = countryOf(site.locale);
  const price = country === 'AU' ? 'Drive-away deal' : country === 'NZ' ? 'On-road price deal' : 'Special pricing';
  switch (site.vehicle_category) {
    case 'rental':
      return [
        {
          title: () => 'Weekend special: three days for the price of two',
          pitch: 'Pick up on Friday, return on Monday, pay for two days.',
          perModel: false,
        },
        { title: () => 'Weekly hire discount', pitch: 'Hire for seven days or more and save on the daily rate.', perModel: false },
      ];
    case 'subscription':
      return [
        {
          title: (make, model) => `First week free on the ${make} ${model}`,
          pitch: 'Start a subscription and your first week is on us.',
          perModel: true,
        },
        { title: () => 'No joining fee this month', pitch: 'Start any subscription this month with no joining fee.', perModel: false },
      ];
    default:
      return [
        {
          title: (make, model) => `${price} on the ${make} ${model}`,
          pitch: 'A sharp price on selected stock, for a limited time.',
          perModel: true,
        },
        {
          title: (make, model) => `Free first service on the ${make} ${model}`,
          pitch: 'Buy one before the offer ends and your first scheduled service is free.',
          perModel: true,
        },
        {
          title: (make, model) => `Bonus accessories pack with the ${make} ${model}`,
          pitch: 'Choose accessories to the value of $1,500, fitted before delivery.',
          perModel: true,
        },
        {
          title: (make, model) => `Factory bonus on ${make} ${model} demonstrators`,
          pitch: 'Nearly new demonstrators with the balance of the factory warranty and a factory bonus.',
          perModel: true,
        },
        {
          title: () => 'Top trade-in prices this month',
          pitch: 'Bring in your current vehicle for a fair, firm valuation on the spot.',
          perModel: false,
        },
        {
          title: () => 'Service special: free safety check',
          pitch: 'Book any service and we check brakes, lights, battery and wipers at no charge.',
          perModel: false,
        },
      ];
  }
}

export type DemoOffer = { slug: string; version: OfferContent; published_at: number; expires_at: number };

/**
 * Exactly `site.offers` offers, each ending 2 to 8 weeks after `now`. An offer on a model covers the
 * site's listed cars of that model among `cars` (none when no cars are given).
 */
export function demoOffers(
  site: ContentSite,
  now: number,
  rng: Rng,
  cars: readonly Pick<Car, 'id' | 'dealership_id' | 'make' | 'model' | 'status' | 'show_on_dealer_website'>[],
): DemoOffer[] {
  const dealerships = new Set(site.dealerships.map((dealership) => dealership.id));
  const listed = cars.filter((car) => dealerships.has(car.dealership_id) && isListed(car));
  const models = modelsOf(site);
  const ideas = offerIdeas(site);
  const taken = new Set<string>();
  const say = (text: string) => t(site.locale, text);
  const country = countryOf(site.locale);
  const offers: DemoOffer[] = [];
  for (let index = 0; index < site.offers; index++) {
    const idea = ideas[index % ideas.length]!;
    const { make, model } = rng.pick(models);
    const places = towns(site);
    const title = say(idea.title(make, model, places.length > 0 ? rng.pick(places) : site.city));
    const expires_at = now + rng.int(14, 56) * day;
    const ends = displayDate(site, expires_at);
    const car_ids = idea.perModel
      ? listed
          .filter((car) => car.make === make && car.model === model)
          .map((car) => car.id)
          .slice(0, 12)
      : [];
    const subject = idea.perModel ? `new and demo ${make} ${model} vehicles` : 'this offer';
    const pricing =
      country === 'AU'
        ? ' Drive-away prices include registration, CTP insurance, stamp duty and dealer delivery.'
        : country === 'NZ'
          ? ' Prices include GST and on-road costs.'
          : ' Prices exclude tax, title, license and documentation fees.';
    const terms = `<p>Offer ends ${ends} or while stock lasts. Applies to ${escapeHtml(subject)} bought from ${escapeHtml(site.name)} and delivered before the offer ends. Not available with any other offer, or to fleet, rental or government buyers.${pricing} Finance is subject to the lender’s approval; fees and charges apply.</p>`;
    const version: OfferContent = {
      title,
      blocks: [
        {
          type: 'rich_text',
          id: 'details',
          html: `<p>${escapeHtml(say(idea.pitch))}</p><p>Offer ends <strong>${ends}</strong>. Ask us about it today: our team will check stock at your nearest location and hold a vehicle for you.</p>`,
        },
        { type: 'lead_form', id: 'offer-form', form: 'contact', title: say('Enquire about this offer') },
      ],
      seo: seoOf(`${title} | ${site.name}`.length <= 70 ? `${title} | ${site.name}` : title, `${say(idea.pitch)} Ends ${ends}.`),
      summary: fitText(`${say(idea.pitch)} Ends ${ends}.`, 300),
      image: { src: categoryPhoto(site.vehicle_category, index + 3, rng.pick(colours)), alt: idea.perModel ? `${make} ${model}` : title },
      car_ids,
      terms_html: say(terms),
      expires_at,
    };
    offers.push({ slug: uniqueSlug(taken, title), version, published_at: now - rng.int(1, 21) * day, expires_at });
  }
  return offers;
}
