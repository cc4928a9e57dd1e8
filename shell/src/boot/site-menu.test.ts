// @vitest-environment jsdom
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runSiteMenu } from './site-menu';

beforeAll(() => runSiteMenu());
beforeEach(() => {
  document.body.innerHTML = `<div id="root" data-ssr><header class="site-header">
  <a class="site-header__brand" href="#home">Metro</a>
  <button type="button" class="site-header__toggle" aria-expanded="false" aria-controls="site-nav" data-works-without-app>Menu</button>
  <nav id="site-nav" class="site-nav"><a href="#stock">All stock</a></nav></header><main><a href="#car">A car</a></main></div>`;
});

const toggle = () => document.querySelector<HTMLButtonElement>('.site-header__toggle')!;
const nav = () => document.getElementById('site-nav')!;

describe('the Menu button, without the app', () => {
  it('opens the menu on the first tap and closes it on the next', () => {
    toggle().click();
    expect(nav().classList.contains('site-nav--open')).toBe(true);
    expect(toggle().getAttribute('aria-expanded')).toBe('true');
    toggle().click();
    expect(nav().classList.contains('site-nav--open')).toBe(false);
    expect(toggle().getAttribute('aria-expanded')).toBe('false');
  });

  it('closes the menu when a link in the header is followed, not one elsewhere on the page', () => {
    toggle().click();
    document.querySelector<HTMLAnchorElement>('main a')!.click();
    expect(toggle().getAttribute('aria-expanded')).toBe('true');
    document.querySelector<HTMLAnchorElement>('#site-nav a')!.click();
    expect(nav().classList.contains('site-nav--open')).toBe(false);
    expect(toggle().getAttribute('aria-expanded')).toBe('false');
  });
});
