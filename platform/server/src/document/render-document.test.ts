import { describe, expect, it } from 'vitest';
import { testSite } from '@dealer/contracts/testing/test-site';
import { renderDocument, type DocumentInput } from './render-document';

const site = testSite();
const shellAssets = { js: ['/assets/first-paint.1.js', '/assets/main.2.js'], css: ['/assets/main.3.css'] };
const remotePreloads = { manifests: ['/remotes/mf-search/1.4.0/mf-manifest.json'], js: ['/remotes/mf-search/1.4.0/remoteEntry.js'], css: ['/remotes/mf-search/1.4.0/SearchPage.css'] };
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

describe('the document’s styles and scripts', () => {
  it('on a page whose remote is in the markup, inlines that remote’s stylesheet: it paints without another request', () => {
    const html = renderDocument(
      page({ appHtml: '<main><h1>Search</h1></main>', appStylesheets: ['/remotes/mf-search/1.4.0/SearchPage.css'], inlineStyles: [{ href: '/remotes/mf-search/1.4.0/SearchPage.css', css: '.search-page{display:grid}' }] }),
    );
    expect(head(html)).toContain('<style data-href="/remotes/mf-search/1.4.0/SearchPage.css">.search-page{display:grid}</style>');
    expect(head(html)).not.toContain('<link rel="stylesheet" href="/remotes/mf-search/1.4.0/SearchPage.css">');
    expect(head(html)).not.toContain('<link rel="preload" as="style" href="/remotes/mf-search/1.4.0/SearchPage.css">');
    expect(head(html)).toContain('<link rel="preload" as="script" href="/remotes/mf-search/1.4.0/remoteEntry.js">');
    expect(head(html)).toContain('<script defer src="/assets/main.2.js"></script>');
  });

  it('links a stylesheet it was not given the text of, and only preloads the styles of a remote not in the markup', () => {
    const inMarkup = renderDocument(page({ appHtml: '<main></main>', appStylesheets: ['/remotes/mf-search/1.4.0/SearchPage.css'] }));
    expect(head(inMarkup)).toContain('<link rel="stylesheet" href="/remotes/mf-search/1.4.0/SearchPage.css">');
    const browserRendered = renderDocument(page({ appHtml: null }));
    expect(head(browserRendered)).toContain('<link rel="preload" as="style" href="/remotes/mf-search/1.4.0/SearchPage.css">');
    expect(head(browserRendered)).not.toContain('rel="stylesheet" href="/remotes/');
  });
});
