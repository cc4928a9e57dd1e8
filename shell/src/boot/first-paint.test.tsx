// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { testSite } from '@dealer/contracts/testing/test-site';
import { renderApp } from '../render-app.server';
import { paintFirstFrame } from './first-paint';

const site = testSite({
  remotes: [
    {
      name: 'mf-vehicle',
      version: '1.0.0',
      manifestUrl: 'https://remotes.example.com/mf-vehicle/1.0.0/mf-manifest.json',
      entryUrl: 'https://remotes.example.com/mf-vehicle/1.0.0/remoteEntry.js',
    },
  ],
});
// Links to the site's own pages: the hand-drawn header neither fills dynamic dropdowns nor leaves
// out the pages of a switched-off remote (nav-links.ts), so the comparison keeps to what it draws.
site.navigation.header = [
  { label: 'About us', to: '/about-us' },
  { label: 'Our team', to: '/our-team', children: [{ label: 'Sales', to: '/our-team/sales' }] },
];
const car = { slug: '2024-toyota-hilux-sr5', name: '2024 Toyota HiLux SR5' };
const hero = {
  slug: car.slug,
  src: '/images/hilux-960.webp',
  srcSet: '/images/hilux-480.webp 480w, /images/hilux-960.webp 960w',
  sizes: '100vw',
  alt: car.name,
};
const carPath = `${site.detail_path}/${car.slug}`;

/** The document of a car page the browser renders itself: what the first script reads. */
function carPageDocument() {
  document.head.innerHTML = `<link rel="preload" as="image" href="${hero.src}" imagesrcset="${hero.srcSet}" imagesizes="${hero.sizes}">`;
  document.body.innerHTML = '<div id="root"></div>';
  for (const [id, data] of [
    ['site-config', site],
    ['route-data', { car }],
  ] as const) {
    const script = document.createElement('script');
    script.id = id;
    script.type = 'application/json';
    script.textContent = JSON.stringify(data);
    document.body.append(script);
  }
  history.replaceState(null, '', carPath);
}

/**
 * An element as a shopper sees it: tag, attributes and text, children in order. A closed dropdown
 * shows only its summary, so that is all the first frame draws of it. `data-*` attributes are for
 * the app's code (React Router's route discovery, SmartLink's prefetch on hover), which is not there yet.
 */
function shape(node: Node): unknown {
  if (node.nodeType === Node.TEXT_NODE) return node.textContent;
  if (!(node instanceof Element)) return null;
  const attributes = Object.fromEntries(
    [...node.attributes].filter(({ name }) => !name.startsWith('data-')).map(({ name, value }) => [name, value]),
  );
  const children =
    node.localName === 'details' ? [...node.children].filter((child) => child.localName === 'summary') : [...node.childNodes];
  return { tag: node.localName, attributes, children: children.map(shape).filter((child) => child !== null && child !== '') };
}

describe('the first frame drawn before React (first-paint.ts)', () => {
  it('is the header and the car’s hero as the app renders them, so nothing moves when React takes over', async () => {
    carPageDocument();
    paintFirstFrame();
    const drawn = document.getElementById('root')!;

    const { html } = await renderApp({ site, url: `https://www.metrotoyota.example.com.au${carPath}`, hero });
    const rendered = document.createElement('div');
    rendered.innerHTML = html;

    const part = (root: Element, selector: string) => shape(root.querySelector(selector)!);
    expect(drawn.querySelector('.route-placeholder')).not.toBeNull();
    for (const selector of ['.skip-link', '.site-header', '#main']) expect(drawn.querySelector(selector)).not.toBeNull();
    expect(part(drawn, '.skip-link')).toEqual(part(rendered, '.skip-link'));
    expect(part(drawn, '.site-header')).toEqual(part(rendered, '.site-header'));
    // The React placeholder adds a spinner after the hero while mf-vehicle's code loads.
    expect(part(drawn, '.route-placeholder > article')).toEqual(part(rendered, '.route-placeholder > article'));
    expect(drawn.querySelector('#main')!.className).toBe(rendered.querySelector('#main')!.className);
  });
});
