/**
 * What the demo sites publish (issue 24): a page for every page their menus link to, the home page's
 * sections, exactly `blogs` news posts and `offers` special offers, a few jobs, a team page and Google
 * reviews, so no demo link opens a placeholder. Pure and seeded per site and part: the same site,
 * `now` and cars give the same content, and one part's changes leave the others' draws alone.
 */
import type { Car } from '@dealer/contracts/car';
import type { ContentBlock, ContentKind, ContentOf, JobContent, PageContent, StaffMember } from '@dealer/contracts/content';
import type { NavLink, SiteConfig } from '@dealer/contracts/site';
import { contentPageTitle } from '@dealer/rules/content-pages';
import { categoryPhoto, defaultPages, escapeHtml, mainLocation, seoOf } from '@dealer/rules/default-pages';
import { classifyLink } from '@dealer/rules/links';
import { formatNumber, t } from '@dealer/rules/locale';
import { resolveRoute, searchPathFor } from '@dealer/rules/routes';
import { siteTemplateDefaults } from '@dealer/rules/site-templates';
import { demoOffers, demoPosts, displayDate, uniqueSlug } from './demo-posts';
import { demoReviews, demoStaff, type DemoReview } from './demo-reviews';
import { createRng, seedFrom, type Rng } from './prng';

export type { DemoReview } from './demo-reviews';

/** One published page, post, offer or job, as the content store takes it. Times are ms since 1970. */
export type DemoContentItem = {
  [K in ContentKind]: { kind: K; slug: string; version: ContentOf<K>; published_at: number; expires_at?: number };
}[ContentKind];

export type DemoContent = { items: DemoContentItem[]; reviews: DemoReview[] };

/** The cars an offer may cover: the site's listed ones of its model. */
export type OfferCar = Pick<Car, 'id' | 'dealership_id' | 'make' | 'model' | 'status' | 'show_on_dealer_website'>;

const day = 86_400_000;

/** The content pages the site's header and footer link to, by their stored slug (`about`, `teams`, `x` for `/pages/x`). */
export function linkedContentPages(site: SiteConfig): string[] {
  const context = {
    usesPagesPath: site.features.uses_pages_path === true,
    blogToNews: site.features.blog_to_news === true,
    currentOrigin: site.url,
  };
  const links = (entries: readonly NavLink[]): NavLink[] => entries.flatMap((entry) => [entry, ...links(entry.children ?? [])]);
  const pages = new Set<string>();
  for (const link of links([...site.navigation.header, ...site.navigation.footer])) {
    const kind = classifyLink(link.to, context);
    if (kind.kind !== 'internal') continue;
    const [path = '/', query = ''] = kind.to.split('?');
    const match = resolveRoute(site, path, new URLSearchParams(query));
    // The store keeps a CMS page without its `pages/` prefix (the server's pageSlugOf).
    if (match.kind === 'content') pages.add(match.page.replace(/^pages\//, ''));
  }
  return [...pages];
}

const richText = (id: string, html: string): ContentBlock => ({ type: 'rich_text', id, html });

/** The site's own story, drawn from its seed: when it started, who started it, what it has grown into. */
function aboutPage(site: SiteConfig, base: PageContent, rng: Rng): PageContent {
  const founded = rng.int(1962, 2012);
  const founder = rng.pick(['Harris', 'Nguyen', 'O’Connell', 'Russo', 'Fraser', 'Patel', 'Walsh', 'Kowalski', 'Brennan', 'Morgan']);
  const visible = site.locations.filter((location) => location.visible);
  const towns = [...new Set(visible.map((location) => location.address.city))];
  const noun = siteTemplateDefaults[site.template].noun.toLowerCase();
  const grown =
    visible.length > 1
      ? `Today ${site.name} has ${visible.length} locations across ${towns.slice(0, 4).join(', ')}${towns.length > 4 ? ' and beyond' : ''}`
      : `Today ${site.name} is still one location in ${towns[0] ?? site.city}`;
  const brand = site.manufacturer ? ` We have been an official ${site.manufacturer} dealer for more than ${rng.int(10, 30)} years.` : '';
  const story =
    `<p>${escapeHtml(`${site.name} began in ${founded}, when the ${founder} family opened a small yard in ${towns[0] ?? site.city} with a handful of vehicles and a promise to treat every customer like family.${brand}`)}</p>` +
    `<p>${escapeHtml(`${grown}, selling ${noun} with ${site.stock.count > 0 ? `around ${formatNumber(Math.round(site.stock.count / 10) * 10 || site.stock.count)} vehicles in stock` : 'a growing range'}, and a team that still lives and works in the communities it serves.`)}</p>`;
  const [hero, , ...rest] = base.blocks;
  const rewritten: PageContent = {
    ...base,
    blocks: [
      ...(hero?.type === 'hero' ? [{ ...hero, headline: `Serving ${towns[0] ?? site.city} since ${founded}` }] : []),
      richText('story', story + (base.blocks[1]?.type === 'rich_text' ? base.blocks[1].html.replace(/^<p>.*?<\/p>/, '') : '')),
      ...rest,
    ],
  };
  return {
    ...rewritten,
    blocks: rewritten.blocks.map((block) => (block.type === 'rich_text' ? { ...block, html: t(site.locale, block.html) } : block)),
  };
}

/** The team page: everyone by location, in blocks of at most 100 people (the block's limit), whole locations each. */
function teamsPage(site: SiteConfig, staff: Map<number, StaffMember[]>): PageContent {
  const groups: StaffMember[][] = [[]];
  for (const people of staff.values()) {
    if (groups[groups.length - 1]!.length + people.length > 100) groups.push([]);
    groups[groups.length - 1]!.push(...people);
  }
  return {
    title: 'Our Team',
    blocks: [
      richText(
        'intro',
        `<p>${escapeHtml(`Meet the people of ${site.name}. Call or e-mail any of us directly, or drop in to say hello.`)}</p>`,
      ),
      ...groups
        .filter((people) => people.length > 0)
        .map((people, index): ContentBlock => ({ type: 'staff_list', id: `team-${index + 1}`, people, group_by_location: staff.size > 1 })),
      { type: 'cta', id: 'contact', headline: 'Not sure who to ask?', button: { label: 'Contact us', to: '/contact' } },
    ],
    seo: seoOf(`Our Team | ${site.name}`, `Meet the sales, finance, service and parts team of ${site.name}.`),
  };
}

/** A page for a menu link the defaults do not cover (a campaign page, a CMS page): a short text and where to go next. */
function linkedPage(site: SiteConfig, key: string, pages: Map<string, PageContent>, about: PageContent): PageContent {
  const title = contentPageTitle(key);
  if (key === 'about' || key === 'about-us') return { ...about, title: key === 'about' ? about.title : 'About Us' };
  if (key === 'parts-and-accessories') return pages.get('vehicle-parts-and-accessories')!;
  if (key === 'eofy')
    return {
      ...pages.get('special-offers')!,
      title,
      seo: seoOf(`${title} | ${site.name}`, `End of financial year deals at ${site.name}, for a limited time.`),
    };
  return {
    title,
    blocks: [
      richText('intro', `<p>${escapeHtml(`${title} at ${site.name}. Ask our team for the details, or browse our stock online.`)}</p>`),
      { type: 'cta', id: 'next', text: 'See what is in stock today.', button: { label: 'Browse our stock', to: searchPathFor(site) } },
    ],
    seo: seoOf(`${title} | ${site.name}`, `${title} at ${site.name}.`),
  };
}

function homePage(site: SiteConfig, rng: Rng): PageContent {
  const main = mainLocation(site);
  const noun = siteTemplateDefaults[site.template].noun;
  return {
    title: site.name,
    blocks: [
      {
        type: 'hero',
        id: 'hero',
        image: {
          src: categoryPhoto(site.vehicle_category, rng.int(0, 7), rng.pick(['white', 'silver', 'blue', 'red'])),
          alt: `${noun} at ${site.name}`,
        },
        headline: `${noun} in ${site.override_city ?? main?.address.city ?? site.city}`,
        text: site.seo.description.slice(0, 300).trim(),
        // No count in the words: a count written into a page goes stale with the first car sold.
        cta: { label: 'Browse all vehicles', to: searchPathFor(site) },
      },
      { type: 'featured_stock', id: 'featured', title: 'Just arrived', limit: 8 },
      ...(site.offers > 0 ? [{ type: 'offers_list', id: 'offers', limit: 3 } as const] : []),
      { type: 'reviews', id: 'reviews', title: 'What our customers say' },
      { type: 'locations', id: 'locations', show_hours: true },
    ],
    seo: seoOf(site.seo.title, site.seo.description),
  };
}

const jobIdeas: readonly { title: string; us?: string; type: 'sales' | 'service' | 'parts'; employment: JobContent['employment_type'] }[] =
  [
    { title: 'Sales Consultant', type: 'sales', employment: 'Full time' },
    { title: 'Finance and Insurance Manager', type: 'sales', employment: 'Full time' },
    { title: 'Qualified Motor Mechanic', us: 'Automotive Service Technician', type: 'service', employment: 'Full time' },
    { title: 'Apprentice Technician', us: 'Apprentice Service Technician', type: 'service', employment: 'Apprenticeship' },
    { title: 'Service Advisor', type: 'service', employment: 'Full time' },
    { title: 'Parts Interpreter', us: 'Parts Specialist', type: 'parts', employment: 'Full time' },
    { title: 'Vehicle Detailer', type: 'sales', employment: 'Casual' },
    { title: 'Receptionist', type: 'sales', employment: 'Part time' },
  ];

type DemoJob = { slug: string; version: JobContent; published_at: number; expires_at?: number };

/** 2 to 4 open jobs at the site's locations; about half close on a date. */
function demoJobs(site: SiteConfig, now: number, rng: Rng): DemoJob[] {
  const visible = site.locations.filter((location) => location.visible);
  const taken = new Set<string>();
  return rng
    .shuffle(jobIdeas)
    .slice(0, rng.int(2, 4))
    .map((idea) => {
      const title = site.locale === 'en-US' && idea.us ? idea.us : idea.title;
      const candidates = visible.filter((location) => location.location_type === idea.type);
      const location = candidates.length > 0 ? rng.pick(candidates) : (mainLocation(site) ?? null);
      const town = location?.address.city ?? site.city;
      const closes_at = rng.chance(0.5) ? now + rng.int(21, 56) * day : undefined;
      const body =
        `<p>${escapeHtml(`${site.name} is looking for a ${title} to join our team in ${town}.`)}</p>` +
        `<h3>What you will do</h3><ul><li>Look after our customers in person, by phone and online.</li><li>Work with a friendly team that helps each other out.</li><li>Keep our standards high, every day.</li></ul>` +
        `<h3>What you bring</h3><ul><li>A positive attitude and care for customers.</li><li>A current driver licence.</li><li>Experience in the motor trade is welcome but not essential for every role.</li></ul>` +
        `<h3>What we offer</h3><ul><li>Ongoing training and a clear path to grow.</li><li>Staff discounts on vehicles, servicing and parts.</li></ul>` +
        (closes_at ? `<p>${escapeHtml(`Applications close ${displayDate(site, closes_at)}.`)}</p>` : '');
      const version: JobContent = {
        title,
        ...(location ? { location_id: location.id } : {}),
        employment_type: idea.employment,
        summary: `${idea.employment} ${title.toLowerCase()} role at ${town}.`,
        body_html: t(site.locale, site.locale === 'en-US' ? body.replace('driver licence', 'driver’s license') : body),
        ...(closes_at ? { closes_at } : {}),
      };
      return {
        slug: uniqueSlug(taken, `${title} ${town}`),
        version,
        published_at: now - rng.int(1, 20) * day,
        ...(closes_at ? { expires_at: closes_at } : {}),
      };
    });
}

/**
 * The demo content of one site at `now` (ms since 1970). `cars` are the demo stock (all sites' or this
 * site's): an offer on a model covers the site's listed cars of that model; without them offers cover none.
 */
export function demoContent(site: SiteConfig, now: number, cars: readonly OfferCar[] = []): DemoContent {
  // Seconds would put every date in 1970; the stock generator takes seconds, this takes ms.
  if (!Number.isInteger(now) || now < 1e11) throw new Error(`now must be ms since 1970, got ${now}`);
  const rng = (part: string) => createRng(seedFrom(`${site.slug}:content:${part}`));
  const staff = demoStaff(site, rng('staff'));
  const pages = new Map(defaultPages(site).map((page) => [page.slug, page.content]));
  // One about page, at the address the defaults chose for the site (`about`, or `about-us` under /pages/).
  const aboutKey = pages.has('about') ? 'about' : 'about-us';
  const about = aboutPage(site, pages.get(aboutKey)!, rng('about'));
  pages.set(aboutKey, about);
  pages.set('teams', teamsPage(site, staff));
  for (const key of linkedContentPages(site)) if (!pages.has(key)) pages.set(key, linkedPage(site, key, pages, about));
  pages.set('home', homePage(site, rng('home')));

  const published = now - 30 * day;
  const items: DemoContentItem[] = [...pages].map(([slug, version]) => ({ kind: 'page', slug, version, published_at: published }));
  for (const post of demoPosts(site, now, rng('posts'))) items.push({ kind: 'post', ...post });
  for (const offer of demoOffers(site, now, rng('offers'), cars)) items.push({ kind: 'offer', ...offer });
  for (const job of demoJobs(site, now, rng('jobs'))) items.push({ kind: 'job', ...job });
  return { items, reviews: demoReviews(site, staff, now, rng('reviews')) };
}
