import { describe, expect, it } from 'vitest';
import type { ResolvedPage } from '@dealer/contracts/content';
import type { LeadFormPageProps } from '@dealer/contracts/remote-modules';
import type { ServerRemote } from '@dealer/state/server-render';
import { testSite } from '@dealer/contracts/testing/test-site';
import { renderApp } from '../render-app.server';
import { aboutPage, blogPage, homePage, offerPage, postPage } from '../content/testing/resolved-pages';

const site = testSite();

async function render(
  path: string,
  content: ResolvedPage | null | undefined,
  options: { site?: typeof site; remotes?: ServerRemote } = {},
) {
  const { html } = await renderApp({
    site: options.site ?? site,
    url: `${site.url}${path}`,
    hero: null,
    remotes: options.remotes ?? null,
    routeData: content === undefined ? null : { content },
  });
  // The page itself, without the header and footer around it.
  return html.slice(html.indexOf('<main'), html.indexOf('</main>'));
}

/** The attributes of the first <img> whose src starts with `src`. */
function imageWith(html: string, src: string): string {
  const start = html.indexOf(`src="${src}`);
  return html.slice(html.lastIndexOf('<img', start), html.indexOf('>', start));
}

describe('a dealer’s page rendered on the server', () => {
  it('renders every kind of block, in order, under the page’s title', async () => {
    const html = await render('/about', aboutPage);
    expect(html).toContain('<h1>About Metro Toyota</h1>');
    const inOrder = [
      '<h2>Drive away today</h2>',
      '<strong>Parramatta</strong>',
      '<figcaption>Our showroom</figcaption>',
      '<h2>Time for a service?</h2>',
      '<summary>Do you take trade-ins?</summary>',
      'Metro Toyota Service Centre',
      'Sam Lee',
      'href="/special-offers/eofy-sale"',
      'Sales Consultant',
      'href="/blog/new-hilux-arrives"',
      '<h2>On the lot this week</h2>',
      '<h2>What our customers say</h2>',
      'id="careers-form"',
    ].map((text) => html.indexOf(text));
    expect(inOrder.every((at) => at >= 0)).toBe(true);
    expect([...inOrder].sort((a, b) => a - b)).toEqual(inOrder);
    expect(html).toContain('href="/service"');
    expect(html).toContain('<a href="/about">Read our story</a>');
  });

  it('shows each block’s own details', async () => {
    const html = await render('/about', aboutPage);
    // Locations: only the chosen one, without hours.
    expect(html).not.toContain('<li class="location-card"><h2>Metro Toyota Parramatta</h2>');
    expect(html).toContain('<li class="location-card"><h2>Metro Toyota Service Centre</h2>');
    expect(html).not.toContain('location-card__hours');
    // The team under each location's name, the unplaced last.
    expect(html).toMatch(/<section><h2>Metro Toyota Parramatta<\/h2><ul class="content-people">.*Sam Lee/);
    expect(html).toContain('href="tel:0400000001"');
    expect(html).toContain('href="mailto:sam@metrotoyota.example.com.au"');
    expect(html.indexOf('Jo Park')).toBeGreaterThan(html.indexOf('Alex Chen'));
    // Offers end on a day written the same everywhere.
    expect(html).toContain('Ends 26 November 2026');
    // Jobs: what, where, and the way to apply.
    expect(html).toContain('Full time · Metro Toyota Parramatta');
    expect(html).toContain('<li>Drivers licence</li>');
    expect(html).toContain('<a href="#careers-form">Apply below</a>');
    expect(html).toContain('<h2>Apply now</h2>');
    // Cars: price as the shop writes it, the was-price, the odometer and the car's page.
    expect(html).toContain('$52,990<s>$55,990</s>');
    expect(html).toContain('12,345 km · Metro Toyota Parramatta');
    expect(html).toContain('href="/cars/2024-toyota-hilux-sr5-abc123"');
    expect(html).toContain('src="/img/vehicle/car/ute/white/1.jpg?w=480&amp;q=75"');
    // Reviews: each location's rating, then the reviews.
    expect(html).toContain('4.6 <span class="content-stars" role="img" aria-label="5 out of 5 stars">★★★★★</span> (212 reviews)');
    expect(html).toContain('Pat M. · Metro Toyota Parramatta');
  });

  it('opens FAQ answers with <details>, no script', async () => {
    const html = await render('/about', aboutPage);
    expect(html).toContain(
      '<details><summary>Do you take trade-ins?</summary><div class="rich-text"><p>Yes, any make or model.</p></div></details>',
    );
    expect(html.match(/<details>/g)).toHaveLength(2);
  });

  it('adds no script to the dealer’s text or anywhere in the page', async () => {
    const html = await render('/about', aboutPage);
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/\son[a-z]+=/i);
  });

  it('makes the first hero’s picture the page’s main image, and leaves the rest lazy', async () => {
    const html = await render('/about', aboutPage);
    const hero = imageWith(html, '/img/site/aa');
    expect(hero).toMatch(/fetchpriority="high"/i);
    expect(hero).toContain('loading="eager"');
    expect(hero).toContain('elementtiming="main-image"');
    expect(hero).toMatch(/width="1920" height="800"/);
    const showroom = imageWith(html, '/img/site/bb');
    expect(showroom).toContain('loading="lazy"');
    expect(showroom).not.toContain('elementtiming');
    expect(html.match(/elementtiming=/g)).toHaveLength(1);
  });

  it('renders the lead form in the first response when the platform hands in mf-leads’ server build', async () => {
    const LeadForm = ({ form }: LeadFormPageProps) => <form className="test-lead-form" data-form={form} />;
    const html = await render('/about', aboutPage, { remotes: { 'mf-leads/LeadFormPage': { Component: LeadForm } } });
    expect(html).toContain(
      '<div class="content-lead-form" id="careers-form"><h2>Apply now</h2><!--$--><form class="test-lead-form" data-form="careers"></form>',
    );
  });

  it('leaves out the lead form, and its "Apply below", on a site without mf-leads; the rest of the page is there', async () => {
    const html = await render('/about', aboutPage, { site: testSite({ remotes: [] }) });
    expect(html).not.toContain('careers-form');
    expect(html).not.toContain('Apply below');
    expect(html).toContain('Sales Consultant');
    expect(html).toContain('<h2>What our customers say</h2>');
  });

  it('shows a post with its date, its author and its picture as the main image', async () => {
    const html = await render('/blog/new-hilux-arrives', postPage);
    expect(html).toContain('<h1>The new HiLux arrives</h1>');
    expect(html).toContain('<time dateTime="2026-11-26">26 November 2026</time> · Sam Lee');
    expect(imageWith(html, '/img/site/ee')).toMatch(/fetchpriority="high"/i);
    expect(html).toContain('The new HiLux is in the showroom.');
  });

  it('writes dates the US way on a US site', async () => {
    const html = await render('/blog/new-hilux-arrives', postPage, { site: testSite({ locale: 'en-US' }) });
    expect(html).toContain('November 26, 2026');
  });

  it('shows an offer with its picture, its end, its cars and its terms', async () => {
    const html = await render('/special-offers/eofy-sale', offerPage);
    expect(html).toContain('<h1>EOFY Sale</h1>');
    expect(html).toContain('<p class="content-offer__ends">Ends 26 November 2026</p>');
    expect(imageWith(html, '/img/site/ff')).toMatch(/fetchpriority="high"/i);
    expect(html).toContain('href="/cars/2024-toyota-hilux-sr5-abc123"');
    expect(html).toContain('<h2>Terms and conditions</h2>');
    expect(html).toContain('Excludes demo vehicles.');
  });

  it('lists a page of news with links to the newer and older pages (the first has no number)', async () => {
    const middle = await render('/blog?page=2', blogPage(2, 3));
    expect(middle).toContain('<h1>Latest News</h1>');
    expect(middle).toContain('href="/blog/post-on-page-2"');
    expect(middle).toMatch(/<a rel="prev" href="\/blog"[^>]*>Newer posts<\/a>/);
    expect(middle).toContain('Page 2 of 3');
    expect(middle).toMatch(/<a rel="next" href="\/blog\?page=3"[^>]*>Older posts<\/a>/);

    const first = await render('/blog', blogPage(1, 3));
    expect(first).not.toContain('rel="prev"');
    expect(first).toMatch(/<a rel="next" href="\/blog\?page=2"[^>]*>Older posts<\/a>/);

    const only = await render('/blog', blogPage(1, 1));
    expect(only).not.toContain('content-paging');
  });

  it('is "Page not found" when the site has no page there', async () => {
    for (const content of [null, undefined]) {
      const html = await render('/about', content);
      expect(html).toContain('<h1>Page not found</h1>');
    }
    expect(await render('/special-offers/ended', null)).toContain('<h1>Page not found</h1>');
  });

  it('lists the locations on /dealerships and /our-locations when the dealer wrote no page for them', async () => {
    const html = await render('/dealerships', null);
    expect(html).toContain('<h1>Dealerships</h1>');
    expect(html).toContain('<h2>Metro Toyota Parramatta</h2>');
    expect(html).toContain('location-card__hours');
    expect(await render('/our-locations', null)).toContain('<h1>Our Locations</h1>');
  });

  it('folds each location’s hours under “Opening hours” in a list of more than three, and shows them in a shorter one', async () => {
    const shown = site.locations.filter((location) => location.visible);
    expect(shown.length).toBeLessThanOrEqual(3);
    expect(await render('/dealerships', null)).not.toContain('<details class="location-card__fold">');

    const many = Array.from({ length: 4 }, (_, i) => ({ ...shown[0]!, id: 900 + i, name: `Metro Branch ${i + 1}` }));
    const html = await render('/dealerships', null, { site: { ...site, locations: many } });
    expect(
      html.match(/<details class="location-card__fold"><summary>Opening hours<\/summary><table class="location-card__hours">/g),
    ).toHaveLength(4);
    expect(html).toContain('<h2>Metro Branch 4</h2>');
  });
});

describe('the home page rendered on the server', () => {
  it('shows the dealer’s sections in order, the opening hero as its title, then the shop’s tiles', async () => {
    const html = await render('/', homePage);
    const inOrder = [
      '<h1>Metro Toyota: drive away today</h1>',
      '<h2>Featured vehicles</h2>',
      '<h2>Finance made simple</h2>',
      '<h2>What our customers say</h2>',
      '<h2>Shop by type</h2>',
      '<h2>Shop by make</h2>',
    ].map((text) => html.indexOf(text));
    expect(inOrder.every((at) => at >= 0)).toBe(true);
    expect([...inOrder].sort((a, b) => a - b)).toEqual(inOrder);
    expect(html.match(/<h1/g)).toHaveLength(1);
    expect(html).not.toContain('home-hero');
    const hero = imageWith(html, '/img/site/a1');
    expect(hero).toMatch(/fetchpriority="high"/i);
    expect(hero).toContain('elementtiming="main-image"');
  });

  it('titles the page with the site’s name when the sections do not open with a hero', async () => {
    const html = await render('/', { ...homePage, blocks: homePage.blocks.slice(1) });
    expect(html).toContain(`<h1 class="dp-container home-title">${site.name}</h1>`);
    expect(html.match(/<h1/g)).toHaveLength(1);
  });

  it('leaves out featured stock while the site shows no stock on its home page', async () => {
    const quiet = testSite({ features: { ...site.features, stock_on_homepage: false } });
    const html = await render('/', homePage, { site: quiet });
    expect(html).not.toContain('Featured vehicles');
    expect(html).toContain('<h2>Finance made simple</h2>');
  });

  it('is today’s home page when the dealer has written none', async () => {
    const html = await render('/', null);
    expect(html).toContain(`<h1>${site.name}</h1>`);
    expect(html).toContain('Browse 84 vehicles');
    expect(html).toContain('<h2>Shop by type</h2>');
  });
});
