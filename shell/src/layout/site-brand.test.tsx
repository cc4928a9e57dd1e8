import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { SiteBrand } from './site-brand';

const site = { slug: 'city-motors', name: 'City Motors & Co', branding: { primary: '#c8102e' } } as Parameters<typeof SiteBrand>[0]['site'];

describe('the logo in the site header', () => {
  it('is the drawn wordmark as text for a site that has uploaded no logo: the monogram tile and the name, one image named by the site', () => {
    const html = renderToStaticMarkup(
      <SiteBrand site={{ ...site, logo: { url: '/img/logo/city-motors.svg', thumb: '/img/logo/city-motors.svg', banner: null } }} />,
    );
    expect(html).toBe(
      '<span class="wordmark" role="img" aria-label="City Motors &amp; Co"><span class="wordmark__tile">CM</span><span class="wordmark__name">City Motors &amp; Co</span></span>',
    );
  });

  it('is the uploaded logo’s picture for a site that has one', () => {
    const html = renderToStaticMarkup(
      <SiteBrand site={{ ...site, logo: { url: '/img/site/0123.png', thumb: '/img/site/0123.png', banner: null } }} />,
    );
    expect(html).toContain('<img src="/img/site/0123.png" alt="City Motors &amp; Co" width="160" height="40"/>');
  });
});
