import { describe, expect, it } from 'vitest';
import { testSite } from '@dealer/contracts/testing/test-site';
import { chunksText, documentParts, renderDocument, scriptJson, siteIcon, type DocumentInput } from './render-document';

const site = testSite();
const shellAssets = {
  js: ['/assets/first-paint.1.js', '/assets/main.2.js'],
  css: ['/assets/main.3.css'],
  firstPaint: '/assets/first-paint.1.js',
};
const remotePreloads = { js: ['/remotes/mf-search/1.4.0/remoteEntry.js'], css: ['/remotes/mf-search/1.4.0/SearchPage.css'] };
const page = (extra: Partial<DocumentInput>): DocumentInput => ({
  site,
  title: 'Search | Metro Toyota Parramatta',
  description: 'Cars',
  canonicalUrl: 'https://www.metrotoyota.example.com.au/search',
  shellAssets,
  remotePreloads,
  heroImage: null,
  routeData: null,
  ...extra,
});
const head = (html: string) => html.slice(0, html.indexOf('</head>'));

describe('the document’s scripts', () => {
  it('on a server-rendered page, only the first script is in the head; it loads the app and the remote once the page is on screen', () => {
    const html = renderDocument(
      page({
        appHtml: '<main><h1>Search</h1></main>',
        appStylesheets: ['/remotes/mf-search/1.4.0/SearchPage.css'],
        inlineStyles: [{ href: '/remotes/mf-search/1.4.0/SearchPage.css', css: '.search-page{display:grid}' }],
      }),
    );
    expect(head(html)).toContain('<script defer src="/assets/first-paint.1.js"></script>');
    expect(head(html)).not.toContain('main.2.js"></script>');
    expect(head(html)).not.toContain('rel="preload" as="script"');
    expect(head(html)).not.toContain('rel="preload" as="fetch"');
    // The remote in the markup is styled at once, without a request.
    expect(head(html)).toContain('<style data-href="/remotes/mf-search/1.4.0/SearchPage.css">.search-page{display:grid}</style>');
    expect(head(html)).not.toContain('<link rel="stylesheet" href="/remotes/');
    const start = JSON.parse(/<script id="app-start" type="application\/json">(.*?)<\/script>/.exec(html)?.[1] ?? 'null') as unknown;
    expect(start).toEqual({
      scripts: ['/assets/main.2.js'],
      preloads: [{ href: '/remotes/mf-search/1.4.0/remoteEntry.js', as: 'script' }],
    });
  });

  it('names the files of the other remote modules in the markup for the first script to fetch ahead, not the route remote’s twice', () => {
    const startOf = (html: string) =>
      JSON.parse(/<script id="app-start" type="application\/json">(.*?)<\/script>/.exec(html)?.[1] ?? 'null') as { prefetches?: unknown };
    const moduleFiles = [
      { href: '/remotes/mf-search/1.4.0/remoteEntry.js', as: 'script' as const },
      { href: '/remotes/mf-garage/1.3.2/remoteEntry.js', as: 'script' as const },
      { href: '/remotes/mf-garage/1.3.2/FavouriteButton.js', as: 'script' as const },
    ];
    const html = renderDocument(page({ appHtml: '<main><h1>Search</h1></main>', moduleFiles }));
    expect(startOf(html).prefetches).toEqual(moduleFiles.slice(1));
    // Fetched ahead, not preloaded as the page loads.
    expect(head(html)).not.toContain('mf-garage');
    // A page the browser renders has no markup of theirs, and one without others names none.
    expect(startOf(renderDocument(page({ appHtml: null, moduleFiles }))).prefetches).toBeUndefined();
    expect(startOf(renderDocument(page({ appHtml: '<main></main>' })))).not.toHaveProperty('prefetches');
  });

  it('on a page the server could not render, the first script loads the app the same way (the head does not wait for the render)', () => {
    const html = renderDocument(page({ appHtml: null }));
    expect(head(html)).toContain('<script defer src="/assets/first-paint.1.js"></script>');
    expect(head(html)).not.toContain('main.2.js"></script>');
    expect(html).toContain('<div id="root"><noscript>');
    expect(html).toContain('<script id="app-start" type="application/json">');
  });

  it('with a shell that has no first script, every script is preloaded and deferred in the head', () => {
    const html = renderDocument(page({ appHtml: null, shellAssets: { js: shellAssets.js, css: shellAssets.css } }));
    expect(head(html)).toContain('<link rel="preload" as="script" href="/assets/main.2.js">');
    expect(head(html)).toContain('<script defer src="/assets/first-paint.1.js"></script>');
    expect(head(html)).toContain('<script defer src="/assets/main.2.js"></script>');
    expect(head(html)).toContain('<link rel="preload" as="style" href="/remotes/mf-search/1.4.0/SearchPage.css">');
    expect(html).not.toContain('id="app-start"');
  });
});

describe('the site config', () => {
  const siteConfigUrl = '/api/site?v=abc123';
  const configIn = (html: string) => /<script id="site-config" type="application\/json">(.*?)<\/script>/.exec(html)?.[1];
  const startOf = (html: string) =>
    JSON.parse(/<script id="app-start" type="application\/json">(.*?)<\/script>/.exec(html)?.[1] ?? 'null') as {
      siteConfig?: string;
      site?: Record<string, unknown>;
    } | null;

  it('is not in a server-rendered page: its code fetches it from the address the page names, which every page of the site shares', () => {
    const html = renderDocument(page({ appHtml: '<main><h1>Search</h1></main>', siteConfigUrl }));
    expect(configIn(html)).toBeUndefined();
    expect(html).not.toContain(site.search.apiKey);
    expect(startOf(html)?.siteConfig).toBe(siteConfigUrl);
  });

  it("gives the page's first scripts only what they read before the app starts: the slug, the consent rule and the tag ids", () => {
    const asking = { ...site, consent_banner: true };
    const start = startOf(renderDocument(page({ site: asking, appHtml: '<main><h1>Search</h1></main>', siteConfigUrl })));
    expect(start?.site).toEqual({ slug: site.slug, consent_banner: true, third_party: site.third_party });
    expect(JSON.stringify(start)).not.toContain(site.search.apiKey);
  });

  it('is in the page when the server left it to the browser, whose first frame draws the header from it', () => {
    const html = renderDocument(page({ appHtml: null, siteConfigUrl }));
    expect(JSON.parse(configIn(html) ?? 'null')).toMatchObject({ id: site.id, slug: site.slug });
  });

  it('is not even serialised for a page that does not send it (it is tens of KB)', () => {
    let serialised = 0;
    const counted = { ...site, toJSON: () => (serialised++, site) };
    renderDocument(page({ site: counted, appHtml: '<main><h1>Search</h1></main>', siteConfigUrl }));
    expect(serialised).toBe(0);
    const { head: sent, tail } = documentParts(page({ site: counted, siteConfigUrl }));
    expect(serialised).toBe(0);
    expect(configIn(sent + tail({ appHtml: null, appState: null }))).toBeDefined();
    expect(serialised).toBe(1);
  });

  it('is in the page when no address is given, or the shell has no first script to fetch it', () => {
    expect(configIn(renderDocument(page({ appHtml: '<main></main>' })))).toBeDefined();
    expect(
      configIn(
        renderDocument(page({ appHtml: '<main></main>', siteConfigUrl, shellAssets: { js: shellAssets.js, css: shellAssets.css } })),
      ),
    ).toBeDefined();
  });
});

describe('the order of the document', () => {
  it('puts the page’s markup before the data its scripts read (site config, route data, first answers), so the page paints before the parser reaches tens of KB of JSON', () => {
    const html = renderDocument(
      page({ appHtml: '<main><h1>Search</h1></main>', appState: { modules: ['mf-search/SearchPage'], api: {} }, routeData: {} }),
    );
    const markup = html.indexOf('<h1>Search</h1>');
    expect(markup).toBeGreaterThan(html.indexOf('</head>'));
    for (const id of ['site-config', 'route-data', 'app-state', 'app-start']) {
      expect(html.indexOf(`<script id="${id}" type="application/json">`), id).toBeGreaterThan(markup);
    }
    expect(head(html)).toContain('<script defer src="/assets/first-paint.1.js"></script>');
  });
});

describe('the first answers (app state)', () => {
  it('are written as script JSON, or taken as the render thread wrote them, with nothing that could close the script', () => {
    const state = { modules: ['mf-search/SearchPage'], api: { note: '</script><script>alert(1)</script>' } };
    const { tail } = documentParts(page({ siteConfigUrl: '/api/site?v=abc123' }));
    const written = tail({ appHtml: '<main></main>', appState: state });
    expect(written).not.toContain('</script><script>alert(1)');
    expect(tail({ appHtml: '<main></main>', appStateJson: scriptJson(state) })).toBe(written);
    // A page the browser renders has no first answers.
    expect(tail({ appHtml: null, appStateJson: scriptJson(state) })).not.toContain('id="app-state"');
  });

  it('are the same page when a render thread sends the markup as UTF-8 bytes, which are written as they came', () => {
    const state = { modules: ['mf-search/SearchPage'] };
    const { tail, tailChunks } = documentParts(page({ siteConfigUrl: '/api/site?v=abc123' }));
    const markup = '<main><h1>Demo cars — 24 in stock</h1><p>‘Save’ ♡</p></main>';
    const bytes = new TextEncoder().encode(markup);
    const chunks = tailChunks({ appHtml: bytes, appStateJson: scriptJson(state) });
    expect(chunks).toContain(bytes);
    expect(chunksText(chunks)).toBe(tail({ appHtml: markup, appStateJson: scriptJson(state) }));
    // No markup (nothing rendered) is a page the browser renders, in bytes as in text.
    expect(chunksText(tailChunks({ appHtml: new Uint8Array(0), appStateJson: scriptJson(state) }))).toBe(tail({ appHtml: '' }));
  });
});

describe('the shell’s stylesheet', () => {
  it('is inlined when the server has its text, so the page paints without waiting for it; otherwise linked', () => {
    const inlined = renderDocument(
      page({ shellAssets: { ...shellAssets, inlineCss: { '/assets/main.3.css': '.dp-container{max-width:1200px}' } } }),
    );
    expect(head(inlined)).toContain('<style data-href="/assets/main.3.css">.dp-container{max-width:1200px}</style>');
    expect(head(inlined)).not.toContain('<link rel="stylesheet" href="/assets/main.3.css">');
    expect(head(renderDocument(page({})))).toContain('<link rel="stylesheet" href="/assets/main.3.css">');
  });
});

describe('the page view', () => {
  it('is written for the first script to send without the app: the car page’s with its car, safe inside a script', () => {
    const html = renderDocument(
      page({ appHtml: '<main><h1>Car</h1></main>', pageView: { pageType: 4, carSlug: 'hilux-1', carName: 'Toyota Hilux </script>' } }),
    );
    const written = /<script id="page-view" type="application\/json">(.*?)<\/script>/.exec(html)?.[1];
    expect(JSON.parse(written!)).toEqual({ pageType: 4, carSlug: 'hilux-1', carName: 'Toyota Hilux </script>' });
    expect(renderDocument(page({ appHtml: '<main></main>' }))).not.toContain('id="page-view"');
  });
});

describe('the tab’s icon', () => {
  it('is the drawn wordmark’s tile as a PNG for a site with no uploaded logo, and the uploaded logo’s thumbnail otherwise', () => {
    const drawn = { ...site, logo: { url: `/img/logo/${site.slug}.svg`, thumb: `/img/logo/${site.slug}.svg`, banner: null } };
    expect(head(renderDocument(page({ site: drawn })))).toContain(`<link rel="icon" href="/img/icon/${site.slug}.png" type="image/png">`);
    expect(siteIcon({ slug: site.slug, logo: { url: '/img/site/ab12.png', thumb: '/img/site/ab12.png', banner: null } })).toBe(
      '<link rel="icon" href="/img/site/ab12.png" type="image/png">',
    );
  });
});
