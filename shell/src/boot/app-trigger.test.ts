// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { testSite } from '@dealer/contracts/testing/test-site';
import { appNeededAtLoad, startAppOnFirstUse } from './app-trigger';

const site = testSite({ slug: 'metro-motor-group' });

/** A server-rendered search page, as the platform sends it. */
function serverPage(markup = '<h1>Cars for sale</h1><button type="button">♡ Save</button><a href="/cars/x">A car</a>') {
  document.body.innerHTML = `<div id="root" data-ssr>${markup}</div>`;
}

beforeEach(() => {
  localStorage.clear();
  serverPage();
});
afterEach(() => vi.restoreAllMocks());

describe('a server-rendered page starts its app', () => {
  it('not while the shopper only looks at it', () => {
    const start = vi.fn();
    startAppOnFirstUse(site, start);
    expect(start).not.toHaveBeenCalled();
  });

  it.each(['pointerdown', 'keydown', 'focusin', 'scroll', 'touchstart'])('on the first %s, once', (name) => {
    const start = vi.fn();
    startAppOnFirstUse(site, start);
    document.querySelector('button')!.dispatchEvent(new Event(name, { bubbles: name !== 'scroll' }));
    window.dispatchEvent(new Event('scroll'));
    expect(start).toHaveBeenCalledTimes(1);
  });

  it('at once where this browser saved cars on the site (its Save buttons show them saved)', () => {
    localStorage.setItem('dealer:metro-motor-group:favourites', JSON.stringify([{ slug: 'x' }]));
    const start = vi.fn();
    startAppOnFirstUse(site, start);
    expect(start).toHaveBeenCalledTimes(1);
    expect(appNeededAtLoad(site)).toBe('saved cars');
  });

  it('not for cars saved on another site, or a list emptied again', () => {
    localStorage.setItem('dealer:other-dealer:favourites', JSON.stringify([{ slug: 'x' }]));
    localStorage.setItem('dealer:metro-motor-group:favourites', '[]');
    expect(appNeededAtLoad(site)).toBeNull();
  });

  it('at once on a site that asks consent, until the shopper has answered', () => {
    const asking = { ...site, consent_banner: true };
    expect(appNeededAtLoad(asking)).toBe('consent');
    localStorage.setItem('dp-consent', 'refused');
    expect(appNeededAtLoad(asking)).toBeNull();
  });

  it('at once when part of the page is drawn by the browser only', () => {
    serverPage('<div class="route-placeholder"></div>');
    expect(appNeededAtLoad(site)).toBe('drawn in the browser');
    serverPage('<div class="content-lead-form"><h2>Enquire</h2></div>');
    expect(appNeededAtLoad(site)).toBe('drawn in the browser');
    serverPage('<main><span class="dp-loader" role="status"></span></main>');
    expect(appNeededAtLoad(site)).toBe('drawn in the browser');
    // React's mark on a boundary the server could not render.
    serverPage('<h1>Cars</h1><!--$!--><template></template><!--/$-->');
    expect(appNeededAtLoad(site)).toBe('drawn in the browser');
    serverPage('<h1>Cars</h1><!--$--><p>rendered</p><!--/$-->');
    expect(appNeededAtLoad(site)).toBeNull();
  });

  it('at once when the shopper is already in one of its fields', () => {
    serverPage('<input name="q">');
    document.querySelector('input')!.focus();
    expect(appNeededAtLoad(site)).toBe('focused');
  });
});
