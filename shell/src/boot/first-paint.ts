// The first frame of a car page, painted by the document's first script (first-script.ts,
// bundled alone: its size is in docs/decisions/0016) before the shell's runtime, React, the router, the store and the
// route's remote have arrived (ARCHITECTURE.md "first paint never waits on a chain of
// requests"). The document already carries everything it needs: the site config, the car
// (route data) and the hero image preload; the styles are the shell's initial CSS. The header
// and the hero are drawn with the same markup and classes React and mf-vehicle render, so when
// they take over nothing moves and the hero stays the page's largest paint (first-paint.test.tsx
// holds the two to the same structure).
//
// It runs outside Module Federation (and the React placeholder imports `firstPaintHero` from
// the app): it must not import shared modules (React, @dealer/*) at run time, only types.
import type { Car } from '@dealer/contracts/car';
import { isDrawnLogo, wordmark } from '@dealer/rules/wordmark';
import { worksWithoutApp } from './site-menu';
import type { NavLink, PublicSiteConfig } from '@dealer/contracts/site';

/** What the React placeholder of the vehicle route repeats while mf-vehicle loads. */
export type FirstPaintHero = { slug: string; src: string; srcSet: string; sizes: string; alt: string };

const placeholderClass = 'route-placeholder';

function readJson<T>(id: string): T | null {
  const text = document.getElementById(id)?.textContent;
  if (!text) return null;
  try {
    return JSON.parse(text) as T;
  } catch {
    return null;
  }
}

let hero: FirstPaintHero | null | undefined;

/** The server render says which hero the document preloads (it has no document to read). */
export function setFirstPaintHero(value: FirstPaintHero | null) {
  hero = value;
}

/** The car page's hero as the document describes it, or null on any other page. */
export function firstPaintHero(): FirstPaintHero | null {
  if (hero !== undefined) return hero;
  if (typeof document === 'undefined') return null;
  const car = readJson<{ car?: Car }>('route-data')?.car;
  const preload = document.querySelector<HTMLLinkElement>('link[rel="preload"][as="image"][imagesrcset]');
  hero =
    car && preload && location.pathname.endsWith(`/${car.slug}`)
      ? {
          slug: car.slug,
          src: preload.getAttribute('href') ?? '',
          srcSet: preload.getAttribute('imagesrcset') ?? '',
          sizes: preload.getAttribute('imagesizes') ?? '',
          alt: car.name,
        }
      : null;
  return hero;
}

function element<K extends keyof HTMLElementTagNameMap>(tag: K, attributes: Record<string, string> = {}, ...children: (Node | string)[]) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  node.append(...children);
  return node;
}

/** The header's logo as SiteBrand renders it: an uploaded picture, or the drawn wordmark as text. */
function brand(site: PublicSiteConfig) {
  if (!isDrawnLogo(site)) return element('img', { src: site.logo.url, alt: site.name, width: '160', height: '40' });
  const mark = wordmark(site.name, site.branding.primary);
  return element(
    'span',
    { class: 'wordmark', role: 'img', 'aria-label': mark.name },
    element('span', { class: 'wordmark__tile' }, mark.initials),
    element('span', { class: 'wordmark__name' }, mark.name),
  );
}

/** The site header as SiteHeader renders it with the menu closed (same classes, same sizes). */
function header(site: PublicSiteConfig) {
  const item = (link: NavLink) => {
    const hasChildren = Boolean(link.children?.length || link.dynamic);
    if (hasChildren)
      return element(
        'li',
        { class: 'site-nav__item' },
        element('details', { class: 'site-nav__dropdown' }, element('summary', {}, link.label)),
      );
    if (link.to === true) return element('li', { class: 'site-nav__item' });
    return element('li', { class: 'site-nav__item' }, element('a', { href: link.to }, link.label));
  };
  return element(
    'header',
    { class: 'site-header' },
    element(
      'div',
      { class: 'site-header__bar dp-container' },
      element('a', { href: '/', class: 'site-header__brand' }, brand(site)),
      element('a', { class: 'site-header__phone', href: `tel:${site.phone.replace(/[^\d+]/g, '')}` }, site.phone),
      element(
        'button',
        { type: 'button', class: 'site-header__toggle', 'aria-expanded': 'false', 'aria-controls': 'site-nav', [worksWithoutApp]: '' },
        'Menu',
      ),
    ),
    element(
      'nav',
      { id: 'site-nav', class: 'site-nav', 'aria-label': 'Main' },
      element('ul', { class: 'site-nav__list dp-container' }, ...site.navigation.header.map(item)),
    ),
  );
}

/** The hero in mf-vehicle's gallery markup, sized by route-placeholder.css (initial CSS). */
function heroMarkup(first: FirstPaintHero) {
  const image = element('img', {
    src: first.src,
    srcset: first.srcSet,
    sizes: first.sizes,
    width: '960',
    height: '720',
    alt: first.alt,
    decoding: 'sync',
    fetchpriority: 'high',
  });
  return element(
    'div',
    { class: placeholderClass },
    element(
      'article',
      { class: 'dp-container vehicle-page' },
      element('div', { class: 'gallery' }, element('div', { class: 'gallery__stage' }, image)),
    ),
  );
}

/**
 * Paints the header and the car's hero into #root on a car page. React replaces this markup with
 * the same markup when it mounts (createRoot clears the container in its first commit).
 */
export function paintFirstFrame() {
  const root = document.getElementById('root');
  // A server-rendered page already shows all of this (and more): nothing to read (the site config's size: docs/decisions/0013).
  if (!root || root.hasAttribute('data-ssr')) return;
  const first = firstPaintHero();
  const site = first ? readJson<PublicSiteConfig>('site-config') : null;
  if (!first || !site) return;
  root.replaceChildren(
    element('a', { class: 'skip-link', href: '#main' }, 'Skip to content'),
    header(site),
    element('main', { id: 'main', class: 'site-main' }, heroMarkup(first)),
  );
}
