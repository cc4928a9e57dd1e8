import { describe, expect, it } from 'vitest';
import { contentSchemas, type PageContent } from '@dealer/contracts/content';
import type { NavLink, SiteConfig } from '@dealer/contracts/site';
import { classifyLink } from '@dealer/rules/links';
import { resolveRoute, searchPathFor } from '@dealer/rules/routes';
import { demoContent, type DemoContent, type DemoContentItem } from './demo-content';
import { generateDemoData } from './demo-data';
import { isListed } from './demo-sites';

// A fixed instant (2025-06-02T00:00:00Z): the stock takes seconds, the content ms.
const nowSeconds = 1_748_822_400;
const now = nowSeconds * 1000;
const day = 86_400_000;
const data = generateDemoData(nowSeconds);

const started = performance.now();
const contents = new Map<string, DemoContent>(data.sites.map((site) => [site.slug, demoContent(site, now, data.cars)]));
const elapsedMs = performance.now() - started;

const contentOf = (site: SiteConfig) => contents.get(site.slug)!;
const itemsOf = <K extends DemoContentItem['kind']>(site: SiteConfig, kind: K) =>
  contentOf(site).items.filter((item): item is Extract<DemoContentItem, { kind: K }> => item.kind === kind);
const page = (site: SiteConfig, slug: string): PageContent => {
  const found = itemsOf(site, 'page').find((item) => item.slug === slug);
  if (!found) throw new Error(`${site.slug} has no ${slug} page`);
  return found.version;
};

/** The markup rich text may hold (the server's sanitiser keeps these). */
const allowedTags = new Set(['p', 'h2', 'h3', 'h4', 'strong', 'em', 'u', 's', 'a', 'ul', 'ol', 'li', 'blockquote', 'br']);

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

function htmlOf(item: DemoContentItem): string[] {
  if (item.kind === 'job') return [item.version.body_html];
  if (item.kind === 'landing' || item.kind === 'search_template') return item.version.intro_html ? [item.version.intro_html] : [];
  const blocks = item.version.blocks.flatMap((block) => {
    if (block.type === 'rich_text') return [block.html];
    if (block.type === 'faq') return block.items.map((entry) => entry.answer_html);
    return [];
  });
  return item.kind === 'offer' && item.version.terms_html ? [...blocks, item.version.terms_html] : blocks;
}

/** Every link of a menu, children included. */
const allLinks = (entries: readonly NavLink[]): NavLink[] => entries.flatMap((entry) => [entry, ...allLinks(entry.children ?? [])]);

/** What each internal menu link of the site opens, as a shopper following it would reach it. */
function menuRoutes(site: SiteConfig) {
  const context = {
    usesPagesPath: site.features.uses_pages_path === true,
    blogToNews: site.features.blog_to_news === true,
    currentOrigin: site.url,
  };
  return allLinks([...site.navigation.header, ...site.navigation.footer]).flatMap((link) => {
    const kind = classifyLink(link.to, context);
    return kind.kind === 'internal' ? [{ label: link.label, path: kind.to, match: resolveRoute(site, kind.to) }] : [];
  });
}

describe('demoContent', () => {
  it('takes its time (printed, not asserted)', () => {
    const counts = [...contents.values()].reduce((sum, content) => sum + content.items.length + content.reviews.length, 0);
    console.log(`demo content of ${data.sites.length} sites: ${elapsedMs.toFixed(0)} ms for ${counts} items and reviews`);
    expect(contents.size).toBe(data.sites.length);
  });

  it('gives every version that its kind’s schema takes unchanged, with only the markup rich text allows', () => {
    for (const site of data.sites) {
      for (const item of contentOf(site).items) {
        const parsed = contentSchemas[item.kind].safeParse(item.version);
        expect(parsed.success, `${site.slug} ${item.kind} ${item.slug}: ${parsed.error?.message ?? ''}`).toBe(true);
        expect(parsed.data, `${site.slug} ${item.kind} ${item.slug}`).toEqual(item.version);
        for (const html of htmlOf(item)) expect(markupProblems(html), `${site.slug} ${item.kind} ${item.slug}`).toEqual([]);
        if ('seo' in item.version) {
          expect(item.version.seo.title!.length).toBeLessThanOrEqual(70);
          expect(item.version.seo.description!.length).toBeLessThanOrEqual(160);
        }
        expect(item.published_at).toBeLessThan(now);
      }
    }
  });

  it('puts every item at an address the site answers with it', () => {
    for (const site of data.sites) {
      const section = site.features.blog_to_news ? 'news' : 'blog';
      for (const item of contentOf(site).items) {
        if (item.kind === 'page') {
          const expected = item.slug === 'home' ? { kind: 'home' } : { kind: 'content', page: item.slug };
          expect(resolveRoute(site, item.slug === 'home' ? '/' : `/${item.slug}`), `${site.slug} ${item.slug}`).toEqual(expected);
        }
        if (item.kind === 'post')
          expect(resolveRoute(site, `/${section}/${item.slug}`)).toEqual({ kind: 'post', section, slug: item.slug });
        if (item.kind === 'offer') expect(resolveRoute(site, `/special-offers/${item.slug}`)).toEqual({ kind: 'offer', slug: item.slug });
      }
    }
  });

  it('is deterministic: the same site, now and cars give the same content', () => {
    for (const site of data.sites) {
      expect(JSON.stringify(demoContent(site, now, data.cars)), site.slug).toBe(JSON.stringify(contentOf(site)));
    }
  });

  it('publishes exactly the site’s blogs posts and offers, and 2 to 4 jobs', () => {
    for (const site of data.sites) {
      expect(itemsOf(site, 'post'), site.slug).toHaveLength(site.blogs);
      expect(itemsOf(site, 'offer'), site.slug).toHaveLength(site.offers);
      expect(itemsOf(site, 'job').length, site.slug).toBeGreaterThanOrEqual(2);
      expect(itemsOf(site, 'job').length, site.slug).toBeLessThanOrEqual(4);
    }
    expect(itemsOf(data.sites[0]!, 'post')).toHaveLength(1357);
  });

  it('keeps slugs unique within each kind', () => {
    for (const site of data.sites) {
      for (const kind of ['page', 'post', 'offer', 'job'] as const) {
        const slugs = itemsOf(site, kind).map((item) => item.slug);
        expect(new Set(slugs).size, `${site.slug} ${kind}`).toBe(slugs.length);
      }
    }
  });

  it('has a page for every internal header and footer link that opens a content page', () => {
    const elsewhere: string[] = [];
    for (const site of data.sites) {
      const pages = new Set(itemsOf(site, 'page').map((item) => item.slug));
      for (const { label, path, match } of menuRoutes(site)) {
        if (match.kind === 'content') {
          // Stored without a CMS page's `pages/` prefix, as the server looks it up.
          const slug = match.page.replace(/^pages\//, '');
          expect(pages.has(slug), `${site.slug}: ${label} (${path}) → ${slug}`).toBe(true);
        } else if (!['home', 'search', 'lead-form', 'blog'].includes(match.kind))
          elsewhere.push(`${site.slug}: ${label} ${path} → ${match.kind}`);
      }
      for (const legal of ['privacy-policy', 'terms-and-conditions', 'teams', 'careers', 'home'])
        expect(pages.has(legal), `${site.slug} ${legal}`).toBe(true);
    }
    // Links that open neither a content page nor a shop page of their own (a redirect, the shell's unsubscribe page).
    console.log(`menu links that are not content or shop pages:\n  ${elsewhere.join('\n  ')}`);
    expect(
      elsewhere.every((entry) => / → (redirect|unsubscribe)$/.test(entry)),
      elsewhere.join('; '),
    ).toBe(true);
  });

  it('writes a page for campaign and CMS links too, stored without their pages/ prefix', () => {
    // A site that serves its CMS pages under /pages/: elsewhere the link rule strips the prefix.
    const coastal = data.sites.find((entry) => entry.features.uses_pages_path)!;
    const links: NavLink[] = [
      { label: 'EOFY', to: '/eofy' },
      {
        label: 'More',
        to: true,
        children: [
          { label: 'Winter sale', to: '/pages/winter-sale' },
          { label: 'Rentals', to: '/find/rental-cars' },
        ],
      },
      { label: 'Parts', to: '/pages/parts-and-accessories' },
    ];
    const site = { ...coastal, navigation: { header: links, footer: [] } };
    const pages = demoContent(site, now).items.filter((item) => item.kind === 'page');
    for (const slug of ['eofy', 'winter-sale', 'find/rental-cars', 'parts-and-accessories']) {
      const found = pages.find((item) => item.slug === slug);
      expect(found, slug).toBeDefined();
      expect(contentSchemas.page.parse(found!.version)).toEqual(found!.version);
    }
    expect(pages.find((item) => item.slug === 'winter-sale')!.version.title).toBe('Winter Sale');
    expect(pages.find((item) => item.slug === 'eofy')!.version.blocks.map((block) => block.type)).toContain('offers_list');
  });

  it('ends offers 2 to 8 weeks after now, covering only listed cars of the site', () => {
    let covered = 0;
    for (const site of data.sites) {
      const dealerships = new Set(site.dealerships.map((dealership) => dealership.id));
      const listed = new Map(data.cars.filter((car) => dealerships.has(car.dealership_id) && isListed(car)).map((car) => [car.id, car]));
      for (const offer of itemsOf(site, 'offer')) {
        expect(offer.expires_at).toBe(offer.version.expires_at);
        expect(offer.version.expires_at).toBeGreaterThanOrEqual(now + 14 * day);
        expect(offer.version.expires_at).toBeLessThanOrEqual(now + 56 * day);
        for (const id of offer.version.car_ids) expect(offer.version.title, `${site.slug} ${offer.slug}`).toContain(listed.get(id)?.model);
        covered += offer.version.car_ids.length;
        expect(offer.version.blocks.map((block) => block.type)).toEqual(['rich_text', 'lead_form']);
        expect(offer.version.image?.src).toMatch(/^\/img\/vehicle\//);
      }
    }
    expect(covered).toBeGreaterThan(0);
    const metro = data.sites[0]!;
    expect(itemsOf(metro, 'offer').some((offer) => offer.version.title.startsWith('Drive-away deal'))).toBe(true);
    expect(
      demoContent(metro, now)
        .items.filter((item) => item.kind === 'offer')
        .every((item) => item.version.car_ids.length === 0),
    ).toBe(true);
  });

  it('writes short posts with a summary, two or three paragraphs, a picture and an author, spread back from now', () => {
    for (const site of data.sites) {
      const posts = itemsOf(site, 'post');
      for (const post of posts) {
        expect(post.version.summary.length).toBeGreaterThan(0);
        expect(post.version.author).toBeTruthy();
        expect(post.version.image?.src).toMatch(/^\/img\/vehicle\//);
        const html = (post.version.blocks[0] as { html: string }).html;
        expect(html.match(/<p>/g)!.length).toBeGreaterThanOrEqual(3);
        expect(html.match(/<p>/g)!.length).toBeLessThanOrEqual(4);
      }
      const dates = posts.map((post) => post.published_at);
      expect(dates).toEqual([...dates].sort((a, b) => b - a));
      if (posts.length > 1) expect(now - Math.min(...dates)).toBeGreaterThan(365 * day);
    }
  });

  it('gives each site a home page with its sections in order', () => {
    for (const site of data.sites) {
      const home = page(site, 'home');
      expect(home.blocks.map((block) => block.type)).toEqual(['hero', 'featured_stock', 'offers_list', 'reviews', 'locations']);
      expect(home.blocks[0]).toMatchObject({ type: 'hero', cta: { to: searchPathFor(site) } });
      expect(home.blocks[1]).toMatchObject({ limit: 8 });
      expect(home.blocks[2]).toMatchObject({ limit: 3 });
    }
  });

  it('introduces 3 to 6 people at each location shown on the team page', () => {
    for (const site of data.sites) {
      const people = page(site, 'teams').blocks.flatMap((block) => (block.type === 'staff_list' ? block.people : []));
      for (const location of site.locations.filter((entry) => entry.visible)) {
        const here = people.filter((person) => person.location_id === location.id);
        expect(here.length, `${site.slug} ${location.name}`).toBeGreaterThanOrEqual(3);
        expect(here.length, `${site.slug} ${location.name}`).toBeLessThanOrEqual(6);
      }
    }
    const roles = new Set(
      page(data.sites[0]!, 'teams').blocks.flatMap((block) =>
        block.type === 'staff_list' ? block.people.map((person) => person.role) : [],
      ),
    );
    for (const role of ['Dealer Principal', 'Sales Consultant', 'Service Advisor', 'Finance Manager', 'Parts Interpreter'])
      expect(roles).toContain(role);
  });

  it('tells each site’s own story on its about page', () => {
    const stories = data.sites.map((site) => {
      const key = site.features.uses_pages_path ? 'about-us' : 'about';
      return (page(site, key).blocks.find((block) => block.type === 'rich_text') as { html: string }).html;
    });
    for (const [index, site] of data.sites.entries()) expect(stories[index]).toContain(site.name.replace(/&/g, '&amp;'));
    expect(new Set(stories).size).toBe(data.sites.length);
  });

  it('gives each location shown 8 to 20 Google reviews, mostly 4 and 5 stars', () => {
    const all = [...contents.values()].flatMap((content) => content.reviews);
    for (const site of data.sites) {
      const reviews = contentOf(site).reviews;
      for (const location of site.locations.filter((entry) => entry.visible)) {
        const count = reviews.filter((review) => review.location_id === location.id).length;
        expect(count, `${site.slug} ${location.name}`).toBeGreaterThanOrEqual(8);
        expect(count, `${site.slug} ${location.name}`).toBeLessThanOrEqual(20);
      }
      expect(new Set(reviews.map((review) => review.external_id)).size).toBe(reviews.length);
    }
    for (const review of all) {
      expect([1, 2, 3, 4, 5]).toContain(review.rating);
      expect(review.source).toBe('google');
      expect(review.reviewed_at).toBeLessThan(now);
      expect(review.text.length).toBeGreaterThan(0);
    }
    const high = all.filter((review) => review.rating >= 4).length / all.length;
    expect(high).toBeGreaterThan(0.75);
    expect(all.some((review) => review.rating <= 3)).toBe(true);
  });

  it('writes US English on the US site', () => {
    const us = data.sites.find((site) => site.locale === 'en-US')!;
    const text = JSON.stringify(contentOf(us));
    expect(text).not.toMatch(/enquir|drive-away|licence/i);
  });

  it('refuses a time in seconds', () => {
    expect(() => demoContent(data.sites[0]!, nowSeconds)).toThrow(/ms since 1970/);
  });
});
