import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleRequest, consoleSignIn } from '../../testing/console-requests';
import { createTestPlatform, siteRequest, type TestPlatform } from '../../testing/test-platform';

const slug = 'harbour-used-cars';
const photo = '/img/vehicle/car/suv/white/1.jpg';
type Item = { id: number; slug: string; path: string; draft: unknown; published: unknown };

const historyPage = (title: string, html = '<p>We opened our first yard in 1986.</p>') => ({
  title,
  seo: { title: `${title}: since 1986`, description: 'How a family yard became Harbour Used Cars.', share_image: photo },
  blocks: [
    { type: 'hero', id: 'hero', image: { src: photo, alt: 'Our first yard' }, headline: title },
    { type: 'rich_text', id: 'story', html },
  ],
});

const jsonLdOf = (html: string) =>
  [...html.matchAll(/<script type="application\/ld\+json">(.*?)<\/script>/gs)].map(
    (match) => JSON.parse(match[1]!) as Record<string, unknown>,
  );

describe('a site’s pages, news and offers written in the dealer console', () => {
  let platform: TestPlatform;
  let admin: string;
  let staff: string;
  beforeAll(async () => {
    platform = await createTestPlatform();
    admin = await consoleSignIn(platform.app, platform.ctx.db, `site-admin@${slug}.localhost`);
    staff = await consoleSignIn(platform.app, platform.ctx.db, `staff@${slug}.localhost`);
  }, 60_000);
  afterAll(async () => platform?.close());

  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, payload?: object, cookie = admin) =>
    consoleRequest(platform.app, method, `/api/console/sites/${slug}/content${path}`, { cookie, payload });
  const page = (path: string, headers: Record<string, string> = {}) => siteRequest(platform.app, slug, 'GET', path, { headers });

  it('keeps a draft off the site until it is published, then serves it with its own title, description and share image', async () => {
    const created = await call('POST', '', { kind: 'page', slug: 'pages/our-history', content: historyPage('Our history') });
    expect(created.statusCode, created.body).toBe(201);
    const item = created.json<Item>();
    expect(item).toMatchObject({ slug: 'our-history', path: '/pages/our-history', published: null });
    expect((await page('/pages/our-history')).statusCode).toBe(404);
    expect((await siteRequest(platform.app, slug, 'GET', '/api/pages?path=/pages/our-history')).statusCode).toBe(404);

    const published = await call('POST', `/${item.id}/publish`);
    expect(published.statusCode, published.body).toBe(200);
    const shown = await page('/pages/our-history');
    expect(shown.statusCode).toBe(200);
    expect(shown.headers['x-page-cache']).toBe('miss');
    expect(shown.body).toContain('<title>Our history: since 1986 | Harbour Used Cars</title>');
    expect(shown.body).toContain('<meta name="description" content="How a family yard became Harbour Used Cars.">');
    expect(shown.body).toMatch(
      /<meta property="og:image" content="https:\/\/www\.harbourusedcars\.com\.au\/img\/vehicle\/car\/suv\/white\/1\.jpg\?w=1200&amp;q=80">/,
    );
    expect(shown.body).toContain('We opened our first yard in 1986.');
    const api = await siteRequest(platform.app, slug, 'GET', '/api/pages?path=/pages/our-history');
    expect(api.json()).toMatchObject({ kind: 'page', title: 'Our history', blocks: [{ type: 'hero' }, { type: 'rich_text' }] });
  });

  it('shows a saved draft change only through the console’s preview link, and never keeps that page', async () => {
    const [listed] = (await call('GET', '?kind=page'))
      .json<{ items: (Item & { state: string })[] }>()
      .items.filter((one) => one.slug === 'our-history');
    const changed = await call('PUT', `/${listed!.id}`, {
      content: historyPage('Our history', '<p>Now with a second yard in Brookvale.</p>'),
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect((await call('GET', '?kind=page')).json<{ items: { slug: string; state: string }[] }>().items).toContainEqual(
      expect.objectContaining({ slug: 'our-history', state: 'changed' }),
    );
    expect((await page('/pages/our-history')).body).not.toContain('Brookvale');

    const link = await call('POST', '/preview-link', { path: '/pages/our-history' });
    expect(link.statusCode, link.body).toBe(200);
    const opened = await page(new URL(link.json<{ url: string }>().url).pathname + new URL(link.json<{ url: string }>().url).search);
    expect(opened.statusCode).toBe(302);
    const cookie = String(opened.headers['set-cookie']).split(';')[0]!;
    const previewed = await page('/pages/our-history', { cookie });
    expect(previewed.body).toContain('Brookvale');
    expect(previewed.headers['cache-control']).toBe('private, no-store');
    // The preview is this site's only: another site ignores the cookie.
    const elsewhere = await siteRequest(platform.app, 'metro-motor-group', 'GET', '/pages/our-history', { headers: { cookie } });
    expect(elsewhere.statusCode).toBe(404);
    expect((await page('/pages/our-history')).body).not.toContain('Brookvale');
  });

  it('stores formatted text sanitised: script and event handlers never reach a page', async () => {
    const hostile = historyPage(
      'Hostile',
      '<p onclick="steal()">Hi<script>steal()</script><img src=x onerror="steal()"><a href="javascript:steal()">x</a></p>',
    );
    const created = await call('POST', '', { kind: 'page', slug: 'hostile', content: hostile });
    expect(created.statusCode, created.body).toBe(201);
    const stored = JSON.stringify(created.json<Item>().draft);
    for (const needle of ['<script', 'onclick', 'onerror', 'javascript:', '<img']) expect(stored).not.toContain(needle);
    await call('POST', `/${created.json<Item>().id}/publish`);
    const shown = await page('/pages/hostile');
    expect(shown.statusCode).toBe(200);
    expect(shown.body).not.toContain('steal()');
  });

  it('refuses a button to script or a page without a title, naming the field, and keeps what was saved', async () => {
    const refused = await call('POST', '', {
      kind: 'page',
      slug: 'bad',
      content: { title: '', seo: {}, blocks: [{ type: 'cta', id: 'go', button: { label: 'Go', to: 'javascript:alert(1)' } }] },
    });
    expect(refused.statusCode).toBe(400);
    const { fields } = refused.json<{ fields: Record<string, string> }>();
    expect(Object.keys(fields)).toEqual(expect.arrayContaining(['content.title', 'content.blocks.0.button.to']));
    expect((await call('POST', '', { kind: 'page', slug: 'Not A Slug', content: historyPage('x') })).json()).toMatchObject({
      fields: { slug: expect.stringContaining('lower-case') },
    });
    expect((await call('POST', '', { kind: 'page', slug: 'our-history', content: historyPage('Again') })).statusCode).toBe(409);
  });

  it('lets staff read the site’s content but not change it', async () => {
    expect((await call('GET', '?kind=page', undefined, staff)).statusCode).toBe(200);
    expect((await call('POST', '', { kind: 'page', slug: 'staff-page', content: historyPage('Staff') }, staff)).statusCode).toBe(403);
  });

  it('publishes a news post with its Article structured data; an unknown post is still a 404', async () => {
    const post = {
      ...historyPage('Spring service special'),
      summary: 'Half-price wheel alignment with every logbook service in September.',
      image: { src: photo, alt: 'A car on the hoist' },
      author: 'Sam Citizen',
    };
    const created = await call('POST', '', { kind: 'post', slug: 'spring-service-special', content: post });
    expect(created.statusCode, created.body).toBe(201);
    expect((await page('/blog/spring-service-special')).statusCode).toBe(404);
    await call('POST', `/${created.json<Item>().id}/publish`);
    const shown = await page('/blog/spring-service-special');
    expect(shown.statusCode).toBe(200);
    const article = jsonLdOf(shown.body).find((entry) => entry['@type'] === 'BlogPosting');
    expect(article).toMatchObject({
      headline: 'Spring service special',
      author: { '@type': 'Person', name: 'Sam Citizen' },
      publisher: { '@type': 'Organization', name: 'Harbour Used Cars' },
      mainEntityOfPage: { '@id': 'https://www.harbourusedcars.com.au/blog/spring-service-special' },
    });
    expect(shown.body).toContain('<meta property="og:type" content="article">');
    expect((await page('/blog/a-post-never-written')).statusCode).toBe(404);
    const list = await siteRequest(platform.app, slug, 'GET', '/api/pages?path=/blog');
    expect(list.json<{ blog: { posts: { slug: string }[] } }>().blog.posts.map((one) => one.slug)).toContain('spring-service-special');
    expect((await page('/sitemap.xml')).body).toContain('<loc>https://www.harbourusedcars.com.au/blog/spring-service-special</loc>');
    // The news list itself, once, ahead of its posts.
    expect((await page('/sitemap.xml')).body.split('<loc>https://www.harbourusedcars.com.au/blog</loc>')).toHaveLength(2);
    expect((await page('/sitemap.xml')).body).not.toContain('/bad<');
  });

  it('takes an offer off the site when it ends', async () => {
    const offer = (expires_at: number) => ({ ...historyPage('Winter deal'), summary: 'Free tint', car_ids: [], expires_at });
    const ended = await call('POST', '', { kind: 'offer', slug: 'winter-deal', content: offer(Date.now() - 60_000) });
    await call('POST', `/${ended.json<Item>().id}/publish`);
    expect((await page('/special-offers/winter-deal')).statusCode).toBe(404);
    await call('PUT', `/${ended.json<Item>().id}`, { content: offer(Date.now() + 86_400_000) });
    await call('POST', `/${ended.json<Item>().id}/publish`);
    expect((await page('/special-offers/winter-deal')).statusCode).toBe(200);
  });

  it('serves a search landing page with its own head, filters and place in the sitemap once published, titled from the site’s template', async () => {
    const landing = { preset: { car_type: 'used', make: 'Toyota', model: 'HiLux' }, seo: {} };
    const created = await call('POST', '', { kind: 'landing', slug: 'used-toyota-hilux', content: landing });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json<Item>().path).toBe('/search/used-toyota-hilux');
    expect((await page('/api/search-pages/used-toyota-hilux')).statusCode).toBe(404);
    await call('POST', `/${created.json<Item>().id}/publish`);

    const api = await page('/api/search-pages/used-toyota-hilux');
    expect(api.json()).toEqual({
      slug: 'used-toyota-hilux',
      title: 'Used Toyota HiLux for sale in Rozelle',
      intro_html: expect.stringContaining('Used Toyota HiLux stock at Harbour Used Cars'),
      description: expect.stringContaining('Used Toyota HiLux'),
      filters: ['car_type = "used"', 'make = "Toyota"', 'model = "HiLux"'],
    });
    const shown = await page('/search/used-toyota-hilux');
    expect(shown.statusCode).toBe(200);
    expect(shown.body).toContain('<title>Used Toyota HiLux for sale in Rozelle | Harbour Used Cars</title>');
    expect(shown.body).toContain('<link rel="canonical" href="https://www.harbourusedcars.com.au/search/used-toyota-hilux">');
    expect((await page('/sitemap.xml')).body).toContain('<loc>https://www.harbourusedcars.com.au/search/used-toyota-hilux</loc>');

    // The site's template, once published, titles every landing page.
    const template = await call('POST', '', {
      kind: 'search_template',
      slug: 'default',
      content: { title: '{make} {model} ({condition}) at {site}', intro_html: '<p>{model}s<script>x()</script></p>', description: '' },
    });
    expect(template.statusCode, template.body).toBe(201);
    expect(JSON.stringify(template.json<Item>().draft)).not.toContain('<script>');
    await call('POST', `/${template.json<Item>().id}/publish`);
    expect((await page('/api/search-pages/used-toyota-hilux')).json()).toMatchObject({
      title: 'Toyota HiLux (Used) at Harbour Used Cars',
      intro_html: '<p>HiLuxs</p>',
    });
    expect((await page('/search/used-toyota-hilux')).body).toContain('<title>Toyota HiLux (Used) at Harbour Used Cars</title>');
    // A search address that is no landing page is still the site's search page.
    expect((await page('/api/search-pages/used-kia-rio')).statusCode).toBe(404);
    expect((await page('/search/used-kia-rio')).body).toContain(
      '<link rel="canonical" href="https://www.harbourusedcars.com.au/search/used-cars">',
    );

    // Read again after each change, never from what an earlier page kept: unpublished, it is a plain search at once.
    expect((await page('/search/used-toyota-hilux?sort=price%3Aasc')).body).toContain(
      '<title>Toyota HiLux (Used) at Harbour Used Cars</title>',
    );
    await call('POST', `/${created.json<Item>().id}/unpublish`);
    expect((await page('/api/search-pages/used-toyota-hilux')).statusCode).toBe(404);
    const unpublished = await page('/search/used-toyota-hilux?sort=price%3Adesc');
    expect(unpublished.body).not.toContain('Toyota HiLux (Used) at Harbour Used Cars');
    expect(unpublished.body).toContain('<link rel="canonical" href="https://www.harbourusedcars.com.au/search/used-cars">');
  });

  it('refuses a search landing page that filters nothing', async () => {
    const refused = await call('POST', '', { kind: 'landing', slug: 'everything', content: { preset: {}, seo: {} } });
    expect(refused.statusCode).toBe(400);
    expect(refused.json<{ fields: Record<string, string> }>().fields['content.preset']).toMatch(/at least one/);
  });

  it('takes an unpublished page off the site at once and keeps its words as the draft', async () => {
    const [listed] = (await call('GET', '?kind=page')).json<{ items: Item[] }>().items.filter((one) => one.slug === 'hostile');
    expect((await call('POST', `/${listed!.id}/unpublish`)).statusCode).toBe(200);
    expect((await page('/pages/hostile')).statusCode).toBe(404);
    expect((await call('GET', `/${listed!.id}`)).json<Item>()).toMatchObject({ published: null, draft: { title: 'Hostile' } });
  });
});
